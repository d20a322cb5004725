//! Table exports: CSV (as the csv crate writes it), GitHub Markdown and Confluence wiki markup. Cells
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

/// The table as CSV, byte for byte as the csv crate's writer writes it with its defaults (RFC
/// 4180: commas, `\n` after each record; a field holding a comma, a quote, CR or LF is quoted,
/// its quotes doubled; a record of one empty field is `""`). Written here rather than through
/// the crate: its writer decides per field whether a quoting style applies that tests the field
/// as a number, which links the standard library's float parser and its 10 KB table into the
/// page (docs/decisions/0009-csv-export-by-hand.md). A test checks the output against the crate's own writer.
pub fn to_csv(t: &Table) -> String {
    let mut out = String::new();
    csv_record(&mut out, t.columns.iter().map(|c| csv_safe(c.label.clone())));
    for r in rows_text(t) {
        csv_record(&mut out, r.into_iter().map(csv_safe));
    }
    out
}

fn csv_record(out: &mut String, fields: impl Iterator<Item = String>) {
    let start = out.len();
    for (i, f) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if f.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&f.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&f);
        }
    }
    // A record that would be an empty line is one empty field, quoted.
    if out.len() == start {
        out.push_str("\"\"");
    }
    out.push('\n');
}

/// Text for a GitHub Markdown table cell that renders as itself: CommonMark lets a backslash escape
/// any ASCII punctuation (https://spec.commonmark.org/0.31.2/#backslash-escapes), so the
/// characters that start markup are escaped: `<` (raw HTML, autolinks), `&` (entities), `[` `]`
/// (links, images), `` ` `` `*` `_` `~` (code, emphasis, strike-through), `|` (the cell border)
/// and the backslash itself. Line breaks would end the table row, so they become spaces.
fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' | '|' | '<' | '>' | '&' | '[' | ']' | '`' | '*' | '_' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
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

/// Text for a Confluence wiki markup cell that renders as itself: markup characters get a
/// backslash (https://confluence.atlassian.com/doc/confluence-wiki-markup-251003035.html). A
/// backslash cannot escape itself there (`\\` is a line break, and a trailing `\` would escape
/// the cell's closing `|`), so it is written as the entity `&#92;`, and `&` as `&amp;` so that
/// entities in the text stay text. Line breaks would end the row, so they become spaces.
pub(crate) fn wiki_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("&#92;"),
            '&' => out.push_str("&amp;"),
            // The renderer shows tags as text, but an entity says so whatever renders the page.
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' => out.push(' '),
            '|' | '[' | ']' | '{' | '}' | '*' | '_' | '-' | '+' | '^' | '~' | '?' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    if out.is_empty() {
        " ".into()
    } else {
        out
    }
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
    use super::*;
    use crate::analysis::Verdict;
    use crate::bundle::Unit;

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
        assert_eq!(
            to_csv(&table()),
            "\"Run, name\",Duration\n\"Poppy \"\"t2\"\"\",\"9 h 47 min (−12.4%, improved)\"\n"
        );
    }

    /// The csv crate's writer with its defaults: what `to_csv` promises to write.
    fn crate_csv(records: &[Vec<String>]) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in records {
            w.write_record(r).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    proptest::proptest! {
        // Tables of awkward text (commas, quotes, line breaks, empty cells, formula starters,
        // non-ASCII) come out byte for byte as the csv crate writes them.
        #[test]
        fn csv_is_what_the_csv_crate_writes(
            cols in 1usize..4,
            cells in proptest::collection::vec("[a,\"\r\n =+é-]{0,4}", 0..24),
        ) {
            let columns: Vec<Column> = (0..cols).map(|i| Column::text(cells.get(i).cloned().unwrap_or_default())).collect();
            let rows: Vec<Row> = cells.chunks(cols).filter(|c| c.len() == cols).enumerate()
                .map(|(g, c)| Row::new(c.iter().map(|s| Cell::text(s.clone())).collect(), g))
                .collect();
            let t = Table { id: "t".into(), caption: String::new(), columns, rows };
            let mut records = vec![t.columns.iter().map(|c| csv_safe(c.label.clone())).collect::<Vec<_>>()];
            records.extend(rows_text(&t).into_iter().map(|r| r.into_iter().map(csv_safe).collect()));
            proptest::prop_assert_eq!(to_csv(&t), crate_csv(&records));
        }
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
    fn markdown_never_passes_markup_through() {
        let mut t = table();
        t.rows[0].cells[0] = Cell::text("<script>x</script> [a](javascript:y) &lt; *b* `c` a\\");
        let md = to_markdown(&t);
        let cell = md.lines().last().unwrap();
        assert!(cell.starts_with(r"| \<script\>x\</script\> \[a\](javascript:y) \&lt; \*b\* \`c\` a\\ |"), "{cell}");
        assert!(!cell.contains(" <"), "no raw tag is left: {cell}");
    }

    #[test]
    fn confluence_escapes_the_backslash_and_entities() {
        let mut t = table();
        t.rows[0].cells[0] = Cell::text(r"C:\dir\ & {html} <script>");
        let w = to_confluence(&t);
        assert!(
            w.ends_with("|C:&#92;dir&#92; &amp; \\{html\\} &lt;script&gt;|9 h 47 min (−12.4%, improved)|\n"),
            "{w}"
        );
        assert!(!w.contains(r"\\"), "no backslash pair (a line break) comes from the text: {w}");
    }

    #[test]
    fn confluence_uses_double_bars_for_headers() {
        let w = to_confluence(&table());
        assert_eq!(w, "*Runs \\| all*\n||Run, name||Duration||\n|Poppy \"t2\"|9 h 47 min (−12.4%, improved)|\n");
    }
}
