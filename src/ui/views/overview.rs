//! Overview: the verdict of each candidate in one statement (with the worst five changes), the
//! headline deltas, the report in the author's words, the runs table, errors and notes; the
//! report page export.

use crate::analysis::Verdict;
use crate::format;
use crate::limits::{more_note, MAX_LIST_ITEMS};
use crate::model::Section;
use crate::tables::{runs_table, tenants_table};
use crate::ui::components::{
    report_export::ReportExport, table_view::TableView, verdict_class, verdict_summary::VerdictSummary,
};
use crate::ui::show::shown;
use leptos::prelude::*;

/// Only http(s) links become anchors; anything else (javascript:, data:) is shown as text.
fn safe_href(url: &str) -> Option<String> {
    let u = url.trim();
    let lower = u.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://")).then(|| u.to_string())
}

/// The first `MAX_LIST_ITEMS` of a list from the bundle, as `<li>`s of text, and a last item that
/// counts the rest.
fn text_items(items: &[String]) -> impl IntoView {
    let more = more_note(items.len(), MAX_LIST_ITEMS).map(|m| view! { <li class="more">{m}</li> });
    (items.iter().take(MAX_LIST_ITEMS).map(|p| view! { <li>{p.clone()}</li> }).collect_view(), more)
}

fn link_or_text(text: String, url: Option<String>) -> AnyView {
    match url.as_deref().and_then(safe_href) {
        Some(href) => view! { <a href=href target="_blank" rel="noopener noreferrer">{text}</a> }.into_any(),
        None => view! { <span>{text}</span> }.into_any(),
    }
}

#[component]
pub fn Overview() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let sources = move || state.workspace.with(|w| w.sources.clone());
    let runs = crate::ui::derived(move |_| state.workspace.with(runs_table));
    let tenants = crate::ui::derived(move |_| state.runs.with(|rs| tenants_table(&crate::ui::refs(rs))));
    let headline = move || {
        let labels = state.labels.get();
        let cards = state.rows.with(|rows| {
            rows.iter()
                .filter(|r| matches!(r.section, Section::Duration | Section::Kpi) && r.cells[0].value.is_some())
                .flat_map(|r| r.cells.iter().enumerate().skip(1).filter(|(_, c)| c.value.is_some()).map(move |(i, c)| (r, i, c)))
                .take(12)
                .map(|(r, i, c)| {
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
                    view! {
                        <div class=class data-key=r.key.to_string() title=reason>
                            <div class="h-name">{r.key.to_string()}</div>
                            <div class="h-rel">{rel}<span class="h-verdict">{verdict.label()}</span></div>
                            <div class="h-values">{value}" vs "{base}</div>
                            <div class="h-runs">{format!("{} vs {}", labels.get(i).cloned().unwrap_or_default(), labels.first().cloned().unwrap_or_default())}</div>
                        </div>
                    }
                })
                .collect::<Vec<_>>()
        });
        if cards.is_empty() && labels.len() >= 2 {
            view! { <p class="empty">"Neither a run duration nor a KPI is stated for the baseline and a candidate."</p> }.into_any()
        } else {
            cards.into_iter().collect_view().into_any()
        }
    };
    let errors = move || {
        state.runs.with(|rs| {
            rs.iter()
                .flat_map(|r| r.errors.iter().map(move |e| (r.label.clone(), e.clone())))
                .take(MAX_LIST_ITEMS)
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="overview">
            <VerdictSummary/>
            {shown(move || state.labels.with(|l| l.len() >= 2), || view! { <ReportExport/> }.into_any())}
            <section class="headline" aria-labelledby="headline-h">
                <h2 id="headline-h">"Headline"<span class="hint">{move || state.labels.with(|l| l.first().map(|b| format!(" — against the baseline, {b}")).unwrap_or_default())}</span></h2>
                <div class="headline-cards">{headline}</div>
                {shown(move || state.labels.with(|l| l.len() < 2), move || view! {
                    <p class="empty">{move || if state.workspace.with(|w| w.all_runs().nth(1).is_some()) {
                        "Pick a candidate run above to see what changed."
                    } else {
                        "One run is loaded: drop the files of another run, or a bundle, to see what changed."
                    }}</p>
                }.into_any())}
            </section>
            {move || sources().into_iter().map(|s| {
                let r = s.report;
                let n_notes = r.notes.len();
                view! {
                    <article class="report">
                        <h1>{r.title.clone()}</h1>
                        <p class="source">"From "{s.name.clone()}</p>
                        {r.purpose.clone().map(|p| view! { <p class="purpose">{p}</p> })}
                        {(!r.tickets.is_empty()).then(|| view! {
                            <ul class="tickets" aria-label="Tickets">
                                {r.tickets.iter().take(MAX_LIST_ITEMS).map(|t| view! {
                                    <li>
                                        {link_or_text(t.id.clone(), t.url.clone())}
                                        {t.relation.clone().map(|x| view! { <span class="rel">{x}</span> })}
                                        {t.title.clone().map(|x| view! { <span class="ttl">{x}</span> })}
                                    </li>
                                }).collect_view()}
                            </ul>
                        })}
                        <div class="two-col">
                            <section>
                                <h2>"Summary"</h2>
                                <ul>{text_items(&r.summary)}</ul>
                                {r.summary.is_empty().then(|| view! { <p class="empty">"The report has no summary."</p> })}
                            </section>
                            <section>
                                <h2>"Recommendations"</h2>
                                <ul>{text_items(&r.recommendations)}</ul>
                                {r.recommendations.is_empty().then(|| view! { <p class="empty">"No recommendations were given."</p> })}
                                {r.environment.clone().map(|e| view! { <h3>"Environment"</h3><p>{e}</p> })}
                                {(!r.links.is_empty()).then(|| view! {
                                    <h3>"Links"</h3>
                                    <ul>{r.links.iter().take(MAX_LIST_ITEMS).map(|l| view! { <li>{link_or_text(l.label.clone(), Some(l.url.clone()))}</li> }).collect_view()}</ul>
                                })}
                            </section>
                        </div>
                        {(n_notes != 0).then(|| view! {
                            <details class="report-notes">
                                <summary>{format!("Notes on this report ({n_notes})")}</summary>
                                <ul>{text_items(&r.notes)}</ul>
                            </details>
                        })}
                    </article>
                }
            }).collect_view()}
            <section aria-label="Runs">
                <TableView table=runs/>
            </section>
            {shown(move || tenants.with(|t| !t.rows.is_empty()), move || view! {
                <section aria-label="Tenants"><TableView table=tenants group_rows=true/></section>
            }.into_any())}
            {shown(move || !errors().is_empty(), move || view! {
                <section class="errors">
                    <h2>"Errors in the selected runs"</h2>
                    <ul>
                        {move || errors().into_iter().map(|(run, e)| view! {
                            <li>
                                <span class="run-tag">{run}</span>
                                <code>{e.message}</code>
                                {e.count.map(|c| view! { <span class="count">{format!(" ×{}", format::number(c as f64))}</span> })}
                                {(!e.services.is_empty()).then(|| view! { <span class="services">{format!(" on {}", e.services.join(", "))}</span> })}
                                {e.note.map(|n| view! { <span class="note">{format!(" — {n}")}</span> })}
                            </li>
                        }).collect_view()}
                        {move || more_note(state.runs.with(|rs| rs.iter().map(|r| r.errors.len()).sum()), MAX_LIST_ITEMS).map(|m| view! { <li class="more">{m}</li> })}
                    </ul>
                </section>
            }.into_any())}
        </div>
    }
}
