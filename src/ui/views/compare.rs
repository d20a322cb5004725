//! Compare: every facet of the selected runs matched by key, with deltas and verdicts, one table
//! per section; a two-dimension grid when the runs vary along two dimensions.

use super::controls::{row_filter, FilterControls};
use crate::model::Section;
use crate::tables::compare_table;
use crate::ui::components::table_view::TableView;
use leptos::prelude::*;

const SECTIONS: [Section; 7] = [
    Section::Duration,
    Section::Kpi,
    Section::Transaction,
    Section::Resource,
    Section::Index,
    Section::Error,
    Section::Tenant,
];

#[component]
pub fn Compare() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let filter = row_filter(state);
    let present = Memo::new(move |_| {
        state.rows.with(|rows| SECTIONS.iter().copied().filter(|s| rows.iter().any(|r| r.section == *s)).collect::<Vec<_>>())
    });
    let summary = move || {
        state.rows.with(|rows| {
            let n = |v: crate::analysis::Verdict| rows.iter().filter(|r| r.cells.iter().skip(1).any(|c| c.verdict == v)).count();
            use crate::analysis::Verdict::*;
            format!("{} worse, {} better, {} within threshold, {} added, {} removed", n(Worse), n(Better), n(Same), n(Added), n(Removed))
        })
    };
    view! {
        <div class="compare">
            <FilterControls/>
            <p class="summary-line" data-testid="compare-summary">{summary}</p>
            <super::grid::GridPanel/>
            <Show when=move || present.with(|p| p.is_empty())>
                <p class="empty">"The selected runs carry no numbers to compare."</p>
            </Show>
            <For each=move || present.get() key=|s| *s let:section>
                {
                    let table = Memo::new(move |_| {
                        let labels = state.labels.get();
                        let f = filter.get();
                        state.rows.with(|rows| compare_table(rows, &labels, section, &f))
                    });
                    let page = if section == Section::Transaction { 60 } else { crate::limits::TABLE_PAGE_ROWS };
                    view! { <section class="section"><TableView table=table page_size=page group_rows=true/></section> }
                }
            </For>
        </div>
    }
}
