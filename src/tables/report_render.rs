//! Writes a `ReportPage` as Markdown (images embedded as PNG data URLs), Confluence wiki markup
//! (images referenced as page attachments by file name: attach the chart PNGs to the page) or one
//! self-contained HTML file. Every string from a bundle is escaped for the target: it is data,
//! never markup.
//!
//! Markdown: CommonMark backslash escapes (<https://spec.commonmark.org/0.31.2/#backslash-escapes>).
//! Confluence: wiki markup, `h1.`, `*bold*`, `!file.png!` for an attached image
//! (<https://confluence.atlassian.com/doc/confluence-wiki-markup-251003035.html>).

use super::export::{to_confluence, to_markdown, wiki_escape};
use super::report::ReportPage;
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
    if out.starts_with(['-', '+', '#', '=']) || out.split_once(['.', ')']).is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) {
        out.insert(0, '\\');
    }
    out
}

pub fn page_markdown(p: &ReportPage) -> String {
    let mut out = format!("# {}\n\n## Summary\n\n", md_text(&p.title));
    for s in &p.summary {
        out += &format!("{}\n\n", md_text(s));
    }
    if !p.author_summary.is_empty() {
        out += "From the report:\n\n";
        out += &p.author_summary.iter().map(|s| format!("- {}\n", md_text(s))).collect::<String>();
        out += "\n";
    }
    out += "## Test runs\n\n";
    out += &to_markdown(&p.runs);
    for (heading, tables) in [("Results", &p.results), ("Resource utilization", &p.resources)] {
        if !tables.is_empty() {
            out += &format!("\n## {heading}\n\n");
            out += &tables.iter().map(to_markdown).collect::<Vec<_>>().join("\n");
        }
    }
    let images: Vec<String> =
        p.charts.iter().filter_map(|c| c.safe_png().map(|png| format!("![{}]({png})\n", md_text(&c.title)))).collect();
    if !images.is_empty() {
        out += &format!("\n## Charts\n\n{}", images.join("\n"));
    }
    out += "\n## Notes\n\n";
    out += &p.notes.iter().map(|n| format!("- {}\n", md_text(n))).collect::<String>();
    out
}

pub fn page_confluence(p: &ReportPage) -> String {
    let mut out = format!("h1. {}\n\nh2. Summary\n\n", wiki_escape(&p.title));
    for s in &p.summary {
        out += &format!("{}\n\n", wiki_escape(s));
    }
    if !p.author_summary.is_empty() {
        out += "From the report:\n";
        out += &p.author_summary.iter().map(|s| format!("* {}\n", wiki_escape(s))).collect::<String>();
        out += "\n";
    }
    out += "h2. Test runs\n\n";
    out += &to_confluence(&p.runs);
    for (heading, tables) in [("Results", &p.results), ("Resource utilization", &p.resources)] {
        if !tables.is_empty() {
            out += &format!("\nh2. {heading}\n\n");
            out += &tables.iter().map(to_confluence).collect::<Vec<_>>().join("\n");
        }
    }
    if !p.charts.is_empty() {
        out += "\nh2. Charts\n\n";
        out += &format!(
            "_Attach {} to this page; the images below show them._\n\n",
            p.charts.iter().map(|c| c.file_name.clone()).collect::<Vec<_>>().join(", ")
        );
        for c in &p.charts {
            out += &format!("*{}*\n!{}!\n\n", wiki_escape(&c.title), attachment_name(&c.file_name));
        }
    }
    out += "\nh2. Notes\n\n";
    out += &p.notes.iter().map(|n| format!("* {}\n", wiki_escape(n))).collect::<String>();
    out
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

const HTML_STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1f2933}\
table{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:.9rem}caption{text-align:left;font-weight:600;padding:.3rem 0}\
th,td{border:1px solid #d9dee5;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f5f7fa}\
.num{text-align:right;white-space:nowrap}.improved{color:#0f7b3f;background:#e3f5ea}.regressed{color:#b42318;background:#fdecea}\
img{max-width:100%;border:1px solid #d9dee5}.notes{color:#52606d;font-size:.9rem}";

pub fn page_html(p: &ReportPage) -> String {
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{HTML_STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<h2>Summary</h2>\n",
        html_escape(&p.title),
        html_escape(&p.title)
    );
    out += &p.summary.iter().map(|s| format!("<p class=\"summary\">{}</p>\n", html_escape(s))).collect::<String>();
    if !p.author_summary.is_empty() {
        out += "<p>From the report:</p>\n<ul>\n";
        out += &p.author_summary.iter().map(|s| format!("<li>{}</li>\n", html_escape(s))).collect::<String>();
        out += "</ul>\n";
    }
    out += "<h2>Test runs</h2>\n";
    out += &html_table(&p.runs);
    for (heading, tables) in [("Results", &p.results), ("Resource utilization", &p.resources)] {
        if !tables.is_empty() {
            out += &format!("<h2>{heading}</h2>\n");
            out += &tables.iter().map(html_table).collect::<String>();
        }
    }
    let images: Vec<String> = p
        .charts
        .iter()
        .filter_map(|c| c.safe_png().map(|png| format!("<figure><img src=\"{png}\" alt=\"{0}\"><figcaption>{0}</figcaption></figure>\n", html_escape(&c.title))))
        .collect();
    if !images.is_empty() {
        out += &format!("<h2>Charts</h2>\n{}", images.concat());
    }
    out += "<h2>Notes</h2>\n<ul class=\"notes\">\n";
    out += &p.notes.iter().map(|n| format!("<li>{}</li>\n", html_escape(n))).collect::<String>();
    out + "</ul>\n</body>\n</html>\n"
}
