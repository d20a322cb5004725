//! The window bar: which part of each run every view judges (the whole run, the steady state
//! runlens finds, or seconds of test time), and what that left of each run.

use crate::analysis::window::{Outcome, WindowSpec, MAX_WINDOW_S};
use crate::format;
use crate::ui::show::shown;
use leptos::prelude::*;

/// One line per selected run: where the window fell, or why it did not.
fn describe(label: &str, outcome: &Outcome, min_samples: u64, short: usize) -> String {
    match outcome {
        Outcome::Cut { applied, basis } => {
            let mut line = format!(
                "{label}: {} to {} of test time, {} samples",
                format::duration_s(applied.from_s),
                format::duration_s(applied.to_s),
                format::number(applied.samples as f64)
            );
            if let Some(b) = basis {
                line.push_str(&format!(" ({})", b.words()));
            }
            if applied.samples == 0 {
                line.push_str(": no samples in the window");
            } else if short > 0 {
                line.push_str(&format!(
                    "; {} fewer than {min_samples} samples here (not enough data)",
                    format::count(short, "transaction has", "transactions have")
                ));
            }
            if !applied.exact {
                line.push_str("; some percentiles approximate");
            }
            line
        }
        Outcome::NoTimeline => format!("{label}: whole run (it has no timeline)"),
        Outcome::NoPlateau => format!("{label}: whole run (no steady state found)"),
    }
}

#[component]
pub fn WindowBar() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let any_timeline = move || state.whole.with(|rs| rs.iter().any(|r| r.usable_timeline().is_some()));
    let spec = Memo::new(move |_| state.url.with(|u| u.window));
    let set = move |w: WindowSpec| state.url.update(|u| u.window = w);
    let range = move || match spec.get() {
        WindowSpec::Range { from_s, to_s } => (from_s.to_string(), to_s.to_string()),
        _ => (String::new(), String::new()),
    };
    // Whole seconds within the longest window a link may name (`WindowSpec::parse` reads it back).
    let edit = move |from: bool, v: String| {
        let Ok(v) = v.trim().parse::<u32>() else { return };
        let current = spec.get_untracked();
        let (a, b) = if from {
            let a = v.min(MAX_WINDOW_S - 1);
            let b = match current {
                WindowSpec::Range { to_s, .. } => to_s,
                _ => a + 60,
            };
            (a, b.clamp(a + 1, MAX_WINDOW_S))
        } else {
            let b = v.clamp(1, MAX_WINDOW_S);
            let a = match current {
                WindowSpec::Range { from_s, .. } => from_s,
                _ => 0,
            };
            (a.min(b - 1), b)
        };
        set(WindowSpec::Range { from_s: a, to_s: b });
    };
    let lines = move || {
        let min = state.thresholds.with(|t| t.min_samples);
        let labels = state.labels.get();
        state.windowed.with(|w| {
            w.outcomes
                .iter()
                .zip(&w.runs)
                .enumerate()
                .map(|(i, (o, run))| {
                    let short = run.transactions.iter().filter(|t| t.samples.is_some_and(|n| n < min)).count();
                    describe(labels.get(i).map_or("", String::as_str), o, min, short)
                })
                .collect::<Vec<_>>()
        })
    };
    shown(any_timeline, move || {
        view! {
            <section class="window-bar" aria-label="Window" data-testid="window-bar">
                <span class="window-title">"Window"</span>
                <span class="window-modes">
                    <button type="button" class="ghost small" aria-pressed=move || (spec.get() == WindowSpec::Whole).to_string()
                        on:click=move |_| set(WindowSpec::Whole)>"Whole run"</button>
                    <button type="button" class="ghost small" aria-pressed=move || (spec.get() == WindowSpec::Auto).to_string()
                        on:click=move |_| set(WindowSpec::Auto) title="The plateau of active users, else of throughput">"Steady state"</button>
                </span>
                <span class="window-range">
                    <label>"from "<input type="number" min="0" step="1" class="window-from" prop:value=move || range().0
                        on:change=move |ev| edit(true, event_target_value(&ev))/>" s"</label>
                    <label>"to "<input type="number" min="1" step="1" class="window-to" prop:value=move || range().1
                        on:change=move |ev| edit(false, event_target_value(&ev))/>" s"</label>
                </span>
                <ul class="window-runs">
                    {move || lines().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ul>
            </section>
        }
        .into_any()
    })
}
