//! Bundle text on its way into a chart. Plotly.js renders a subset of HTML in trace names,
//! category labels, axis titles and hover text: `<a href>`, `<span style>`, `<b>`, `<i>`, `<sub>`,
//! `<sup>`, `<br>` and entities (https://plotly.com/chart-studio-help/adding-HTML-and-links-to-charts/;
//! the parser is `src/lib/svg_text_utils.js` of plotly.js). A run label such as
//! `<a href="?src=…">click</a>` would become a link in every legend. So text from data reaches a
//! figure only as a [`ChartText`], which only [`chart_text`] makes: shortened, then `&`, `<` and
//! `>` written as entities, which Plotly decodes back into those characters as plain text.
//! (`figure::Attr` takes no other string but the code's own `&'static str` literals.)

use crate::limits::MAX_CHART_LABEL_CHARS;

/// Text from data, encoded for Plotly by [`chart_text`]: the only way to make one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ChartText(String);

impl ChartText {
    /// The encoded text, as Plotly receives it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }

    /// The parts on lines of their own (joined by Plotly's `<br>`), for hover text.
    pub fn lines(parts: impl IntoIterator<Item = ChartText>) -> ChartText {
        let parts: Vec<String> = parts.into_iter().map(|p| p.0).collect();
        ChartText(parts.join("<br>"))
    }
}

impl PartialEq<&str> for ChartText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::fmt::Display for ChartText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `s` as Plotly must receive it: at most `MAX_CHART_LABEL_CHARS` characters (an ellipsis marks a
/// cut), with the characters of Plotly's markup encoded so they show literally.
pub fn chart_text(s: &str) -> ChartText {
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
    ChartText(out)
}

/// Category names made unique: Plotly merges categories with equal names into one slot, so two
/// transactions whose shortened names coincide would share a bar position (and the chart would
/// look unsorted). Later duplicates get " (2)", " (3)", ….
pub fn unique(names: Vec<ChartText>) -> Vec<ChartText> {
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut next: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(names.len());
    for ChartText(n) in names {
        if used.insert(n.clone()) {
            out.push(ChartText(n));
            continue;
        }
        let mut k = next.get(&n).copied().unwrap_or(2);
        let mut candidate = format!("{n} ({k})");
        while !used.insert(candidate.clone()) {
            k += 1;
            candidate = format!("{n} ({k})");
        }
        next.insert(n, k + 1);
        out.push(ChartText(candidate));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_names_become_distinct_categories() {
        let names = ["a…", "b", "a…", "a… (2)", "a…"].map(chart_text).to_vec();
        let u = unique(names);
        assert_eq!(u, ["a…", "b", "a… (2)", "a… (2) (2)", "a… (3)"].map(chart_text).to_vec());
        let set: std::collections::HashSet<&ChartText> = u.iter().collect();
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
            let e = e.as_str();
            assert!(!e.contains('<') && !e.contains('>'), "{e}");
            assert_eq!(plotly_decodes(e), s, "the text shows literally");
        }
        assert_eq!(chart_text("&lt;"), "&amp;lt;", "an entity in the bundle stays an entity's text");
    }

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        let long = "Ω".repeat(MAX_CHART_LABEL_CHARS * 3);
        let e = chart_text(&long);
        let e = e.as_str();
        assert_eq!(e.chars().count(), MAX_CHART_LABEL_CHARS);
        assert!(e.ends_with('…'));
        let exact = "x".repeat(MAX_CHART_LABEL_CHARS);
        assert_eq!(chart_text(&exact).as_str(), exact, "text at the limit is not cut");
        assert_eq!(chart_text(""), "");
    }

    #[test]
    fn lines_are_joined_by_plotly_s_line_break_and_stay_encoded() {
        let t = ChartText::lines([chart_text("<b>run</b>"), chart_text("12 ms")]);
        assert_eq!(t, "&lt;b&gt;run&lt;/b&gt;<br>12 ms");
    }

    #[test]
    fn line_breaks_become_spaces() {
        assert_eq!(chart_text("a\nb\r\nc"), "a b  c");
    }
}
