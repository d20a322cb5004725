//! The latency table: per transaction, one row per run, every statistic with its change against
//! the baseline.

use super::build::*;
use super::{Cell, Column, Row, Table};
use crate::analysis::{self};
use crate::bundle::Unit;
use crate::fold;
use crate::model::Section;
use std::sync::Arc;

/// The latency statistics shown per transaction, in column order: (metric, column label).
pub const LATENCY_COLUMNS: [(&str, &str); 10] = [
    ("samples", "Samples"),
    ("errors", "Errors"),
    ("mean", "Mean"),
    ("median", "Median"),
    ("p90", "p90"),
    ("p95", "p95"),
    ("p99", "p99"),
    ("min", "Min"),
    ("max", "Max"),
    ("throughput", "Throughput"),
];

/// Per transaction, one row per run: the statistics with deltas against the first run.
pub fn latency_table(rows: &[analysis::Row], labels: &[String], filter: &RowFilter) -> Table {
    let tx: Vec<&analysis::Row> = rows.iter().filter(|r| r.section == Section::Transaction).collect();
    let groups = by_transaction(&tx, &fold::lower(&filter.text));
    // Runs with no latency at all get no rows (a row of dashes per transaction says nothing).
    let has_data: Vec<bool> =
        (0..labels.len()).map(|ri| tx.iter().any(|r| r.cells.get(ri).is_some_and(|c| c.value.is_some()))).collect();
    let label_cells: Vec<Cell> = labels.iter().map(Cell::text).collect();
    let mut out = Vec::with_capacity(groups.len() * has_data.iter().filter(|d| **d).count());
    for (g, (key, metrics)) in groups.iter().enumerate() {
        if filter.regressions_only && !metrics.iter().any(|r| r.has_regression()) {
            continue;
        }
        // The first row of a metric wins, as in a comparison.
        let by_column: [Option<&analysis::Row>; LATENCY_COLUMNS.len()] =
            LATENCY_COLUMNS.map(|(m, _)| metrics.iter().find(|r| &*r.metric == m).copied());
        let rank =
            metrics.iter().filter_map(|r| change_rank(r)).fold(None, |m, x| Some(m.map_or(x, |m: f64| m.max(x))));
        let key_cell = Cell::shared(Arc::clone(key));
        for ri in (0..labels.len()).filter(|ri| has_data[*ri]) {
            let mut row = run_row(&by_column, ri, [key_cell.clone(), label_cells[ri].clone()], g);
            row.rank = rank;
            out.push(row);
        }
    }
    let mut columns = vec![Column::text("Transaction"), Column::text("Run")];
    columns.extend(LATENCY_COLUMNS.iter().map(|(m, l)| {
        Column::num(match *m {
            "samples" | "errors" | "throughput" => l.to_string(),
            _ => format!("{l} (ms)"),
        })
    }));
    let without: Vec<&str> = labels.iter().zip(&has_data).filter(|(_, d)| !**d).map(|(l, _)| l.as_str()).collect();
    let caption = if without.is_empty() {
        "Latency per transaction".to_string()
    } else {
        format!("Latency per transaction (no latency data in {})", without.join(", "))
    };
    Table { id: "latency".into(), caption, columns, rows: out }
}

/// The transactions' rows grouped by key, in order of first appearance, keeping the keys whose
/// lower-cased name contains `text`. A key's rows are contiguous in a comparison
/// (`analysis::compare` groups them); a key that comes back later (rows built by hand) joins its
/// first group.
fn by_transaction<'r>(tx: &[&'r analysis::Row], text: &str) -> Vec<(&'r Arc<str>, Vec<&'r analysis::Row>)> {
    let mut groups: Vec<(&Arc<str>, Vec<&analysis::Row>)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<&str, usize> = Default::default();
    // Whether the last key seen passes the text filter (asked once per run of its rows): keys the
    // filter drops are never grouped.
    let mut passes: Option<(&str, bool)> = None;
    for r in tx {
        let keep = match passes {
            Some((k, keep)) if k == &*r.key => keep,
            _ => {
                let keep = text.is_empty() || fold::lower(&r.key).contains(text);
                passes = Some((&r.key, keep));
                keep
            }
        };
        if !keep {
            continue;
        }
        match groups.last_mut() {
            Some((k, g)) if **k == r.key => g.push(r),
            _ => {
                let i = *at.entry(&r.key).or_insert_with(|| {
                    groups.push((&r.key, Vec::new()));
                    groups.len() - 1
                });
                groups[i].1.push(r);
            }
        }
    }
    groups
}

/// One run's row of a transaction: `lead` (its name and the run's label), then a cell per
/// column; highlighted when any of them regressed.
fn run_row(by_column: &[Option<&analysis::Row>], ri: usize, lead: [Cell; 2], group: usize) -> Row {
    let mut cells = Vec::with_capacity(2 + by_column.len());
    cells.extend(lead);
    let mut regressed = false;
    for r in by_column {
        match r {
            Some(r) if ri < r.cells.len() => {
                let c = &r.cells[ri];
                regressed |= c.is_regression();
                let mut cell = value_cell(c, &r.spec);
                if c.unit == Unit::Ms {
                    // The column header says "(ms)".
                    cell.content = c.value.map_or(super::Content::Empty, super::Content::Number);
                }
                cells.push(cell);
            }
            _ => cells.push(Cell::empty()),
        }
    }
    let mut row = Row::new(cells, group);
    row.highlight = regressed;
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Verdict;
    use crate::bundle::{Run, Transaction};

    #[test]
    fn latency_rows_carry_deltas() {
        let t =
            |p95| Transaction { name: "search".into(), p95_ms: Some(p95), samples: Some(100), ..Default::default() };
        let a = Run { id: "a".into(), label: "A".into(), transactions: vec![t(100.0)], ..Default::default() };
        let b = Run { id: "b".into(), label: "B".into(), transactions: vec![t(120.0)], ..Default::default() };
        let rows = analysis::compare(&[&a, &b], &Default::default());
        let labels = vec!["A".to_string(), "B".to_string()];
        let table = latency_table(&rows, &labels, &RowFilter::default());
        assert_eq!(table.rows.len(), 2);
        let p95 = &table.rows[1].cells[7];
        assert_eq!(p95.display(), "120");
        assert_eq!(p95.plain(), "120 (+20.0%, regressed)");
        assert_eq!(p95.delta.map(|d| d.1), Some(Verdict::Regressed));
        assert!(table.rows[1].highlight);
        let none = latency_table(&rows, &labels, &RowFilter { text: "login".into(), regressions_only: false });
        assert!(none.rows.is_empty());
        let c = Run { id: "c".into(), label: "C".into(), ..Default::default() };
        let rows3 = analysis::compare(&[&a, &b, &c], &Default::default());
        let t3 = latency_table(&rows3, &["A".into(), "B".into(), "C".into()], &RowFilter::default());
        assert_eq!(t3.rows.len(), 2, "C has no latency: no rows for it");
        assert_eq!(t3.caption, "Latency per transaction (no latency data in C)");
    }
}
