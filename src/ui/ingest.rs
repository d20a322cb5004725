//! The page's side of the ingest workers: a pool of `Worker`s running the `ingest` binary, jobs run
//! one at a time with progress, cancelled by terminating their workers (the workspace only changes
//! when a job is done, so a cancel leaves it as it was).
//!
//! Protocol (plain JS objects, see `crate::worker`): page → worker `{type:"import", job, name, blob,
//! workers}`, `{type:"fetch", job, name, url, workers}`, `{type:"range", job, name, blob, plan,
//! index}`, `{type:"part", job, index, data}`; worker → page `{type:"ready", build}`,
//! `{type:"progress", job, bytes, records}`, `{type:"plan", job, data, ranges}` (a large JMeter CSV
//! is split: the page hands ranges 1.. to other workers), `{type:"part", job, index, data}`,
//! `{type:"big", job, bundle, bytes}` (a big file: the other workers start, and warm up the bundle
//! path with `{type:"warm"}` for a bundle; the page takes heap room for it), `{type:
//! "bundle-parts", job, parts, firsts, from, last}` (a big bundle cut into groups of runs, more of
//! them while it downloads: the page hands each group to the worker with the fewest bytes still to
//! parse as `{type:"runs", job, index, first, data}` and forwards each answer, `{type:
//! "runs-done", job, index, first, ids, runs}`, which the page reads at once, `ingest_read`, and
//! forwards without its runs to the first worker; `worker::bundle_parts`), `{type:"done", job,
//! data, runs, later}` (`data` the answer without its runs, `runs` one array per run,
//! `crate::wire::Pieces`; read one run at a time, yielding between, so a big bundle never holds
//! the page in one long task; `later`: how many groups of runs read on their own follow),
//! `{type:"error", job, message}`.
//!
//! Workers start through a module shim whose URLs carry the build id, because Trunk does not hash
//! worker file names: a cached worker of an older deploy is never paired with a newer page.

use crate::wire::Done;
use crate::worker::{msg, BUILD};
use js_sys::{Array, Reflect, Uint8Array};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, MessageEvent, Worker};

/// What a job reads.
#[derive(Clone)]
pub enum Input {
    Blob(Blob),
    /// An absolute http(s) URL, downloaded by the worker.
    Url(String),
}

/// Progress of the running job.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub name: String,
    pub bytes: u64,
    pub total: Option<u64>,
    pub records: u64,
    /// `performance.now()` when the job started.
    pub started_ms: f64,
    /// Runs of the finished answer read so far, of how many (a big bundle opens run by run).
    pub opening: Option<(usize, usize)>,
}

pub type OnProgress = Rc<dyn Fn(Option<Progress>)>;
/// The finished import, and what to keep for a reload (when asked, and it is a bundle file: the
/// file as given; raw files are remembered as the runs the import panel makes of them).
pub type OnDone = Box<dyn FnOnce(Result<(Done, Option<Blob>), String>)>;

struct Job {
    id: u32,
    name: String,
    input: Input,
    keep: bool,
    total: Option<u64>,
    on_done: Option<OnDone>,
    /// Bytes and records reported by each worker slot working on it (each reads its own range).
    bytes: Vec<u64>,
    records: Vec<u64>,
    started_ms: f64,
    slots: Vec<usize>,
    opening: Option<(usize, usize)>,
    /// A big bundle's later groups (index - 1): the slot parsing it, its bytes, and whether it
    /// is answered (the next group goes to the slot with the fewest bytes still to parse).
    groups: Vec<(usize, u64, bool)>,
}

struct Slot {
    worker: Worker,
    ready: bool,
    queue: Vec<(JsValue, Array)>,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(web_sys::Event)>,
}

#[derive(Default)]
struct Pool {
    slots: Vec<Option<Slot>>,
    queue: VecDeque<Job>,
    current: Option<Job>,
    next_id: u32,
    on_progress: Option<OnProgress>,
    size: usize,
}

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

pub(super) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

fn get(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

/// Sets how many workers may share one file (at least 1) and where progress goes, and starts the
/// first worker so it is ready when the first file arrives.
pub fn init(workers: usize, on_progress: OnProgress) {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        p.size = workers.max(1);
        p.on_progress = Some(on_progress);
    });
    ensure_slot(0);
}

/// The number of workers to use: `workers` from the URL, else the machine's cores (at most 4).
pub fn default_workers() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, 4)
}

/// Starts a worker of the `ingest` binary named `name` (an ingest slot, or the writer).
pub(super) fn start_worker(name: &str) -> Result<Worker, JsValue> {
    let base =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.base_uri().ok().flatten()).unwrap_or_default();
    let js = web_sys::Url::new_with_base("ingest.js", &base)?.href();
    let wasm = web_sys::Url::new_with_base("ingest_bg.wasm", &base)?.href();
    // A classic worker that imports the module: a sandboxed embed (an opaque origin) may start a
    // classic worker from a blob: URL but not a module one. A failed start is rethrown outside the
    // promise so that it reaches `onerror`.
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
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| on_message(index, e.data()));
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // A worker that fails to load fires a plain `Event` (no `message`): read it, never assume it.
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
        e.prevent_default();
        let message = Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string());
        worker_failed(index, message.as_deref().unwrap_or("the import worker could not start"));
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Slot { worker, ready: false, queue: Vec::new(), _on_message: on_message, _on_error: on_error })
}

/// Starts the worker of `index` if it is not running.
fn ensure_slot(index: usize) -> bool {
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

/// Posts to a slot, queueing until it is ready (messages sent earlier would be lost).
fn send(index: usize, message: JsValue, transfer: Array) {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if let Some(Some(s)) = p.slots.get_mut(index) {
            if s.ready {
                let _ = s.worker.post_message_with_transfer(&message, &transfer);
            } else {
                s.queue.push((message, transfer));
            }
        }
    });
}

/// Adds a job; it starts when the jobs before it are done. `keep`: the answer includes what to
/// remember for a reload.
pub fn submit(name: String, input: Input, keep: bool, on_done: OnDone) {
    let total = match &input {
        Input::Blob(b) => Some(b.size() as u64),
        Input::Url(_) => None,
    };
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        p.next_id += 1;
        let id = p.next_id;
        p.queue.push_back(Job {
            id,
            name,
            input,
            keep,
            total,
            on_done: Some(on_done),
            bytes: Vec::new(),
            records: Vec::new(),
            started_ms: 0.0,
            slots: vec![0],
            opening: None,
            groups: Vec::new(),
        });
    });
    start_next();
}

fn start_next() {
    let job = POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.current.is_some() {
            return None;
        }
        let mut job = p.queue.pop_front()?;
        job.started_ms = now();
        job.bytes = vec![0; p.size];
        job.records = vec![0; p.size];
        let out = (job.id, job.name.clone(), job.input.clone(), p.size, job.total);
        p.current = Some(job);
        Some(out)
    });
    let Some((id, name, input, workers, total)) = job else { return };
    if !ensure_slot(0) {
        return finish(id, Err("The ingest worker could not start in this browser.".into()));
    }
    // A large file will be split: start the other workers now, while the first reads its head.
    let split_from =
        crate::import::common::parallel::MIN_PARALLEL_BYTES.min(crate::bundle::split_load::MIN_SPLIT_BYTES);
    if total.is_some_and(|t| t >= split_from) {
        (1..workers).for_each(|i| {
            ensure_slot(i);
        });
    }
    report();
    let message = match input {
        Input::Blob(blob) => msg(&[
            ("type", "import".into()),
            ("job", id.into()),
            ("name", name.into()),
            ("blob", blob.into()),
            ("workers", (workers as u32).into()),
        ]),
        Input::Url(url) => msg(&[
            ("type", "fetch".into()),
            ("job", id.into()),
            ("name", name.into()),
            ("url", url.into()),
            ("workers", (workers as u32).into()),
        ]),
    };
    send(0, message.into(), Array::new());
}

/// The busy bar follows progress at most once per this many ms (several workers' messages add up).
const REPORT_MS: f64 = 100.0;

thread_local! {
    /// When the busy bar was last told, and whether a later telling is scheduled.
    static REPORTED: std::cell::Cell<(f64, bool)> = const { std::cell::Cell::new((f64::NEG_INFINITY, false)) };
}

/// Tells the busy bar of progress, at most once per `REPORT_MS`: a later report is scheduled
/// instead, and it reads the progress as it is then.
fn report_soon() {
    let (last, scheduled) = REPORTED.with(|r| r.get());
    let wait = last + REPORT_MS - now();
    if wait <= 0.0 {
        return report();
    }
    if !scheduled {
        REPORTED.with(|r| r.set((last, true)));
        gloo::timers::callback::Timeout::new(wait.ceil() as u32, || {
            REPORTED.with(|r| r.set((r.get().0, false)));
            report();
        })
        .forget();
    }
}

/// Tells the busy bar of the running job now (or that none runs).
fn report() {
    REPORTED.with(|r| r.set((now(), r.get().1)));
    let (cb, progress) = POOL.with(|p| {
        let p = p.borrow();
        let progress = p.current.as_ref().map(|j| Progress {
            name: j.name.clone(),
            bytes: j.bytes.iter().sum(),
            total: j.total,
            records: j.records.iter().sum(),
            started_ms: j.started_ms,
            opening: j.opening,
        });
        (p.on_progress.clone(), progress)
    });
    if let Some(cb) = cb {
        cb(progress);
    }
}

fn finish(id: u32, result: Result<(Done, Option<Blob>), String>) {
    let done = POOL.with(|p| {
        let mut p = p.borrow_mut();
        match &p.current {
            Some(j) if j.id == id => p.current.take().and_then(|mut j| j.on_done.take()),
            _ => None,
        }
    });
    if let Some(cb) = done {
        cb(result);
    }
    // A cancelled or failed big bundle's runs read ahead are not wanted any more.
    super::ingest_read::forget(id);
    report();
    start_next();
}

fn on_message(index: usize, data: JsValue) {
    let job = get(&data, "job").as_f64().unwrap_or(0.0) as u32;
    let current = POOL.with(|p| p.borrow().current.as_ref().map(|j| j.id));
    match get(&data, "type").as_string().as_deref() {
        Some("ready") => {
            let build = get(&data, "build").as_string().unwrap_or_default();
            if build != BUILD {
                leptos::logging::warn!("ingest worker build {build} differs from the page's {BUILD}");
            }
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
            for (m, t) in queued {
                send(index, m, t);
            }
        }
        _ if current != Some(job) => {}
        Some("progress") => {
            POOL.with(|p| {
                if let Some(j) = p.borrow_mut().current.as_mut() {
                    if let Some(b) = j.bytes.get_mut(index) {
                        *b = get(&data, "bytes").as_f64().unwrap_or(0.0) as u64;
                    }
                    if let Some(r) = j.records.get_mut(index) {
                        *r = get(&data, "records").as_f64().unwrap_or(0.0) as u64;
                    }
                }
            });
            report_soon();
        }
        Some("plan") => hand_out_ranges(job, &data),
        Some("big") => {
            let workers = POOL.with(|p| p.borrow().size);
            let bundle = get(&data, "bundle").is_truthy();
            if bundle {
                // The page will hold the bundle's runs: about 1.5 times the file's bytes (a 50 MB
                // bundle grew the page's heap by 75 MB as it was read).
                crate::heap::reserve((get(&data, "bytes").as_f64().unwrap_or(0.0) * 1.5) as u64);
            }
            for i in 1..workers {
                if ensure_slot(i) && bundle {
                    send(i, msg(&[("type", "warm".into())]).into(), Array::new());
                }
            }
        }
        Some("bundle-parts") => hand_out_groups(job, &data),
        Some("runs-done") => {
            // The runs stay here and are read while the first worker finishes; it gets their ids.
            let runs: Vec<Uint8Array> = get(&data, "runs")
                .dyn_into::<Array>()
                .map(|a| a.iter().filter_map(|r| r.dyn_into().ok()).collect())
                .unwrap_or_default();
            let index = get(&data, "index").as_f64().unwrap_or(0.0) as usize;
            let first = get(&data, "first").as_f64().unwrap_or(0.0) as usize;
            POOL.with(|p| {
                if let Some(g) =
                    p.borrow_mut().current.as_mut().and_then(|j| index.checked_sub(1).and_then(|i| j.groups.get_mut(i)))
                {
                    g.2 = true;
                }
            });
            if !get(&data, "failed").is_truthy() {
                leptos::task::spawn_local(super::ingest_read::read_later(job, index, first, runs));
            }
            let m = msg(&[
                ("type", "runs-done".into()),
                ("job", job.into()),
                ("index", get(&data, "index")),
                ("ids", get(&data, "ids")),
                ("failed", get(&data, "failed")),
            ]);
            send(0, m.into(), Array::new());
        }
        Some("part") => {
            let transfer = Array::of1(&get(&get(&data, "data"), "buffer"));
            let m = msg(&[
                ("type", "part".into()),
                ("job", job.into()),
                ("index", get(&data, "index")),
                ("data", get(&data, "data")),
                ("failed", get(&data, "failed")),
            ]);
            send(0, m.into(), transfer);
        }
        Some("done") => {
            // A one-worker import's own timing (the ingest benchmark reads it), or how many groups
            // of a big bundle's runs other workers read (the end-to-end tests do): kept as
            // `runlensIngest` on the window, never shown.
            if let Some(window) = web_sys::window() {
                let timing = msg(&[
                    ("ms", get(&data, "ms")),
                    ("readMs", get(&data, "read_ms")),
                    ("groups", get(&data, "later")),
                ]);
                let _ = Reflect::set(&window, &"runlensIngest".into(), &timing);
            }
            let head = get(&data, "data").dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
            let runs: Vec<Uint8Array> = get(&data, "runs")
                .dyn_into::<Array>()
                .map(|a| a.iter().filter_map(|r| r.dyn_into().ok()).collect())
                .unwrap_or_default();
            let later = get(&data, "later").as_f64().map(|n| n as usize);
            leptos::task::spawn_local(async move {
                if let Some(result) = super::ingest_read::read_done(job, &head, runs, later).await {
                    finish(
                        job,
                        result.map(|done| {
                            let kept = kept_blob(&done);
                            (done, kept)
                        }),
                    );
                }
            });
        }
        Some("error") => {
            finish(job, Err(get(&data, "message").as_string().unwrap_or_else(|| "the import failed".into())))
        }
        _ => {}
    }
}

/// Whether `job` is still the running job (not cancelled, not failed).
pub(super) fn is_current(job: u32) -> bool {
    POOL.with(|p| p.borrow().current.as_ref().map(|j| j.id)) == Some(job)
}

/// Tells the busy bar that `i` of `n` runs of the job's answer are read.
pub(super) fn opening(job: u32, i: usize, n: usize) {
    POOL.with(|p| {
        if let Some(j) = p.borrow_mut().current.as_mut().filter(|j| j.id == job) {
            j.opening = Some((i, n));
        }
    });
    report();
}

/// What to remember of a finished job: a bundle file as it was given.
fn kept_blob(done: &Done) -> Option<Blob> {
    if done.format != "bundle" {
        return None;
    }
    POOL.with(|p| match p.borrow().current.as_ref().map(|j| (&j.input, j.keep)) {
        Some((Input::Blob(b), true)) => Some(b.clone()),
        _ => None,
    })
}

/// The first worker split a large file: ranges 1.. go to the other workers.
fn hand_out_ranges(job: u32, data: &JsValue) {
    let ranges = get(data, "ranges").as_f64().unwrap_or(1.0) as usize;
    let plan = get(data, "data").dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
    let blob = get(data, "blob").dyn_into::<Blob>().ok();
    let name = POOL.with(|p| p.borrow().current.as_ref().map(|j| j.name.clone()).unwrap_or_default());
    for i in 1..ranges {
        let slot = if ensure_slot(i) { i } else { 0 };
        POOL.with(|p| {
            if let Some(j) = p.borrow_mut().current.as_mut() {
                j.slots.push(slot);
                if j.total.is_none() {
                    j.total = blob.as_ref().map(|b| b.size() as u64);
                }
            }
        });
        send_range_to(slot, job, &name, blob.as_ref(), &plan, i);
    }
}

/// The first worker cut groups of a big bundle's runs (groups `from`, `from + 1`, …; `last`: no
/// more will come): each goes to the worker with the fewest bytes of groups still to parse.
fn hand_out_groups(job: u32, data: &JsValue) {
    let parts = get(data, "parts").dyn_into::<Array>().unwrap_or_default();
    let firsts = get(data, "firsts").dyn_into::<Array>().unwrap_or_default();
    let from = get(data, "from").as_f64().map_or(1, |f| f as usize);
    // While the file still downloads, the first worker is busy with it (a group of its own counts
    // twice); once it is in, the first worker has only the head's one run left to parse.
    let last = get(data, "last").as_bool().unwrap_or(true);
    let workers = POOL.with(|p| p.borrow().size).max(1);
    for (k, part) in parts.iter().enumerate() {
        let index = from + k;
        let bytes = get(&part, "byteLength").as_f64().unwrap_or(0.0) as u64;
        let least_busy = POOL.with(|p| {
            let p = p.borrow();
            let load = |slot: usize| {
                let queued = p
                    .current
                    .as_ref()
                    .map_or(0, |j| j.groups.iter().filter(|g| g.0 == slot && !g.2).map(|g| g.1).sum::<u64>());
                // With this group, and the first worker's doubled while it downloads.
                (queued + bytes) * if slot == 0 && !last { 2 } else { 1 }
            };
            // The least loaded; on a tie, a worker other than the first.
            (0..workers).min_by_key(|&s| (load(s), s == 0)).unwrap_or(0)
        });
        let slot = if least_busy == 0 || ensure_slot(least_busy) { least_busy } else { 0 };
        POOL.with(|p| {
            if let Some(j) = p.borrow_mut().current.as_mut() {
                j.slots.push(slot);
                if j.groups.len() < index {
                    j.groups.resize(index, (0, 0, true));
                }
                j.groups[index - 1] = (slot, bytes, false);
            }
        });
        let transfer = Array::of1(&get(&part, "buffer"));
        let m = msg(&[
            ("type", "runs".into()),
            ("job", job.into()),
            ("index", (index as u32).into()),
            ("first", firsts.get(k as u32)),
            ("data", part),
        ]);
        send(slot, m.into(), transfer);
    }
}

fn send_range_to(slot: usize, job: u32, name: &str, blob: Option<&Blob>, plan: &[u8], index: usize) {
    let plan_arr = Uint8Array::new_with_length(plan.len() as u32);
    plan_arr.copy_from(plan);
    let m = msg(&[
        ("type", "range".into()),
        ("job", job.into()),
        ("name", name.into()),
        ("blob", blob.map_or(JsValue::UNDEFINED, |b| b.clone().into())),
        ("plan", plan_arr.into()),
        ("index", (index as u32).into()),
    ]);
    send(slot, m.into(), Array::new());
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
