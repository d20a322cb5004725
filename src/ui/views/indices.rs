//! Index sizes: store size by index per run (stacked bars), deltas between runs, and each run's
//! `_cat/indices` table in binary units.

use crate::bundle::Run;
use crate::limits::MAX_CHART_TRACES;
use crate::model::Section;
use crate::tables::{compare_table, indices_table, RowFilter};
use crate::ui::components::chart::{
    axis, configured, cut_note, margin, text, themed, Attr, Attrs, Chart, ChartText, Figure, Trace,
};
use crate::ui::components::no_data::NoData;
use crate::ui::components::table_view::TableView;
use crate::ui::show::shown_or;
use leptos::prelude::*;
use plotly::layout::BarMode;
use std::sync::Arc;

#[component]
pub fn Indices() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let runs = state.runs;
    let has_any = move || runs.with(|r| r.iter().any(|r| !r.indices.is_empty()));
    view! {
        <div class="indices">
            {shown_or(has_any, move || view! {
                <h2>"Store size by index"</h2>
                <StoreSizeChart runs/>
                <IndexDeltas/>
                <RunIndexTables runs/>
            }.into_any(), {let f = || view! {
                <NoData what="search-index statistics" field="runs[].indices (_cat/indices rows)" has=|r| !r.indices.is_empty()/>
            }; move || f().into_any()})}
        </div>
    }
}

/// Index names across the runs, largest total store size first (the chart stacks the largest
/// `MAX_CHART_TRACES`).
fn index_names(runs: &[Arc<Run>]) -> Vec<String> {
    let mut at: rustc_hash::FxHashMap<&str, usize> = Default::default();
    let mut total: Vec<(String, u64)> = Vec::new();
    for x in runs.iter().flat_map(|r| r.indices.iter()) {
        let size = x.store_size.map_or(0, |b| b.0);
        match at.get(x.index.as_str()) {
            Some(&i) => total[i].1 = total[i].1.saturating_add(size),
            None => {
                at.insert(&x.index, total.len());
                total.push((x.index.clone(), size));
            }
        }
    }
    crate::order::sort_by_key(&mut total, |t| std::cmp::Reverse(t.1));
    total.into_iter().map(|(n, _)| n).collect::<Vec<String>>()
}

/// Store size in GiB of each of `names` (one stacked trace each) per run.
fn store_size_figure(runs: &[Arc<Run>], names: &[String], dark: bool) -> Figure {
    let labels: Vec<ChartText> = runs.iter().map(|r| text(&r.label)).collect();
    let mut fig = Figure::new();
    for name in names.iter().take(MAX_CHART_TRACES) {
        let gib: Vec<Option<f64>> = runs
            .iter()
            .map(|r| {
                r.indices
                    .iter()
                    .find(|x| x.index == *name)
                    .and_then(|x| x.store_size)
                    .map(|b| b.0 as f64 / (1u64 << 30) as f64)
            })
            .collect();
        fig.add_trace(
            Trace::bar()
                .with("x", labels.clone())
                .with("y", gib)
                .with("name", text(name))
                .with("hovertemplate", "%{x}<br>%{fullData.name}: %{y:.1f} GiB<extra></extra>"),
        );
    }
    fig.set_layout(themed(
        dark,
        Attrs::default()
            .with("height", 380u32)
            .with("barmode", Attr::of(BarMode::Stack))
            .with("margin", margin(10, 10, 30, 10))
            .with("yaxis", axis(dark, "store size (GiB, with replicas)")),
    ));
    configured(fig, "index-store-size")
}

/// The stacked store sizes, and which indices the chart leaves out.
#[component]
fn StoreSizeChart(runs: Memo<Vec<Arc<Run>>>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let names = Memo::new(move |_| runs.with(|runs| index_names(runs)));
    let figure = move || {
        let dark = state.dark.get();
        runs.with(|runs| names.with(|names| store_size_figure(runs, names, dark)))
    };
    let note = move || cut_note((0, 0, ""), (names.with(Vec::len), MAX_CHART_TRACES, "indices (the largest)"));
    view! {
        <Chart figure=figure label="Stacked store size by index for each selected run" file_name="runlens-index-sizes"/>
        {move || note().map(|n| view! { <p class="hint chart-cut">{n}</p> })}
    }
}

/// The indices compared between the runs.
#[component]
fn IndexDeltas() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let deltas = crate::ui::derived(move |_| {
        let labels = state.labels.get();
        state.rows.with(|rows| compare_table(rows, &labels, Section::Index, &RowFilter::default()))
    });
    view! { <TableView table=deltas group_rows=true/> }
}

/// Each run's own `_cat/indices` table.
#[component]
fn RunIndexTables(runs: Memo<Vec<Arc<Run>>>) -> impl IntoView {
    move || {
        runs.get()
            .into_iter()
            .filter(|r| !r.indices.is_empty())
            .map(|run| {
                let t = indices_table(&run);
                view! { <TableView table=Signal::stored(t)/> }
            })
            .collect_view()
    }
}
