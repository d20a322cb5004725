//! Messages to the user: load errors, warnings, ignored link parameters. Dismissable; details
//! are listed up to `limits::MAX_LIST_ITEMS`.

use crate::limits::{more_note, MAX_LIST_ITEMS};
use crate::ui::show::shown;
use crate::ui::state::{Notice, NoticeKind};
use leptos::prelude::*;

#[component]
pub fn Notices() -> impl IntoView {
    let state = crate::ui::use_app_state();
    view! {
        <div class="notices" aria-live="polite">
            <For each=move || state.notices.get() key=|n| n.id let:notice>
                <NoticeItem notice/>
            </For>
        </div>
    }
}

/// One notice: its text, its details collapsed, and Dismiss.
#[component]
fn NoticeItem(notice: Notice) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let Notice { id, kind, text, details } = notice;
    let class = match kind {
        NoticeKind::Error => "notice error",
        NoticeKind::Warning => "notice warning",
        NoticeKind::Info => "notice info",
    };
    let role = if kind == NoticeKind::Error { "alert" } else { "status" };
    let has_details = !details.is_empty();
    view! {
        <div class=class role=role>
            <span class="notice-text">{text}</span>
            {shown(move || has_details, move || view! { <NoticeDetails details=details.clone()/> }.into_any())}
            <button type="button" class="ghost close" aria-label="Dismiss"
                on:click=move |_| state.notices.update(|v| v.retain(|x| x.id != id))>"×"</button>
        </div>
    }
}

/// The details of a notice, up to `MAX_LIST_ITEMS` and a count of the rest.
#[component]
fn NoticeDetails(details: Vec<String>) -> impl IntoView {
    let more = more_note(details.len(), MAX_LIST_ITEMS).map(|m| view! { <li class="more">{m}</li> });
    view! {
        <details>
            <summary>"Details"</summary>
            <ul>
                {details.into_iter().take(MAX_LIST_ITEMS).map(|d| view! { <li>{d}</li> }).collect_view()}
                {more}
            </ul>
        </details>
    }
}
