//! Compare: every facet of the selected runs matched by key, with deltas and verdicts, one table
//! per section; the summary of each candidate on top; a two-dimension grid when the runs vary
//! along two dimensions.

use crate::model::Section;
use crate::tables::{compare_table, errors_table, RowFilter, BY_CHANGE};
use crate::ui::components::controls::{by_change, row_filter, FilterControls};
use crate::ui::components::table_view::TableView;
use crate::ui::components::{grid::GridPanel, verdict_summary::VerdictSummary};
use crate::ui::show::shown;
use leptos::prelude::*;

#[component]
pub fn Compare() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let filter = row_filter(state);
    let by_change = by_change(state);
    let present = Memo::new(move |_| {
        state.rows.with(|rows| {
            Section::ALL.iter().copied().filter(|s| rows.iter().any(|r| r.section == *s)).collect::<Vec<_>>()
        })
    });
    view! {
        <div class="compare">
            <FilterControls/>
            <VerdictSummary/>
            <GridPanel/>
            {shown(move || present.with(|p| p.is_empty()), move || view! {
                <p class="empty">"The selected runs carry no numbers to compare."</p>
            }.into_any())}
            {move || present.get().into_iter().map(|section| view! { <CompareSection section filter by_change/> }).collect_view()}
        </div>
    }
}

/// One section's table (transactions, resources, KPIs, …).
#[component]
fn CompareSection(section: Section, filter: Memo<RowFilter>, by_change: Memo<bool>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    // Errors by cause get their own table: each run's count, first and last occurrence, verdict.
    let table = crate::ui::derived(move |_| {
        let labels = state.labels.get();
        let f = filter.get();
        match section {
            Section::Error => {
                state.runs.with(|runs| state.rows.with(|rows| errors_table(&crate::ui::refs(runs), rows)))
            }
            _ => state.rows.with(|rows| compare_table(rows, &labels, section, &f)),
        }
    });
    let page = if section == Section::Transaction { 60 } else { crate::limits::TABLE_PAGE_ROWS };
    view! {
        <section class="section">
            {move || {
                let sort = RwSignal::new(by_change.get().then_some((BY_CHANGE, true)));
                view! { <TableView table=table page_size=page group_rows=true sort=sort/> }
            }}
        </section>
    }
}
