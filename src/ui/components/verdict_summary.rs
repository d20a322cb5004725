//! The verdict summary (Overview and Compare): one line per candidate stating its verdict against
//! the baseline, with its worst changes beneath.

use crate::analysis::{summarize, Summary};
use leptos::prelude::*;

/// The statement of each candidate against the baseline, with its worst five changes.
#[component]
pub fn VerdictSummary() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let lines = Memo::new(move |_| {
        let labels = state.labels.get();
        state.rows.with(|rows| {
            (1..labels.len())
                .map(|ci| {
                    let s = summarize(rows, ci);
                    (s.statement(&labels), s)
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="verdict-summary" aria-label="Verdict" data-testid="summary">
            {move || lines.get().into_iter().map(|(sentence, summary)| view! { <SummaryLine sentence summary/> }).collect_view()}
        </section>
    }
}

/// The class of a candidate's line: red when something regressed, grey when the run failed.
fn line_class(s: &Summary) -> &'static str {
    if s.transactions.regressed + s.others.regressed > 0 {
        "summary-line v-worse"
    } else if s.failed {
        "summary-line v-nocompare"
    } else {
        "summary-line"
    }
}

/// One candidate: its statement and its worst changes.
#[component]
fn SummaryLine(sentence: String, summary: Summary) -> impl IntoView {
    let class = line_class(&summary);
    view! {
        <div class=class>
            <p title=crate::tables::METHOD>{sentence}</p>
            <WorstChanges summary/>
        </div>
    }
}

/// The worst changes of a candidate, or a hint that none went beyond noise.
#[component]
fn WorstChanges(summary: Summary) -> impl IntoView {
    if summary.worst.is_empty() {
        return view! { <p class="hint">"No regression beyond noise among the figures both runs have."</p> }.into_any();
    }
    let items = summary
        .worst
        .iter()
        .map(|w| view! { <li><span class="w-key">{w.key.clone()}</span>" "<span class="w-what">{w.what.clone()}</span></li> })
        .collect_view();
    view! { <ol class="worst" aria-label="Worst changes">{items}</ol> }.into_any()
}
