//! Writes a `ReportPage` as Markdown (images embedded as PNG data URLs), Confluence wiki markup
//! (images referenced as page attachments by file name: attach the chart PNGs to the page) or one
//! self-contained HTML file. Every string from a bundle is escaped for the target: it is data,
//! never markup.
//!
//! Markdown: CommonMark backslash escapes (<https://spec.commonmark.org/0.31.2/#backslash-escapes>).
//! Confluence: wiki markup, `h1.`, `*bold*`, `!file.png!` for an attached image
//! (<https://confluence.atlassian.com/doc/confluence-wiki-markup-251003035.html>).

use super::export::{to_confluence, to_markdown, wiki_escape};
use super::report::{ReportChart, ReportPage};
use super::Table;

/// Escapes CommonMark's inline punctuation, and what would start a heading, list or quote at the
/// beginning of a line.
fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.replace('\n', " ").chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~') {
            out.push('\\');
        }
        out.push(c);
    }
    if out.starts_with(['-', '+', '#', '='])
        || out.split_once(['.', ')']).is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        out.insert(0, '\\');
    }
    out
}

/// One target syntax: how headings, paragraphs, lists, tables and charts are written in it.
trait Markup {
    fn heading(&self, level: u8, text: &str) -> String;
    fn paragraph(&self, text: &str) -> String;
    fn list(&self, items: &[String]) -> String;
    fn table(&self, t: &Table) -> String;
    fn charts(&self, charts: &[ReportChart]) -> String;
}

/// The layout of the seed reports, in any syntax: summary, test runs, results, resource
/// utilization, charts, notes.
fn page(p: &ReportPage, m: &dyn Markup) -> String {
    let mut out = m.heading(1, &p.title) + &m.heading(2, "Summary");
    out += &p.summary.iter().map(|s| m.paragraph(s)).collect::<String>();
    if !p.author_summary.is_empty() {
        out += &m.paragraph("From the report:");
        out += &m.list(&p.author_summary);
    }
    out += &m.heading(2, "Test runs");
    out += &m.table(&p.runs);
    for (heading, tables) in [("Results", &p.results), ("Resource utilization", &p.resources)] {
        if !tables.is_empty() {
            out += &m.heading(2, heading);
            out += &tables.iter().map(|t| m.table(t)).collect::<Vec<_>>().join("\n");
        }
    }
    out += &m.charts(&p.charts);
    out += &m.heading(2, "Notes");
    out + &m.list(&p.notes)
}

struct Markdown;

impl Markup for Markdown {
    fn heading(&self, level: u8, text: &str) -> String {
        format!("{} {}\n\n", "#".repeat(level.into()), md_text(text))
    }
    fn paragraph(&self, text: &str) -> String {
        format!("{}\n\n", md_text(text))
    }
    fn list(&self, items: &[String]) -> String {
        items.iter().map(|s| format!("- {}\n", md_text(s))).collect::<String>() + "\n"
    }
    fn table(&self, t: &Table) -> String {
        to_markdown(t) + "\n"
    }
    fn charts(&self, charts: &[ReportChart]) -> String {
        let images: Vec<String> = charts
            .iter()
            .filter_map(|c| c.safe_png().map(|png| format!("![{}]({png})\n", md_text(&c.title))))
            .collect();
        if images.is_empty() {
            String::new()
        } else {
            self.heading(2, "Charts") + &images.join("\n") + "\n"
        }
    }
}

struct Confluence;

impl Markup for Confluence {
    fn heading(&self, level: u8, text: &str) -> String {
        format!("h{level}. {}\n\n", wiki_escape(text))
    }
    fn paragraph(&self, text: &str) -> String {
        format!("{}\n\n", wiki_escape(text))
    }
    fn list(&self, items: &[String]) -> String {
        items.iter().map(|s| format!("* {}\n", wiki_escape(s))).collect::<String>() + "\n"
    }
    fn table(&self, t: &Table) -> String {
        to_confluence(t) + "\n"
    }
    /// Confluence markup cannot embed image data: the charts are attachments of the page, shown
    /// by file name (`!name.png!`).
    fn charts(&self, charts: &[ReportChart]) -> String {
        if charts.is_empty() {
            return String::new();
        }
        let names: Vec<String> = charts.iter().map(|c| attachment_name(&c.file_name)).collect();
        let mut out = self.heading(2, "Charts")
            + &format!("_Attach {} to this page; the images below show them._\n\n", names.join(", "));
        for (c, name) in charts.iter().zip(&names) {
            out += &format!("*{}*\n!{name}!\n\n", wiki_escape(&c.title));
        }
        out
    }
}

pub fn page_markdown(p: &ReportPage) -> String {
    page(p, &Markdown)
}

pub fn page_confluence(p: &ReportPage) -> String {
    page(p, &Confluence)
}

/// An attachment name safe inside `!…!`: letters, digits, dot, dash, underscore.
fn attachment_name(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '-' }).collect()
}

fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn html_table(t: &Table) -> String {
    let mut out = format!("<table>\n<caption>{}</caption>\n<thead><tr>", html_escape(&t.caption));
    for c in &t.columns {
        out += &format!("<th{}>{}</th>", if c.numeric { " class=\"num\"" } else { "" }, html_escape(&c.label));
    }
    out += "</tr></thead>\n<tbody>\n";
    for r in &t.rows {
        out += "<tr>";
        for (i, c) in r.cells.iter().enumerate() {
            let numeric = t.columns.get(i).is_some_and(|c| c.numeric);
            let verdict = c.verdict.or(c.delta.map(|d| d.1)).map_or("", |v| match v {
                crate::analysis::Verdict::Improved => " improved",
                crate::analysis::Verdict::Regressed => " regressed",
                _ => "",
            });
            let class = format!("{}{verdict}", if numeric { "num" } else { "" });
            let title = c.reason().map_or(String::new(), |r| format!(" title=\"{}\"", html_escape(&r)));
            out += &format!("<td class=\"{}\"{title}>{}</td>", class.trim(), html_escape(&c.plain()));
        }
        out += "</tr>\n";
    }
    out + "</tbody>\n</table>\n"
}

/// The HTML export's stylesheet, in the page's light palette.
fn html_style() -> String {
    let p = &crate::palette::LIGHT;
    format!(
        "body{{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1f2933}}\
table{{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:.9rem}}caption{{text-align:left;font-weight:600;padding:.3rem 0}}\
th,td{{border:1px solid #d9dee5;padding:.25rem .5rem;text-align:left;vertical-align:top}}th{{background:#f5f7fa}}\
.num{{text-align:right;white-space:nowrap}}.improved{{color:{};background:{}}}.regressed{{color:{};background:{}}}\
img{{max-width:100%;border:1px solid #d9dee5}}.notes{{color:{};font-size:.9rem}}",
        p.better, p.better_bg, p.worse, p.worse_bg, p.same
    )
}

struct Html;

impl Markup for Html {
    fn heading(&self, level: u8, text: &str) -> String {
        format!("<h{level}>{}</h{level}>\n", html_escape(text))
    }
    fn paragraph(&self, text: &str) -> String {
        format!("<p>{}</p>\n", html_escape(text))
    }
    fn list(&self, items: &[String]) -> String {
        format!("<ul>\n{}</ul>\n", items.iter().map(|s| format!("<li>{}</li>\n", html_escape(s))).collect::<String>())
    }
    fn table(&self, t: &Table) -> String {
        html_table(t)
    }
    fn charts(&self, charts: &[ReportChart]) -> String {
        let images: Vec<String> = charts
            .iter()
            .filter_map(|c| {
                c.safe_png().map(|png| {
                    format!(
                        "<figure><img src=\"{png}\" alt=\"{0}\"><figcaption>{0}</figcaption></figure>\n",
                        html_escape(&c.title)
                    )
                })
            })
            .collect();
        if images.is_empty() {
            String::new()
        } else {
            self.heading(2, "Charts") + &images.concat()
        }
    }
}

pub fn page_html(p: &ReportPage) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
        html_escape(&p.title),
        html_style(),
        page(p, &Html)
    )
}
