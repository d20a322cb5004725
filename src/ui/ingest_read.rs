//! Reading a finished ingest job's answer on the page, run by run (`wire::Pieces`), yielding to
//! the browser between stretches of work so a big bundle never holds the page in one long task.
//! A big bundle's later groups of runs (`worker::bundle_parts`) are read as soon as their worker
//! answers, while the first worker is still finishing the head; the head's answer then waits for
//! them.

use super::ingest::{is_current, now, opening};
use crate::bundle::Run;
use crate::wire::{decode_head, decode_run, Done};
use js_sys::Uint8Array;
use std::cell::RefCell;

/// A stretch of reading longer than this ends with a yield to the browser.
const SLICE_MS: f64 = 30.0;
/// The last runs' task yields before the view is built if it took longer than this.
const YIELD_BEFORE_SHOW_MS: f64 = 5.0;

/// A later group of a big bundle's runs, read (or being read) on the page.
struct Later {
    job: u32,
    /// The group's place (1 is the first after the head's).
    index: usize,
    runs: Vec<Run>,
    /// All read, or why not.
    result: Option<Result<(), String>>,
}

thread_local! {
    static LATER: RefCell<Vec<Later>> = const { RefCell::new(Vec::new()) };
    /// Resolves the promise a finished job's answer waits on until its later groups are read.
    static WAITER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Wakes the answer waiting on the later groups, if any, to look again.
fn wake() {
    if let Some(resolve) = WAITER.with(|w| w.borrow_mut().take()) {
        let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
    }
}

/// Until [`wake`]: the answer sleeps instead of spinning through the event loop.
async fn woken() {
    let promise = js_sys::Promise::new(&mut |resolve, _| WAITER.with(|w| *w.borrow_mut() = Some(resolve)));
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Drops whatever was read ahead for `job` (the job ended: its answer, if it waits, wakes to
/// find it cancelled).
pub fn forget(job: u32) {
    LATER.with(|l| l.borrow_mut().retain(|g| g.job != job));
    wake();
}

/// Reads pieces of runs (`first` is the first one's index in the bundle) into `out`, yielding
/// every `SLICE_MS`; Err on a piece that does not read, None when the job was cancelled.
async fn read_runs(
    job: u32,
    first: usize,
    pieces: Vec<Uint8Array>,
    out: &mut dyn FnMut(Run),
) -> Option<Result<f64, String>> {
    let mut since = now();
    let n = pieces.len();
    // One buffer for every run's bytes (a 50 MB bundle is 50 pieces of 1 MB).
    let mut buf: Vec<u8> = Vec::new();
    for (i, r) in pieces.into_iter().enumerate() {
        if now() - since > SLICE_MS {
            opening(job, i, n);
            super::browser::yield_now().await;
            if !is_current(job) {
                return None;
            }
            since = now();
        }
        buf.clear();
        buf.reserve(r.length() as usize);
        let bytes = r.copy_to_uninit(&mut buf.spare_capacity_mut()[..r.length() as usize]);
        match decode_run(bytes, first + i) {
            Ok(run) => out(run),
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(since))
}

/// Reads a later group's runs as soon as they arrive.
pub async fn read_later(job: u32, index: usize, first: usize, pieces: Vec<Uint8Array>) {
    LATER.with(|l| {
        let mut l = l.borrow_mut();
        l.retain(|g| is_current(g.job));
        l.push(Later { job, index, runs: Vec::new(), result: None });
    });
    let with_group = |f: &mut dyn FnMut(&mut Later)| {
        LATER.with(|l| l.borrow_mut().iter_mut().filter(|g| g.job == job && g.index == index).for_each(f))
    };
    let read = read_runs(job, first, pieces, &mut |run| {
        let mut run = Some(run);
        with_group(&mut |g| g.runs.extend(run.take()));
    })
    .await;
    let result = read.map_or_else(|| Err("cancelled".to_string()), |r| r.map(|_| ()));
    with_group(&mut |g| g.result = Some(result.clone()));
    wake();
}

/// Reads a finished job's answer: the head, its runs, then (`later`: how many groups) the runs
/// read on their own, in order. None when the job was cancelled meanwhile.
pub async fn read_done(
    job: u32,
    head: &[u8],
    runs: Vec<Uint8Array>,
    later: Option<usize>,
) -> Option<Result<Done, String>> {
    let mut done = match decode_head(head) {
        Ok(d) => d,
        Err(e) => return Some(Err(e)),
    };
    let mut since = match read_runs(job, 0, runs, &mut |run| done.bundle.runs.push(run)).await? {
        Ok(since) => since,
        Err(e) => return Some(Err(e)),
    };
    if later.is_none() {
        // A bundle the first worker loaded whole after all (its cut did not load cleanly): any
        // later group read here is not wanted.
        forget(job);
    }
    if let Some(groups) = later {
        // Wait for the later groups still being read (each wakes this when it is), then take
        // them in order.
        loop {
            let complete = LATER.with(|l| l.borrow().iter().filter(|g| g.job == job && g.result.is_some()).count());
            if complete >= groups {
                break;
            }
            woken().await;
            if !is_current(job) {
                return None;
            }
            since = now();
        }
        let mut mine: Vec<Later> = LATER.with(|l| {
            let (mine, rest) = std::mem::take(&mut *l.borrow_mut()).into_iter().partition(|g| g.job == job);
            *l.borrow_mut() = rest;
            mine
        });
        for index in 1..=groups {
            let Some(g) = mine.iter_mut().find(|g| g.index == index) else {
                return Some(Err(format!(
                    "the ingest worker's answer could not be read (group {index} of the runs is missing)"
                )));
            };
            if let Some(Err(e)) = g.result.take() {
                return Some(Err(e));
            }
            done.bundle.runs.append(&mut g.runs);
        }
    }
    // The view that shows the runs (a comparison, a table) is built in a task of its own, not at
    // the end of the one that read the last runs (one 112 ms task of a 50 MB bundle's opening).
    if now() - since > YIELD_BEFORE_SHOW_MS {
        super::browser::yield_now().await;
        if !is_current(job) {
            return None;
        }
    }
    Some(Ok(done))
}
