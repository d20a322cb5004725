//! The change points and annotations on the trend chart: a vertical line at the first run after
//! each shift, labelled with its size (red for a regression, green for an improvement, blue for
//! an expected change), and a dotted line at each run annotated as an expected change where no
//! shift was found, labelled at the plot's foot. Labels are `ChartText`.

use crate::analysis::changepoint::history::{Shift, ShiftKind};
use crate::analysis::trend::Trend;
use crate::bundle::AnnotationKind;
use crate::palette::Palette;
use crate::ui::components::chart::{text, Attr, ChartText};

/// The layout's `shapes` and `annotations`.
pub(super) fn marks(t: &Trend, x: &[ChartText], p: &Palette) -> (Vec<Attr>, Vec<Attr>) {
    let (mut shapes, mut labels) = (Vec::new(), Vec::new());
    for s in &t.shifts {
        let Some(at) = x.get(s.index) else { continue };
        let colour = shift_colour(s, p);
        shapes.push(line(at, colour, "solid"));
        labels.push(label(at, colour, text(&shift_label(s)), true));
    }
    let expected = t
        .annotations
        .iter()
        .enumerate()
        .filter(|(_, a)| a.as_ref().is_some_and(|a| a.kind == AnnotationKind::ExpectedChange));
    for (i, _) in expected.filter(|(i, _)| !t.shifts.iter().any(|s| s.index == *i)) {
        let Some(at) = x.get(i) else { continue };
        shapes.push(line(at, p.accent, "dot"));
        labels.push(label(at, p.accent, text("expected change"), false));
    }
    (shapes, labels)
}

fn shift_colour(s: &Shift, p: &Palette) -> &'static str {
    match s.kind {
        ShiftKind::Regression => p.worse,
        ShiftKind::Improvement => p.better,
        ShiftKind::Expected => p.accent,
        ShiftKind::Change => p.changed,
    }
}

/// "+12.3%", "expected +12.3%".
fn shift_label(s: &Shift) -> String {
    match s.kind {
        ShiftKind::Expected => format!("expected {}", s.change_text()),
        _ => s.change_text(),
    }
}

/// A vertical line over the plot's height at category (or date) `at`.
fn line(at: &ChartText, colour: &'static str, dash: &'static str) -> Attr {
    Attr::obj([
        ("type", "line".into()),
        ("xref", "x".into()),
        ("yref", "paper".into()),
        ("x0", at.clone().into()),
        ("x1", at.clone().into()),
        ("y0", 0.0.into()),
        ("y1", 1.0.into()),
        ("line", Attr::obj([("color", colour.into()), ("width", 1.5.into()), ("dash", dash.into())])),
    ])
}

/// The line's label, inside the plot, to the left of the line (the shift's size reads before
/// the runs it starts): a shift's at the top, below Plotly's mode bar (which covers the plot's top
/// right on narrow screens), an expected change's without a shift at the foot, so the two never
/// overlap when they are close.
fn label(at: &ChartText, colour: &'static str, words: ChartText, top: bool) -> Attr {
    Attr::obj([
        ("xref", "x".into()),
        ("yref", "paper".into()),
        ("x", at.clone().into()),
        ("y", if top { 1.0 } else { 0.0 }.into()),
        ("xanchor", "right".into()),
        ("yanchor", if top { "top" } else { "bottom" }.into()),
        ("xshift", (-3).into()),
        ("yshift", if top { -24 } else { 2 }.into()),
        ("showarrow", false.into()),
        ("text", words.into()),
        ("font", Attr::obj([("color", colour.into()), ("size", 12u32.into())])),
    ])
}
