//! Configuration: module settings and infrastructure of the selected runs side by side, changed
//! values highlighted.

use crate::analysis::config_diff;
use crate::tables::config_table;
use crate::ui::components::table_view::TableView;
use leptos::prelude::*;

#[component]
pub fn Config() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let changed_only = RwSignal::new(false);
    let table = Signal::derive(move || {
        let labels = state.labels.get();
        let runs = state.selected_runs();
        let refs: Vec<&crate::bundle::Run> = runs.iter().collect();
        config_table(&config_diff(&refs), &labels, changed_only.get())
    });
    let n_changed = move || table.with(|t| t.rows.iter().filter(|r| r.highlight).count());
    view! {
        <div class="config">
            <Show when=move || table.with(|t| !t.rows.is_empty()) || changed_only.get() fallback=|| view! {
                <p class="empty">"The selected runs state no module settings or infrastructure (runs[].modules, runs[].infrastructure)."</p>
            }>
                <div class="controls">
                    <label><input type="checkbox" prop:checked=move || changed_only.get()
                        on:change=move |ev| changed_only.set(event_target_checked(&ev))/>" Changed settings only"</label>
                    <span class="hint">{move || format!("{} setting(s) differ between the selected runs", n_changed())}</span>
                </div>
                <TableView table=table group_rows=false/>
            </Show>
        </div>
    }
}
