//! Bundle text is data, never markup: escaped for Markdown (every ASCII punctuation character a
//! construct could start with, HTML's `<`, `>` and `&` as entities, line breaks as spaces) and for
//! a terminal line (control characters shown as escapes). Stricter than the table export's cell
//! escape (`runlens::tables::export`): this text also opens paragraphs and list items, where `#`,
//! `+`, `-` and `=` start blocks, and GitHub links bare `https:` and `www.` text.

/// Text for Markdown (a paragraph, a list item or a table cell): it renders as itself.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => out.push('\u{FFFD}'),
            // Links, emphasis, code, tables, headings, lists, autolinks (`https:`, `www.`), math.
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.' | '!' | '|' | '~'
            | ':' | '=' | '$' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A URL made by runlens for a Markdown link target: characters that would end it encoded.
pub fn markdown_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '"' => out.push_str("%22"),
            '\\' => out.push_str("%5C"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Text for one terminal line: control characters (a newline, an escape sequence) shown escaped.
pub fn line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn markdown_text_stays_text() {
        assert_eq!(super::markdown("a|b <script>"), "a\\|b &lt;script&gt;");
        assert_eq!(super::markdown("[x](https://e)"), "\\[x\\]\\(https\\://e\\)");
        assert_eq!(super::markdown("`a`\nb"), "\\`a\\` b");
        assert_eq!(super::line("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
    }
}
