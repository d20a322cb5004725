//! Choosing runs: a baseline and one or more candidates (two make a pair, more an N-run view).

use crate::ui::show::shown_or;
use leptos::prelude::*;

#[component]
pub fn RunPicker() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let runs =
        move || state.workspace.with(|w| w.all_runs().map(|r| (r.id.clone(), r.label.clone())).collect::<Vec<_>>());
    let base = move || state.selected.get().first().cloned().unwrap_or_default();
    // A new baseline takes the old one's place; if it was a candidate, the two swap.
    let set_base = move |id: String| {
        let mut ids = state.selected.get_untracked();
        match ids.iter().position(|x| *x == id) {
            Some(pos) => ids.swap(0, pos),
            None if ids.is_empty() => ids.push(id),
            None => ids[0] = id,
        }
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
    let toggle = move |id: String, on: bool| {
        let mut ids = state.selected.get_untracked();
        if on && !ids.contains(&id) {
            ids.push(id);
        } else if !on && ids.len() > 2 {
            ids.retain(|x| *x != id);
        }
        state.url.update(|u| u.select_runs(ids));
    };
    view! {
        <fieldset class="run-picker">
            <legend class="visually-hidden">"Runs to compare"</legend>
            <label class="base-select">
                <span>"Baseline"</span>
                <select on:change=move |ev| set_base(event_target_value(&ev)) prop:value=base data-testid="baseline">
                    {move || runs().into_iter().map(|(id, label)| {
                        let sel = id == base();
                        view! { <option value=id.clone() selected=sel>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
            {shown_or({move || runs().len() > 1}, move || view! {
                <span class="cands-label">"compared with"</span>
            }.into_any(), {let f = {|| view! { <span class="hint">"— the only run loaded: drop another run's files or a bundle to compare"</span> }}; move || f().into_any()})}
            <div class="cands" role="group" aria-label="Candidate runs">
                {move || {
                    let b = base();
                    let sel = state.selected.get();
                    runs().into_iter().filter(|(id, _)| *id != b).map(|(id, label)| {
                        let checked = sel.contains(&id);
                        // The only candidate cannot be unticked: pick another first.
                        let sole = checked && sel.len() == 2;
                        let id2 = id.clone();
                        view! {
                            <label class="chip" class:on=checked>
                                <input type="checkbox" prop:checked=checked data-run=id.clone() disabled=sole
                                    on:change=move |ev| toggle(id2.clone(), event_target_checked(&ev))/>
                                {label}
                            </label>
                        }
                    }).collect_view()
                }}
            </div>
        </fieldset>
    }
}
