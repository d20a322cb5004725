//! The verdict colours, one palette for the page's CSS (`public/style.css`, checked by a test
//! here), its charts and the report page's HTML export.

/// The colours of one theme. `better`…`same` are also the CSS variables `--better`…`--same`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub better: &'static str,
    pub better_bg: &'static str,
    pub worse: &'static str,
    pub worse_bg: &'static str,
    pub changed: &'static str,
    pub changed_bg: &'static str,
    pub same: &'static str,
    pub accent: &'static str,
    /// Points and bars that carry no verdict (not judged, within noise) in charts.
    pub muted: &'static str,
    /// The band within noise of the baseline in charts.
    pub band: &'static str,
}

pub const LIGHT: Palette = Palette {
    better: "#0f7b3f",
    better_bg: "#e3f5ea",
    worse: "#b42318",
    worse_bg: "#fdecea",
    changed: "#8a5a00",
    changed_bg: "#fff4d6",
    same: "#52606d",
    accent: "#2563eb",
    muted: "#7b8794",
    band: "rgba(82,96,109,0.12)",
};

pub const DARK: Palette = Palette {
    better: "#5fd08b",
    better_bg: "#17301f",
    worse: "#ff8a80",
    worse_bg: "#3a1d1b",
    changed: "#f0c060",
    changed_bg: "#352c14",
    same: "#a3adba",
    accent: "#6ea8fe",
    muted: "#a3adba",
    band: "rgba(163,173,186,0.18)",
};

/// The palette of the page's theme.
pub fn of(dark: bool) -> &'static Palette {
    if dark {
        &DARK
    } else {
        &LIGHT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of `--name` in the CSS block that starts at `selector`.
    fn css_var(css: &str, selector: &str, name: &str) -> Option<String> {
        let block = &css[css.find(selector)?..];
        let block = &block[..block.find('}')?];
        let at = block.find(&format!("--{name}:"))? + name.len() + 3;
        Some(block[at..].split(';').next()?.trim().to_string())
    }

    #[test]
    fn the_stylesheet_uses_the_palette_s_colours() {
        let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/public/style.css")).unwrap();
        for (selector, p) in [(":root {", &LIGHT), (":root[data-theme=\"dark\"] {", &DARK)] {
            for (name, want) in [
                ("better", p.better),
                ("better-bg", p.better_bg),
                ("worse", p.worse),
                ("worse-bg", p.worse_bg),
                ("changed", p.changed),
                ("changed-bg", p.changed_bg),
                ("same", p.same),
                ("accent", p.accent),
            ] {
                assert_eq!(css_var(&css, selector, name).as_deref(), Some(want), "--{name} in {selector}");
            }
        }
    }
}
