//! Configuration: the label rules (`components::label_rules`), then module settings and
//! infrastructure of the selected runs side by side, changed values highlighted.

use crate::analysis::config_diff;
use crate::tables::config_table;
use crate::ui::components::table_view::TableView;
use crate::ui::show::{shown, shown_or};
use leptos::prelude::*;

#[component]
pub fn Config() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let changed_only = RwSignal::new(false);
    let diff = crate::ui::derived(move |_| state.runs.with(|runs| config_diff(&crate::ui::refs(runs))));
    let table = move |group: &'static str| {
        crate::ui::derived(move |_| {
            let labels = state.labels.get();
            diff.with(|d| config_table(d, &labels, changed_only.get(), group))
        })
    };
    let n_changed = move || diff.with(|d| d.iter().filter(|r| r.changed).count());
    let has = move |group: &'static str| move || diff.with(|d| d.iter().any(|r| r.group == group));
    view! {
        <div class="config">
            <crate::ui::components::label_rules::LabelRules/>
            {shown_or(move || diff.with(|d| !d.is_empty()), move || view! {
                <div class="controls">
                    <label><input type="checkbox" prop:checked=move || changed_only.get() data-testid="changed-only"
                        on:change=move |ev| changed_only.set(event_target_checked(&ev))/>" Changed settings only"</label>
                    <span class="hint">{move || { let n = n_changed(); format!("{} {} between the selected runs", crate::format::count(n, "setting", "settings"), if n == 1 { "differs" } else { "differ" }) }}</span>
                </div>
                {shown(has("Modules"), move || view! {<TableView table=table("Modules") group_rows=true/>}.into_any())}
                {shown(has("Infrastructure"), move || view! {<TableView table=table("Infrastructure") group_rows=true/>}.into_any())}
            }.into_any(), {let f = || view! {
                <crate::ui::components::no_data::NoData what="module settings or infrastructure" field="runs[].modules and runs[].infrastructure"
                    has=|r| !r.modules.is_empty() || !r.infrastructure.is_empty()/>
            }; move || f().into_any()})}
        </div>
    }
}
