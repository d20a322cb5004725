//! Overview: the verdict of each candidate in one statement (with the worst five changes), the
//! report page export, the headline deltas, the report in the author's words, the runs table,
//! errors and notes.

mod author_report;

use crate::analysis::{Cell, Row, Verdict};
use crate::bundle::ErrorEntry;
use crate::format;
use crate::limits::{more_note, MAX_LIST_ITEMS};
use crate::model::Section;
use crate::tables::{runs_table, tenants_table};
use crate::ui::components::{
    report_export::ReportExport, table_view::TableView, verdict_class, verdict_summary::VerdictSummary,
};
use crate::ui::show::shown;
use author_report::AuthorReport;
use leptos::prelude::*;

/// At most this many headline cards.
const MAX_CARDS: usize = 12;

#[component]
pub fn Overview() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let sources = move || state.workspace.with(|w| w.sources.clone());
    view! {
        <div class="overview">
            <VerdictSummary/>
            {shown(move || state.labels.with(|l| l.len() >= 2), || view! { <ReportExport/> }.into_any())}
            <Headline/>
            {move || sources().into_iter().map(|source| view! { <AuthorReport source/> }).collect_view()}
            <RunsTables/>
            <ErrorsList/>
        </div>
    }
}

/// The headline section: a card per headline figure of each candidate against the baseline.
#[component]
fn Headline() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let against =
        move || state.labels.with(|l| l.first().map(|b| format!(" — against the baseline, {b}")).unwrap_or_default());
    let one_run = move || {
        if state.workspace.with(|w| w.all_runs().nth(1).is_some()) {
            "Pick a candidate run above to see what changed."
        } else {
            "One run is loaded: drop the files of another run, or a bundle, to see what changed."
        }
    };
    view! {
        <section class="headline" aria-labelledby="headline-h">
            <h2 id="headline-h">"Headline"<span class="hint">{against}</span></h2>
            <div class="headline-cards"><HeadlineCards labels=state.labels rows=state.rows/></div>
            {shown(move || state.labels.with(|l| l.len() < 2), move || view! {
                <p class="empty">{one_run}</p>
            }.into_any())}
        </section>
    }
}

/// The figures worth a card: run durations and KPIs the baseline states, each candidate's value.
fn headline_cells(rows: &[Row]) -> Vec<(&Row, usize, &Cell)> {
    rows.iter()
        .filter(|r| matches!(r.section, Section::Duration | Section::Kpi) && r.cells[0].value.is_some())
        .flat_map(|r| {
            r.cells.iter().enumerate().skip(1).filter(|(_, c)| c.value.is_some()).map(move |(i, c)| (r, i, c))
        })
        .take(MAX_CARDS)
        .collect()
}

#[component]
fn HeadlineCards(labels: Memo<Vec<String>>, rows: Memo<Vec<Row>>) -> impl IntoView {
    move || {
        let labels = labels.get();
        let cards = rows.with(|rows| {
            headline_cells(rows).into_iter().map(|(r, i, c)| headline_card(r, i, c, &labels)).collect::<Vec<_>>()
        });
        if cards.is_empty() && labels.len() >= 2 {
            view! { <p class="empty">"Neither a run duration nor a KPI is stated for the baseline and a candidate."</p> }.into_any()
        } else {
            cards.into_iter().collect_view().into_any()
        }
    }
}

/// One card: the figure, its change and verdict, both values, which runs.
fn headline_card(r: &Row, i: usize, c: &Cell, labels: &[String]) -> impl IntoView {
    let b = &r.cells[0];
    let fmt = |v: Option<f64>, u| v.map(|v| format::value(v, u)).unwrap_or_default();
    let rel = match c.verdict {
        Verdict::NotComparable | Verdict::Added => String::new(),
        _ => c.change.map(|ch| ch.text(r.spec.family, c.unit)).unwrap_or_default(),
    };
    let class = format!("headline-card {}", verdict_class(c.verdict));
    let verdict = c.verdict;
    let reason = c.reason(&r.spec);
    let (value, base) = (fmt(c.value, c.unit), fmt(b.value, b.unit));
    let runs =
        format!("{} vs {}", labels.get(i).cloned().unwrap_or_default(), labels.first().cloned().unwrap_or_default());
    view! {
        <div class=class data-key=r.key.to_string() title=reason>
            <div class="h-name">{r.key.to_string()}</div>
            <div class="h-rel">{rel}<span class="h-verdict">{verdict.label()}</span></div>
            <div class="h-values">{value}" vs "{base}</div>
            <div class="h-runs">{runs}</div>
        </div>
    }
}

/// The runs table, and the tenants table when a run has tenants.
#[component]
fn RunsTables() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let runs = crate::ui::derived(move |_| state.runs.with(|rs| state.workspace.with(|w| runs_table(w, rs))));
    let tenants = crate::ui::derived(move |_| state.runs.with(|rs| tenants_table(&crate::ui::refs(rs))));
    view! {
        <section aria-label="Runs">
            <TableView table=runs/>
        </section>
        {shown(move || tenants.with(|t| !t.rows.is_empty()), move || view! {
            <section aria-label="Tenants"><TableView table=tenants group_rows=true/></section>
        }.into_any())}
    }
}

/// The errors the selected runs report, each with its run.
#[component]
fn ErrorsList() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let errors = move || {
        state.runs.with(|rs| {
            rs.iter()
                .flat_map(|r| r.errors.iter().map(move |e| (r.label.clone(), e.clone())))
                .take(MAX_LIST_ITEMS)
                .collect::<Vec<_>>()
        })
    };
    let more = move || more_note(state.runs.with(|rs| rs.iter().map(|r| r.errors.len()).sum()), MAX_LIST_ITEMS);
    shown(
        move || !errors().is_empty(),
        move || {
            view! {
                <section class="errors">
                    <h2>"Errors in the selected runs"</h2>
                    <ul>
                        {move || errors().into_iter().map(|(run, e)| error_item(run, e)).collect_view()}
                        {move || more().map(|m| view! { <li class="more">{m}</li> })}
                    </ul>
                </section>
            }
            .into_any()
        },
    )
}

fn error_item(run: String, e: ErrorEntry) -> impl IntoView {
    view! {
        <li>
            <span class="run-tag">{run}</span>
            <code>{e.message}</code>
            {e.count.map(|c| view! { <span class="count">{format!(" ×{}", format::number(c as f64))}</span> })}
            {(!e.services.is_empty()).then(|| view! { <span class="services">{format!(" on {}", e.services.join(", "))}</span> })}
            {e.note.map(|n| view! { <span class="note">{format!(" — {n}")}</span> })}
        </li>
    }
}
