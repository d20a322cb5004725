//! Resources: CPU, memory, DB CPU and connections per service per run, with deltas; a bar chart
//! of averages and peaks; time-series charts where the bundle has series.

mod chart;

use crate::analysis::Row;
use crate::bundle::Unit;
use crate::limits::{MAX_CHART_CATEGORIES, MAX_CHART_TRACES};
use crate::model::Section;
use crate::tables::{compare_table, RowFilter};
use crate::ui::components::chart::{cut_note, Chart};
use crate::ui::components::controls::{by_change, row_filter, FilterControls};
use crate::ui::components::no_data::NoData;
use crate::ui::components::table_view::TableView;
use crate::ui::show::{shown, shown_or};
use chart::{series_figure, utilization_figure};
use leptos::prelude::*;

#[component]
pub fn Resources() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let filter = row_filter(state);
    let by_change = by_change(state);
    let has_any = move || state.rows.with(|r| r.iter().any(|r| r.section == Section::Resource));
    let stat = RwSignal::new(initial_stat(state.rows));
    view! {
        <div class="resources">
            {shown_or(has_any, move || view! {
                <FilterControls placeholder="Filter services or metrics"/>
                <Utilization stat filter/>
                <ResourcesTable filter by_change/>
                <OverTime/>
            }.into_any(), {let f = || view! {
                <NoData what="resource figures" field="runs[].resources" has=|r| !r.resources.is_empty()/>
            }; move || f().into_any()})}
        </div>
    }
}

/// Start with whichever statistic the selected runs report more often.
fn initial_stat(rows: Memo<Vec<Row>>) -> &'static str {
    let count = |m: &str| {
        rows.with_untracked(|rows| rows.iter().filter(|r| r.section == Section::Resource && &*r.metric == m).count())
    };
    if count("peak") > count("average") {
        "peak"
    } else {
        "average"
    }
}

/// How many bars statistic `s` has (services in percent), for the note on what the chart leaves out.
fn bar_count(rows: &[Row], s: &str) -> usize {
    rows.iter().filter(|r| r.section == Section::Resource && &*r.metric == s && r.unit == Unit::Percent).count()
}

/// "Utilization per service": the statistic picker, the bar chart, and what it leaves out.
#[component]
fn Utilization(stat: RwSignal<&'static str>, filter: Memo<RowFilter>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let figure = move || {
        let s = stat.get();
        let labels = state.labels.get();
        let f = filter.get();
        let dark = state.dark.get();
        state.rows.with(|rows| utilization_figure(rows, s, &labels, &f, dark))
    };
    let bar_note = move || {
        let n = state.rows.with(|rows| bar_count(rows, stat.get()));
        cut_note((n, MAX_CHART_CATEGORIES, "services"), (state.labels.with(Vec::len), MAX_CHART_TRACES, "runs"))
    };
    view! {
        <div class="chart-head">
            <h2>"Utilization per service"</h2>
            <StatPicker stat/>
        </div>
        <Chart figure=figure label="Resource utilization per service for each selected run" file_name="runlens-resources"/>
        {move || bar_note().map(|n| view! { <p class="hint chart-cut">{n}</p> })}
    }
}

/// Average or peak.
#[component]
fn StatPicker(stat: RwSignal<&'static str>) -> impl IntoView {
    view! {
        <label>"Show "
            <select on:change=move |ev| stat.set(if event_target_value(&ev) == "peak" { "peak" } else { "average" })>
                <option value="average" selected=move || stat.get() == "average">"average"</option>
                <option value="peak" selected=move || stat.get() == "peak">"peak / initial spike"</option>
            </select>
        </label>
    }
}

/// The resources compared, biggest changes first when the URL asks.
#[component]
fn ResourcesTable(filter: Memo<RowFilter>, by_change: Memo<bool>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let table = crate::ui::derived(move |_| {
        let labels = state.labels.get();
        let f = filter.get();
        state.rows.with(|rows| compare_table(rows, &labels, Section::Resource, &f))
    });
    move || {
        let sort = RwSignal::new(by_change.get().then_some((crate::tables::BY_CHANGE, true)));
        view! { <TableView table=table group_rows=true sort=sort/> }
    }
}

/// "Over time": the series chart, where the runs have series.
#[component]
fn OverTime() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let has_series = move || state.runs.with(|rs| rs.iter().any(|r| r.resources.iter().any(|x| x.series.is_some())));
    let n_series = move || {
        state
            .runs
            .with(|rs| rs.iter().map(|r| r.resources.iter().filter(|x| x.series.is_some()).count()).sum::<usize>())
    };
    let series = move || {
        let dark = state.dark.get();
        state.runs.with(|runs| series_figure(runs, dark))
    };
    shown(has_series, move || {
        view! {
        <h2>"Over time"</h2>
        <Chart figure=series label="Resource utilization over time" file_name="runlens-resources-over-time"/>
        {move || cut_note((0, 0, ""), (n_series(), MAX_CHART_TRACES, "series")).map(|n| view! { <p class="hint chart-cut">{n}</p> })}
    }.into_any()
    })
}
