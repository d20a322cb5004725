//! The page's side of the writer (`worker::write`): an ingest worker of its own that writes bundles
//! as JSON (Save bundle, the gzip JSON of links that carry runs) and makes the import panel's runs, so the page's
//! binary links neither serde's JSON writer nor the merging code (docs/decisions/0014-writer-worker.md). It is not one of
//! the import pool's workers: cancelling an import never stops it, and a request never waits
//! behind a file being read. It starts with the first local file (`start`) or the first request.
//! A request is a promise resolved by the worker's answer; if the writer dies, every request
//! waiting on it fails with a message, and the next request starts a new one.

use crate::wire::write::{encode_request, RequestRef};
use crate::wire::{Done, Pieces};
use crate::worker::msg;
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

struct Writer {
    worker: Worker,
    ready: bool,
    /// Requests posted before the worker said it is ready (they would be lost).
    queue: Vec<(JsValue, Array)>,
    /// The requests sent and not answered: their job and the `resolve` of their promise.
    waiting: Vec<(u32, Function)>,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(web_sys::Event)>,
}

thread_local! {
    static WRITER: RefCell<Option<Writer>> = const { RefCell::new(None) };
    static NEXT_JOB: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn get(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
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
        _on_message: on_message,
        _on_error: on_error,
    })
}

fn on_message(data: JsValue) {
    match get(&data, "type").as_string().as_deref() {
        Some("ready") => WRITER.with(|w| {
            if let Some(w) = w.borrow_mut().as_mut() {
                w.ready = true;
                for (m, t) in std::mem::take(&mut w.queue) {
                    let _ = w.worker.post_message_with_transfer(&m, &t);
                }
            }
        }),
        Some("written" | "error") => {
            let job = get(&data, "job").as_f64().unwrap_or(-1.0) as u32;
            let resolve = WRITER.with(|w| {
                let mut w = w.borrow_mut();
                let waiting = &mut w.as_mut()?.waiting;
                let at = waiting.iter().position(|(j, _)| *j == job)?;
                Some(waiting.remove(at).1)
            });
            if let Some(resolve) = resolve {
                let _ = resolve.call1(&JsValue::NULL, &data);
            }
        }
        _ => {}
    }
}

/// The writer died (it failed to load, ran out of memory, trapped): what waits on it fails, and
/// the next request starts a new one.
fn failed(why: &str) {
    let Some(writer) = WRITER.with(|w| w.borrow_mut().take()) else { return };
    writer.worker.terminate();
    let message = format!("The writer worker stopped ({why}); nothing was changed.");
    for (job, resolve) in writer.waiting {
        let answer = msg(&[("type", "error".into()), ("job", job.into()), ("message", message.as_str().into())]);
        let _ = resolve.call1(&JsValue::NULL, &answer);
    }
}

/// Writes a request, borrowing the page's runs (no copy of a run is made).
pub fn request(r: &RequestRef) -> Vec<u8> {
    encode_request(r)
}

/// Sends a request (`request`); the answer object, or why there is none.
async fn ask(bytes: Vec<u8>) -> Result<JsValue, String> {
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
    let transfer = Array::of1(&data.buffer());
    let message: JsValue = msg(&[("type", "write".into()), ("job", job.into()), ("data", data.into())]).into();
    let mut message = Some((message, transfer));
    let promise = Promise::new(&mut |resolve, _reject| {
        WRITER.with(|w| {
            if let (Some(w), Some((m, t))) = (w.borrow_mut().as_mut(), message.take()) {
                w.waiting.push((job, resolve));
                if w.ready {
                    let _ = w.worker.post_message_with_transfer(&m, &t);
                } else {
                    w.queue.push((m, t));
                }
            }
        })
    });
    let answer = wasm_bindgen_futures::JsFuture::from(promise).await.unwrap_or(JsValue::UNDEFINED);
    match get(&answer, "type").as_string().as_deref() {
        Some("written") => Ok(answer),
        _ => Err(get(&answer, "message").as_string().unwrap_or_else(|| "The writer worker gave no answer.".into())),
    }
}

fn arrays(v: JsValue) -> Vec<Uint8Array> {
    v.dyn_into::<Array>().map(|a| a.iter().filter_map(|x| x.dyn_into().ok()).collect()).unwrap_or_default()
}

/// Each bundle of a `RequestRef::Json` as UTF-8 JSON text.
pub async fn json(request: Vec<u8>) -> Result<Vec<Uint8Array>, String> {
    let answer = ask(request).await?;
    Ok(arrays(get(&answer, "json")))
}

/// The fragment of a link that carries a `RequestRef::Link`'s bundle (`bundle=…`), or
/// `Err(Ok(size))`, the size of its gzip JSON, when a link cannot carry it (`Err(Err(why))`: the
/// writer failed).
pub async fn link(request: Vec<u8>) -> Result<String, Result<u64, String>> {
    let answer = ask(request).await.map_err(Err)?;
    match get(&answer, "fragment").as_string() {
        Some(f) => Ok(f),
        None => Err(Ok(get(&answer, "size").as_f64().unwrap_or(0.0) as u64)),
    }
}

/// The import panel's runs (a `RequestRef::Merge`) as one bundle, with the warnings of merging,
/// and its compact JSON, to remember for a reload.
pub async fn merge(request: Vec<u8>) -> Result<(Done, Uint8Array), String> {
    let answer = ask(request).await?;
    let head = get(&answer, "data").dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
    let runs = arrays(get(&answer, "runs")).iter().map(Uint8Array::to_vec).collect();
    let done = crate::wire::decode_done(&Pieces { head, runs })?;
    let json = arrays(get(&answer, "json")).into_iter().next().unwrap_or_default();
    Ok((done, json))
}
