//! The empty state of a view: what is missing, and the runs (or declared comparisons) that have
//! it, each one click away.

use crate::bundle::Run;
use crate::ui::show::shown_or;
use leptos::prelude::*;

/// The empty state of a view: what is missing, and the runs (or declared comparisons) that have
/// it, each one click away.
#[component]
pub fn NoData(
    /// "per-transaction latency"
    what: &'static str,
    /// Where bundles carry it, e.g. "runs[].transactions".
    field: &'static str,
    has: fn(&Run) -> bool,
) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let offers = Memo::new(move |_| state.workspace.with(|w| w.selections_with(has)));
    view! {
        <div class="no-data" data-testid="no-data">
            <p class="empty">{format!("The selected runs have no {what}.")}</p>
            {shown_or(move || offers.with(|o| !o.is_empty()), move || view! {
                <p>{format!("These runs have {what}:")}</p>
                <ul class="offers">
                    {move || offers.get().into_iter().map(|(label, ids)| view! { <Offer label ids/> }).collect_view()}
                </ul>
            }.into_any(), {let f = move || view! { <p class="hint">{format!("No loaded run has it; bundles carry it in {field}.")}</p> }; move || f().into_any()})}
        </div>
    }
}

/// One offer: shows the runs that have the data.
#[component]
fn Offer(label: String, ids: Vec<String>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    view! {
        <li><button type="button" class="ghost" on:click=move |_| state.url.update(|u| u.select_runs(ids.clone()))>{format!("Show {label}")}</button></li>
    }
}
