//! Resources: CPU, memory, DB CPU and connections per service per run, with deltas; a bar chart
//! of averages and peaks; time-series charts where the bundle has series.

use crate::bundle::Unit;
use crate::limits::{MAX_CHART_CATEGORIES, MAX_CHART_TRACES, MAX_SERIES_POINTS};
use crate::model::Section;
use crate::tables::compare_table;
use crate::ui::components::chart::{
    axis, bars_per_run, configured, cut_note, margin, text, themed, Attr, Attrs, Chart, Figure, Trace,
};
use crate::ui::components::controls::{by_change, row_filter, FilterControls, NoData};
use crate::ui::components::table_view::TableView;
use crate::ui::show::{shown, shown_or};
use leptos::prelude::*;
use plotly::common::Orientation;
use plotly::layout::BarMode;

#[component]
pub fn Resources() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let filter = row_filter(state);
    let by_change = by_change(state);
    let has_any = move || state.rows.with(|r| r.iter().any(|r| r.section == Section::Resource));
    let table = crate::ui::derived(move |_| {
        let labels = state.labels.get();
        let f = filter.get();
        state.rows.with(|rows| compare_table(rows, &labels, Section::Resource, &f))
    });
    // Start with whichever statistic the selected runs report more often.
    let count = |m: &str| {
        state
            .rows
            .with_untracked(|rows| rows.iter().filter(|r| r.section == Section::Resource && &*r.metric == m).count())
    };
    let stat = RwSignal::new(if count("peak") > count("average") { "peak" } else { "average" });
    let figure = move || {
        let s = stat.get();
        let labels = state.labels.get();
        let f = filter.get();
        let dark = state.dark.get();
        state.rows.with(|rows| {
            let picked: Vec<&crate::analysis::Row> = rows
                .iter()
                .filter(|r| r.section == Section::Resource && &*r.metric == s && r.unit == Unit::Percent && f.keeps(r))
                .collect();
            let names: Vec<String> = picked.iter().map(|r| r.key.to_string()).collect();
            let mut fig = bars_per_run(&picked, &names, &labels, false);
            fig.set_layout(themed(
                dark,
                Attrs::default()
                    .with("height", 380u32)
                    .with("barmode", Attr::of(BarMode::Group))
                    .with("bargap", if names.len() < 3 { 0.6 } else { 0.2 })
                    .with("margin", margin(10, 10, 30, 10))
                    .with(
                        "legend",
                        Attr::obj([
                            ("orientation", Attr::of(Orientation::Horizontal)),
                            ("y", 1.1.into()),
                            ("x", 0.0.into()),
                        ]),
                    )
                    .with("yaxis", axis(dark, text(&format!("{s} utilization (%)")))),
            ));
            configured(fig, &format!("resources-{s}"))
        })
    };
    let bar_note = move || {
        let s = stat.get();
        let n = state.rows.with(|rows| {
            rows.iter().filter(|r| r.section == Section::Resource && &*r.metric == s && r.unit == Unit::Percent).count()
        });
        cut_note((n, MAX_CHART_CATEGORIES, "services"), (state.labels.with(Vec::len), MAX_CHART_TRACES, "runs"))
    };
    let has_series = move || state.runs.with(|rs| rs.iter().any(|r| r.resources.iter().any(|x| x.series.is_some())));
    let n_series = move || {
        state
            .runs
            .with(|rs| rs.iter().map(|r| r.resources.iter().filter(|x| x.series.is_some()).count()).sum::<usize>())
    };
    let series = move || {
        let dark = state.dark.get();
        let mut fig = Figure::new();
        state.runs.with(|runs| {
            let all = runs
                .iter()
                .flat_map(|run| run.resources.iter().filter_map(move |r| r.series.as_ref().map(|s| (run, r, s))));
            for (run, r, s) in all.take(MAX_CHART_TRACES) {
                let n = s.t_s.len().min(s.values.len());
                // Long series are thinned to every k-th point; the table keeps the exact figures.
                let step = n.div_ceil(MAX_SERIES_POINTS).max(1);
                let mins: Vec<f64> = s.t_s[..n].iter().step_by(step).map(|t| t / 60.0).collect();
                let vals: Vec<f64> = s.values[..n].iter().step_by(step).copied().collect();
                let name = text(&format!("{} · {} · {}", run.label, r.service, r.metric));
                fig.add_trace(Trace::scatter().with("x", mins).with("y", vals).with("name", name));
            }
        });
        fig.set_layout(themed(
            dark,
            Attrs::default()
                .with("height", 360u32)
                .with("xaxis", axis(dark, "minutes since start"))
                .with("margin", margin(10, 10, 30, 10)),
        ));
        configured(fig, "resources-series")
    };
    view! {
        <div class="resources">
            {shown_or(has_any, move || view! {
                <FilterControls placeholder="Filter services or metrics"/>
                <div class="chart-head">
                    <h2>"Utilization per service"</h2>
                    <label>"Show "
                        <select on:change=move |ev| stat.set(if event_target_value(&ev) == "peak" { "peak" } else { "average" })>
                            <option value="average" selected=move || stat.get() == "average">"average"</option>
                            <option value="peak" selected=move || stat.get() == "peak">"peak / initial spike"</option>
                        </select>
                    </label>
                </div>
                <Chart figure=figure label="Resource utilization per service for each selected run" file_name="runlens-resources"/>
                {move || bar_note().map(|n| view! { <p class="hint chart-cut">{n}</p> })}
                {move || {
                    let sort = RwSignal::new(by_change.get().then_some((crate::tables::BY_CHANGE, true)));
                    view! { <TableView table=table group_rows=true sort=sort/> }
                }}
                {shown(has_series, move || view! {
                    <h2>"Over time"</h2>
                    <Chart figure=series label="Resource utilization over time" file_name="runlens-resources-over-time"/>
                    {move || cut_note((0, 0, ""), (n_series(), MAX_CHART_TRACES, "series")).map(|n| view! { <p class="hint chart-cut">{n}</p> })}
                }.into_any())}
            }.into_any(), {let f = || view! {
                <NoData what="resource figures" field="runs[].resources" has=|r| !r.resources.is_empty()/>
            }; move || f().into_any()})}
        </div>
    }
}
