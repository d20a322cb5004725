//! Getting bundles into the workspace: files (drop, picker), pasted text and `src` URLs. Every
//! failure becomes a notice in plain words; what was loaded before stays loaded.

use super::state::{AppState, NoticeKind};
use crate::bundle::load_bundle;
use crate::urlstate::check_src;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Where a bundle came from: a link can fetch it again, a local file must be remembered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Url,
    Local,
    Restored,
}

/// Loads one bundle's bytes; returns whether it was added.
pub fn ingest(state: AppState, name: &str, bytes: &[u8], origin: Origin) -> bool {
    match load_bundle(name, bytes) {
        Ok(loaded) => {
            if origin == Origin::Local {
                let json = serde_json::to_string(&loaded.bundle).unwrap_or_default();
                if !super::persist::remember(name, json) {
                    state.notify(NoticeKind::Info, format!("{name} is too large to be remembered across reloads."), vec![]);
                }
            }
            let title = loaded.bundle.report.title.clone();
            let n_runs = loaded.bundle.runs.len();
            let warnings: Vec<String> = loaded.warnings.iter().map(|w| w.to_string()).collect();
            let renames = state.workspace.try_update(|w| w.add(name, loaded.bundle, loaded.warnings)).unwrap_or_default();
            if !warnings.is_empty() {
                state.notify(
                    NoticeKind::Warning,
                    format!("{name} loaded with {} warning(s); its values are shown as they are.", warnings.len()),
                    warnings,
                );
            }
            if !renames.is_empty() {
                state.notify(
                    NoticeKind::Info,
                    format!("{name}: run ids already in use were renamed so both stay loaded."),
                    renames.iter().map(|(a, b)| format!("{a} → {b}")).collect(),
                );
            }
            leptos::logging::log!("loaded {name}: {title} ({n_runs} runs)");
            true
        }
        Err(e) => {
            state.notify(NoticeKind::Error, format!("Could not load {e}"), vec![]);
            false
        }
    }
}

/// Reads dropped or picked files, in order.
pub fn load_files(state: AppState, files: Vec<web_sys::File>) {
    if files.is_empty() {
        return;
    }
    state.busy.update(|b| *b += 1);
    spawn_local(async move {
        for f in files {
            let name = f.name();
            let file = gloo::file::File::from(f);
            match gloo::file::futures::read_as_bytes(&file).await {
                Ok(bytes) => {
                    // Let the spinner paint before a large parse.
                    gloo::timers::future::TimeoutFuture::new(0).await;
                    ingest(state, &name, &bytes, Origin::Local);
                }
                Err(e) => state.notify(NoticeKind::Error, format!("Could not read {name}: {e}"), vec![]),
            }
        }
        state.busy.update(|b| *b -= 1);
    });
}

/// Loads the bundles remembered from an earlier visit.
pub fn restore(state: AppState) {
    let stored = super::persist::load();
    if stored.is_empty() {
        return;
    }
    let n = stored.iter().filter(|s| ingest(state, &s.name, s.json.as_bytes(), Origin::Restored)).count();
    if n > 0 {
        state.notify(NoticeKind::Info, format!("Reopened {n} bundle(s) from your last visit; “Close all” forgets them."), vec![]);
    }
}

/// Fetches `src` URLs in order and loads them.
pub fn load_urls(state: AppState, srcs: Vec<String>) {
    if srcs.is_empty() {
        return;
    }
    state.busy.update(|b| *b += 1);
    spawn_local(async move {
        for src in srcs {
            if let Err(msg) = check_src(&src) {
                state.notify(NoticeKind::Error, format!("Did not load {msg}."), vec![]);
                continue;
            }
            match fetch_bytes(&src).await {
                Ok(bytes) => {
                    ingest(state, &src, &bytes, Origin::Url);
                }
                Err(msg) => state.notify(NoticeKind::Error, msg, vec![]),
            }
        }
        state.busy.update(|b| *b -= 1);
    });
}

async fn fetch_bytes(src: &str) -> Result<Vec<u8>, String> {
    let resp = gloo::net::http::Request::get(src).send().await.map_err(|_| {
        format!(
            "Could not fetch {src}: the server did not answer, or it does not allow other sites to read it \
             (cross-origin reads need an Access-Control-Allow-Origin header)."
        )
    })?;
    if !resp.ok() {
        return Err(format!("Could not fetch {src}: the server answered HTTP {} {}.", resp.status(), resp.status_text()));
    }
    resp.binary().await.map_err(|e| format!("Could not read {src}: {e}"))
}
