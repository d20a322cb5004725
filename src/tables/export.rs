//! Table exports: CSV (through the csv crate), GitHub Markdown and Confluence wiki markup. Cells
//! print as text with their delta in parentheses.

use super::Table;

fn rows_text(t: &Table) -> Vec<Vec<String>> {
    t.rows.iter().map(|r| r.cells.iter().map(|c| c.plain()).collect()).collect()
}

/// Spreadsheets run cells that start with = + - @ as formulas; such text cells get a leading
/// apostrophe (our own numbers use a real minus sign, so they never start with '-').
fn csv_safe(s: String) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s
    }
}

pub fn to_csv(t: &Table) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(t.columns.iter().map(|c| csv_safe(c.label.clone())));
    for r in rows_text(t) {
        let _ = w.write_record(r.into_iter().map(csv_safe));
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

fn md_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('|', "\\|").replace('\n', " ")
}

pub fn to_markdown(t: &Table) -> String {
    let mut out = format!("**{}**\n\n", md_escape(&t.caption));
    out += &format!("| {} |\n", t.columns.iter().map(|c| md_escape(&c.label)).collect::<Vec<_>>().join(" | "));
    out += &format!(
        "|{}|\n",
        t.columns.iter().map(|c| if c.numeric { "---:" } else { "---" }).collect::<Vec<_>>().join("|")
    );
    for r in rows_text(t) {
        out += &format!("| {} |\n", r.iter().map(|c| md_escape(c)).collect::<Vec<_>>().join(" | "));
    }
    out
}

pub(crate) fn wiki_escape(s: &str) -> String {
    let s = s.replace('\n', " ");
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '|' | '[' | ']' | '{' | '}' | '*' | '_' | '-' | '+' | '^' | '~' | '?' | '!' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    if out.is_empty() { " ".into() } else { out }
}

/// Confluence wiki markup: `||header||` and `|cell|` rows.
pub fn to_confluence(t: &Table) -> String {
    let mut out = format!("*{}*\n", wiki_escape(&t.caption));
    out += &format!("||{}||\n", t.columns.iter().map(|c| wiki_escape(&c.label)).collect::<Vec<_>>().join("||"));
    for r in rows_text(t) {
        out += &format!("|{}|\n", r.iter().map(|c| wiki_escape(c)).collect::<Vec<_>>().join("|"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Cell, Column, DeltaText, Row};
    use crate::bundle::Unit;
    use super::*;
    use crate::analysis::Verdict;

    fn table() -> Table {
        let mut c = Cell::value(Some(35220.0), Unit::S);
        c.delta = Some((DeltaText::Rel((35220.0 - 40200.0) / 40200.0), Verdict::Improved));
        Table {
            id: "t".into(),
            caption: "Runs | all".into(),
            columns: vec![Column::text("Run, name"), Column::num("Duration")],
            rows: vec![Row::new(vec![Cell::text("Poppy \"t2\""), c], 0)],
        }
    }

    #[test]
    fn csv_quotes_and_keeps_deltas() {
        assert_eq!(to_csv(&table()), "\"Run, name\",Duration\n\"Poppy \"\"t2\"\"\",\"9 h 47 min (−12.4%, improved)\"\n");
    }

    #[test]
    fn csv_defuses_formulas() {
        let mut t = table();
        t.rows[0].cells[0] = Cell::text("=HYPERLINK(\"x\")");
        assert!(to_csv(&t).contains("\"'=HYPERLINK(\"\"x\"\")\""), "{}", to_csv(&t));
    }

    #[test]
    fn markdown_escapes_pipes_and_aligns_numbers() {
        let md = to_markdown(&table());
        assert!(md.starts_with("**Runs \\| all**\n\n| Run, name | Duration |\n|---|---:|\n"), "{md}");
        assert!(md.contains("| Poppy \"t2\" | 9 h 47 min (−12.4%, improved) |"));
    }

    #[test]
    fn confluence_uses_double_bars_for_headers() {
        let w = to_confluence(&table());
        assert_eq!(w, "*Runs \\| all*\n||Run, name||Duration||\n|Poppy \"t2\"|9 h 47 min (−12.4%, improved)|\n");
    }
}
