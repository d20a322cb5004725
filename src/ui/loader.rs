//! Getting files into the workspace: dropped or picked files, pasted text and `src` URLs, all read
//! by the ingest workers (`ui::ingest`), whatever they are: a bundle or a tool's raw output. Every
//! failure becomes a notice in plain words; what was loaded before stays loaded.

use super::ingest::{self, Input};
use super::state::{AppState, NoticeKind};
use crate::urlstate::check_src;
use crate::wire::Done;
use leptos::prelude::*;

/// Where a file came from: a link can fetch it again, a local file must be remembered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Url,
    Local,
    Restored,
}

/// Keeps what the user opened in IndexedDB so a reload reopens it: a bundle as the file they gave,
/// a tool's raw output as the bundle made of it (the worker's JSON; a 1 GB JTL is not kept twice).
/// Says so when the browser refuses.
fn remember(state: AppState, name: &str, blob: web_sys::Blob) {
    let name = name.to_string();
    leptos::task::spawn_local(async move {
        if let Err(why) = super::persist::remember(&name, blob).await {
            state.notify(NoticeKind::Warning, format!("{name} is open but will not be reopened after a reload: {why}."), vec![]);
        }
    });
}

/// Adds a finished import to the workspace and says what happened.
fn add(state: AppState, name: &str, done: Done, kept: Option<web_sys::Blob>, origin: Origin) {
    if let (Origin::Local, Some(blob)) = (origin, kept) {
        remember(state, name, blob);
    }
    let warning_list: Vec<crate::bundle::Warning> = done.warnings().collect();
    let warnings: Vec<String> = warning_list.iter().map(|w| w.to_string()).collect();
    let n_runs = done.bundle.runs.len();
    let raw = done.format != "bundle";
    let (title, records) = (done.format_title, done.records);
    let renames = state.workspace.try_update(|w| w.add(name, done.bundle, warning_list)).unwrap_or_default();
    if raw && origin != Origin::Restored {
        state.notify(
            NoticeKind::Info,
            format!("{name}: read as {title} ({} records) into {n_runs} run(s).", crate::format::thousands(records as f64, 0)),
            vec![],
        );
    }
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
}

/// Queues one input; `after` runs when it is done (loaded or not).
fn submit(state: AppState, name: String, input: Input, origin: Origin, after: impl FnOnce(bool) + 'static) {
    state.busy.update(|b| *b += 1);
    let n = name.clone();
    ingest::submit(
        name,
        input,
        origin == Origin::Local,
        Box::new(move |result| {
            state.busy.update(|b| *b = b.saturating_sub(1));
            let ok = match result {
                Ok((done, kept)) => {
                    add(state, &n, done, kept, origin);
                    true
                }
                Err(e) if e == "cancelled" => {
                    state.notify(NoticeKind::Info, format!("Stopped reading {n}; nothing was changed."), vec![]);
                    false
                }
                Err(e) => {
                    let e = if e.starts_with("Could not") || e.starts_with("Did not") || e.starts_with("The ") { e } else { format!("Could not load {e}") };
                    state.notify(NoticeKind::Error, e, vec![]);
                    false
                }
            };
            after(ok);
        }),
    );
}

/// Reads dropped or picked files, in order.
pub fn load_files(state: AppState, files: Vec<web_sys::File>) {
    for f in files {
        let name = f.name();
        submit(state, name, Input::Blob(f.into()), Origin::Local, |_| {});
    }
}

/// Reads pasted text (a bundle, `_cat/indices` output, a CSV…); `after` learns whether it loaded.
pub fn load_text(state: AppState, text: String, after: impl FnOnce(bool) + 'static) {
    let parts = js_sys::Array::of1(&text.into());
    match web_sys::Blob::new_with_str_sequence(&parts) {
        Ok(blob) => submit(state, "pasted text".into(), Input::Blob(blob), Origin::Local, after),
        Err(_) => state.notify(NoticeKind::Error, "The pasted text could not be read.", vec![]),
    }
}

/// Loads the files remembered from an earlier visit.
pub fn restore(state: AppState) {
    leptos::task::spawn_local(async move {
        let stored = super::persist::load().await;
        let total = stored.len();
        let count = std::rc::Rc::new(std::cell::Cell::new((0usize, 0usize)));
        for (name, blob) in stored {
            let count = count.clone();
            submit(state, name, Input::Blob(blob), Origin::Restored, move |ok| {
                let (done, loaded) = count.get();
                let (done, loaded) = (done + 1, loaded + usize::from(ok));
                count.set((done, loaded));
                if done == total && loaded > 0 {
                    state.notify(NoticeKind::Info, format!("Reopened {loaded} file{} from your last visit; “Close all” forgets them.", if loaded == 1 { "" } else { "s" }), vec![]);
                }
            });
        }
    });
}

/// Fetches `src` URLs in order (in the worker) and loads them. What the browser's URL parser
/// makes of a `src` is what is checked, and what the worker fetches.
pub fn load_urls(state: AppState, srcs: Vec<String>) {
    for src in srcs {
        let resolved = super::browser::resolve_url(&src);
        if let Err(msg) = check_src(&src, resolved.as_ref().map(|(_, protocol)| protocol.as_str())) {
            state.notify(NoticeKind::Error, format!("Did not load {msg}."), vec![]);
            continue;
        }
        let href = resolved.map(|(href, _)| href).unwrap_or_else(|| src.clone());
        submit(state, src, Input::Url(href), Origin::Url, |_| {});
    }
}

/// Opens the bundle a shared link carries in its fragment (`#bundle=…`); true if there is one.
pub fn load_shared(state: AppState) -> bool {
    let Some(data) = crate::share::from_fragment(&super::browser::location_hash()) else { return false };
    match data.ok().and_then(|gz| web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&js_sys::Uint8Array::from(&gz[..]))).ok()) {
        Some(blob) => submit(state, "shared link".into(), Input::Blob(blob), Origin::Url, |_| {}),
        None => state.notify(NoticeKind::Error, "This link's data is damaged or cut short; ask for the link again, or for the bundle file.", vec![]),
    }
    true
}

/// Stops the file being read now.
pub fn cancel() {
    ingest::cancel();
}
