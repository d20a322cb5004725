//! A large JMeter CSV read in byte ranges by several workers (`import::common::parallel`): the first
//! worker posts the plan, reads range 0 and merges the others' parts as the page forwards them;
//! any worker reads a range it is asked for and posts its part. A file's ranges are read from its
//! `Blob`; a download's from its bytes as they arrive (`feed`).

use super::blob_source::BlobSource;
use super::feed::{self, Body, BodyArrivals, Feed};
use super::{bytes_to_js, post, post_error, post_imported, progress, stream, take_first, DoneNotes, ToPage};
use crate::bundle::{LoadError, LoadErrorKind};
use crate::import::common::parallel::{self, RangeSource};
use crate::import::jmeter::csv::Part;
use crate::protocol::RangeBytes;
use js_sys::Uint8Array;
use std::cell::RefCell;
use web_sys::Blob;

/// Where the first worker reads a file's bytes again (`parallel::settle`): the file, or the
/// download (complete once `Body::is_complete`).
enum Whole {
    Blob(Blob),
    Body(Body),
}

/// A file being read in ranges by several workers: this worker read range 0 and waits for the rest.
struct Pending {
    job: u32,
    name: String,
    whole: Whole,
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
    post_plan(job, name, &plan, RangeBytes::Blob(blob.clone()), Whole::Blob(blob.clone()));
    let name = name.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let first =
            stream::read_range(&name, &blob, &plan, 0, &range_progress(job), &mut stream::Timing::default()).await;
        settle_own(job, 0, first);
    });
}

/// Starts reading a download in ranges while it arrives: posts the plan with a port for each
/// range but the last, whose bytes go to the other workers as they arrive, and reads the last
/// range itself from the body: the first ranges' bytes arrive first, and parsing them here would
/// hold them back (a body stream is read only as fast as it is asked for; measured, decision
/// 0059). The caller feeds the download's chunks into the returned feed, then finishes it
/// (`body_done`).
pub(super) fn start_body(job: u32, name: &str, plan: parallel::Plan) -> Result<Feed, String> {
    let (feed, ports) = Feed::new(&plan)?;
    post_plan(job, name, &plan, RangeBytes::Ports(ports), Whole::Body(feed.body.clone()));
    let (name, body) = (name.to_string(), feed.body.clone());
    let own = plan.ranges.len().saturating_sub(1);
    wasm_bindgen_futures::spawn_local(async move {
        let part = read_body_range(&name, &body, &plan, own, job, true).await;
        settle_own(job, own, part);
    });
    Ok(feed)
}

/// The download of a job read in ranges ended: the merge may run once every part is in.
pub(super) fn body_done(job: u32) {
    try_finish(job);
}

/// A job that failed before its end: its parts are not waited for any more.
pub(super) fn forget(job: u32) {
    PENDING.with(|q| q.borrow_mut().retain(|p| p.job != job));
}

/// Range `index` of a download, parsed as its bytes arrive (`downloading`: by the worker that
/// downloads it).
async fn read_body_range(
    name: &str,
    body: &Body,
    plan: &parallel::Plan,
    index: usize,
    job: u32,
    downloading: bool,
) -> Result<Part, LoadError> {
    let (first, end) = body.range_bounds(name, plan, index).await?;
    if first >= end && index > 0 {
        return Ok(Part::empty_at(first));
    }
    let mut arrivals = BodyArrivals { name, body, at: first, downloading };
    let mut timing = stream::Timing::default();
    stream::parse(name, plan, index, (first, end), &mut arrivals, &range_progress(job), &mut timing).await
}

/// Posts the plan (the page hands ranges 1.. to the other workers, with `bytes`) and waits for
/// their parts.
fn post_plan(job: u32, name: &str, plan: &parallel::Plan, bytes: RangeBytes, whole: Whole) {
    let encoded = borsh::to_vec(plan).unwrap_or_default();
    post(&ToPage::Plan { job, data: bytes_to_js(&encoded), ranges: plan.ranges.len() as u32, bytes });
    let parts = (0..plan.ranges.len()).map(|_| None).collect();
    // Pending before range 0 is read: the other workers' parts may arrive meanwhile.
    PENDING.with(|q| q.borrow_mut().push(Pending { job, name: name.into(), whole, plan: plan.clone(), parts }));
}

/// This worker's own range `index` read (or not): kept, and the job finished if everything is
/// in. A job no longer pending (its download failed, and said so) is left alone.
fn settle_own(job: u32, index: usize, part: Result<Part, LoadError>) {
    if !PENDING.with(|q| q.borrow().iter().any(|p| p.job == job)) {
        return;
    }
    if let Err(e) = &part {
        forget(job);
        return post_error(job, &e.to_string());
    }
    PENDING.with(|q| {
        if let Some(slot) = q.borrow_mut().iter_mut().find(|p| p.job == job).and_then(|p| p.parts.get_mut(index)) {
            *slot = Some(part);
        }
    });
    try_finish(job);
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

/// Reads one range for another worker's file (or download, its bytes on a port) and posts the part.
/// The page hands out ranges 1..; a download's first worker reads its last range itself, so the
/// port the page gives with its range `index` carries range `index - 1` (`feed::Feed::new`), and
/// the part goes back as that range's.
pub(super) fn read_range(job: u32, name: &str, bytes: RangeBytes, plan: &Uint8Array, index: u32) {
    let plan: parallel::Plan = match borsh::from_slice(&plan.to_vec()) {
        Ok(p) => p,
        Err(e) => return post_error(job, &format!("{name}: a plan could not be read ({e})")),
    };
    let name = name.to_string();
    let index = if matches!(bytes, RangeBytes::Ports(_)) { index.saturating_sub(1) } else { index };
    wasm_bindgen_futures::spawn_local(async move {
        let i = index as usize;
        let read = match &bytes {
            RangeBytes::Blob(blob) => {
                stream::read_range(&name, blob, &plan, i, &range_progress(job), &mut stream::Timing::default()).await
            }
            RangeBytes::Ports(ports) => match ports.first() {
                Some(port) => {
                    let body = feed::receive(port, &plan, i);
                    let read = read_body_range(&name, &body, &plan, i, job, false).await;
                    port.close();
                    read
                }
                None => Err(LoadError::new(LoadErrorKind::Io, &name, "a range was asked for without its bytes")),
            },
        };
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

/// Merges the parts once every one is in (and a download is complete: a range may be read again).
fn try_finish(job: u32) {
    let complete = |p: &Pending| {
        p.job == job
            && p.parts.iter().all(Option::is_some)
            && match &p.whole {
                Whole::Blob(_) => true,
                Whole::Body(b) => b.is_complete(),
            }
    };
    let Some(p) = PENDING.with(|q| take_first(q, complete)) else {
        return;
    };
    let src: Box<dyn RangeSource> = match p.whole {
        Whole::Blob(blob) => Box::new(BlobSource { blob }),
        Whole::Body(body) => Box::new(body.source()),
    };
    let results = p.parts.into_iter().flatten().collect();
    let settled = parallel::settle(&p.name, src.as_ref(), &p.plan, results);
    match settled.and_then(|parts| parallel::finish(&p.name, src.as_ref(), &p.plan, parts)) {
        Ok(imp) => post_imported(job, imp, DoneNotes::default()),
        Err(e) => post_error(job, &e.to_string()),
    }
}
