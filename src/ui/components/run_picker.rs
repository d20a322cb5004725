//! Choosing runs: a baseline and one or more candidates (two make a pair, more an N-run view).

use crate::ui::show::shown_or;
use crate::ui::AppState;
use leptos::prelude::*;

#[component]
pub fn RunPicker() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let runs = Signal::derive(move || {
        state.workspace.with(|w| w.all_runs().map(|r| (r.id.clone(), r.label.clone())).collect::<Vec<_>>())
    });
    let base = Signal::derive(move || state.selected.get().first().cloned().unwrap_or_default());
    view! {
        <fieldset class="run-picker">
            <legend class="visually-hidden">"Runs to compare"</legend>
            <BaselineSelect runs base/>
            {shown_or({move || runs.with(Vec::len) > 1}, move || view! {
                <span class="cands-label">"compared with"</span>
            }.into_any(), {let f = {|| view! { <span class="hint">"— the only run loaded: drop another run's files or a bundle to compare"</span> }}; move || f().into_any()})}
            <CandidateChips runs base/>
        </fieldset>
    }
}

/// The selection with `id` as the baseline: it takes the old baseline's place; if it was a
/// candidate, the two swap.
fn with_baseline(mut ids: Vec<String>, id: String) -> Vec<String> {
    match ids.iter().position(|x| *x == id) {
        Some(pos) => ids.swap(0, pos),
        None if ids.is_empty() => ids.push(id),
        None => ids[0] = id,
    }
    ids
}

/// The selection with candidate `id` ticked or unticked (the last candidate stays).
fn toggled(mut ids: Vec<String>, id: String, on: bool) -> Vec<String> {
    if on && !ids.contains(&id) {
        ids.push(id);
    } else if !on && ids.len() > 2 {
        ids.retain(|x| *x != id);
    }
    ids
}

/// The baseline: one of the loaded runs.
#[component]
fn BaselineSelect(runs: Signal<Vec<(String, String)>>, base: Signal<String>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let set_base = move |id: String| {
        let mut ids = with_baseline(state.selected.get_untracked(), id);
        if ids.len() == 1 {
            // keep a candidate if there is another run
            if let Some(other) =
                state.workspace.with_untracked(|w| w.all_runs().map(|r| r.id.clone()).find(|x| *x != ids[0]))
            {
                ids.push(other);
            }
        }
        state.url.update(|u| u.select_runs(ids));
    };
    let options = move || {
        runs.get()
            .into_iter()
            .map(|(id, label)| {
                let sel = id == base.get();
                view! { <option value=id.clone() selected=sel>{label}</option> }
            })
            .collect_view()
    };
    view! {
        <label class="base-select">
            <span>"Baseline"</span>
            <select on:change=move |ev| set_base(event_target_value(&ev)) prop:value=move || base.get() data-testid="baseline">
                {options}
            </select>
        </label>
    }
}

/// The other runs as chips to tick; the only candidate cannot be unticked.
#[component]
fn CandidateChips(runs: Signal<Vec<(String, String)>>, base: Signal<String>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let chips = move || {
        let b = base.get();
        let sel = state.selected.get();
        runs.get()
            .into_iter()
            .filter(|(id, _)| *id != b)
            .map(|(id, label)| candidate_chip(state, id, label, &sel))
            .collect_view()
    };
    view! {
        <div class="cands" role="group" aria-label="Candidate runs">
            {chips}
        </div>
    }
}

fn candidate_chip(state: AppState, id: String, label: String, selected: &[String]) -> impl IntoView {
    let checked = selected.contains(&id);
    // The only candidate cannot be unticked: pick another first.
    let sole = checked && selected.len() == 2;
    let id2 = id.clone();
    let toggle = move |ev| {
        let ids = toggled(state.selected.get_untracked(), id2.clone(), event_target_checked(&ev));
        state.url.update(|u| u.select_runs(ids));
    };
    view! {
        <label class="chip" class:on=checked>
            <input type="checkbox" prop:checked=checked data-run=id disabled=sole on:change=toggle/>
            {label}
        </label>
    }
}
