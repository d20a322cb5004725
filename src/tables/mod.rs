//! Tables as plain data: every view builds one of these from the model, the UI renders it (with
//! sorting) and the exporters turn it into CSV, Markdown or Confluence markup. No UI here.

mod build;
mod config;
mod errors;
mod export;
mod latency;
mod report;
mod report_render;
mod runs;
mod timeline;
mod timeline_causes;
mod trend;

pub use build::*;
pub use config::{config_table, indices_table};
pub use errors::errors_table;
pub use export::{to_confluence, to_csv, to_markdown};
pub use latency::{latency_table, LATENCY_COLUMNS};
pub use report::{biggest_changes, report_page, ReportChart, ReportPage, METHOD};
pub use report_render::{page_confluence, page_html, page_markdown};
pub use runs::{runs_table, short_time, tenants_table};
pub use timeline::{elapsed_unit_s, run_series, timeline_transactions, RunSeries, SeriesOptions};
pub use timeline_causes::{cause_rates, top_causes, CauseKey};
pub use trend::trend_table;

use crate::analysis::{self, Verdict};
use crate::bundle::Unit;
use crate::format;
use crate::model::Spec;

/// How a cell sorts.
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    Num(f64),
    /// Lower-cased text (shared: a transaction's name sorts every row of its group).
    Text(std::sync::Arc<str>),
    None,
}

/// What a cell shows. Numbers are formatted only when shown or exported, so a table of
/// thousands of rows costs little to build when only one page of it is on screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Text, shared: a table repeats a transaction's or a run's name on many rows, and cloning
    /// a cell then costs no copy of it.
    Text(std::sync::Arc<str>),
    /// A value in its unit ("9 h 47 min", "122.9 GiB", "47%").
    Value(f64, Unit),
    /// A bare number (the column header names the unit).
    Number(f64),
    /// A signed change in a unit ("−1 h 23 min", "+27 pp").
    Delta(f64, Unit),
    Empty,
}

/// A delta note under a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DeltaText {
    /// A relative change (fraction).
    Rel(f64),
    /// An absolute change, where no ratio exists (baseline zero).
    Abs(f64, Unit),
    /// A change in percentage points, shown to this many decimals.
    Points(f64, usize),
    Label(&'static str),
}

impl DeltaText {
    pub fn render(&self) -> String {
        match *self {
            DeltaText::Rel(r) => format::relative(r),
            DeltaText::Abs(a, u) => format::delta(a, u),
            DeltaText::Points(p, d) => format::points(p, d),
            DeltaText::Label(l) => l.to_string(),
        }
    }

    /// Which way the value moved, as shown: "up", "down" or "" (for the arrow, which follows the
    /// change; the colour follows the verdict).
    pub fn arrow(&self) -> &'static str {
        let v = match *self {
            DeltaText::Rel(r) => format::shown_relative(r),
            DeltaText::Abs(a, _) => a,
            DeltaText::Points(p, d) => format::shown_points(p, d),
            DeltaText::Label(_) => 0.0,
        };
        if v > 0.0 {
            "up"
        } else if v < 0.0 {
            "down"
        } else {
            ""
        }
    }
}

/// A judged cell of a comparison with its metric's spec: the reason of its verdict is rendered
/// only when asked (a hover, an export), not for every cell of a large table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    pub cell: analysis::Cell,
    pub spec: Spec,
}

impl Judged {
    pub fn reason(&self) -> String {
        self.cell.reason(&self.spec)
    }
}

/// Verdicts whose word exports print next to the delta (colour is lost in text).
fn says_verdict(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Improved | Verdict::Regressed | Verdict::WithinNoise | Verdict::NotEnoughData | Verdict::Changed
    )
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub content: Content,
    pub sort: SortKey,
    /// A delta shown under the value, with its verdict (for the colour).
    pub delta: Option<(DeltaText, Verdict)>,
    /// Verdict of the whole cell (e.g. a verdict column), for the colour.
    pub verdict: Option<Verdict>,
    /// The judgement behind the delta or verdict, for its reason.
    pub judged: Option<Judged>,
}

impl Cell {
    fn with(content: Content, sort: SortKey) -> Cell {
        Cell { content, sort, delta: None, verdict: None, judged: None }
    }
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::shared(s.into().into())
    }
    /// A text cell that shares `text` (a name many rows repeat) instead of copying it.
    pub fn shared(text: std::sync::Arc<str>) -> Cell {
        // Most names are lower case already: then one shared string serves both.
        let lower: Option<std::sync::Arc<str>> = match crate::fold::lower(&text) {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(l) if *l == *text => None,
            std::borrow::Cow::Owned(l) => Some(l.into()),
        };
        let sort = lower.unwrap_or_else(|| text.clone());
        Cell::with(Content::Text(text), SortKey::Text(sort))
    }
    pub fn value(v: Option<f64>, unit: Unit) -> Cell {
        v.map_or_else(Cell::empty, |v| Cell::with(Content::Value(v, unit), SortKey::Num(v)))
    }
    pub fn number(v: Option<f64>) -> Cell {
        v.map_or_else(Cell::empty, |v| Cell::with(Content::Number(v), SortKey::Num(v)))
    }
    pub fn change(v: Option<f64>, unit: Unit) -> Cell {
        v.map_or_else(Cell::empty, |v| Cell::with(Content::Delta(v, unit), SortKey::Num(v)))
    }
    pub fn empty() -> Cell {
        Cell::with(Content::Empty, SortKey::None)
    }
    /// The formatted content.
    pub fn display(&self) -> String {
        match &self.content {
            Content::Text(s) => s.to_string(),
            Content::Value(v, u) => format::value(*v, *u),
            Content::Number(v) => format::number(*v),
            Content::Delta(v, u) => format::delta(*v, *u),
            Content::Empty => "–".into(),
        }
    }
    pub fn delta_display(&self) -> Option<String> {
        self.delta.map(|(d, _)| d.render())
    }
    /// The reason of the cell's verdict, if it has one.
    pub fn reason(&self) -> Option<String> {
        self.judged.map(|j| j.reason())
    }
    /// The text with its delta and verdict, as exports print it: "9 h 47 min (−12.4%, improved)";
    /// a verdict cell with its reason: "regressed: +7.8%: 95% interval …".
    pub fn plain(&self) -> String {
        match (self.delta, self.delta_display()) {
            (Some((_, v)), Some(d)) if says_verdict(v) => format!("{} ({d}, {})", self.display(), v.label()),
            (_, Some(d)) => format!("{} ({d})", self.display()),
            (None, None) => match (self.verdict, self.reason()) {
                (Some(_), Some(r)) => format!("{}: {r}", self.display()),
                _ => self.display(),
            },
            _ => self.display(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub label: String,
    pub numeric: bool,
}

impl Column {
    pub fn text(label: impl Into<String>) -> Column {
        Column { label: label.into(), numeric: false }
    }
    pub fn num(label: impl Into<String>) -> Column {
        Column { label: label.into(), numeric: true }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub cells: Vec<Cell>,
    /// Rows of one group (e.g. a transaction across runs) share a group number; the first
    /// cell of a group's first row names it.
    pub group: usize,
    /// Highlight (a changed configuration value, a regression).
    pub highlight: bool,
    /// The row of its group whose values sort the group (a transaction's p95 rather than its
    /// sample count); the first row when none is marked.
    pub primary: bool,
    /// How big the row's change is, for "biggest changes first" (see `change_rank`).
    pub rank: Option<f64>,
}

impl Row {
    pub fn new(cells: Vec<Cell>, group: usize) -> Row {
        Row { cells, group, highlight: false, primary: false, rank: None }
    }
}

/// Sort column meaning "biggest changes first" (`Table::sorted`).
pub const BY_CHANGE: usize = usize::MAX;

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Stable name, used for file names of exports.
    pub id: String,
    pub caption: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

impl Table {
    /// Rows sorted by column `col` (groups move together, ordered by their first row).
    pub fn sorted(&self, col: usize, descending: bool) -> Vec<&Row> {
        let mut groups: Vec<Vec<&Row>> = Vec::new();
        for r in &self.rows {
            match groups.last_mut() {
                Some(g) if g[0].group == r.group => g.push(r),
                _ => groups.push(vec![r]),
            }
        }
        // One key per group, computed once (not twice per comparison: a text key is a string).
        fn of<'r>(r: &&'r Row, col: usize) -> &'r SortKey {
            const NONE: &SortKey = &SortKey::None;
            r.cells.get(col).map_or(NONE, |c| &c.sort)
        }
        let key = |g: &Vec<&Row>| {
            if col == BY_CHANGE {
                let rank =
                    g.iter().filter_map(|r| r.rank).fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
                return rank.map_or(SortKey::None, SortKey::Num);
            }
            g.iter()
                .find(|r| r.primary)
                .map(|r| of(r, col))
                .filter(|k| **k != SortKey::None)
                .or_else(|| g.iter().map(|r| of(r, col)).find(|k| **k != SortKey::None))
                .cloned()
                .unwrap_or(SortKey::None)
        };
        let mut keyed: Vec<(SortKey, Vec<&Row>)> = groups.into_iter().map(|g| (key(&g), g)).collect();
        crate::order::sort_by(&mut keyed, |(ka, _), (kb, _)| {
            use std::cmp::Ordering::*;
            let ord = match (ka, kb) {
                (SortKey::Num(x), SortKey::Num(y)) => x.total_cmp(y),
                (SortKey::Text(x), SortKey::Text(y)) => x.cmp(y),
                (SortKey::None, SortKey::None) => Equal,
                // Empty cells always last.
                (SortKey::None, _) => return Greater,
                (_, SortKey::None) => return Less,
                (SortKey::Num(_), _) => Less,
                (_, SortKey::Num(_)) => Greater,
            };
            if descending {
                ord.reverse()
            } else {
                ord
            }
        });
        keyed.into_iter().flat_map(|(_, g)| g).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_groups_together_and_empties_last() {
        let row = |g, name: &str, v: Option<f64>| Row::new(vec![Cell::text(name), Cell::number(v)], g);
        let t = Table {
            id: "t".into(),
            caption: "t".into(),
            columns: vec![Column::text("n"), Column::num("v")],
            rows: vec![row(0, "a", Some(5.0)), row(0, "", Some(1.0)), row(1, "b", None), row(2, "c", Some(2.0))],
        };
        let names: Vec<String> = t.sorted(1, false).iter().map(|r| r.cells[0].display()).collect();
        assert_eq!(names, vec!["c", "a", "", "b"]);
        let desc: Vec<String> = t.sorted(1, true).iter().map(|r| r.cells[0].display()).collect();
        assert_eq!(desc, vec!["a", "", "c", "b"]);
    }

    #[test]
    fn a_group_sorts_by_its_primary_row_and_by_change() {
        // Two transactions, each a group of (samples, p95) rows: sorting the run column must
        // order them by p95, not by sample count.
        let rows = [("slow", 10.0, 900.0, 0.5), ("fast", 5000.0, 100.0, 3.0)]
            .iter()
            .enumerate()
            .flat_map(|(g, (name, samples, p95, rank))| {
                let mut p = Row::new(vec![Cell::text(*name), Cell::number(Some(*p95))], g);
                p.primary = true;
                p.rank = Some(*rank);
                [Row::new(vec![Cell::text(*name), Cell::number(Some(*samples))], g), p]
            })
            .collect();
        let t = Table { id: "t".into(), caption: "t".into(), columns: vec![Column::text("n"), Column::num("v")], rows };
        let first = |col, desc| t.sorted(col, desc)[0].cells[0].display();
        assert_eq!(first(1, true), "slow", "900 ms p95 first, though it has fewer samples");
        assert_eq!(first(BY_CHANGE, true), "fast");
    }

    #[test]
    fn arrows_follow_the_change_not_the_verdict() {
        assert_eq!(DeltaText::Rel(0.2).arrow(), "up", "a throughput rise is ▲ even when it is good");
        assert_eq!(DeltaText::Rel(-0.1).arrow(), "down");
        assert_eq!(DeltaText::Rel(0.0004).arrow(), "", "shown as 0.0%");
        assert_eq!(DeltaText::Points(-0.2, 1).arrow(), "down");
    }
}
