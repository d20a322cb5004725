//! The report in the author's words, one article per loaded bundle: title, source, purpose,
//! tickets, summary, recommendations (with environment and links) and notes. Every text is the
//! bundle's; only http(s) links become anchors.

use crate::bundle::{Link, Report, Ticket};
use crate::limits::{more_note, MAX_LIST_ITEMS};
use crate::model::Source;
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

/// One bundle's report.
#[component]
pub fn AuthorReport(source: Source) -> impl IntoView {
    let Report { title, purpose, tickets, summary, recommendations, environment, links, notes } = source.report;
    view! {
        <article class="report">
            <h1>{title}</h1>
            <p class="source">"From "{source.name}</p>
            {purpose.map(|p| view! { <p class="purpose">{p}</p> })}
            {(!tickets.is_empty()).then(|| view! { <Tickets tickets/> })}
            <div class="two-col">
                <ReportSummary summary/>
                <Recommendations recommendations environment links/>
            </div>
            {(!notes.is_empty()).then(|| view! { <ReportNotes notes/> })}
        </article>
    }
}

/// The tickets: id (a link when it has a safe URL), relation and title.
#[component]
fn Tickets(tickets: Vec<Ticket>) -> impl IntoView {
    view! {
        <ul class="tickets" aria-label="Tickets">
            {tickets.into_iter().take(MAX_LIST_ITEMS).map(ticket_item).collect_view()}
        </ul>
    }
}

fn ticket_item(t: Ticket) -> impl IntoView {
    view! {
        <li>
            {link_or_text(t.id, t.url)}
            {t.relation.map(|x| view! { <span class="rel">{x}</span> })}
            {t.title.map(|x| view! { <span class="ttl">{x}</span> })}
        </li>
    }
}

/// The left column: the summary's findings.
#[component]
fn ReportSummary(summary: Vec<String>) -> impl IntoView {
    view! {
        <section>
            <h2>"Summary"</h2>
            <ul>{text_items(&summary)}</ul>
            {summary.is_empty().then(|| view! { <p class="empty">"The report has no summary."</p> })}
        </section>
    }
}

/// The right column: recommendations, then the environment and the links.
#[component]
fn Recommendations(recommendations: Vec<String>, environment: Option<String>, links: Vec<Link>) -> impl IntoView {
    view! {
        <section>
            <h2>"Recommendations"</h2>
            <ul>{text_items(&recommendations)}</ul>
            {recommendations.is_empty().then(|| view! { <p class="empty">"No recommendations were given."</p> })}
            {environment.map(|e| view! { <h3>"Environment"</h3><p>{e}</p> })}
            {(!links.is_empty()).then(|| view! { <h3>"Links"</h3><ul>{link_items(links)}</ul> })}
        </section>
    }
}

/// The links, up to `MAX_LIST_ITEMS`, as `<li>`s.
fn link_items(links: Vec<Link>) -> impl IntoView {
    links
        .into_iter()
        .take(MAX_LIST_ITEMS)
        .map(|l| view! { <li>{link_or_text(l.label, Some(l.url))}</li> })
        .collect_view()
}

/// Notes on the report itself, collapsed.
#[component]
fn ReportNotes(notes: Vec<String>) -> impl IntoView {
    let n_notes = notes.len();
    view! {
        <details class="report-notes">
            <summary>{format!("Notes on this report ({n_notes})")}</summary>
            <ul>{text_items(&notes)}</ul>
        </details>
    }
}
