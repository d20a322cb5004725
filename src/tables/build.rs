//! Builders: the tables each view shows, from runs and comparison rows.

use super::{Cell, Column, Content, DeltaText, Judged, Row, SortKey, Table};
use crate::analysis::{self, points_decimals, Change, ConfigRow, Verdict};
use crate::bundle::{Run, RunStatus, Unit};
use crate::fold;
use crate::model::{Measure, Section, Spec, Workspace};
use std::sync::Arc;

/// The delta note of a judged cell: its change as shown, or a word where a number would mislead
/// (a failed run's "−91 %").
pub fn delta_text(c: &analysis::Cell, spec: &Spec) -> Option<DeltaText> {
    match c.verdict {
        Verdict::Baseline | Verdict::Missing => None,
        Verdict::Added | Verdict::Removed | Verdict::NotComparable => Some(DeltaText::Label(c.verdict.label())),
        _ => c.change.map(|ch| match ch {
            Change::Rel(r) => DeltaText::Rel(r),
            Change::Points(p) => DeltaText::Points(p, points_decimals(spec.family)),
            Change::Abs(a) => DeltaText::Abs(a, c.unit),
        }),
    }
}

fn judged(c: &analysis::Cell, spec: &Spec) -> Option<Judged> {
    (c.verdict != Verdict::Baseline).then_some(Judged { cell: *c, spec: *spec })
}

/// A value in its own unit with its delta, verdict and reason.
pub fn value_cell(c: &analysis::Cell, spec: &Spec) -> Cell {
    let mut cell = Cell::value(c.value, c.unit);
    cell.delta = delta_text(c, spec).map(|d| (d, c.verdict));
    cell.judged = judged(c, spec);
    cell
}

/// A verdict word, coloured, whose reason shows on hover and in exports.
pub fn verdict_cell(c: &analysis::Cell, spec: &Spec) -> Cell {
    let mut v = Cell::text(c.verdict.label());
    v.verdict = Some(c.verdict);
    v.judged = judged(c, spec);
    v
}

/// How big a row's change is, for "biggest changes first": changes beyond noise first, each by
/// its size in units of its threshold; vanished transactions and new errors among them.
pub fn change_rank(r: &analysis::Row) -> Option<f64> {
    r.cells.iter().skip(1).filter_map(|c| cell_rank(c, &r.spec)).fold(None, |m, x| Some(m.map_or(x, |m: f64| m.max(x))))
}

fn cell_rank(c: &analysis::Cell, spec: &Spec) -> Option<f64> {
    use analysis::Why;
    const BEYOND: f64 = 1e6;
    if c.is_regression() && c.change.is_none() {
        return Some(BEYOND + 1e3);
    }
    let t = match c.why {
        Why::Threshold(t) | Why::NoDirection(t) => t,
        Why::Interval { threshold, .. } => threshold,
        _ => return None,
    };
    let size = c.change?.severity(spec.family, t).min(1e3);
    Some(if c.verdict.is_beyond_noise() { BEYOND + size } else { size })
}

/// Which row of a key's group sorts it: p95, else median, mean, average, peak, store size.
fn primary_rank(metric: &str) -> u8 {
    match metric {
        "" | "p95" => 0,
        "median" => 1,
        "mean" => 2,
        "average" => 3,
        "peak" => 4,
        "store size" => 5,
        _ => 9,
    }
}

fn mark_primary(rows: &mut [Row], metrics: &[&str]) {
    let mut start = 0;
    while start < rows.len() {
        let g = rows[start].group;
        let end = start + rows[start..].iter().take_while(|r| r.group == g).count();
        if let Some(best) = (start..end).min_by_key(|i| primary_rank(metrics[*i])) {
            rows[best].primary = true;
        }
        start = end;
    }
}

/// The runs of a workspace with their conditions (overview).
pub fn runs_table(ws: &Workspace) -> Table {
    let columns = ["Run", "Release", "Dimensions", "Start", "End", "Duration", "Status", "Conditions", "Notes"];
    let rows = ws
        .all_runs()
        .enumerate()
        .map(|(i, r)| {
            let dims = r.dimensions.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
            let status = match (r.status, &r.status_reason) {
                (RunStatus::Completed, _) => "completed".to_string(),
                (s, Some(reason)) => format!("{}: {reason}", status_word(s)),
                (s, None) => status_word(s).to_string(),
            };
            let mut status_cell = Cell::text(status);
            if matches!(r.status, RunStatus::Failed | RunStatus::Aborted) {
                status_cell.verdict = Some(Verdict::Regressed);
            }
            Row::new(
                vec![
                    Cell::text(&r.label),
                    Cell::text(r.release.clone().unwrap_or_default()),
                    Cell::text(dims),
                    Cell::text(r.start.as_deref().map(short_time).unwrap_or_default()),
                    Cell::text(r.end.as_deref().map(short_time).unwrap_or_default()),
                    Cell::value(r.duration_s, Unit::S),
                    status_cell,
                    Cell::text(r.conditions.join("; ")),
                    Cell::text(r.notes.join(" ")),
                ],
                i,
            )
        })
        .collect();
    Table {
        id: "runs".into(),
        caption: "Runs".into(),
        columns: columns.iter().map(|c| if *c == "Duration" { Column::num(*c) } else { Column::text(*c) }).collect(),
        rows,
    }
}

pub(crate) fn status_word(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Completed => "completed",
        RunStatus::Failed => "failed",
        RunStatus::Aborted => "aborted",
        RunStatus::Unknown => "unknown",
    }
}

/// "2023-10-01T10:18:00Z" -> "2023-10-01 10:18 UTC"; anything else unchanged.
pub fn short_time(t: &str) -> String {
    let utc = t.strip_suffix('Z').or_else(|| t.strip_suffix("+00:00"));
    match utc.and_then(|s| Some((s.get(..10)?, s.get(10..11)?, s.get(11..16)?))) {
        Some((date, "T", hm)) => format!("{date} {hm} UTC"),
        _ => t.to_string(),
    }
}

/// Per-tenant results of the given runs (multi-tenant tests): one row per run and tenant.
pub fn tenants_table(runs: &[&Run]) -> Table {
    let mut rows = Vec::new();
    for (g, run) in runs.iter().enumerate() {
        for t in &run.tenants {
            let kpis = t
                .kpis
                .iter()
                .map(|k| format!("{}: {}", k.name, crate::format::value(k.value, k.unit)))
                .collect::<Vec<_>>()
                .join("; ");
            rows.push(Row::new(
                vec![Cell::text(&run.label), Cell::text(&t.tenant), Cell::text(kpis), Cell::text(t.notes.join(" "))],
                g,
            ));
        }
    }
    Table {
        id: "tenants".into(),
        caption: "Tenants".into(),
        columns: ["Run", "Tenant", "KPIs", "Notes"].into_iter().map(Column::text).collect(),
        rows,
    }
}

/// Options for filtering comparison rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowFilter {
    /// Case-insensitive substring of the key or metric.
    pub text: String,
    pub regressions_only: bool,
}

impl RowFilter {
    pub fn keeps(&self, r: &analysis::Row) -> bool {
        let t = fold::lower(&self.text);
        (t.is_empty() || fold::lower(&r.key).contains(&*t) || fold::lower(&r.metric).contains(&*t))
            && (!self.regressions_only || r.has_regression())
    }
}

/// One section of a comparison: a row per (key, metric), a column per run.
pub fn compare_table(rows: &[analysis::Row], labels: &[String], section: Section, filter: &RowFilter) -> Table {
    let mut columns = vec![Column::text(section_key_label(section)), Column::text("Metric")];
    columns.extend(labels.iter().map(|l| Column::num(l.clone())));
    let two = labels.len() == 2;
    if two {
        columns.push(Column::num("Δ"));
        columns.push(Column::text("Verdict"));
    }
    let mut out = Vec::new();
    let mut metrics = Vec::new();
    let mut group = 0;
    let mut last_key: Option<&str> = None;
    for r in rows.iter().filter(|r| r.section == section && filter.keeps(r)) {
        if last_key != Some(&*r.key) {
            group += 1;
            last_key = Some(&r.key);
        }
        let mut cells =
            vec![Cell::shared(r.key.clone()), Cell::text(if r.metric.is_empty() { "value" } else { &r.metric })];
        cells.extend(r.cells.iter().map(|c| value_cell(c, &r.spec)));
        if two {
            match r.cells.get(1) {
                Some(c) => {
                    cells.push(difference_cell(c, r));
                    cells.push(verdict_cell(c, &r.spec));
                }
                None => cells.extend([Cell::empty(), Cell::empty()]),
            }
        }
        let mut row = Row::new(cells, group);
        row.highlight = r.has_regression();
        row.rank = change_rank(r);
        out.push(row);
        metrics.push(&*r.metric);
    }
    mark_primary(&mut out, &metrics);
    Table { id: format!("compare-{}", section_slug(section)), caption: section.title().into(), columns, rows: out }
}

/// The Δ column: the absolute difference in the value's unit; for errors the change in error
/// rate (what the verdict is about); nothing where the runs are not comparable.
fn difference_cell(c: &analysis::Cell, r: &analysis::Row) -> Cell {
    if c.verdict == Verdict::NotComparable {
        return Cell::empty();
    }
    match (r.spec.measure, c.change) {
        (Measure::ErrorRate, Some(ch)) => {
            let text = format!("{} error rate", ch.text(r.spec.family, c.unit));
            let n = ch.shown(r.spec.family);
            Cell {
                content: Content::Text(text.into()),
                sort: SortKey::Num(n),
                delta: None,
                verdict: None,
                judged: None,
            }
        }
        _ => Cell::change(c.abs, c.unit),
    }
}

fn section_key_label(s: Section) -> &'static str {
    match s {
        Section::Duration => "What",
        Section::Kpi => "KPI",
        Section::Transaction => "Transaction",
        Section::Resource => "Service · metric",
        Section::Index => "Index",
        Section::Error => "Error",
        Section::Tenant => "Tenant · KPI",
    }
}

pub fn section_slug(s: Section) -> &'static str {
    match s {
        Section::Duration => "duration",
        Section::Kpi => "kpis",
        Section::Transaction => "latency",
        Section::Resource => "resources",
        Section::Index => "indices",
        Section::Error => "errors",
        Section::Tenant => "tenants",
    }
}

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
    // A key's rows are contiguous in a comparison (`analysis::compare` groups them); a key that
    // comes back later (rows built by hand) joins its first group.
    let tx: Vec<&analysis::Row> = rows.iter().filter(|r| r.section == Section::Transaction).collect();
    let text = fold::lower(&filter.text);
    let mut groups: Vec<(&Arc<str>, Vec<&analysis::Row>)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<&str, usize> = Default::default();
    // Whether the last key seen passes the text filter (asked once per run of its rows): keys the
    // filter drops are never grouped.
    let mut passes: Option<(&str, bool)> = None;
    for r in &tx {
        let keep = match passes {
            Some((k, keep)) if k == &*r.key => keep,
            _ => {
                let keep = text.is_empty() || fold::lower(&r.key).contains(&*text);
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
            let mut cells = Vec::with_capacity(2 + LATENCY_COLUMNS.len());
            cells.push(key_cell.clone());
            cells.push(label_cells[ri].clone());
            let mut regressed = false;
            for r in &by_column {
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
            let mut row = Row::new(cells, g);
            row.highlight = regressed;
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

/// One run's `_cat/indices` table, sizes in binary units.
pub fn indices_table(run: &Run) -> Table {
    let columns = vec![
        Column::text("Index"),
        Column::text("Health"),
        Column::text("Status"),
        Column::text("UUID"),
        Column::num("Primaries"),
        Column::num("Replicas"),
        Column::num("Docs"),
        Column::num("Deleted docs"),
        Column::num("Store size"),
        Column::num("Primary store size"),
    ];
    let n = |v: Option<u64>| Cell::number(v.map(|v| v as f64));
    let rows = run
        .indices
        .iter()
        .enumerate()
        .map(|(i, x)| Row {
            primary: false,
            rank: None,
            cells: vec![
                Cell::text(&x.index),
                Cell::text(x.health.clone().unwrap_or_default()),
                Cell::text(x.status.clone().unwrap_or_default()),
                Cell::text(x.uuid.clone().unwrap_or_default()),
                n(x.pri.map(u64::from)),
                n(x.rep.map(u64::from)),
                n(x.docs_count),
                n(x.docs_deleted),
                Cell::value(x.store_size.map(|b| b.0 as f64), Unit::Bytes),
                Cell::value(x.pri_store_size.map(|b| b.0 as f64), Unit::Bytes),
            ],
            group: i,
            highlight: x.health.as_deref().is_some_and(|h| h != "green"),
        })
        .collect();
    Table { id: format!("indices-{}", run.id), caption: format!("Indices: {}", run.label), columns, rows }
}

/// Module and infrastructure settings side by side; changed values highlighted.
pub fn config_table(rows: &[ConfigRow], labels: &[String], changed_only: bool, group_name: &str) -> Table {
    let first = if group_name == "Modules" { "Module" } else { "Component" };
    let mut columns = vec![Column::text(first), Column::text("Setting")];
    columns.extend(labels.iter().map(|l| Column::text(l.clone())));
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    let mut group = 0;
    for r in rows.iter().filter(|r| r.group == group_name && (!changed_only || r.changed)) {
        if last != Some(r.item.as_str()) {
            group += 1;
            last = Some(&r.item);
        }
        let mut cells = vec![Cell::text(&r.item), Cell::text(&r.setting)];
        cells.extend(r.values.iter().map(|v| match v {
            Some(v) => {
                let mut c = Cell::text(v.clone());
                if let Some(n) = crate::number::parse_f64(v) {
                    c.sort = super::SortKey::Num(n);
                }
                if r.changed {
                    c.verdict = Some(Verdict::Changed);
                }
                c
            }
            None => Cell::empty(),
        }));
        let mut row = Row::new(cells, group);
        row.highlight = r.changed;
        out.push(row);
    }
    let id = format!("config-{}", fold::lower(group_name));
    Table { id, caption: group_name.into(), columns, rows: out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::Transaction;

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

    #[test]
    fn tenants_rows_name_run_tenant_and_kpis() {
        use crate::bundle::{Kpi, TenantResult};
        let run = Run {
            id: "r".into(),
            label: "R".into(),
            tenants: vec![TenantResult {
                tenant: "t1".into(),
                kpis: vec![Kpi { name: "DI".into(), value: 10800.0, unit: Unit::S, ..Default::default() }],
                notes: vec!["slow".into()],
                ..Default::default()
            }],
            ..Default::default()
        };
        let t = tenants_table(&[&run]);
        let cells: Vec<String> = t.rows[0].cells.iter().map(|c| c.display()).collect();
        assert_eq!(cells, vec!["R", "t1", "DI: 3 h", "slow"]);
    }

    #[test]
    fn short_times() {
        assert_eq!(short_time("2023-10-01T10:18:00Z"), "2023-10-01 10:18 UTC");
        assert_eq!(short_time("yesterday"), "yesterday");
        assert_eq!(short_time("2023-10-0é1T10:18:00Z"), "2023-10-0é1T10:18:00Z", "never slices inside a character");
    }
}
