//! Trends: one metric across every loaded run, ordered by a dimension (start time, release,
//! build, …), each run judged against the selected baseline. The chart marks the baseline and the
//! band within noise of it; points are coloured by verdict, so a nightly history of dozens of
//! runs reads at a glance. Change points mark the persistent shifts, on the chart and in words
//! under it (`shifts`). Order and metric are part of the URL.

mod chart;
mod marks;
mod shifts;

use crate::analysis::trend::{
    default_order, order_value, ordered, orders, trend, trend_metrics, trend_window, Trend, TrendMetric,
};
use crate::analysis::window::{Outcome, Windowed};
use crate::bundle::Run;
use crate::model::labels::with_label_rules;
use crate::tables::{trend_table, Table};
use crate::ui::components::chart::Chart;
use crate::ui::components::controls::ThresholdEditor;
use crate::ui::components::table_view::TableView;
use crate::ui::show::shown_or;
use crate::ui::AppState;
use leptos::prelude::*;
use std::sync::Arc;

/// At most this many metrics in the picker (the name filter narrows it).
const MAX_CHOICES: usize = 400;

/// What the page derives from the workspace and the URL.
#[derive(Clone, Copy)]
struct TrendMemos {
    /// Every loaded run, in the workspace's order, after the label rules (whole).
    all: Memo<Vec<Arc<Run>>>,
    /// The same cut to the window for the chosen metric, and what the window did to each.
    cut: Memo<Windowed>,
    order_choices: Memo<Vec<String>>,
    order: Memo<String>,
    metrics: Memo<Vec<TrendMetric>>,
    metric: Memo<Option<TrendMetric>>,
    /// Labels of the metrics the name filter keeps.
    choices: Memo<Vec<String>>,
    baseline: Memo<Option<String>>,
    /// The trend, the runs' labels in order, and the threshold of the metric's family.
    data: Memo<Option<(Trend, Vec<String>, f64)>>,
}

fn trend_memos(state: AppState) -> TrendMemos {
    // Every loaded run after the label rules, whole: the orders and the metrics on offer come from
    // them, so that moving the window neither recomputes nor reshuffles the pickers.
    let all: Memo<Vec<Arc<Run>>> = crate::ui::derived(move |_| {
        state.label_rules.with(|rules| state.workspace.with(|w| with_label_rules(w.runs.iter().map(|r| &r.run), rules)))
    });
    let order_choices = Memo::new(move |_| all.with(|r| orders(&crate::ui::refs(r))));
    let order = Memo::new(move |_| {
        let asked = state.url.with(|u| u.order.clone());
        let choices = order_choices.get();
        asked.filter(|o| choices.contains(o)).unwrap_or_else(|| all.with(|r| default_order(&crate::ui::refs(r))))
    });
    let metrics = Memo::new(move |_| all.with(|r| trend_metrics(&crate::ui::refs(r))));
    let metric = Memo::new(move |_| {
        let asked = state.url.with(|u| u.metric.clone());
        metrics.with(|m| asked.and_then(|a| m.iter().find(|x| x.label() == a).cloned()).or_else(|| m.first().cloned()))
    });
    let choices = Memo::new(move |_| {
        let f = state.url.with(|u| crate::fold::lower(&u.filter).into_owned());
        metrics.with(|m| metric_choices(m, &f))
    });
    // The runs cut to the window as the selected runs are (`AppState::windowed`), as far as the
    // chosen metric needs (`trend_window`): the window and the metric alone cut them again.
    // Which runs have a usable timeline is checked once (it reads every cell), not on every move.
    let window = Memo::new(move |_| state.url.with(|u| (u.window, u.shifts.clone())));
    let usable = Memo::new(move |_| all.with(|runs| crate::analysis::window::usable(runs)));
    let cut: Memo<Windowed> = crate::ui::derived(move |_| {
        let (spec, shifts) = window.get();
        all.with(|runs| match metric.get() {
            Some(m) => usable.with(|ok| trend_window(runs, ok, &m, spec, &shifts)),
            None => Windowed { runs: runs.clone(), outcomes: Vec::new() },
        })
    });
    let baseline = Memo::new(move |_| state.selected.with(|s| s.first().cloned()));
    let data = crate::ui::derived(move |_| {
        let (m, b, by, th) = (metric.get()?, baseline.get()?, order.get(), state.thresholds.get());
        cut.with(|c| {
            let runs = &c.runs;
            let refs = crate::ui::refs(runs);
            let sorted = ordered(&refs, &by);
            let labels: Vec<String> = sorted.iter().map(|r| r.label.clone()).collect();
            let t = trend(&sorted, &b, &m, &by, &th)?;
            let threshold = th.of(t.row.spec.family);
            Some((t, labels, threshold))
        })
    });
    TrendMemos { all, cut, order_choices, order, metrics, metric, choices, baseline, data }
}

/// The labels of the metrics whose name holds `filter` (lower-cased), at most `MAX_CHOICES`.
fn metric_choices(metrics: &[TrendMetric], filter: &str) -> Vec<String> {
    metrics
        .iter()
        .filter(|x| filter.is_empty() || crate::fold::lower(&x.label()).contains(filter))
        .take(MAX_CHOICES)
        .map(|x| x.label())
        .collect()
}

#[component]
pub fn Trends() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let m = trend_memos(state);
    let table =
        crate::ui::derived(move |_| m.data.with(|d| d.as_ref().map(|(t, l, _)| trend_table(t, l, &m.order.get()))));
    let chart = move || {
        let dark = state.dark.get();
        let by = m.order.get();
        m.data.with(|d| d.as_ref().map(|(t, l, th)| chart::figure(t, l, &by, *th, dark)).unwrap_or_default())
    };
    let (all, metrics) = (m.all, m.metrics);
    view! {
        <div class="trends">
            {shown_or(move || metrics.with(|m| !m.is_empty()), move || view! {
                <div class="controls">
                    <MetricPicker metric=m.metric choices=m.choices/>
                    <MetricFilter/>
                    <OrderPicker order=m.order choices=m.order_choices/>
                    <ThresholdEditor/>
                </div>
                <TrendHint all=m.all cut=m.cut baseline=m.baseline order=m.order/>
                <Chart figure=chart label="The chosen metric across the runs in order, the baseline marked" file_name="runlens-trend"/>
                <shifts::ShiftList data=m.data/>
                <TrendTable table/>
            }.into_any(), {let f = move || view! {
                <p class="empty">{move || format!("A trend needs a figure that at least two runs share; the workspace has {} with none in common.", crate::format::count(all.with(Vec::len), "run", "runs"))}</p>
            }; move || f().into_any()})}
        </div>
    }
}

/// The metric picker; the choice goes to the URL.
#[component]
fn MetricPicker(metric: Memo<Option<TrendMetric>>, choices: Memo<Vec<String>>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let options = move || {
        let now = metric.get().map(|m| m.label()).unwrap_or_default();
        choices
            .get()
            .into_iter()
            .map(|c| {
                let sel = c == now;
                view! { <option value=c.clone() selected=sel>{c.clone()}</option> }
            })
            .collect_view()
    };
    view! {
        <label>"Metric "
            <select data-testid="trend-metric" on:change=move |ev| { let v = event_target_value(&ev); state.url.update(|u| u.metric = Some(v)); }>
                {options}
            </select>
        </label>
    }
}

/// Narrows the metric picker by name (the URL's filter).
#[component]
fn MetricFilter() -> impl IntoView {
    let state = crate::ui::use_app_state();
    view! {
        <label class="grow">
            <span class="visually-hidden">"Filter metrics"</span>
            <input type="search" placeholder="Filter metrics" prop:value=move || state.url.with(|u| u.filter.clone())
                on:input=move |ev| state.url.update(|u| u.filter = event_target_value(&ev))/>
        </label>
    }
}

fn order_label(o: &str) -> String {
    match o {
        "start" => "start time".to_string(),
        "bundle" => "order in the bundle".to_string(),
        d => d.to_string(),
    }
}

/// The order picker: start time, the bundle's order, or a dimension; the choice goes to the URL.
#[component]
fn OrderPicker(order: Memo<String>, choices: Memo<Vec<String>>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let options = move || {
        let now = order.get();
        choices
            .get()
            .into_iter()
            .map(|o| {
                let sel = o == now;
                view! { <option value=o.clone() selected=sel>{order_label(&o)}</option> }
            })
            .collect_view()
    };
    view! {
        <label>"Order by "
            <select data-testid="trend-order" on:change=move |ev| { let v = event_target_value(&ev); state.url.update(|u| u.order = Some(v)); }>
                {options}
            </select>
        </label>
    }
}

/// Which runs the trend shows, against which baseline, and where runs without an order value go.
#[component]
fn TrendHint(
    all: Memo<Vec<Arc<Run>>>,
    cut: Memo<Windowed>,
    baseline: Memo<Option<String>>,
    order: Memo<String>,
) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let hint = move || {
        let n = all.with(Vec::len);
        let b = baseline
            .get()
            .and_then(|id| state.workspace.with(|w| w.run(&id).map(|r| r.label.clone())))
            .unwrap_or_default();
        let missing = all.with(|r| r.iter().filter(|r| order_value(r, &order.get()).is_none()).count());
        let tail = if missing > 0 && order.get() != "bundle" {
            format!("; {missing} without a value for this order come last")
        } else {
            String::new()
        };
        format!(
            "All {n} loaded runs, each against the baseline {b} (pick another baseline above){tail}.{}",
            window_words(&cut)
        )
    };
    view! { <p class="hint">{hint}</p> }
}

/// What the window did to the runs of the trend, as the window bar says it of the selected runs.
fn window_words(cut: &Memo<Windowed>) -> String {
    cut.with(|c| {
        if c.outcomes.is_empty() {
            return String::new();
        }
        let cut_runs = c.outcomes.iter().filter(|o| matches!(o, Outcome::Cut { .. })).count();
        let no_timeline = c.outcomes.iter().filter(|o| matches!(o, Outcome::NoTimeline)).count();
        let no_plateau = c.outcomes.iter().filter(|o| matches!(o, Outcome::NoPlateau)).count();
        let mut words = format!(" {} cut to the window", crate::format::count(cut_runs, "run", "runs"));
        if no_timeline > 0 {
            words.push_str(&format!(
                "; {} no timeline and {} judged whole",
                crate::format::count(no_timeline, "has", "have"),
                if no_timeline == 1 { "is" } else { "are" }
            ));
        }
        if no_plateau > 0 {
            words.push_str(&format!(
                "; {} judged whole (no steady state found)",
                crate::format::count(no_plateau, "run", "runs")
            ));
        }
        words.push('.');
        words
    })
}

/// The trend's table, once there is a trend.
#[component]
fn TrendTable(table: Memo<Option<Table>>) -> impl IntoView {
    move || table.get().map(|t| view! { <TableView table=Signal::stored(t) page_size=50/> })
}
