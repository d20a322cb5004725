//! Tables as plain data: every view builds one of these from the model, the UI renders it (with
//! sorting) and the exporters turn it into CSV, Markdown or Confluence markup. No UI here.

mod build;
mod export;

pub use build::*;
pub use export::{to_confluence, to_csv, to_markdown};

use crate::analysis::Verdict;
use crate::bundle::Unit;
use crate::format;

/// How a cell sorts.
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    Num(f64),
    Text(String),
    None,
}

/// What a cell shows. Numbers are formatted only when shown or exported, so a table of
/// thousands of rows costs little to build when only one page of it is on screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(String),
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
    Label(&'static str),
}

impl DeltaText {
    pub fn render(&self) -> String {
        match *self {
            DeltaText::Rel(r) => format::relative(r),
            DeltaText::Abs(a, u) => format::delta(a, u),
            DeltaText::Label(l) => l.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub content: Content,
    pub sort: SortKey,
    /// A delta shown under the value, with its verdict (for the colour).
    pub delta: Option<(DeltaText, Verdict)>,
    /// Verdict of the whole cell (e.g. a verdict column), for the colour.
    pub verdict: Option<Verdict>,
}

impl Cell {
    fn with(content: Content, sort: SortKey) -> Cell {
        Cell { content, sort, delta: None, verdict: None }
    }
    pub fn text(s: impl Into<String>) -> Cell {
        let s = s.into();
        Cell::with(Content::Text(s.clone()), SortKey::Text(s.to_lowercase()))
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
            Content::Text(s) => s.clone(),
            Content::Value(v, u) => format::value(*v, *u),
            Content::Number(v) => format::number(*v),
            Content::Delta(v, u) => format::delta(*v, *u),
            Content::Empty => "–".into(),
        }
    }
    pub fn delta_display(&self) -> Option<String> {
        self.delta.map(|(d, _)| d.render())
    }
    /// The text with its delta, as exports print it: "9 h 47 min (−12.4%)".
    pub fn plain(&self) -> String {
        match self.delta_display() {
            Some(d) => format!("{} ({d})", self.display()),
            None => self.display(),
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
}

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
        let key = |g: &Vec<&Row>| g.iter().map(|r| r.cells.get(col).map(|c| c.sort.clone()).unwrap_or(SortKey::None))
            .find(|k| *k != SortKey::None).unwrap_or(SortKey::None);
        groups.sort_by(|a, b| {
            use std::cmp::Ordering::*;
            let (ka, kb) = (key(a), key(b));
            let ord = match (&ka, &kb) {
                (SortKey::Num(x), SortKey::Num(y)) => x.total_cmp(y),
                (SortKey::Text(x), SortKey::Text(y)) => x.cmp(y),
                (SortKey::None, SortKey::None) => Equal,
                // Empty cells always last.
                (SortKey::None, _) => return Greater,
                (_, SortKey::None) => return Less,
                (SortKey::Num(_), _) => Less,
                (_, SortKey::Num(_)) => Greater,
            };
            if descending { ord.reverse() } else { ord }
        });
        groups.into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_groups_together_and_empties_last() {
        let row = |g, name: &str, v: Option<f64>| Row {
            cells: vec![Cell::text(name), Cell::number(v)],
            group: g,
            highlight: false,
        };
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
}
