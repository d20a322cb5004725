//! Shared view controls: name filter, change threshold, "regressions only", all in the URL.

use crate::tables::RowFilter;
use crate::ui::AppState;
use leptos::prelude::*;

/// The current row filter from the URL.
pub fn row_filter(state: AppState) -> Memo<RowFilter> {
    Memo::new(move |_| state.url.with(|u| RowFilter { text: u.filter.clone(), regressions_only: u.regressions_only }))
}

#[component]
pub fn FilterControls(#[prop(default = true)] threshold: bool, #[prop(default = "Filter by name")] placeholder: &'static str) -> impl IntoView {
    let state = crate::ui::use_app_state();
    view! {
        <div class="controls">
            <label class="grow">
                <span class="visually-hidden">{placeholder}</span>
                <input type="search" placeholder=placeholder data-testid="filter"
                    prop:value=move || state.url.with(|u| u.filter.clone())
                    on:input=move |ev| state.url.update(|u| u.filter = event_target_value(&ev))/>
            </label>
            <Show when=move || threshold>
                <label title="Relative changes smaller than this count as within noise">
                    "Threshold "
                    <input type="number" min="0" max="1000" step="0.5" class="narrow" data-testid="threshold"
                        prop:value=move || state.url.with(|u| u.threshold_pct.to_string())
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                if v.is_finite() { state.url.update(|u| u.threshold_pct = v.clamp(0.0, 1000.0)); }
                            }
                        }/>
                    " %"
                </label>
            </Show>
            <label>
                <input type="checkbox" data-testid="regressions"
                    prop:checked=move || state.url.with(|u| u.regressions_only)
                    on:change=move |ev| state.url.update(|u| u.regressions_only = event_target_checked(&ev))/>
                " Regressions only"
            </label>
        </div>
    }
}
