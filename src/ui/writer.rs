//! The page's side of the writer (`worker::write`): an ingest worker of its own that writes bundles
//! as JSON (Save bundle, the gzip JSON of links that carry runs) and makes the import panel's runs, so the page's
//! binary links neither serde's JSON writer nor the merging code (docs/decisions/0014-writer-worker.md). It is not one of
//! the import pool's workers: cancelling an import never stops it, and a request never waits
//! behind a file being read. It starts with the first local file (`start`) or the first request.
//! A request is a promise resolved by the worker's answer; if the writer dies, every request
//! waiting on it fails with a message, and the next request starts a new one. A writer whose
//! memory grew large is ended once no request came for two seconds (`retire_if_spent`), as the
//! import pool's workers are once their job is over, and the next request starts a new one too.

use crate::protocol::{FromWriter, ToWriter, Written};
use crate::wire::write::{encode_request, RequestRef};
use crate::wire::{Done, Pieces};
use js_sys::{Function, Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

struct Writer {
    worker: Worker,
    ready: bool,
    /// Requests posted before the worker said it is ready (they would be lost).
    queue: Vec<ToWriter>,
    /// The requests sent and not answered.
    waiting: Vec<Waiting>,
    /// The worker's wasm memory as it last said (`FromWriter::Memory`), in bytes.
    memory: u64,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(web_sys::Event)>,
}

/// A request sent and not answered.
struct Waiting {
    job: u32,
    /// Resolves the request's promise with the answer (a `FromWriter` message).
    resolve: Function,
}

thread_local! {
    static WRITER: RefCell<Option<Writer>> = const { RefCell::new(None) };
    static NEXT_JOB: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Starts the writer if it is not running (so that it is ready when the first file is read).
pub fn start() -> bool {
    WRITER.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_none() {
            match spawn() {
                Ok(s) => *w = Some(s),
                Err(e) => leptos::logging::warn!("the writer worker could not start: {e:?}"),
            }
        }
        w.is_some()
    })
}

fn spawn() -> Result<Writer, JsValue> {
    let worker = super::ingest::start_worker("runlens writer")?;
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|e: MessageEvent| on_message(e.data()));
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
        e.prevent_default();
        let message = Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string());
        failed(message.as_deref().unwrap_or("it could not start"));
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Writer {
        worker,
        ready: false,
        queue: Vec::new(),
        waiting: Vec::new(),
        memory: 0,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// Posts a request, transferring its buffer.
fn post(worker: &Worker, message: &ToWriter) {
    let _ = worker.post_message_with_transfer(&message.to_js(), &message.transfer());
}

fn on_message(data: JsValue) {
    // The answer is read again by the request it resolves (`ask`); here only its job matters.
    let job = match FromWriter::from_js(&data) {
        Ok(FromWriter::Ready { .. }) => {
            return WRITER.with(|w| {
                if let Some(w) = w.borrow_mut().as_mut() {
                    w.ready = true;
                    for m in std::mem::take(&mut w.queue) {
                        post(&w.worker, &m);
                    }
                }
            })
        }
        Ok(FromWriter::Memory { bytes }) => {
            super::ingest::diagnose("writer", bytes as f64);
            return WRITER.with(|w| {
                if let Some(w) = w.borrow_mut().as_mut() {
                    w.memory = bytes;
                }
            });
        }
        Ok(FromWriter::Written { job, .. } | FromWriter::Error { job, .. }) => job,
        // An answer that does not read fails its request (`ask` says why).
        Err(e) => match e.job() {
            Some(job) => job,
            None => return,
        },
    };
    let resolve = WRITER.with(|w| {
        let mut w = w.borrow_mut();
        let waiting = &mut w.as_mut()?.waiting;
        let at = waiting.iter().position(|r| r.job == job)?;
        Some(waiting.remove(at).resolve)
    });
    if let Some(resolve) = resolve {
        let _ = resolve.call1(&JsValue::NULL, &data);
    }
    // Edits in the import panel come in bursts, each a request: a writer that grew large is ended
    // only once no request came for a while.
    let last = NEXT_JOB.with(|n| n.get());
    gloo::timers::callback::Timeout::new(RETIRE_AFTER_MS, move || {
        if NEXT_JOB.with(|n| n.get()) == last {
            retire_if_spent();
        }
    })
    .forget();
}

/// How long the writer must have had no request before it is ended for its memory.
const RETIRE_AFTER_MS: u32 = 2_000;

/// Ends the writer if its memory grew to `SPENT_BYTES` and no request waits on it (a wasm memory
/// never shrinks: the JSON of a 200 MB JTL's run left it holding 50 MB, decision 0062).
fn retire_if_spent() {
    let spent = WRITER.with(|w| {
        let mut w = w.borrow_mut();
        let idle = w.as_ref().is_some_and(|w| w.waiting.is_empty() && w.queue.is_empty());
        if idle && w.as_ref().is_some_and(|w| w.memory >= super::ingest::SPENT_BYTES) {
            w.take()
        } else {
            None
        }
    });
    if let Some(writer) = spent {
        writer.worker.terminate();
        super::ingest::diagnose("writerRetired", 1.0);
    }
}

/// The writer died (it failed to load, ran out of memory, trapped): what waits on it fails, and
/// the next request starts a new one.
fn failed(why: &str) {
    let Some(writer) = WRITER.with(|w| w.borrow_mut().take()) else { return };
    writer.worker.terminate();
    let message = format!("The writer worker stopped ({why}); nothing was changed.");
    for Waiting { job, resolve } in writer.waiting {
        let answer = FromWriter::Error { job, message: message.clone() };
        let _ = resolve.call1(&JsValue::NULL, &answer.to_js());
    }
}

/// Writes a request, borrowing the page's runs (no copy of a run is made).
pub fn request(r: &RequestRef) -> Vec<u8> {
    encode_request(r)
}

/// Sends a request (`request`); the answer, or why there is none.
async fn ask(bytes: Vec<u8>) -> Result<Written, String> {
    if !start() {
        return Err("The writer worker could not start in this browser.".into());
    }
    let job = NEXT_JOB.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get()
    });
    let data = Uint8Array::new_with_length(bytes.len() as u32);
    data.copy_from(&bytes);
    drop(bytes);
    let mut message = Some(ToWriter::Write { job, data });
    let promise = Promise::new(&mut |resolve, _reject| {
        WRITER.with(|w| {
            if let (Some(w), Some(m)) = (w.borrow_mut().as_mut(), message.take()) {
                w.waiting.push(Waiting { job, resolve });
                if w.ready {
                    post(&w.worker, &m);
                } else {
                    w.queue.push(m);
                }
            }
        })
    });
    let answer = wasm_bindgen_futures::JsFuture::from(promise).await.unwrap_or(JsValue::UNDEFINED);
    match FromWriter::from_js(&answer) {
        Ok(FromWriter::Written { answer, .. }) => Ok(answer),
        Ok(FromWriter::Error { message, .. }) => Err(message),
        Ok(FromWriter::Ready { .. } | FromWriter::Memory { .. }) => Err(NO_ANSWER.into()),
        Err(e) => {
            leptos::logging::warn!("the writer's answer could not be read: {e}");
            Err(NO_ANSWER.into())
        }
    }
}

const NO_ANSWER: &str = "The writer worker gave no answer.";

/// An answer of another kind than the request asked for.
fn unexpected(what: &str) -> String {
    format!("The writer worker's answer was not {what}.")
}

/// Each bundle of a `RequestRef::Json` as UTF-8 JSON text.
pub async fn json(request: Vec<u8>) -> Result<Vec<Uint8Array>, String> {
    match ask(request).await? {
        Written::Json(json) => Ok(json),
        _ => Err(unexpected("JSON")),
    }
}

/// The fragment of a link that carries a `RequestRef::Link`'s bundle (`bundle=…`), or
/// `Err(Ok(size))`, the size of its gzip JSON, when a link cannot carry it (`Err(Err(why))`: the
/// writer failed).
pub async fn link(request: Vec<u8>) -> Result<String, Result<u64, String>> {
    match ask(request).await.map_err(Err)? {
        Written::Fragment(f) => Ok(f),
        Written::Size(size) => Err(Ok(size)),
        _ => Err(Err(unexpected("a link"))),
    }
}

/// The import panel's runs (a `RequestRef::Merge`) as one bundle, with the warnings of merging
/// (`None`: the bundle is the session's `unmerged` one, which the page shows already), and its
/// compact JSON, to remember for a reload.
pub async fn merge(request: Vec<u8>) -> Result<(Option<Done>, Uint8Array), String> {
    let Written::Merged { data, runs, json } = ask(request).await? else { return Err(unexpected("a merged bundle")) };
    let json = json.into_iter().next().unwrap_or_default();
    if data.length() == 0 {
        return Ok((None, json));
    }
    let runs = runs.iter().map(Uint8Array::to_vec).collect();
    let done = crate::wire::decode_done(&Pieces { head: data.to_vec(), runs })?;
    Ok((Some(done), json))
}
