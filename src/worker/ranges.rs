//! A large JMeter CSV read in byte ranges by several workers (`import::common::parallel`): the first
//! worker posts the plan, reads range 0 and merges the others' parts as the page forwards them;
//! any worker reads a range it is asked for and posts its part.

use super::blob_source::BlobSource;
use super::{bytes_to_js, post, post_error, post_imported, progress, stream, take_first, DoneNotes, ToPage};
use crate::bundle::{LoadError, LoadErrorKind};
use crate::import::common::parallel;
use crate::import::jmeter::csv::Part;
use js_sys::Uint8Array;
use std::cell::RefCell;
use web_sys::Blob;

/// A file being read in ranges by several workers: this worker read range 0 and waits for the rest.
struct Pending {
    job: u32,
    name: String,
    blob: Blob,
    plan: parallel::Plan,
    /// Each range's part, or why it failed (`parallel::settle` reads a failed range again from
    /// where the previous one stopped: it may have started inside a quoted line break).
    parts: Vec<Option<Result<Part, LoadError>>>,
}

thread_local! {
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
}

/// Posts the plan (the page hands ranges 1.. to the other workers) and reads range 0.
pub(super) fn start(job: u32, name: &str, blob: Blob, plan: parallel::Plan) {
    let encoded = borsh::to_vec(&plan).unwrap_or_default();
    // The blob goes along: a downloaded file exists only here, and the others must read it too.
    post(&ToPage::Plan { job, data: bytes_to_js(&encoded), ranges: plan.ranges.len() as u32, blob: blob.clone() });
    let parts = (0..plan.ranges.len()).map(|_| None).collect();
    // Pending before range 0 is read: the other workers' parts may arrive meanwhile.
    PENDING.with(|q| {
        q.borrow_mut().push(Pending { job, name: name.into(), blob: blob.clone(), plan: plan.clone(), parts })
    });
    let name = name.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let first =
            stream::read_range(&name, &blob, &plan, 0, &range_progress(job), &mut stream::Timing::default()).await;
        if let Err(e) = &first {
            PENDING.with(|q| q.borrow_mut().retain(|p| p.job != job));
            return post_error(job, &e.to_string());
        }
        PENDING.with(|q| {
            if let Some(slot) = q.borrow_mut().iter_mut().find(|p| p.job == job).and_then(|p| p.parts.get_mut(0)) {
                *slot = Some(first);
            }
        });
        try_finish(job);
    });
}

/// Reads a file of one range (`plan`) alone, its reads ahead of its parsing.
pub(super) fn read_alone(job: u32, name: &str, blob: Blob, plan: parallel::Plan) {
    let name = name.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let mut timing = stream::Timing::default();
        let part = stream::read_range(&name, &blob, &plan, 0, &range_progress(job), &mut timing).await;
        let src = BlobSource { blob };
        match part.and_then(|p| parallel::finish(&name, &src, &plan, vec![p])) {
            // Timings of a one-worker import, for the ingest benchmark: all of it, and the
            // part spent waiting for the file.
            Ok(imp) => {
                let notes = DoneNotes { ms: Some(timing.total_ms), read_ms: Some(timing.waited_ms), later: None };
                post_imported(job, imp, notes)
            }
            Err(e) => post_error(job, &e.to_string()),
        }
    });
}

/// Progress of a range: its bytes read (`stream` caps them at the range's length, as its last
/// record runs past it, else the parts would add up to more than the file) and records so far.
fn range_progress(job: u32) -> impl Fn(u64, u64) {
    move |bytes, records| progress(job, bytes, records)
}

/// Reads one range for another worker's file and posts the part.
pub(super) fn read_range(job: u32, name: &str, blob: Blob, plan: &Uint8Array, index: u32) {
    let plan: parallel::Plan = match borsh::from_slice(&plan.to_vec()) {
        Ok(p) => p,
        Err(e) => return post_error(job, &format!("{name}: a plan could not be read ({e})")),
    };
    let name = name.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let read = stream::read_range(
            &name,
            &blob,
            &plan,
            index as usize,
            &range_progress(job),
            &mut stream::Timing::default(),
        )
        .await;
        let (data, failed) = match read {
            Ok(part) => (parallel::encode_part(&part), None),
            // A failed range goes back too: the worker that merges reads it again (see `Pending`).
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        post(&ToPage::Part { job, index, data: bytes_to_js(&data), failed });
    });
}

/// Receives another worker's part (forwarded by the page) and finishes when all are in.
pub(super) fn take_part(job: u32, index: u32, data: &Uint8Array, failed: Option<String>) {
    let part = match failed {
        Some(message) => Err(LoadError::new(LoadErrorKind::Syntax, "", message)),
        None => match parallel::decode_part(&data.to_vec()) {
            Ok(p) => Ok(p),
            Err(e) => return post_error(job, &e),
        },
    };
    PENDING.with(|q| {
        if let Some(p) = q.borrow_mut().iter_mut().find(|p| p.job == job) {
            if let Some(slot) = p.parts.get_mut(index as usize) {
                *slot = Some(part);
            }
        }
    });
    try_finish(job);
}

fn try_finish(job: u32) {
    let Some(p) = PENDING.with(|q| take_first(q, |p| p.job == job && p.parts.iter().all(Option::is_some))) else {
        return;
    };
    let src = BlobSource { blob: p.blob };
    let results = p.parts.into_iter().flatten().collect();
    let settled = parallel::settle(&p.name, &src, &p.plan, results);
    match settled.and_then(|parts| parallel::finish(&p.name, &src, &p.plan, parts)) {
        Ok(imp) => post_imported(job, imp, DoneNotes::default()),
        Err(e) => post_error(job, &e.to_string()),
    }
}
