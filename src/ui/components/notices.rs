//! Messages to the user: load errors, warnings, ignored link parameters. Dismissable; details
//! are listed up to `limits::MAX_LIST_ITEMS`.

use crate::limits::{more_note, MAX_LIST_ITEMS};
use crate::ui::show::shown;
use crate::ui::state::NoticeKind;
use leptos::prelude::*;

#[component]
pub fn Notices() -> impl IntoView {
    let state = crate::ui::use_app_state();
    view! {
        <div class="notices" aria-live="polite">
            <For each=move || state.notices.get() key=|n| n.id let:n>
                {
                    let id = n.id;
                    let class = match n.kind {
                        NoticeKind::Error => "notice error",
                        NoticeKind::Warning => "notice warning",
                        NoticeKind::Info => "notice info",
                    };
                    let role = if n.kind == NoticeKind::Error { "alert" } else { "status" };
                    let details = n.details.clone();
                    let has_details = !details.is_empty();
                    view! {
                        <div class=class role=role>
                            <span class="notice-text">{n.text.clone()}</span>
                            {shown(move || has_details, move || view! {
                                <details>
                                    <summary>"Details"</summary>
                                    <ul>
                                        {details.iter().take(MAX_LIST_ITEMS).map(|d| view! { <li>{d.clone()}</li> }).collect_view()}
                                        {more_note(details.len(), MAX_LIST_ITEMS).map(|m| view! { <li class="more">{m}</li> })}
                                    </ul>
                                </details>
                            }.into_any())}
                            <button type="button" class="ghost close" aria-label="Dismiss"
                                on:click=move |_| state.notices.update(|v| v.retain(|x| x.id != id))>"×"</button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}
