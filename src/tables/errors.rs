//! The errors table, causes × runs: per cause (transaction, code, message) each run's count with
//! its change against the baseline, its first and last occurrence in test time, and the verdict
//! ("added" for a new cause, a regression; "improved" with "gone" for one that went away).

use super::build::{change_rank, value_cell, verdict_cell};
use super::{Cell, Column, Row, Table};
use crate::analysis;
use crate::bundle::{ErrorEntry, Run};
use crate::format;
use crate::model::Section;
use rustc_hash::FxHashMap;

/// The table of the error rows of `rows`, the comparison of `runs` (the baseline first).
pub fn errors_table(runs: &[&Run], rows: &[analysis::Row]) -> Table {
    let index: Vec<FxHashMap<String, &ErrorEntry>> =
        runs.iter().map(|r| r.errors.iter().map(|e| (e.key(), e)).collect()).collect();
    let table_rows = rows
        .iter()
        .filter(|r| r.section == Section::Error)
        .enumerate()
        .map(|(g, row)| {
            let entries: Vec<Option<&ErrorEntry>> = index.iter().map(|m| m.get(&*row.key).copied()).collect();
            let first = entries.iter().flatten().next();
            let text = |f: fn(&ErrorEntry) -> Option<&String>| {
                Cell::text(first.and_then(|e| f(e)).cloned().unwrap_or_default())
            };
            let mut cells = vec![
                text(|e| e.transaction.as_ref()),
                text(|e| e.code.as_ref()),
                Cell::text(first.map_or_else(|| row.key.to_string(), |e| e.message.clone())),
                text(|e| e.example.as_ref()),
            ];
            for (ri, c) in row.cells.iter().enumerate() {
                cells.push(value_cell(c, &row.spec));
                cells.push(Cell::text(when(entries.get(ri).copied().flatten())));
                if ri > 0 {
                    cells.push(verdict_cell(c, &row.spec));
                }
            }
            let mut r = Row::new(cells, g);
            r.highlight = row.has_regression();
            r.rank = change_rank(row);
            r
        })
        .collect();
    let mut columns =
        vec![Column::text("Transaction"), Column::text("Code"), Column::text("Message"), Column::text("Example")];
    for (ri, run) in runs.iter().enumerate() {
        columns.push(Column::num(format!("{} count", run.label)));
        columns.push(Column::text(format!("{} first – last", run.label)));
        if ri > 0 {
            columns.push(Column::text(format!("{} verdict", run.label)));
        }
    }
    Table { id: "errors".into(), caption: "Errors by cause".into(), columns, rows: table_rows }
}

/// "12 s – 3 min 4 s" of test time (one time when first and last are the same).
fn when(e: Option<&ErrorEntry>) -> String {
    match e.map(|e| (e.first_s, e.last_s)) {
        Some((Some(f), Some(l))) if f == l => format::duration_s(f),
        Some((Some(f), Some(l))) => format!("{} – {}", format::duration_s(f), format::duration_s(l)),
        Some((Some(t), None) | (None, Some(t))) => format::duration_s(t),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare;
    use crate::bundle::Transaction;
    use crate::model::Thresholds;

    fn run(id: &str, causes: &[(&str, &str, u64, f64, f64)]) -> Run {
        Run {
            id: id.into(),
            label: id.to_uppercase(),
            transactions: vec![Transaction {
                name: "login".into(),
                samples: Some(10_000),
                errors: Some(causes.iter().map(|c| c.2).sum()),
                ..Default::default()
            }],
            errors: causes
                .iter()
                .map(|(code, m, n, f, l)| ErrorEntry {
                    message: m.to_string(),
                    count: Some(*n),
                    transaction: Some("login".into()),
                    code: Some(code.to_string()),
                    first_s: Some(*f),
                    last_s: Some(*l),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn one_row_per_cause_with_counts_times_and_verdicts() {
        let a =
            run("a", &[("500", "Internal Server Error", 10, 5.0, 600.0), ("", "timeout after {n} ms", 3, 42.0, 42.0)]);
        let b = run(
            "b",
            &[("500", "Internal Server Error", 12, 7.0, 3000.0), ("503", "Service Unavailable", 4, 90.0, 95.0)],
        );
        let runs = [&a, &b];
        let t = errors_table(&runs, &compare(&runs, &Thresholds::default()));
        assert_eq!(t.columns.len(), 4 + 2 + 3);
        assert_eq!(t.rows.len(), 3, "three causes in either run");
        let find = |m: &str| t.rows.iter().find(|r| r.cells[2].display() == m).unwrap_or_else(|| panic!("{m}"));
        let same = find("Internal Server Error");
        assert_eq!((same.cells[0].display(), same.cells[1].display()), ("login".into(), "500".into()));
        // Columns: transaction, code, message, example; A: count, when; B: count, when, verdict.
        assert_eq!((same.cells[4].display(), same.cells[6].display()), ("10".into(), "12".into()));
        let span = format!("{} – {}", format::duration_s(7.0), format::duration_s(3000.0));
        assert_eq!((same.cells[7].display(), same.cells[8].display()), (span, "within noise".into()));
        let new = find("Service Unavailable");
        assert_eq!((new.cells[4].display(), new.cells[8].display(), new.highlight), ("–".into(), "added".into(), true));
        let gone = find("timeout after {n} ms");
        assert_eq!(gone.cells[5].display(), format::duration_s(42.0), "first = last: one time");
        assert_eq!((gone.cells[8].display(), gone.cells[6].delta_display()), ("improved".into(), Some("gone".into())));
        assert!(!gone.highlight);
    }
}
