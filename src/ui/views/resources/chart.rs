//! The figures of the Resources page: utilization per service (grouped bars, one trace per run)
//! and utilization over time (one line per series).

use crate::analysis::Row;
use crate::bundle::{Run, Unit};
use crate::limits::{MAX_CHART_TRACES, MAX_SERIES_POINTS};
use crate::model::Section;
use crate::tables::RowFilter;
use crate::ui::components::chart::{axis, bars_per_run, configured, margin, text, themed, Attr, Attrs, Figure, Trace};
use plotly::common::Orientation;
use plotly::layout::BarMode;
use std::sync::Arc;

/// Statistic `s` ("average" or "peak") of each service in percent, grouped by service.
pub(super) fn utilization_figure(rows: &[Row], s: &str, labels: &[String], f: &RowFilter, dark: bool) -> Figure {
    let picked: Vec<&Row> = rows
        .iter()
        .filter(|r| r.section == Section::Resource && &*r.metric == s && r.unit == Unit::Percent && f.keeps(r))
        .collect();
    let names: Vec<String> = picked.iter().map(|r| r.key.to_string()).collect();
    let mut fig = bars_per_run(&picked, &names, labels, false);
    fig.set_layout(themed(
        dark,
        Attrs::default()
            .with("height", 380u32)
            .with("barmode", Attr::of(BarMode::Group))
            .with("bargap", if names.len() < 3 { 0.6 } else { 0.2 })
            .with("margin", margin(10, 10, 30, 10))
            .with(
                "legend",
                Attr::obj([("orientation", Attr::of(Orientation::Horizontal)), ("y", 1.1.into()), ("x", 0.0.into())]),
            )
            .with("yaxis", axis(dark, text(&format!("{s} utilization (%)")))),
    ));
    configured(fig, &format!("resources-{s}"))
}

/// Every resource series of the runs (up to `MAX_CHART_TRACES`), minutes since start on x.
pub(super) fn series_figure(runs: &[Arc<Run>], dark: bool) -> Figure {
    let mut fig = Figure::new();
    let all =
        runs.iter().flat_map(|run| run.resources.iter().filter_map(move |r| r.series.as_ref().map(|s| (run, r, s))));
    for (run, r, s) in all.take(MAX_CHART_TRACES) {
        let n = s.t_s.len().min(s.values.len());
        // Long series are thinned to every k-th point; the table keeps the exact figures.
        let step = n.div_ceil(MAX_SERIES_POINTS).max(1);
        let mins: Vec<f64> = s.t_s[..n].iter().step_by(step).map(|t| t / 60.0).collect();
        let vals: Vec<f64> = s.values[..n].iter().step_by(step).copied().collect();
        let name = text(&format!("{} · {} · {}", run.label, r.service, r.metric));
        fig.add_trace(Trace::scatter().with("x", mins).with("y", vals).with("name", name));
    }
    fig.set_layout(themed(
        dark,
        Attrs::default()
            .with("height", 360u32)
            .with("xaxis", axis(dark, "minutes since start"))
            .with("margin", margin(10, 10, 30, 10)),
    ));
    configured(fig, "resources-series")
}
