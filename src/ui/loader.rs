//! Getting files into the workspace: dropped or picked files, pasted text and `src` URLs, all read
//! by the ingest workers (`ui::ingest`), whatever they are: a bundle or a tool's raw output. Every
//! failure becomes a notice in plain words; what was loaded before stays loaded.

use super::ingest::{self, Input};
use super::state::{AppState, NoticeKind};
use crate::urlstate::check_src;
use crate::wire::write::RequestRef;
use crate::wire::Done;
use leptos::prelude::*;

/// Where a file came from: a link can fetch it again, a local file must be remembered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Url,
    Local,
    Restored,
}

/// The name the runs made of raw files go by: the workspace source the import panel edits, and
/// the file it is remembered as.
pub const IMPORTED: &str = crate::assemble::session::TITLE;

static NEXT_BATCH: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// A new batch id: files dropped or picked together share one (they default to one run).
fn new_batch() -> u32 {
    NEXT_BATCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Keeps a blob in IndexedDB so a reload reopens it; says so when the browser refuses.
fn remember(state: AppState, name: &str, blob: web_sys::Blob) {
    let name = name.to_string();
    leptos::task::spawn_local(async move {
        if let Err(why) = super::persist::remember(&name, blob).await {
            state.notify(
                NoticeKind::Warning,
                format!("{name} is open but will not be reopened after a reload: {why}."),
                vec![],
            );
        }
    });
}

thread_local! {
    /// The last request for the imported runs (an answer to an earlier one is out of date).
    static SESSION_MADE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Run ids renamed in the import panel whose new runs have not arrived yet: the link follows
    /// them once they have.
    static RENAMED: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes the workspace's imported runs again from the import panel's session (in the writer
/// worker, `ui::writer`), and remembers them (as one bundle: the grouping and names survive a
/// reload). `renamed`: a run id the edit changed, which the link (baseline, candidates) follows.
/// Edits in quick succession are made in order, and only the last one's runs are shown. When no
/// run merges files, the runs are shown at once (`Session::unmerged`), and the writer is asked
/// once they are painted: it answers with the JSON alone when they are what it made.
pub fn sync_session(state: AppState, renamed: Option<(String, String)>) {
    let generation = SESSION_MADE.with(|g| g.get().wrapping_add(1));
    SESSION_MADE.with(|g| g.set(generation));
    RENAMED.with(|r| r.borrow_mut().extend(renamed.filter(|(a, b)| a != b)));
    let shown = state.session.with_untracked(|s| s.unmerged());
    let early = shown.is_some();
    if let Some(bundle) = shown {
        state.workspace.update(|w| {
            w.set_source(IMPORTED, Some(bundle), vec![]);
        });
        follow_renames(state);
    }
    leptos::task::spawn_local(async move {
        if early {
            super::browser::after_paint().await;
        }
        if SESSION_MADE.with(|g| g.get()) != generation {
            return;
        }
        let request = state.session.with_untracked(|s| {
            (!s.is_empty())
                .then(|| super::writer::request(&RequestRef::Merge { groups: s.groups_ref(), title: IMPORTED }))
        });
        let made = match request {
            Some(request) => Some(super::writer::merge(request).await),
            None => None,
        };
        if SESSION_MADE.with(|g| g.get()) != generation {
            return;
        }
        match made {
            None => {
                state.workspace.update(|w| {
                    w.set_source(IMPORTED, None, vec![]);
                });
                follow_renames(state);
                super::persist::forget_name(IMPORTED).await;
            }
            // The runs shown stay as they were; a rename's link follows the next runs made.
            Some(Err(e)) if early => state.notify(
                NoticeKind::Warning,
                format!("The imported runs are shown but will not be reopened after a reload: {e}"),
                vec![],
            ),
            Some(Err(e)) => {
                state.notify(NoticeKind::Error, format!("The imported files could not be made into runs: {e}"), vec![])
            }
            Some(Ok((done, json))) => {
                if let Some(done) = done {
                    show_made(state, done);
                }
                // Remembered after the frame that shows them (a later edit's runs supersede these).
                super::browser::after_paint().await;
                if SESSION_MADE.with(|g| g.get()) == generation {
                    match web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&json)) {
                        Ok(blob) => remember(state, IMPORTED, blob),
                        Err(_) => super::persist::forget_name(IMPORTED).await,
                    }
                }
            }
        }
    });
}

/// Shows the imported runs the writer made, with the warnings of merging.
fn show_made(state: AppState, done: Done) {
    let warnings: Vec<crate::bundle::Warning> = done.warnings().collect();
    if !warnings.is_empty() {
        state.notify(
            NoticeKind::Warning,
            format!("Joining files into runs gave {}.", crate::format::count(warnings.len(), "warning", "warnings")),
            warnings.iter().map(|w| w.to_string()).collect(),
        );
    }
    state.workspace.update(|w| {
        w.set_source(IMPORTED, Some(done.bundle), warnings);
    });
    follow_renames(state);
}

/// The link's run ids follow the renames whose runs have arrived.
fn follow_renames(state: AppState) {
    let renamed = RENAMED.with(|r| std::mem::take(&mut *r.borrow_mut()));
    if renamed.is_empty() {
        return;
    }
    state.url.update(|u| {
        for (old, new) in &renamed {
            for id in u.base.iter_mut().chain(u.cand.iter_mut()).chain(u.runs.iter_mut()) {
                if id == old {
                    *id = new.clone();
                }
            }
        }
    });
}

/// Forgets the import panel's session ("Close all"): an answer still on its way is not shown.
pub fn close_session(state: AppState) {
    SESSION_MADE.with(|g| g.set(g.get().wrapping_add(1)));
    RENAMED.with(|r| r.borrow_mut().clear());
    state.session.set(Default::default());
}

/// Adds a finished import and says what happened: a bundle joins the workspace; a tool's raw
/// output (or the imported runs remembered from the last visit) goes to the import panel, which
/// makes the runs.
fn add(state: AppState, name: &str, done: Done, kept: Option<web_sys::Blob>, origin: Origin, batch: u32) {
    let warning_list: Vec<crate::bundle::Warning> = done.warnings().collect();
    let warnings: Vec<String> = warning_list.iter().map(|w| w.to_string()).collect();
    let n_runs = done.bundle.runs.len();
    let raw = done.format != "bundle";
    let (title, records) = (done.format_title, done.records);
    // What the notice counts: the rows read, or for a summary (statistics.json, an Aggregate
    // Report), which has none, the transactions it gave.
    let count = match (records, done.bundle.runs.iter().map(|r| r.transactions.len()).sum::<usize>()) {
        (0, 0) => String::new(),
        (0, t) => format!(", {}", crate::format::count(t, "transaction", "transactions")),
        (r, _) => format!(", {}", crate::format::count(r as usize, "record", "records")),
    };
    let mut renames = vec![];
    if raw || name == IMPORTED {
        let shown = if raw { title.clone() } else { "earlier imports".into() };
        state.session.update(|s| {
            s.add(batch, name, &shown, records, done.bundle);
        });
        sync_session(state, None);
    } else {
        if let (Origin::Local, Some(blob)) = (origin, kept) {
            remember(state, name, blob);
        }
        renames = state.workspace.try_update(|w| w.add(name, done.bundle, warning_list)).unwrap_or_default();
    }
    if raw && origin != Origin::Restored {
        state.notify(
            NoticeKind::Info,
            format!(
                "{name}: read as {title}{count}{}.",
                if n_runs > 1 { format!(", {} runs", n_runs) } else { String::new() }
            ),
            vec![],
        );
    }
    if !warnings.is_empty() {
        state.notify(
            NoticeKind::Warning,
            format!(
                "{name} loaded with {}; its values are shown as they are.",
                crate::format::count(warnings.len(), "warning", "warnings")
            ),
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

/// Queues one input; `after` runs when it is done (loaded or not). `after` is boxed, so the
/// answer's handling below is compiled once, not once per caller (2 KB of the page).
fn submit(state: AppState, name: String, input: Input, origin: Origin, batch: u32, after: Box<dyn FnOnce(bool)>) {
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
                    add(state, &n, done, kept, origin, batch);
                    true
                }
                Err(e) if e == "cancelled" => {
                    state.notify(NoticeKind::Info, format!("Stopped reading {n}; nothing was changed."), vec![]);
                    false
                }
                Err(e) => {
                    let e = if e.starts_with("Could not") || e.starts_with("Did not") || e.starts_with("The ") {
                        e
                    } else {
                        format!("Could not load {e}")
                    };
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
    super::writer::start();
    let batch = new_batch();
    for f in files {
        let name = f.name();
        submit(state, name, Input::Blob(f.into()), Origin::Local, batch, Box::new(|_| {}));
    }
}

/// Reads pasted text (a bundle, `_cat/indices` output, a CSV…); `after` learns whether it loaded.
pub fn load_text(state: AppState, text: String, after: impl FnOnce(bool) + 'static) {
    super::writer::start();
    let parts = js_sys::Array::of1(&text.into());
    match web_sys::Blob::new_with_str_sequence(&parts) {
        Ok(blob) => submit(state, "pasted text".into(), Input::Blob(blob), Origin::Local, new_batch(), Box::new(after)),
        Err(_) => state.notify(NoticeKind::Error, "The pasted text could not be read.", vec![]),
    }
}

/// Loads the files remembered from an earlier visit.
pub fn restore(state: AppState) {
    leptos::task::spawn_local(async move {
        let stored = super::persist::load().await;
        if stored.iter().any(|(name, _)| name == IMPORTED) {
            super::writer::start();
        }
        let total = stored.len();
        let count = std::rc::Rc::new(std::cell::Cell::new((0usize, 0usize)));
        for (name, blob) in stored {
            let count = count.clone();
            submit(
                state,
                name,
                Input::Blob(blob),
                Origin::Restored,
                new_batch(),
                Box::new(move |ok| {
                    let (done, loaded) = count.get();
                    let (done, loaded) = (done + 1, loaded + usize::from(ok));
                    count.set((done, loaded));
                    if done == total && loaded > 0 {
                        state.notify(
                            NoticeKind::Info,
                            format!(
                                "Reopened {loaded} file{} from your last visit; “Close all” forgets them.",
                                if loaded == 1 { "" } else { "s" }
                            ),
                            vec![],
                        );
                    }
                }),
            );
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
        submit(state, src, Input::Url(href), Origin::Url, new_batch(), Box::new(|_| {}));
    }
}

/// Opens the bundle a shared link carries in its fragment (`#bundle=…`); true if there is one.
pub fn load_shared(state: AppState) -> bool {
    let hash = super::browser::location_hash();
    let Some(data) = crate::share::fragment_value(&hash) else { return false };
    let blob = super::browser::base64url_bytes(data).and_then(|gz| {
        web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&js_sys::Uint8Array::from(&gz[..]))).ok()
    });
    match blob {
        Some(blob) => {
            submit(state, "shared link".into(), Input::Blob(blob), Origin::Url, new_batch(), Box::new(|_| {}))
        }
        None => state.notify(
            NoticeKind::Error,
            "This link's data is damaged or cut short; ask for the link again, or for the bundle file.",
            vec![],
        ),
    }
    true
}

/// Stops the file being read now.
pub fn cancel() {
    ingest::cancel();
}
