//! The ingest workers: started (through a shim whose URLs carry the build id), sent messages
//! (queued until a worker says it is ready), and terminated when they fail, when their job is
//! cancelled, or when their memory grew large and no job runs or waits (`retire_spent`).

use super::job::{finish, Job};
use super::OnProgress;
use crate::protocol::ToWorker;
use crate::worker::BUILD;
use js_sys::{Array, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, MessageEvent, Worker};

/// One worker of the pool.
pub(super) struct Slot {
    worker: Worker,
    ready: bool,
    /// Messages sent before the worker said it is ready (they would be lost).
    queue: Vec<ToWorker>,
    /// The worker's wasm memory as it last said (`ToPage::Memory`), in bytes.
    memory: u64,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(web_sys::Event)>,
}

#[derive(Default)]
pub(super) struct Pool {
    slots: Vec<Option<Slot>>,
    pub(super) queue: VecDeque<Job>,
    pub(super) current: Option<Job>,
    pub(super) next_id: u32,
    pub(super) on_progress: Option<OnProgress>,
    /// How many workers may share one file.
    pub(super) size: usize,
}

thread_local! {
    pub(super) static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

pub(super) fn configure(size: usize, on_progress: OnProgress) {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        p.size = size;
        p.on_progress = Some(on_progress);
    });
}

/// Starts a worker of the `ingest` binary named `name` (an ingest slot, or the writer).
pub(in crate::ui) fn start_worker(name: &str) -> Result<Worker, JsValue> {
    let base =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.base_uri().ok().flatten()).unwrap_or_default();
    let js = web_sys::Url::new_with_base("ingest.js", &base)?.href();
    let wasm = web_sys::Url::new_with_base("ingest_bg.wasm", &base)?.href();
    // A classic worker that imports the module: a sandboxed embed (an opaque origin) may start a
    // classic worker from a blob: URL but not a module one. A failed start is rethrown outside the
    // promise so that it reaches `onerror`. The URLs carry the build id, because Trunk does not
    // hash worker file names: a cached worker of an older deploy is never paired with a newer page.
    let shim = format!(
        "import({:?}).then(m=>m.default({{module_or_path:{:?}}})).catch(e=>setTimeout(()=>{{throw e}}));",
        format!("{js}?v={BUILD}"),
        format!("{wasm}?v={BUILD}")
    );
    let props = web_sys::BlobPropertyBag::new();
    props.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&Array::of1(&shim.into()), &props)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let opts = web_sys::WorkerOptions::new();
    opts.set_name(name);
    Worker::new_with_options(&url, &opts)
}

fn spawn(index: usize) -> Result<Slot, JsValue> {
    let worker = start_worker(&format!("runlens ingest {index}"))?;
    let on_message =
        Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| super::answers::on_message(index, e.data()));
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // A worker that fails to load fires a plain `Event` (no `message`): read it, never assume it.
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
        e.prevent_default();
        let message = Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string());
        worker_failed(index, message.as_deref().unwrap_or("the import worker could not start"));
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Slot { worker, ready: false, queue: Vec::new(), memory: 0, _on_message: on_message, _on_error: on_error })
}

/// Starts the worker of `index` if it is not running.
pub(super) fn ensure_slot(index: usize) -> bool {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.slots.len() <= index {
            p.slots.resize_with(index + 1, || None);
        }
        if p.slots[index].is_none() {
            match spawn(index) {
                Ok(s) => p.slots[index] = Some(s),
                Err(e) => leptos::logging::warn!("the ingest worker could not start: {e:?}"),
            }
        }
        p.slots[index].is_some()
    })
}

/// Posts to a slot, transferring the message's buffers, or queues it until the slot is ready.
pub(super) fn send(index: usize, message: ToWorker) {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if let Some(Some(s)) = p.slots.get_mut(index) {
            if s.ready {
                let _ = s.worker.post_message_with_transfer(&message.to_js(), &message.transfer());
            } else {
                s.queue.push(message);
            }
        }
    });
}

/// The slot said it is ready: what was queued for it is sent.
pub(super) fn ready(index: usize) {
    let queued = POOL.with(|p| {
        let mut p = p.borrow_mut();
        match p.slots.get_mut(index) {
            Some(Some(s)) => {
                s.ready = true;
                std::mem::take(&mut s.queue)
            }
            _ => Vec::new(),
        }
    });
    for m in queued {
        send(index, m);
    }
}

/// A worker whose wasm memory is at least this large is ended once no job runs or waits, and
/// started again: a wasm memory never shrinks, and a 200 MB JTL left the tab's workers holding
/// about 100 MB until it was closed (decision 0062). A fresh worker holds a few MB, and its
/// compiled code is shared with the page's other workers, so starting one again is cheap.
pub(in crate::ui) const SPENT_BYTES: u64 = 12 << 20;

/// The slot's worker said how large its memory is.
pub(super) fn note_memory(index: usize, bytes: u64) {
    POOL.with(|p| {
        if let Some(Some(s)) = p.borrow_mut().slots.get_mut(index) {
            s.memory = bytes;
        }
    });
    const KEYS: [&str; 8] = ["memory0", "memory1", "memory2", "memory3", "memory4", "memory5", "memory6", "memory7"];
    if let Some(key) = KEYS.get(index) {
        diagnose(key, bytes as f64);
    }
}

/// Sets `runlensWorkers[key]` on the window: the workers' memory as they said it and how many were
/// ended for it (`retired`), for the end-to-end tests and the ingest benchmark; never shown.
pub(in crate::ui) fn diagnose(key: &str, value: f64) {
    let Some(window) = web_sys::window() else { return };
    let name = JsValue::from_str("runlensWorkers");
    let object = Reflect::get(&window, &name).ok().filter(JsValue::is_object).unwrap_or_else(|| {
        let o: JsValue = js_sys::Object::new().into();
        let _ = Reflect::set(&window, &name, &o);
        o
    });
    let _ = Reflect::set(&object, &key.into(), &value.into());
}

/// When a job ends and no other waits (files dropped together keep their warm workers), ends the
/// workers whose memory grew to `SPENT_BYTES`, and starts them again a moment later so that a
/// file dropped next finds them ready. Ended at once, they are gone before the writer makes the
/// page's JSON of the job's runs, which lowers the drop's peak (decision 0062).
pub(super) fn retire_spent() {
    let retired: Vec<usize> = POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.current.is_some() || !p.queue.is_empty() {
            return Vec::new();
        }
        let mut retired = Vec::new();
        for (i, slot) in p.slots.iter_mut().enumerate() {
            if slot.as_ref().is_some_and(|s| s.memory >= SPENT_BYTES) {
                if let Some(s) = slot.take() {
                    s.worker.terminate();
                    retired.push(i);
                }
            }
        }
        retired
    });
    if retired.is_empty() {
        return;
    }
    RETIRED.with(|r| {
        r.set(r.get() + retired.len() as u32);
        diagnose("retired", f64::from(r.get()));
    });
    gloo::timers::callback::Timeout::new(RESTART_MS, move || {
        for i in retired {
            ensure_slot(i);
        }
    })
    .forget();
}

/// How long after a job the workers ended for their memory start again (the page meanwhile shows
/// the job's answer).
const RESTART_MS: u32 = 1_000;

thread_local! {
    /// Workers ended for their memory so far.
    static RETIRED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A worker died (script failed to load, out of memory, a trap): its job fails, the slot is
/// dropped and started again for the next job.
fn worker_failed(index: usize, message: &str) {
    let job = POOL.with(|p| {
        let mut p = p.borrow_mut();
        if let Some(slot) = p.slots.get_mut(index) {
            if let Some(s) = slot.take() {
                s.worker.terminate();
            }
        }
        p.current.as_ref().filter(|j| j.slots.contains(&index)).map(|j| j.id)
    });
    if let Some(id) = job {
        finish(
            id,
            Err(format!(
                "The ingest worker stopped ({message}). Nothing was changed; the file may be too large for this tab."
            )),
        );
    }
}

/// Stops the running job at once: its workers are terminated (and started again for the next
/// job). The workspace is left as it was.
pub fn cancel() {
    let job = POOL.with(|p| {
        let mut p = p.borrow_mut();
        let slots = p.current.as_ref().map(|j| j.slots.clone()).unwrap_or_default();
        let workers = p.size;
        for i in slots.into_iter().chain(1..workers) {
            if let Some(s) = p.slots.get_mut(i).and_then(Option::take) {
                s.worker.terminate();
            }
        }
        p.current.as_ref().map(|j| j.id)
    });
    if let Some(id) = job {
        finish(id, Err("cancelled".into()));
    }
    ensure_slot(0);
}
