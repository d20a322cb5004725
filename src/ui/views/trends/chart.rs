//! The chart of the Trends page: the chosen metric across the runs in order, the baseline and
//! the band within noise of it marked, points coloured by verdict, change points and annotated
//! runs marked (`marks`); a regression on the baseline's level is drawn open, as a blip.

use crate::analysis::trend::{Trend, ORDER_START};
use crate::analysis::{Verdict, Why};
use crate::bundle::AnnotationKind;
use crate::format;
use crate::model::Measure;
use crate::ui::components::chart::{
    axis, configured, margin, plain_axis, symbol, text, themed, Attr, Attrs, ChartText, Figure, Trace,
};
use plotly::common::{Anchor, Fill, HoverInfo, Mode, Orientation};
use plotly::layout::{AxisType, HoverMode};

/// The chart of a trend: a line through the values, the band within noise of the baseline, and
/// one marker trace per verdict (so the legend explains the colours).
pub(super) fn figure(t: &Trend, labels: &[String], by: &str, threshold: f64, dark: bool) -> Figure {
    let p = crate::palette::of(dark);
    let x = categories(t, labels, by);
    let (scale, unit_name) = display_unit(t);
    let y: Vec<Option<f64>> = t.row.cells.iter().map(|c| c.value.map(|v| v / scale)).collect();
    // The line joins comparable runs only: a failed run's figure would drag it down.
    let line_y: Vec<Option<f64>> =
        t.row.cells.iter().zip(&y).map(|(c, v)| if c.verdict == Verdict::NotComparable { None } else { *v }).collect();
    let mut fig = Figure::new();
    fig.add_trace(
        Trace::scatter()
            .with("x", x.clone())
            .with("y", line_y)
            .with("mode", Attr::of(Mode::Lines))
            .with("line", Attr::obj([("color", p.muted.into()), ("width", 1.5.into())]))
            .with("connectgaps", true)
            .with("showlegend", false)
            .with("hoverinfo", Attr::of(HoverInfo::Skip)),
    );
    if let Some(b) = t.row.cells.get(t.baseline).and_then(|c| c.value).map(|b| b / scale) {
        for band in noise_band(t, &x, b, threshold, p.band) {
            fig.add_trace(band);
        }
    }
    for (name, colour, symbol, size, keep) in verdict_groups(p) {
        let idx: Vec<usize> = (0..x.len()).filter(|i| keep(t, *i) && y[*i].is_some()).collect();
        if idx.is_empty() {
            continue;
        }
        fig.add_trace(
            Trace::scatter()
                .with("x", idx.iter().map(|i| x[*i].clone()).collect::<Vec<_>>())
                .with("y", idx.iter().map(|i| y[*i]).collect::<Vec<_>>())
                .with("mode", Attr::of(Mode::Markers))
                .with("marker", Attr::obj([("color", colour.into()), ("symbol", symbol.into()), ("size", size.into())]))
                .with("name", name)
                .with("hovertext", idx.iter().map(|i| hover(t, labels, *i)).collect::<Vec<_>>())
                .with("hoverinfo", Attr::of(HoverInfo::Text)),
        );
    }
    let (shapes, labels) = super::marks::marks(t, &x, p);
    let layout = layout(t, by, unit_name, dark).with("shapes", shapes).with("annotations", labels);
    fig.set_layout(themed(dark, layout.with("margin", margin(10, 10, 20, 10))));
    configured(fig, "runlens-trend")
}

/// The x values: the order's values, or the run labels where those repeat (category values
/// must be unique). Order values and labels are data: dates and names alike are `ChartText`.
fn categories(t: &Trend, labels: &[String], by: &str) -> Vec<ChartText> {
    let mut seen = std::collections::HashSet::new();
    let raw = if by == crate::analysis::trend::ORDER_BUNDLE || !t.x.iter().all(|v| seen.insert(v.clone())) {
        labels
    } else {
        &t.x[..]
    };
    raw.iter().map(|v| text(v)).collect()
}

/// Durations and sizes in a unit a reader can take in (hours, GiB), not 40,200 seconds: the
/// divisor and the unit's name.
fn display_unit(t: &Trend) -> (f64, &'static str) {
    let max = t.row.cells.iter().filter_map(|c| c.value).fold(0.0f64, |m, v| m.max(v.abs()));
    match t.row.unit {
        crate::bundle::Unit::S if max >= 7200.0 => (3600.0, "hours"),
        crate::bundle::Unit::S if max >= 120.0 => (60.0, "minutes"),
        crate::bundle::Unit::Bytes if max >= 1073741824.0 => (1073741824.0, "GiB"),
        crate::bundle::Unit::Bytes if max >= 1048576.0 => (1048576.0, "MiB"),
        u => (1.0, crate::analysis::unit_name(u)),
    }
}

/// The band within the threshold of the baseline `b` (in display units): a lower edge and an
/// upper edge filled down to it; none for error rates (judged by their own interval).
fn noise_band(t: &Trend, x: &[ChartText], b: f64, threshold: f64, colour: &'static str) -> Vec<Trace> {
    let d = match t.row.spec.measure {
        Measure::Relative => b.abs() * threshold / 100.0,
        Measure::Points => threshold,
        Measure::ErrorRate => return Vec::new(),
    };
    let unit_word = if t.row.spec.measure == Measure::Points { " pp" } else { "%" };
    let edge = |y: f64| {
        Trace::scatter()
            .with("x", x.to_vec())
            .with("y", vec![y; x.len()])
            .with("mode", Attr::of(Mode::Lines))
            .with("line", Attr::obj([("width", 0.0.into())]))
            .with("hoverinfo", Attr::of(HoverInfo::Skip))
    };
    let name = text(&format!("within ±{}{unit_word} of the baseline", format::number(threshold)));
    vec![
        edge(b - d).with("showlegend", false),
        edge(b + d).with("fill", Attr::of(Fill::ToNextY)).with("fillcolor", colour).with("name", name),
    ]
}

/// A legend entry of points: its name, colour, marker symbol and size, and the runs it shows.
type Group = (&'static str, &'static str, &'static str, u32, fn(&Trend, usize) -> bool);

/// Run `i`'s verdict.
fn v(t: &Trend, i: usize) -> Verdict {
    t.row.cells[i].verdict
}

fn verdict_groups(p: &crate::palette::Palette) -> [Group; 8] {
    [
        ("baseline", p.accent, symbol::DIAMOND, 13, |t, i| v(t, i) == Verdict::Baseline),
        ("regressed", p.worse, symbol::CIRCLE, 9, |t, i| {
            v(t, i) == Verdict::Regressed && !t.is_blip(i) && !t.is_expected(i)
        }),
        ("regressed, expected", p.accent, symbol::CIRCLE, 8, |t, i| v(t, i) == Verdict::Regressed && t.is_expected(i)),
        ("regressed, a blip (no shift)", p.worse, symbol::CIRCLE_OPEN, 9, |t, i| {
            v(t, i) == Verdict::Regressed && t.is_blip(i)
        }),
        ("improved", p.better, symbol::CIRCLE, 9, |t, i| v(t, i) == Verdict::Improved),
        ("within noise", p.muted, symbol::CIRCLE, 7, |t, i| matches!(v(t, i), Verdict::WithinNoise | Verdict::Changed)),
        ("excluded", p.muted, symbol::X, 9, |t, i| t.row.cells[i].why == Why::Excluded),
        ("not judged", p.muted, symbol::CIRCLE_OPEN, 8, |t, i| {
            t.row.cells[i].why != Why::Excluded
                && matches!(
                    v(t, i),
                    Verdict::NotComparable
                        | Verdict::NotEnoughData
                        | Verdict::Added
                        | Verdict::Removed
                        | Verdict::Missing
                )
        }),
    ]
}

/// A point's hover text: the run, its value with the change, and the verdict.
fn hover(t: &Trend, labels: &[String], i: usize) -> ChartText {
    let c = &t.row.cells[i];
    let v = c.value.map(|v| format::value(v, c.unit)).unwrap_or_default();
    let ch = c.change.map(|ch| format!(" ({})", ch.text(t.row.spec.family, c.unit))).unwrap_or_default();
    let mut lines = vec![text(&labels[i]), text(&format!("{v}{ch}")), text(c.verdict.label())];
    if let Some(s) = t.shifts.iter().find(|s| s.index == i) {
        lines.push(text(&format!("shift starts: {} ({}), {}", s.change_text(), s.p_text(), s.kind_text())));
    } else if t.is_blip(i) {
        lines.push(text("a blip: on the baseline's level, no shift"));
    }
    if let Some(a) = t.annotations.get(i).and_then(Option::as_ref) {
        let kind = if a.kind == AnnotationKind::Excluded { "excluded" } else { "expected change" };
        lines.push(text(&if a.note.is_empty() { kind.to_string() } else { format!("{kind}: {}", a.note) }));
    }
    ChartText::lines(lines)
}

fn layout(t: &Trend, by: &str, unit_name: &str, dark: bool) -> Attrs {
    let mut x_axis = plain_axis(dark);
    x_axis.set("nticks", 14u32);
    x_axis.set("type", Attr::of(if by == ORDER_START { AxisType::Date } else { AxisType::Category }));
    Attrs::default()
        .with("height", 400u32)
        .with("xaxis", x_axis)
        .with("yaxis", axis(dark, text(&format!("{} ({unit_name})", t.row.label()))))
        .with("hovermode", Attr::of(HoverMode::Closest))
        // At the foot of the figure (the mode bar sits at the top right), below the axis labels
        // however tall they are: placed in the figure's height, not the plot's (which put it over
        // tilted run labels at narrow widths).
        .with(
            "legend",
            Attr::obj([
                ("orientation", Attr::of(Orientation::Horizontal)),
                ("yref", "container".into()),
                ("y", 0.0.into()),
                ("yanchor", Attr::of(Anchor::Bottom)),
                ("x", 0.0.into()),
            ]),
        )
}
