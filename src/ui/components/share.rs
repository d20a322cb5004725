//! Copy link / copy embed snippet / export the workspace as one bundle.

use crate::bundle::BundleRef;
use crate::ui::show::shown;
use crate::ui::state::NoticeKind;
use crate::ui::{browser, writer};
use crate::urlstate::UrlState;
use crate::wire::write::RequestRef;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The `<iframe>` snippet that embeds the view of `link` (a full link to the page).
pub fn embed_snippet(link: &str, url: &UrlState) -> String {
    format!(
        "<iframe src=\"{}\" width=\"800\" height=\"500\" style=\"border:0;max-width:100%\" loading=\"lazy\" title=\"runlens: {}\"></iframe>",
        link.replace('&', "&amp;").replace('"', "&quot;"),
        url.view.title()
    )
}

/// A link to the current state. Bundles from `src` URLs are named by them; when any file was
/// opened locally, the workspace travels in the fragment instead (or, if that is too long, the
/// compared runs alone). `Err` says why no link can carry it.
async fn link(state: crate::ui::AppState, embed: bool) -> Result<String, String> {
    let url = state.url.get_untracked();
    let url = UrlState { embed, ..url };
    let base = browser::page_base();
    let local = state.workspace.with_untracked(|w| w.sources.iter().any(|s| !url.src.contains(&s.name)));
    if !local {
        return Ok(format!("{base}?{}", url.to_query()));
    }
    let query = UrlState { src: vec![], ..url }.to_query();
    let ids = state.selected.get_untracked();
    let link_of =
        |b: Option<BundleRef>| b.map(|bundle| writer::request(&RequestRef::Link { bundle: Box::new(bundle) }));
    let (whole, compared) =
        state.workspace.with_untracked(|w| (link_of(w.to_bundle_ref()), link_of(w.subset_bundle_ref(&ids))));
    let mut last_size = 0;
    // The whole workspace first; the compared runs when it is too large for a link.
    for request in [whole, compared].into_iter().flatten() {
        match writer::link(request).await {
            Ok(fragment) => return Ok(format!("{base}?{query}#{fragment}")),
            Err(Ok(size)) => last_size = size,
            Err(Err(why)) => return Err(why),
        }
    }
    Err(format!(
        "These runs are too large to travel in a link ({} compressed; a link carries up to {}). Use “Save bundle” and share the file, or host it and link to it with src=.",
        crate::format::bytes(last_size as f64),
        crate::format::bytes((crate::limits::MAX_SHARE_FRAGMENT_BYTES / 4 * 3) as f64)
    ))
}

#[component]
pub fn ShareButtons() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let has_runs = move || state.workspace.with(|w| !w.is_empty());
    let copy = move |what: &'static str, text: String| {
        spawn_local(async move {
            if browser::copy_text(&text).await {
                state.notify(NoticeKind::Info, format!("{what} copied to the clipboard."), vec![]);
            } else {
                state.notify(
                    NoticeKind::Warning,
                    format!("The browser did not allow copying; here is the {what}:"),
                    vec![text],
                );
            }
        });
    };
    let copy_link = move |_| {
        spawn_local(async move {
            match link(state, false).await {
                Ok(l) => copy("Link", l),
                Err(why) => state.notify(NoticeKind::Warning, why, vec![]),
            }
        });
    };
    let copy_embed = move |_| {
        spawn_local(async move {
            match link(state, true).await {
                Ok(l) => copy("Embed snippet", state.url.with_untracked(|u| embed_snippet(&l, u))),
                Err(why) => state.notify(NoticeKind::Warning, why, vec![]),
            }
        });
    };
    let export = move |_| {
        let request = state
            .workspace
            .with(|w| w.to_bundle_ref().map(|b| writer::request(&RequestRef::Json { bundles: vec![b], pretty: true })));
        let Some(request) = request else { return };
        spawn_local(async move {
            match writer::json(request).await.map(|mut texts| texts.pop()) {
                Ok(Some(json)) => browser::download_bytes("runlens-workspace.json", "application/json", &json),
                Ok(None) => state.notify(NoticeKind::Error, "The bundle could not be written.", vec![]),
                Err(why) => state.notify(NoticeKind::Error, format!("The bundle could not be written: {why}"), vec![]),
            }
        });
    };
    view! {
        {shown(has_runs, move || view! {
            <button type="button" class="ghost" on:click=copy_link data-testid="copy-link"
                title="A link to this view; runs from local files travel inside the link (nothing is uploaded)">"Copy link"</button>
            <button type="button" class="ghost" on:click=copy_embed data-testid="copy-embed">"Copy embed"</button>
            <button type="button" class="ghost" on:click=export data-testid="export-bundle" title="Download every loaded run as one bundle">"Save bundle"</button>
        }.into_any())}
    }
}
