//! Shared view controls, all in the URL: name filter, thresholds per metric family, "regressions
//! only", "biggest changes first". The empty state of a view is `no_data`.

use crate::model::Family;
use crate::tables::{RowFilter, BY_CHANGE, METHOD};
use crate::ui::show::shown;
use crate::ui::AppState;
use crate::urlstate::{ThresholdParams, SORT_BY_CHANGE};
use leptos::prelude::*;

/// The current row filter from the URL.
pub fn row_filter(state: AppState) -> Memo<RowFilter> {
    Memo::new(move |_| state.url.with(|u| RowFilter { text: u.filter.clone(), regressions_only: u.regressions_only }))
}

/// Whether the URL asks for the biggest changes first.
pub fn by_change(state: AppState) -> Memo<bool> {
    Memo::new(move |_| state.url.with(|u| u.sort.as_deref() == Some(SORT_BY_CHANGE)))
}

#[component]
pub fn FilterControls(
    #[prop(default = true)] threshold: bool,
    #[prop(default = "Filter by name")] placeholder: &'static str,
    /// A table's own sort state, when the view keeps one (else the URL's `sort` is used).
    #[prop(optional)]
    sort: Option<RwSignal<Option<(usize, bool)>>>,
) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let biggest = move || match sort {
        Some(s) => s.with(|s| s.is_some_and(|(c, _)| c == BY_CHANGE)),
        None => state.url.with(|u| u.sort.as_deref() == Some(SORT_BY_CHANGE)),
    };
    let set_biggest = move |on: bool| match sort {
        Some(s) => s.set(on.then_some((BY_CHANGE, true))),
        None => state.url.update(|u| u.sort = on.then(|| SORT_BY_CHANGE.to_string())),
    };
    view! {
        <div class="controls">
            <label class="grow">
                <span class="visually-hidden">{placeholder}</span>
                <input type="search" placeholder=placeholder data-testid="filter"
                    prop:value=move || state.url.with(|u| u.filter.clone())
                    on:input=move |ev| state.url.update(|u| u.filter = event_target_value(&ev))/>
            </label>
            <label>
                <input type="checkbox" data-testid="regressions"
                    prop:checked=move || state.url.with(|u| u.regressions_only)
                    on:change=move |ev| state.url.update(|u| u.regressions_only = event_target_checked(&ev))/>
                " Regressions only"
            </label>
            <label>
                <input type="checkbox" data-testid="biggest" prop:checked=biggest on:change=move |ev| set_biggest(event_target_checked(&ev))/>
                " Biggest changes first"
            </label>
            {shown(move || threshold, move || view! {
                <ThresholdEditor/>
            }.into_any())}
        </div>
    }
}

/// Thresholds per metric family and the minimum samples, editable; every edit goes to the URL.
#[component]
pub fn ThresholdEditor() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let changed = move || state.url.with(|u| !u.thresholds.is_empty());
    view! {
        <details class="thresholds" data-testid="thresholds">
            <summary title=METHOD>"Thresholds"{move || if changed() { " (set by this link)" } else { "" }}</summary>
            <div class="th-grid">
                {Family::ALL.into_iter().map(|family| view! { <ThresholdField family/> }).collect_view()}
                <MinSamplesField/>
            </div>
            <p class="hint">
                "A change smaller than its family's threshold is within noise (% for relative changes, percentage points for percentages and error rates). "
                "Where both runs carry latency histograms, median, p95 and p99 also need their 95% bootstrap interval (1,000 resamples of each histogram) to exclude no change, and max and min an exact exceedance test; "
                "error rates use Newcombe's score interval. p99 needs 5 samples beyond it in each run (500 samples), and max and min need histograms, or they are 'not enough data'. "
                "The bootstrap assumes independent samples and resolves no finer than the histogram's buckets."
            </p>
            <button type="button" class="ghost small" disabled=move || !changed()
                on:click=move |_| state.url.update(|u| u.thresholds = ThresholdParams::default())>"Use the bundle's / default thresholds"</button>
        </details>
    }
}

/// The unit a family's threshold is in.
fn threshold_unit(f: Family) -> &'static str {
    match f {
        Family::ErrorRate => "pp",
        Family::Cpu | Family::Memory => "% / pp",
        _ => "%",
    }
}

/// One family's threshold (0 to 1,000).
#[component]
fn ThresholdField(family: Family) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let f = family;
    let set = move |ev| {
        if let Some(v) = crate::number::parse_f64(&event_target_value(&ev)) {
            if v.is_finite() {
                state.url.update(|u| u.thresholds.set(f, Some(crate::number::clamp(v, 0.0, 1000.0))));
            }
        }
    };
    view! {
        <label class="th-field">
            <span>{f.title()}</span>
            <input type="number" min="0" max="1000" step="any" class="narrow" data-testid=format!("threshold-{}", f.slug())
                prop:value=move || crate::format::number(state.thresholds.with(|t| t.of(f)))
                on:change=set/>
            <span class="unit">{threshold_unit(f)}</span>
        </label>
    }
}

/// The minimum samples a latency figure needs to be judged.
#[component]
fn MinSamplesField() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let set = move |ev| {
        if let Ok(n) = event_target_value(&ev).parse::<u64>() {
            state.url.update(|u| u.thresholds.min_samples = Some(n));
        }
    };
    view! {
        <label class="th-field">
            <span>"min. samples"</span>
            <input type="number" min="0" step="1" class="narrow" data-testid="min-samples"
                prop:value=move || state.thresholds.with(|t| t.min_samples.to_string())
                on:change=set/>
        </label>
    }
}
