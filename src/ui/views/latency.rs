//! Latency: per-transaction statistics of the selected runs with deltas; sortable (the sort is
//! part of the URL), filterable, paged; a chart of one percentile per transaction across runs.

use crate::analysis::Row;
use crate::model::Section;
use crate::tables::RowFilter;
use crate::tables::{latency_table, BY_CHANGE, LATENCY_COLUMNS};
use crate::ui::components::chart::{
    axis, bars_per_run, configured, cut_note, margin, text, themed, Attr, Attrs, Chart, Figure,
};
use crate::ui::components::controls::{row_filter, FilterControls};
use crate::ui::components::no_data::NoData;
use crate::ui::components::table_view::TableView;
use crate::ui::show::shown_or;
use crate::ui::AppState;
use crate::urlstate::SORT_BY_CHANGE;
use leptos::prelude::*;
use plotly::common::{Anchor, Orientation};
use plotly::layout::BarMode;

const CHART_METRICS: [&str; 5] = ["mean", "median", "p90", "p95", "p99"];
const CHART_MAX_BARS: usize = 20;
const LABEL_MAX_CHARS: usize = 48;

/// Long transaction names are shortened on the axis (the table has them in full).
fn short_label(s: &str) -> String {
    if s.chars().count() <= LABEL_MAX_CHARS {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(LABEL_MAX_CHARS - 1).collect::<String>())
    }
}

/// Column index <-> URL `sort` value ("p95", "-p95", "transaction", "change").
fn sort_slug(col: usize) -> String {
    match col {
        BY_CHANGE => SORT_BY_CHANGE.into(),
        0 => "transaction".into(),
        1 => "run".into(),
        i => LATENCY_COLUMNS.get(i - 2).map(|(m, _)| m.to_string()).unwrap_or_default(),
    }
}

fn parse_sort(s: &str) -> Option<(usize, bool)> {
    if s == SORT_BY_CHANGE {
        return Some((BY_CHANGE, true));
    }
    let (desc, name) = s.strip_prefix('-').map_or((false, s), |n| (true, n));
    (0..LATENCY_COLUMNS.len() + 2).find(|i| sort_slug(*i) == name).map(|i| (i, desc))
}

#[component]
pub fn Latency() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let filter = row_filter(state);
    let has_any = move || state.rows.with(|r| r.iter().any(|r| r.section == Section::Transaction));
    let sort = sort_in_url(state);
    let metric = RwSignal::new("p95");
    view! {
        <div class="latency">
            {shown_or(has_any, move || view! {
                <FilterControls placeholder="Filter transactions" sort=sort/>
                <div class="chart-head">
                    <h2>"Slowest transactions"</h2>
                    <PercentilePicker metric/>
                    <span class="hint">{format!("up to {CHART_MAX_BARS} transactions, slowest first")}</span>
                </div>
                <SlowestChart metric filter/>
                <LatencyTable filter sort/>
            }.into_any(), {let f = || view! {
                <NoData what="per-transaction latency" field="runs[].transactions" has=|r| !r.transactions.is_empty()/>
            }; move || f().into_any()})}
        </div>
    }
}

/// The sort lives in the URL; the signal this returns mirrors it both ways.
fn sort_in_url(state: AppState) -> RwSignal<Option<(usize, bool)>> {
    let sort = RwSignal::new(state.url.with_untracked(|u| u.sort.as_deref().and_then(parse_sort)));
    Effect::new(move |_| {
        let s = sort.get().map(|(c, d)| format!("{}{}", if d && c != BY_CHANGE { "-" } else { "" }, sort_slug(c)));
        if state.url.with_untracked(|u| u.sort != s) {
            state.url.update(|u| u.sort = s);
        }
    });
    sort
}

/// Which percentile the chart shows.
#[component]
fn PercentilePicker(metric: RwSignal<&'static str>) -> impl IntoView {
    let pick = move |ev| {
        let v = event_target_value(&ev);
        if let Some(m) = CHART_METRICS.iter().find(|m| **m == v) {
            metric.set(m)
        }
    };
    view! {
        <label>"Percentile "
            <select on:change=pick data-testid="chart-metric">
                {CHART_METRICS.iter().map(|m| view! { <option value=*m selected=*m == "p95">{*m}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// Percentile `m` of the slowest transactions (by the baseline, else any run), one bar per run.
fn slowest_figure(rows: &[Row], m: &str, labels: &[String], f: &RowFilter, dark: bool) -> Figure {
    let mut picked: Vec<&Row> =
        rows.iter().filter(|r| r.section == Section::Transaction && &*r.metric == m && f.keeps(r)).collect();
    // The slowest transactions (by the baseline, else any run) are the ones worth a bar.
    let top = |r: &Row| r.cells.iter().filter_map(|c| c.value).fold(0.0, f64::max);
    crate::order::sort_by(&mut picked, |a, b| top(b).partial_cmp(&top(a)).unwrap_or(std::cmp::Ordering::Equal));
    picked.truncate(CHART_MAX_BARS);
    picked.reverse();
    let names: Vec<String> = picked.iter().map(|r| short_label(&r.key)).collect();
    let with_data =
        (0..labels.len()).filter(|i| picked.iter().any(|r| r.cells.get(*i).is_some_and(|c| c.value.is_some()))).count();
    let mut fig = bars_per_run(&picked, &names, labels, true);
    let height = 110 + (names.len().max(1) * (8 + 12 * with_data.clamp(1, 4))).min(900);
    fig.set_layout(themed(
        dark,
        Attrs::default()
            .with("height", height)
            .with("barmode", Attr::of(BarMode::Group))
            .with("margin", margin(10, 10, 30, 40))
            .with(
                "legend",
                Attr::obj([
                    ("orientation", Attr::of(Orientation::Horizontal)),
                    ("y", 1.0.into()),
                    ("x", 0.0.into()),
                    ("yanchor", Attr::of(Anchor::Bottom)),
                ]),
            )
            .with("xaxis", axis(dark, text(&format!("{m} latency (ms)")))),
    ));
    configured(fig, &format!("latency-{m}"))
}

/// The chart of the slowest transactions, and what it leaves out.
#[component]
fn SlowestChart(metric: RwSignal<&'static str>, filter: Memo<RowFilter>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let figure = move || {
        let m = metric.get();
        let labels = state.labels.get();
        let f = filter.get();
        let dark = state.dark.get();
        state.rows.with(|rows| slowest_figure(rows, m, &labels, &f, dark))
    };
    let note = move || cut_note((0, 0, ""), (state.labels.with(Vec::len), crate::limits::MAX_CHART_TRACES, "runs"));
    view! {
        <Chart figure=figure label="Latency percentile per transaction for each selected run" file_name="runlens-latency"/>
        {move || note().map(|n| view! { <p class="hint chart-cut">{n}</p> })}
    }
}

/// Every statistic of every transaction per run.
#[component]
fn LatencyTable(filter: Memo<RowFilter>, sort: RwSignal<Option<(usize, bool)>>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let table = crate::ui::derived(move |_| {
        let labels = state.labels.get();
        let f = filter.get();
        state.rows.with(|rows| latency_table(rows, &labels, &f))
    });
    view! { <TableView table=table page_size=50 sort=sort group_rows=true/> }
}
