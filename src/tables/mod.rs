//! Tables as plain data: every view builds one of these from the model, the UI renders it (with
//! sorting) and the exporters turn it into CSV, Markdown or Confluence markup. No UI here.

mod build;
mod export;

pub use build::*;
pub use export::{to_confluence, to_csv, to_markdown};

use crate::analysis::Verdict;

/// How a cell sorts.
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    Num(f64),
    Text(String),
    None,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The formatted value.
    pub text: String,
    pub sort: SortKey,
    /// A delta shown under the value, with its verdict (for the colour).
    pub delta: Option<(String, Verdict)>,
    /// Verdict of the whole cell (e.g. a verdict column), for the colour.
    pub verdict: Option<Verdict>,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        let s = s.into();
        Cell { sort: SortKey::Text(s.to_lowercase()), text: s, delta: None, verdict: None }
    }
    pub fn num(v: f64, text: String) -> Cell {
        Cell { text, sort: SortKey::Num(v), delta: None, verdict: None }
    }
    pub fn opt(v: Option<f64>, fmt: impl Fn(f64) -> String) -> Cell {
        match v {
            Some(v) => Cell::num(v, fmt(v)),
            None => Cell::empty(),
        }
    }
    pub fn empty() -> Cell {
        Cell { text: "–".into(), sort: SortKey::None, delta: None, verdict: None }
    }
    /// The text with its delta, as exports print it: "9 h 47 min (−12.4%)".
    pub fn plain(&self) -> String {
        match &self.delta {
            Some((d, _)) => format!("{} ({d})", self.text),
            None => self.text.clone(),
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
                (SortKey::Num(x), SortKey::Num(y)) => x.partial_cmp(y).unwrap_or(Equal),
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
            cells: vec![Cell::text(name), Cell::opt(v, |x| x.to_string())],
            group: g,
            highlight: false,
        };
        let t = Table {
            id: "t".into(),
            caption: "t".into(),
            columns: vec![Column::text("n"), Column::num("v")],
            rows: vec![row(0, "a", Some(5.0)), row(0, "", Some(1.0)), row(1, "b", None), row(2, "c", Some(2.0))],
        };
        let names: Vec<&str> = t.sorted(1, false).iter().map(|r| r.cells[0].text.as_str()).collect();
        assert_eq!(names, vec!["c", "a", "", "b"]);
        let desc: Vec<&str> = t.sorted(1, true).iter().map(|r| r.cells[0].text.as_str()).collect();
        assert_eq!(desc, vec!["a", "", "c", "b"]);
    }
}
