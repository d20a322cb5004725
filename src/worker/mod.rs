//! The ingest worker (a second wasm binary, `src/bin/ingest.rs`): reads files, downloads and pasted
//! text off the page's thread and hands back finished bundles; also the writer (`write`). Its
//! message loop: each message from the page (`crate::protocol`, where the protocol is described)
//! goes to the code for it. All parsing happens here, so the page's binary links no parser.
//! Cancelling is `Worker.terminate()` from the page: no loop here checks for it (a large JTL's
//! reads are awaited, `stream`; everything else runs without yielding).

mod blob_source;
mod bundle_parts;
pub mod chunk_source;
mod download;
mod feed;
mod import_job;
mod ranges;
mod stream;
mod warm;
mod write;

use crate::protocol::{ProtocolError, ToPage, ToWorker, ToWriter};
use js_sys::Uint8Array;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Build id baked into both binaries; the worker reports it so a stale cached worker is noticed.
pub const BUILD: &str = env!("RUNLENS_BUILD");

pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts a message to the page, transferring its buffers; an answer (a part of a job, or its end)
/// goes after this worker's memory size (`ToPage::Memory`), so that the page knows it when the
/// job ends.
fn post(message: &ToPage) {
    if matches!(message, ToPage::Part { .. } | ToPage::RunsDone { .. } | ToPage::Done { .. } | ToPage::Error { .. }) {
        ToPage::Memory { bytes: memory_bytes() }.post(&scope());
    }
    message.post(&scope());
}

/// The size of this worker's wasm memory, in bytes (it only ever grows).
pub(crate) fn memory_bytes() -> u64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64
}

pub(crate) fn bytes_to_js(bytes: &[u8]) -> Uint8Array {
    let arr = Uint8Array::new_with_length(bytes.len() as u32);
    arr.copy_from(bytes);
    arr
}

/// What a finished import's answer says besides the import: a one-worker import's timing (the
/// ingest benchmark reads it), or how many groups of a big bundle's runs follow (`bundle_parts`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DoneNotes {
    /// The whole import, and the part of it spent waiting for the file, in ms.
    pub ms: Option<f64>,
    pub read_ms: Option<f64>,
    /// Groups of runs read by other workers.
    pub later: Option<u32>,
}

/// Posts a finished import: its head and its runs, one array each, all transferred, so the page
/// reads them one by one (`wire::Pieces`).
pub(crate) fn post_done(job: u32, pieces: crate::wire::Pieces, notes: DoneNotes) {
    post(&ToPage::Done {
        job,
        data: bytes_to_js(&pieces.head),
        runs: pieces.runs.iter().map(|r| bytes_to_js(r)).collect(),
        ms: notes.ms,
        read_ms: notes.read_ms,
        later: notes.later,
    });
}

/// `post_done` of one worker's import.
pub(crate) fn post_imported(job: u32, imp: crate::import::Imported, notes: DoneNotes) {
    post_done(job, crate::wire::encode_done(imp), notes)
}

pub(crate) fn post_error(job: u32, message: &str) {
    post(&ToPage::Error { job, message: message.into() });
}

/// Progress is posted at most once per `PROGRESS_MS`: every post is a task on the page's thread
/// and a redraw of the busy bar. Posted after every 1 MiB read, a 200 MB JTL kept the page's thread
/// busy for 0.7 s of a 1.3 s ingest (a Chromium trace), on a machine with two cores, one of them
/// the parser's.
const PROGRESS_MS: f64 = 100.0;

thread_local! {
    static LAST_PROGRESS: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::NEG_INFINITY) };
}

fn progress(job: u32, bytes: u64, records: u64) {
    let now = js_sys::Date::now();
    if now - LAST_PROGRESS.with(|l| l.get()) < PROGRESS_MS {
        return;
    }
    LAST_PROGRESS.with(|l| l.set(now));
    post(&ToPage::Progress { job, bytes, records });
}

/// Starts the worker: installs the message handler and says it is ready.
pub fn run() {
    crate::js_platform::install();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|e: MessageEvent| handle(e.data()));
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&ToPage::Ready { build: BUILD.into() });
    // Only the first worker warms up (the others share its compiled code: one module in one
    // process), and not once it has been given work.
    if scope().name().ends_with(" 0") {
        gloo::timers::callback::Timeout::new(warm::DELAY_MS, || {
            if !GIVEN_WORK.with(|g| g.get()) {
                wasm_bindgen_futures::spawn_local(warm::run());
            }
        })
        .forget();
    }
}

thread_local! {
    /// Whether a message with work has arrived (the warm-up is then no longer worth its time).
    static GIVEN_WORK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn handle(data: JsValue) {
    let message = ToWorker::from_js(&data);
    if let Ok(ToWorker::Warm) = message {
        // A worker started for a big bundle's later runs: warm up while the file arrives.
        if !GIVEN_WORK.with(|g| g.get()) {
            warm::bundle_group();
        }
        return;
    }
    GIVEN_WORK.with(|g| g.set(true));
    match message {
        Ok(m) => dispatch(m),
        // Not an ingest worker's message: the writer's, or none.
        Err(e) if e.is_unknown_kind() => match ToWriter::from_js(&data) {
            Ok(ToWriter::Write { job, data }) => write::write(job, &data),
            Err(e) => unreadable(&e),
        },
        Err(e) => unreadable(&e),
    }
}

fn dispatch(message: ToWorker) {
    match message {
        ToWorker::Import { job, name, blob, workers } => import_job::import_blob(job, &name, blob, workers),
        ToWorker::Fetch { job, name, url, workers } => import_job::import_url(job, name, url, workers),
        ToWorker::Range { job, name, bytes, plan, index } => ranges::read_range(job, &name, bytes, &plan, index),
        ToWorker::Part { job, index, data, failed } => ranges::take_part(job, index, &data, failed),
        ToWorker::Runs { job, index, first, data } => bundle_parts::load_group(job, index, first, &data),
        ToWorker::RunsDone { job, index, ids } => bundle_parts::take_group(job, index, ids),
        ToWorker::Warm => {}
    }
}

/// A message that does not read: its job (if that much reads) fails; a message of no known kind
/// is ignored.
fn unreadable(e: &ProtocolError) {
    let ProtocolError::Field { kind, job: Some(job), field, .. } = e else { return };
    let message = match (*kind, *field) {
        ("import", "blob") => "nothing to read was given".to_string(),
        ("range", "blob" | "ports" | "plan") => "a range was asked for without its file".to_string(),
        _ => format!("the page's message could not be read: {e}"),
    };
    post_error(*job, &message);
}

/// Takes the first entry `done` says is complete out of a queue of work waiting for parts from
/// other workers.
pub(crate) fn take_first<T>(queue: &RefCell<Vec<T>>, done: impl Fn(&T) -> bool) -> Option<T> {
    let mut q = queue.borrow_mut();
    let i = q.iter().position(done)?;
    Some(q.remove(i))
}
