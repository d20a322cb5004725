//! Timeline: the selected runs over test time, overlaid (latency percentile, throughput, errors,
//! active users, resources), one transaction or all samples; dragging across it sets the window.

mod chart;

use crate::analysis::window::{Outcome, WindowSpec};
use crate::tables::{
    cause_rates, elapsed_unit_s, run_series, timeline_transactions, top_causes, CauseKey, SeriesOptions,
};
use crate::ui::components::chart::Chart;
use crate::ui::components::no_data::NoData;
use crate::ui::show::shown_or;
use crate::urlstate::TIMELINE_PERCENTILES;
use chart::{timeline_figure, Frame, DASH_CLASSES};
use leptos::prelude::*;

#[component]
pub fn Timeline() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let has_any = move || state.whole.with(|rs| rs.iter().any(|r| r.usable_timeline().is_some()));
    // Shared by the chart's panel and the key under it.
    let causes = Memo::new(move |_| causes_shown(state));
    view! {
        <div class="timeline">
            {shown_or(has_any, move || view! {
                <TimelineControls/>
                <TimelineChart causes/>
                <CauseKeyList causes/>
                <p class="hint">"Drag across the chart to judge every view on that window; double-click to zoom out. Runs are overlaid on elapsed test time from their first sample."</p>
            }.into_any(), {let f = || view! {
                <NoData what="timeline" field="runs[].timeline" has=|r| r.usable_timeline().is_some()/>
            }; move || f().into_any()})}
        </div>
    }
}

/// Percentile, transaction and time axis, all in the URL.
#[component]
fn TimelineControls() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let names = Memo::new(move |_| state.whole.with(|rs| timeline_transactions(rs.iter().map(|r| &**r))));
    let pct = move || state.url.with(|u| u.pct.unwrap_or(95));
    let tx = move || state.url.with(|u| u.tx.clone().unwrap_or_default());
    view! {
        <div class="chart-head timeline-controls">
            <h2>"Over test time"</h2>
            <label>"Latency "
                <select on:change=move |ev| {
                    let v = event_target_value(&ev).parse::<u8>().ok();
                    state.url.update(|u| u.pct = v.filter(|p| *p != 95));
                }>
                    {TIMELINE_PERCENTILES.into_iter().map(|p| view! {
                        <option value=p.to_string() selected=move || pct() == p>{format!("p{p}")}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>"of "
                <select on:change=move |ev| {
                    let v = event_target_value(&ev);
                    state.url.update(|u| u.tx = (!v.is_empty()).then_some(v));
                }>
                    <option value="" selected=move || tx().is_empty()>"all samples"</option>
                    {move || names.get().into_iter().map(|n| {
                        let shown = n.clone();
                        let value = n.clone();
                        view! { <option value=value selected=move || tx() == n>{shown}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label class="check">
                <input type="checkbox" prop:checked=move || state.url.with(|u| u.clock)
                    on:change=move |ev| { let on = event_target_checked(&ev); state.url.update(|u| u.clock = on); }/>
                " wall-clock time"
            </label>
        </div>
    }
}

/// How many error causes the Timeline follows (JMeter's dashboard shows its top 5 too).
const TOP_CAUSES: usize = 5;

/// The commonest error causes of the selected runs, of the chosen transaction or all.
fn causes_shown(state: crate::ui::AppState) -> Vec<CauseKey> {
    let tx = state.url.with(|u| u.tx.clone());
    state.whole.with(|runs| top_causes(runs.iter().map(|r| &**r), tx.as_deref(), TOP_CAUSES))
}

/// The key to the errors-by-cause panel: each cause's line style and name, as text.
#[component]
fn CauseKeyList(causes: Memo<Vec<CauseKey>>) -> impl IntoView {
    move || {
        let causes = causes.get();
        (!causes.is_empty()).then(|| {
            // Each line style is drawn by the stylesheet (`.cause-key li.dashK::before`).
            let items = causes.iter().zip(DASH_CLASSES).map(|(c, class)| view! { <li class=class>{c.label()}</li> });
            view! {
                <div class="cause-key">
                    <span>"Errors by cause, the commonest first (each run in its colour):"</span>
                    <ul>{items.collect_view()}</ul>
                </div>
            }
        })
    }
}

/// The overlaid panels; a drag sets `window=` (whole seconds of elapsed test time).
#[component]
fn TimelineChart(causes: Memo<Vec<CauseKey>>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let figure = move || {
        let (pct, tx, clock, shifts) =
            state.url.with(|u| (u.pct.unwrap_or(95), u.tx.clone(), u.clock, u.shifts.clone()));
        let unit_s = state.whole.with(|runs| elapsed_unit_s(runs.iter().map(|r| &**r)));
        let o = SeriesOptions { percentile: pct, transaction: tx.as_deref(), clock, unit_s };
        let dark = state.dark.get();
        let outcomes = state.windowed.with(|w| w.outcomes.clone());
        let causes = causes.get();
        state.whole.with(|runs| {
            let mut drawn = Vec::new();
            let mut windows = Vec::new();
            let mut rates = Vec::new();
            for (i, run) in runs.iter().enumerate() {
                let Some(mut s) = run_series(run, &o) else { continue };
                // Elapsed time is drawn with each run's shift taken off, so that the runs' windows line up.
                let shift = shifts.iter().rev().find(|x| x.run == run.id).map_or(0.0, |x| x.seconds as f64 / unit_s);
                let origin = run.usable_timeline().map_or(0.0, |t| t.origin_ms as f64);
                if !clock {
                    s.x.iter_mut().for_each(|x| *x -= shift);
                    s.resources.iter_mut().for_each(|r| r.1.iter_mut().for_each(|x| *x -= shift));
                    s.span = (s.span.0 - shift, s.span.1 - shift);
                }
                let window = match outcomes.get(i) {
                    Some(Outcome::Cut { applied, .. }) if clock => {
                        Some((origin + applied.from_s * 1000.0, origin + applied.to_s * 1000.0))
                    }
                    Some(Outcome::Cut { applied, .. }) => {
                        Some((applied.from_s / unit_s - shift, applied.to_s / unit_s - shift))
                    }
                    _ => None,
                };
                windows.push(window);
                rates.push(cause_rates(run, &causes, tx.as_deref()));
                drawn.push((i, s));
            }
            let names = causes.iter().map(CauseKey::label).collect();
            let frame = Frame {
                percentile: pct,
                clock,
                seconds: unit_s == 1.0,
                dark,
                windows,
                causes: names,
                cause_rates: rates,
            };
            timeline_figure(&drawn, &frame)
        })
    };
    let on_select = Box::new(move |a: f64, b: f64| {
        if state.url.with_untracked(|u| u.clock) {
            return;
        }
        let unit_s = state.whole.with_untracked(|runs| elapsed_unit_s(runs.iter().map(|r| &**r)));
        let from_s = (a * unit_s).floor().max(0.0) as u32;
        let to_s = (b * unit_s).ceil().max(0.0) as u32;
        if from_s < to_s {
            state.url.update(|u| u.window = WindowSpec::Range { from_s, to_s });
        }
    });
    view! {
        <Chart figure=figure label="The selected runs over test time" file_name="runlens-timeline" height=700 on_select=on_select/>
    }
}
