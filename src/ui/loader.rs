//! Getting bundles into the workspace: files (drop, picker), pasted text and `src` URLs. Every
//! failure becomes a notice in plain words; what was loaded before stays loaded.

use super::state::{AppState, NoticeKind};
use crate::bundle::load_bundle;
use crate::limits::MAX_INPUT_BYTES;
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
                remember(state, name, bytes);
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

/// Keeps the bytes the user gave in IndexedDB so a reload reopens them; says so when the
/// browser refuses.
fn remember(state: AppState, name: &str, bytes: &[u8]) {
    let (name, bytes) = (name.to_string(), bytes.to_vec());
    spawn_local(async move {
        if let Err(why) = super::persist::remember(&name, bytes).await {
            state.notify(NoticeKind::Warning, format!("{name} is open but will not be reopened after a reload: {why}."), vec![]);
        }
    });
}

/// "… is 1.5 GiB; runlens reads at most 1 GiB into the page" when `size` is over the input limit.
fn over_input_limit(name: &str, size: u64) -> Option<String> {
    (size > MAX_INPUT_BYTES).then(|| format!(
        "Did not open {name}: it is {}, and runlens reads at most {} into the page.",
        crate::format::bytes(size as f64),
        crate::format::bytes(MAX_INPUT_BYTES as f64)
    ))
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
            if let Some(msg) = over_input_limit(&name, f.size() as u64) {
                state.notify(NoticeKind::Error, msg, vec![]);
                continue;
            }
            match read_file(state, &f).await {
                Ok(bytes) => {
                    // Let the spinner paint before a large parse.
                    gloo::timers::future::TimeoutFuture::new(0).await;
                    ingest(state, &name, &bytes, Origin::Local);
                }
                Err(e) => state.notify(NoticeKind::Error, format!("Could not read {name}: {e}"), vec![]),
            }
        }
        state.progress.set(None);
        state.busy.update(|b| *b -= 1);
    });
}

const CHUNK_BYTES: f64 = (4 << 20) as f64;
/// A server's Content-Length may lie: reserve no more than this up front for a response.
const MAX_RESERVE: usize = 256 << 20;

/// Reads a file in 4 MiB slices, reporting progress between them (the page stays responsive). Its
/// size is known and within `MAX_INPUT_BYTES`, so it is reserved up front (no doubling).
async fn read_file(state: AppState, f: &web_sys::File) -> Result<Vec<u8>, String> {
    let name = f.name();
    let total = f.size();
    let mut out = Vec::with_capacity((total as u64).min(MAX_INPUT_BYTES) as usize);
    let mut offset = 0.0;
    while offset < total {
        let end = (offset + CHUNK_BYTES).min(total);
        let slice = f.slice_with_f64_and_f64(offset, end).map_err(|_| "the browser refused to read it".to_string())?;
        let bytes = gloo::file::futures::read_as_bytes(&gloo::file::Blob::from(slice)).await.map_err(|e| e.to_string())?;
        out.extend_from_slice(&bytes);
        offset = end;
        state.progress.set(Some((name.clone(), offset as u64, Some(total as u64))));
    }
    Ok(out)
}

/// Loads the files remembered from an earlier visit.
pub fn restore(state: AppState) {
    state.busy.update(|b| *b += 1);
    spawn_local(async move {
        let stored = super::persist::load().await;
        let n = stored.iter().filter(|(name, bytes)| ingest(state, name, bytes, Origin::Restored)).count();
        if n > 0 {
            state.notify(NoticeKind::Info, format!("Reopened {n} bundle(s) from your last visit; “Close all” forgets them."), vec![]);
        }
        state.busy.update(|b| *b -= 1);
    });
}

/// Fetches `src` URLs in order and loads them.
pub fn load_urls(state: AppState, srcs: Vec<String>) {
    if srcs.is_empty() {
        return;
    }
    state.busy.update(|b| *b += 1);
    spawn_local(async move {
        for src in srcs {
            // What the browser's URL parser makes of it is what is checked, and what is fetched.
            let resolved = super::browser::resolve_url(&src);
            if let Err(msg) = check_src(&src, resolved.as_ref().map(|(_, protocol)| protocol.as_str())) {
                state.notify(NoticeKind::Error, format!("Did not load {msg}."), vec![]);
                continue;
            }
            let href = resolved.map(|(href, _)| href).unwrap_or_else(|| src.clone());
            match fetch_bytes(state, &src, &href).await {
                Ok(bytes) => {
                    ingest(state, &src, &bytes, Origin::Url);
                }
                Err(msg) => state.notify(NoticeKind::Error, msg, vec![]),
            }
        }
        state.progress.set(None);
        state.busy.update(|b| *b -= 1);
    });
}

async fn fetch_bytes(state: AppState, src: &str, href: &str) -> Result<Vec<u8>, String> {
    let resp = gloo::net::http::Request::get(href).send().await.map_err(|_| {
        format!(
            "Could not fetch {src}: the server did not answer, or it does not allow other sites to read it \
             (cross-origin reads need an Access-Control-Allow-Origin header)."
        )
    })?;
    if !resp.ok() {
        return Err(format!("Could not fetch {src}: the server answered HTTP {} {}.", resp.status(), resp.status_text()));
    }
    let total = resp.headers().get("content-length").and_then(|v| v.parse::<u64>().ok());
    if let Some(msg) = total.and_then(|t| over_input_limit(src, t)) {
        return Err(msg);
    }
    let Some(body) = resp.body() else {
        return resp.binary().await.map_err(|e| format!("Could not read {src}: {e}"));
    };
    read_stream(state, src, body, total).await.map_err(|e| format!("Could not read {src}: {e}"))
}

/// Reads a response body chunk by chunk, reporting progress.
async fn read_stream(state: AppState, src: &str, body: web_sys::ReadableStream, total: Option<u64>) -> Result<Vec<u8>, String> {
    use wasm_bindgen::JsCast;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut out = Vec::with_capacity((total.unwrap_or(0) as usize).min(MAX_RESERVE));
    loop {
        let chunk = wasm_bindgen_futures::JsFuture::from(reader.read()).await.map_err(|_| "the connection broke off".to_string())?;
        let chunk: web_sys::ReadableStreamReadResult = chunk.unchecked_into();
        if chunk.get_done().unwrap_or(true) {
            break;
        }
        let bytes = js_sys::Uint8Array::new(&chunk.get_value());
        if (out.len() + bytes.length() as usize) as u64 > MAX_INPUT_BYTES {
            let _ = reader.cancel();
            return Err(format!("it is larger than {}, the most runlens reads into the page", crate::format::bytes(MAX_INPUT_BYTES as f64)));
        }
        out.extend_from_slice(&bytes.to_vec());
        state.progress.set(Some((src.to_string(), out.len() as u64, total)));
    }
    // Let the progress paint before a large parse.
    gloo::timers::future::TimeoutFuture::new(0).await;
    Ok(out)
}
