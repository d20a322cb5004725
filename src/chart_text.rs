//! Bundle text on its way into a chart. Plotly.js renders a subset of HTML in trace names,
//! category labels, axis titles and hover text: `<a href>`, `<span style>`, `<b>`, `<i>`, `<sub>`,
//! `<sup>`, `<br>` and entities (https://plotly.com/chart-studio-help/adding-HTML-and-links-to-charts/;
//! the parser is `src/lib/svg_text_utils.js` of plotly.js). A run label such as
//! `<a href="?src=…">click</a>` would become a link in every legend. So every string from a bundle
//! that reaches a figure goes through [`chart_text`]: shortened, then `&`, `<` and `>` written as
//! entities, which Plotly decodes back into those characters as plain text.

use crate::limits::MAX_CHART_LABEL_CHARS;

/// `s` as Plotly must receive it: at most `MAX_CHART_LABEL_CHARS` characters (an ellipsis marks a
/// cut), with the characters of Plotly's markup encoded so they show literally.
pub fn chart_text(s: &str) -> String {
    let cut = s.char_indices().nth(MAX_CHART_LABEL_CHARS - 1).map(|(i, _)| i);
    let shown = match cut {
        Some(i) if s[i..].chars().nth(1).is_some() => &s[..i],
        _ => s,
    };
    let mut out = String::with_capacity(shown.len() + 8);
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // Plotly breaks lines only at <br>; a raw line break would be lost anyway.
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    if shown.len() < s.len() {
        out.push('…');
    }
    out
}

/// Category names made unique: Plotly merges categories with equal names into one slot, so two
/// transactions whose shortened names coincide would share a bar position (and the chart would
/// look unsorted). Later duplicates get " (2)", " (3)", ….
pub fn unique(names: Vec<String>) -> Vec<String> {
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut next: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(names.len());
    for n in names {
        if used.insert(n.clone()) {
            out.push(n);
            continue;
        }
        let mut k = next.get(&n).copied().unwrap_or(2);
        let mut candidate = format!("{n} ({k})");
        while !used.insert(candidate.clone()) {
            k += 1;
            candidate = format!("{n} ({k})");
        }
        next.insert(n, k + 1);
        out.push(candidate);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_names_become_distinct_categories() {
        let names = ["a…", "b", "a…", "a… (2)", "a…"].map(String::from).to_vec();
        let u = unique(names);
        assert_eq!(u, ["a…", "b", "a… (2)", "a… (2) (2)", "a… (3)"].map(String::from).to_vec());
        let set: std::collections::HashSet<&String> = u.iter().collect();
        assert_eq!(set.len(), u.len());
    }

    /// Plotly's own decoding of the entities `chart_text` writes (svg_text_utils.js
    /// `convertEntities`), to check that the text comes back unchanged.
    fn plotly_decodes(s: &str) -> String {
        s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    }

    #[test]
    fn markup_is_encoded_and_decodes_to_the_same_text() {
        for s in [
            "<a href=\"?src=https://elsewhere.example/x.json\">click</a>",
            "<span style=\"font-size:60px\">big</span>",
            "a &lt; b & <br> c",
            "<img src=x onerror=alert(1)>",
            "plain label · 20 users",
        ] {
            let e = chart_text(s);
            assert!(!e.contains('<') && !e.contains('>'), "{e}");
            assert_eq!(plotly_decodes(&e), s, "the text shows literally");
        }
        assert_eq!(chart_text("&lt;"), "&amp;lt;", "an entity in the bundle stays an entity's text");
    }

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        let long = "Ω".repeat(MAX_CHART_LABEL_CHARS * 3);
        let e = chart_text(&long);
        assert_eq!(e.chars().count(), MAX_CHART_LABEL_CHARS);
        assert!(e.ends_with('…'));
        let exact = "x".repeat(MAX_CHART_LABEL_CHARS);
        assert_eq!(chart_text(&exact), exact, "text at the limit is not cut");
        assert_eq!(chart_text(""), "");
    }

    #[test]
    fn line_breaks_become_spaces() {
        assert_eq!(chart_text("a\nb\r\nc"), "a b  c");
    }
}
