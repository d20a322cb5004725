//! One import job on the page: queued, started on the first worker, its progress told to the busy
//! bar, and finished (its answer, an error, or a cancel) before the next one starts.

use super::pool::{ensure_slot, send, POOL};
use super::{now, Input, OnDone, Opening, Progress};
use crate::protocol::ToWorker;
use crate::wire::Done;
use web_sys::Blob;

pub(super) struct Job {
    pub(super) id: u32,
    pub(super) name: String,
    input: Input,
    keep: bool,
    pub(super) total: Option<u64>,
    on_done: Option<OnDone>,
    /// Bytes and records reported by each worker slot working on it (each reads its own range).
    pub(super) bytes: Vec<u64>,
    pub(super) records: Vec<u64>,
    started_ms: f64,
    /// The slots of the workers working on it (terminated when it is cancelled).
    pub(super) slots: Vec<usize>,
    opening: Option<Opening>,
    /// A big bundle's later groups (index - 1), once handed out (the next group goes to the slot
    /// with the fewest bytes still to parse).
    pub(super) groups: Vec<Option<Group>>,
}

/// A later group of a big bundle's runs, handed to a worker.
#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    /// The slot parsing it.
    pub(super) slot: usize,
    /// Its bytes.
    pub(super) bytes: u64,
    /// Whether its worker answered.
    pub(super) answered: bool,
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

/// What the first worker is told of a job that starts.
struct Start {
    id: u32,
    name: String,
    input: Input,
    workers: usize,
    total: Option<u64>,
}

fn start_next() {
    let start = POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.current.is_some() {
            return None;
        }
        let mut job = p.queue.pop_front()?;
        job.started_ms = now();
        job.bytes = vec![0; p.size];
        job.records = vec![0; p.size];
        let start =
            Start { id: job.id, name: job.name.clone(), input: job.input.clone(), workers: p.size, total: job.total };
        p.current = Some(job);
        Some(start)
    });
    let Some(Start { id, name, input, workers, total }) = start else { return };
    if !ensure_slot(0) {
        return finish(id, Err("The ingest worker could not start in this browser.".into()));
    }
    // A large file will be split: start the other workers now, while the first reads its head. A
    // download's size is known only once it answers: its workers start now too (a worker's start
    // took 0.45 s of a 200 MB `?src=` load when it waited for `Big`; decision 0059).
    let split_from =
        crate::import::common::parallel::MIN_PARALLEL_BYTES.min(crate::bundle::split_load::MIN_SPLIT_BYTES);
    if total.is_some_and(|t| t >= split_from) || matches!(input, Input::Url(_)) {
        (1..workers).for_each(|i| {
            ensure_slot(i);
        });
    }
    report();
    let workers = workers as u32;
    let message = match input {
        Input::Blob(blob) => ToWorker::Import { job: id, name, blob, workers },
        Input::Url(url) => ToWorker::Fetch { job: id, name, url, workers },
    };
    send(0, message);
}

/// The busy bar follows progress at most once per this many ms (several workers' messages add up).
const REPORT_MS: f64 = 100.0;

/// When the busy bar was last told, and whether a later telling is scheduled.
#[derive(Clone, Copy)]
struct Reported {
    last_ms: f64,
    scheduled: bool,
}

thread_local! {
    static REPORTED: std::cell::Cell<Reported> =
        const { std::cell::Cell::new(Reported { last_ms: f64::NEG_INFINITY, scheduled: false }) };
}

/// Tells the busy bar of progress, at most once per `REPORT_MS`: a later report is scheduled
/// instead, and it reads the progress as it is then.
pub(super) fn report_soon() {
    let Reported { last_ms, scheduled } = REPORTED.with(|r| r.get());
    let wait = last_ms + REPORT_MS - now();
    if wait <= 0.0 {
        return report();
    }
    if !scheduled {
        REPORTED.with(|r| r.set(Reported { last_ms, scheduled: true }));
        gloo::timers::callback::Timeout::new(wait.ceil() as u32, || {
            REPORTED.with(|r| r.set(Reported { scheduled: false, ..r.get() }));
            report();
        })
        .forget();
    }
}

/// Tells the busy bar of the running job now (or that none runs).
fn report() {
    REPORTED.with(|r| r.set(Reported { last_ms: now(), ..r.get() }));
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

/// Ends job `id` (if it is still the running one) with its result, and starts the next.
pub(super) fn finish(id: u32, result: Result<(Done, Option<Blob>), String>) {
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
    crate::ui::ingest_read::forget(id);
    report();
    super::pool::retire_spent();
    start_next();
}

/// Whether `job` is still the running job (not cancelled, not failed).
pub(in crate::ui) fn is_current(job: u32) -> bool {
    POOL.with(|p| p.borrow().current.as_ref().map(|j| j.id)) == Some(job)
}

/// Tells the busy bar that `read` of `of` runs of the job's answer are read.
pub(in crate::ui) fn opening(job: u32, read: usize, of: usize) {
    POOL.with(|p| {
        if let Some(j) = p.borrow_mut().current.as_mut().filter(|j| j.id == job) {
            j.opening = Some(Opening { read, of });
        }
    });
    report();
}

/// What to remember of a finished job: a bundle file as it was given.
pub(super) fn kept_blob(done: &Done) -> Option<Blob> {
    if done.format != "bundle" {
        return None;
    }
    POOL.with(|p| match p.borrow().current.as_ref() {
        Some(Job { input: Input::Blob(b), keep: true, .. }) => Some(b.clone()),
        _ => None,
    })
}
