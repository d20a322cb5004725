//! Copy link / copy embed snippet / export the workspace as one bundle.

use crate::ui::browser;
use crate::ui::state::NoticeKind;
use crate::urlstate::UrlState;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The `<iframe>` snippet that embeds the current view.
pub fn embed_snippet(url: &UrlState) -> String {
    let q = UrlState { embed: true, ..url.clone() }.to_query();
    format!(
        "<iframe src=\"{}?{}\" width=\"800\" height=\"500\" style=\"border:0;max-width:100%\" loading=\"lazy\" title=\"runlens: {}\"></iframe>",
        browser::page_base(),
        q.replace('&', "&amp;"),
        url.view.title()
    )
}

#[component]
pub fn ShareButtons() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let has_src = move || state.url.with(|u| !u.src.is_empty());
    let has_runs = move || state.workspace.with(|w| !w.is_empty());
    let copy = move |what: &'static str, text: String| {
        spawn_local(async move {
            if browser::copy_text(&text).await {
                state.notify(NoticeKind::Info, format!("{what} copied to the clipboard."), vec![]);
            } else {
                state.notify(NoticeKind::Warning, format!("The browser did not allow copying; here is the {what}:"), vec![text]);
            }
        });
    };
    let copy_link = move |_| {
        let q = state.url.with(|u| u.to_query());
        copy("Link", format!("{}?{q}", browser::page_base()));
    };
    let copy_embed = move |_| copy("Embed snippet", state.url.with(embed_snippet));
    let export = move |_| {
        if let Some(b) = state.workspace.with(|w| w.to_bundle()) {
            if let Ok(json) = serde_json::to_string_pretty(&b) {
                browser::download("runlens-workspace.json", "application/json", &json);
            }
        }
    };
    view! {
        <Show when=has_runs>
            <Show when=has_src fallback=|| view! {
                <span class="hint" title="Links can only point to bundles loaded from a URL (src=…), not to local files.">"Local files: link not shareable"</span>
            }>
                <button type="button" class="ghost" on:click=copy_link data-testid="copy-link">"Copy link"</button>
                <button type="button" class="ghost" on:click=copy_embed data-testid="copy-embed">"Copy embed"</button>
            </Show>
            <button type="button" class="ghost" on:click=export data-testid="export-bundle" title="Download every loaded run as one bundle">"Save bundle"</button>
        </Show>
    }
}
