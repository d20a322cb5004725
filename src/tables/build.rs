//! Builders: the tables each view shows, from runs and comparison rows.

use super::{Cell, Column, Content, DeltaText, Judged, Row, SortKey, Table};
use crate::analysis::{self, points_decimals, Change, Verdict};
use crate::fold;
use crate::model::{Measure, Section, Spec};

/// The delta note of a judged cell: its change as shown, or a word where a number would mislead
/// (a failed run's "−91 %").
pub fn delta_text(c: &analysis::Cell, spec: &Spec) -> Option<DeltaText> {
    match c.verdict {
        Verdict::Baseline | Verdict::Missing => None,
        Verdict::Added | Verdict::Removed | Verdict::NotComparable => Some(DeltaText::Label(c.verdict.label())),
        Verdict::Improved if c.why == analysis::Why::Vanished(Section::Error) => Some(DeltaText::Label("gone")),
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
    const BEYOND: f64 = 1e6;
    if c.is_regression() && c.change.is_none() {
        return Some(BEYOND + 1e3);
    }
    let t = c.why.threshold()?;
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
