//! The Timeline figure: stacked panels on one x axis (latency percentile, throughput, errors,
//! active users, resources in percent), one colour per run, the window shaded, drag to select.

use crate::limits::MAX_CHART_TRACES;
use crate::tables::RunSeries;
use crate::ui::components::chart::{axis, configured, margin, text, themed, Attr, Attrs, Figure, Trace};
use plotly::common::{Mode, Orientation};
use plotly::layout::{AxisType, HoverMode};

/// Run colours, the same in every panel (Plotly's default sequence).
const RUN_COLOURS: [&str; 8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
/// Each panel's height in pixels.
const PANEL_PX: u32 = 150;
/// y axis names by panel, top to bottom.
const AXES: [(&str, &str); 6] =
    [("y", "yaxis"), ("y2", "yaxis2"), ("y3", "yaxis3"), ("y4", "yaxis4"), ("y5", "yaxis5"), ("y6", "yaxis6")];
/// Line styles of the error causes, commonest first (Plotly's names).
const CAUSE_DASHES: [&str; 5] = ["solid", "dot", "dash", "longdash", "dashdot"];
/// The same styles in the key under the chart (public/style.css draws them).
pub const DASH_CLASSES: [&str; 5] = ["dash0", "dash1", "dash2", "dash3", "dash4"];

/// What the figure shows besides the series.
pub struct Frame {
    pub percentile: u8,
    pub clock: bool,
    /// Elapsed time in seconds rather than minutes (a short run).
    pub seconds: bool,
    pub dark: bool,
    /// Each run's window as (from, to) on the x axis, if cut.
    pub windows: Vec<Option<(f64, f64)>>,
    /// The commonest error causes' names, and per drawn run each one's failures per second by
    /// bucket (`tables::cause_rates`).
    pub causes: Vec<String>,
    pub cause_rates: Vec<Vec<Vec<f64>>>,
}

struct Panel {
    title: &'static str,
    hover: &'static str,
    series: fn(&RunSeries) -> Vec<Option<f64>>,
}

fn some(v: &[f64]) -> Vec<Option<f64>> {
    v.iter().map(|x| Some(*x)).collect()
}

/// The panels of every run, top to bottom (errors by cause, then users and resources follow).
fn panels(percentile: u8) -> Vec<Panel> {
    let latency = match percentile {
        50 => "p50 (ms)",
        90 => "p90 (ms)",
        99 => "p99 (ms)",
        _ => "p95 (ms)",
    };
    vec![
        Panel { title: latency, hover: "%{y:,.1f} ms", series: |s| s.latency_ms.clone() },
        Panel { title: "throughput (/s)", hover: "%{y:,.2f}/s", series: |s| some(&s.throughput) },
        Panel { title: "errors (/s)", hover: "%{y:,.2f}/s", series: |s| some(&s.errors) },
    ]
}

const USERS: Panel = Panel { title: "active users", hover: "%{y:,.0f}", series: |s| some(&s.users) };

/// One line a run: `y` on panel `p`, in the run's colour.
fn line(s: &RunSeries, colour: &'static str, p: usize, y: Vec<Option<f64>>, hover: &'static str) -> Trace {
    Trace::scatter()
        .with("x", s.x.clone())
        .with("y", y)
        .with("yaxis", AXES[p].0)
        .with("mode", Attr::of(Mode::Lines))
        .with("name", text(&s.label))
        .with("legendgroup", text(&s.label))
        .with("line", Attr::obj([("color", colour.into()), ("width", 1.5.into())]))
        .with("hovertemplate", hover)
}

/// The figure of `runs` (one per selected run with a timeline, in selection order).
pub fn timeline_figure(runs: &[(usize, RunSeries)], frame: &Frame) -> Figure {
    let users = runs.iter().any(|(_, s)| !s.users.is_empty());
    let mut panels = panels(frame.percentile);
    let causes = (!frame.causes.is_empty()).then_some(panels.len());
    if users {
        panels.push(USERS);
    }
    let has_resources = runs.iter().any(|(_, s)| !s.resources.is_empty());
    let mut titles: Vec<&'static str> = panels.iter().map(|p| p.title).collect();
    if let Some(at) = causes {
        titles.insert(at, "errors by cause (/s)");
    }
    if has_resources {
        titles.push("resources (%)");
    }
    let n = titles.len();
    // The panel index of the `k`th run panel, after the causes' panel when it is above it.
    let axis_of = |k: usize| if causes.is_some_and(|at| k >= at) { k + 1 } else { k };
    let mut fig = Figure::new();
    let mut traces = 0;
    for (k, panel) in panels.iter().enumerate() {
        for (i, s) in runs {
            let colour = RUN_COLOURS[i % RUN_COLOURS.len()];
            fig.add_trace(line(s, colour, axis_of(k), (panel.series)(s), panel.hover).with("showlegend", k == 0));
            traces += 1;
        }
    }
    if let Some(p) = causes {
        for ((i, s), rates) in runs.iter().zip(&frame.cause_rates) {
            let colour = RUN_COLOURS[i % RUN_COLOURS.len()];
            for ((name, rate), dash) in frame.causes.iter().zip(rates).zip(CAUSE_DASHES) {
                if traces >= MAX_CHART_TRACES {
                    break;
                }
                let named = text(&format!("{} · {name}", s.label));
                fig.add_trace(
                    line(s, colour, p, some(rate), "%{y:,.2f}/s").with("name", named).with("showlegend", false).with(
                        "line",
                        Attr::obj([("color", colour.into()), ("width", 1.5.into()), ("dash", dash.into())]),
                    ),
                );
                traces += 1;
            }
        }
    }
    if has_resources {
        let p = n - 1;
        for (i, s) in runs {
            for (k, (name, x, y)) in s.resources.iter().enumerate() {
                if traces >= MAX_CHART_TRACES {
                    break;
                }
                // Several runs: each resource in its run's colour, named with its label. One run:
                // the resources in colours of their own (after the run's), by their names alone.
                let (name, colour) = if runs.len() > 1 {
                    (format!("{} · {name}", s.label), RUN_COLOURS[i % RUN_COLOURS.len()])
                } else {
                    (name.clone(), RUN_COLOURS[(i + 1 + k) % RUN_COLOURS.len()])
                };
                fig.add_trace(
                    Trace::scatter()
                        .with("x", x.clone())
                        .with("y", y.clone())
                        .with("yaxis", AXES[p].0)
                        .with("mode", Attr::of(Mode::Lines))
                        .with("legend", "legend2")
                        .with("name", text(&name))
                        .with(
                            "line",
                            Attr::obj([("color", colour.into()), ("width", 1.0.into()), ("dash", "dot".into())]),
                        )
                        .with("hovertemplate", "%{y:,.1f}%"),
                );
                traces += 1;
            }
        }
    }
    fig.set_layout(layout(n, &titles, runs, frame));
    configured(fig, "runlens-timeline")
}

fn layout(n: usize, titles: &[&'static str], runs: &[(usize, RunSeries)], frame: &Frame) -> Attrs {
    let dark = frame.dark;
    let gap = 0.04;
    let share = (1.0 - gap * (n as f64 - 1.0)) / n as f64;
    // Room for the resources' legend under the plot, one line an entry (as at narrow widths),
    // so that the panels keep their height and the legend its distance from the x axis.
    let entries = runs.iter().map(|(_, s)| s.resources.len()).sum::<usize>().min(MAX_CHART_TRACES) as u32;
    let legend_px = if entries > 0 { 60 + 19 * entries } else { 0 };
    let mut l = Attrs::default()
        .with("height", PANEL_PX * n as u32 + 90 + legend_px)
        .with("margin", margin(10, 10, 40, 10))
        .with("hovermode", Attr::of(HoverMode::XUnified))
        .with("dragmode", "select")
        .with("selectdirection", "h")
        .with("selections", Attr::from(Vec::<f64>::new()))
        .with(
            "legend",
            Attr::obj([
                ("orientation", Attr::of(Orientation::Horizontal)),
                ("y", 1.0.into()),
                ("yanchor", "bottom".into()),
                ("x", 0.0.into()),
            ]),
        );
    // The resources' legend under the x axis, beside their panel (the runs' stays on top).
    let below_px = 56.0;
    let plot_px = (PANEL_PX * n as u32 + 40) as f64;
    if entries > 0 {
        l.set(
            "legend2",
            Attr::obj([
                ("orientation", Attr::of(Orientation::Horizontal)),
                ("y", (-below_px / plot_px).into()),
                ("yanchor", "top".into()),
                ("x", 0.0.into()),
            ]),
        );
    }
    let mut x = match (frame.clock, frame.seconds) {
        (true, _) => axis(dark, "time (UTC)"),
        (false, true) => axis(dark, "elapsed test time (s)"),
        (false, false) => axis(dark, "elapsed test time (min)"),
    };
    if frame.clock {
        x.set("type", Attr::of(AxisType::Date));
    }
    x.set("anchor", AXES[n - 1].0);
    // The runs' buckets, not the resources' points beyond them (kept so their lines cross the edges).
    let lo = runs.iter().map(|(_, s)| s.span.0).reduce(f64::min);
    let hi = runs.iter().map(|(_, s)| s.span.1).reduce(f64::max);
    if let (Some(lo), Some(hi)) = (lo, hi) {
        x.set("range", vec![lo, hi]);
    }
    l.set("xaxis", x);
    for (p, title) in titles.iter().enumerate() {
        let top = 1.0 - p as f64 * (share + gap);
        let mut y = axis(dark, *title);
        y.set("domain", vec![(top - share).max(0.0), top]);
        y.set("rangemode", "tozero");
        y.set("fixedrange", true);
        l.set(AXES[p].1, y);
    }
    let shapes: Vec<Attr> = runs
        .iter()
        .zip(&frame.windows)
        .filter_map(|((i, _), w)| {
            let (a, b) = (*w)?;
            Some(Attr::obj([
                ("type", "rect".into()),
                ("xref", "x".into()),
                ("yref", "paper".into()),
                ("x0", a.into()),
                ("x1", b.into()),
                ("y0", 0.0.into()),
                ("y1", 1.0.into()),
                ("fillcolor", RUN_COLOURS[i % RUN_COLOURS.len()].into()),
                ("opacity", 0.08.into()),
                ("line", Attr::obj([("width", 0u32.into())])),
                ("layer", "below".into()),
            ]))
        })
        .collect();
    l.set("shapes", shapes);
    themed(dark, l)
}
