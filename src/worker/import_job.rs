//! One import job on the first worker: a file (`Blob`) or a download, read whole, in byte ranges
//! (`ranges`; a download's while it arrives, `feed`), or, a big bundle, cut between workers
//! (`bundle_parts`).

use super::blob_source::{self, BlobSource};
use super::chunk_source::ChunkSource;
use super::download::{download, Downloaded};
use super::{bundle_parts, post_error, post_imported, progress, ranges, DoneNotes, ToPage};
use crate::import::common::parallel::{self, RangeSource};
use crate::import::jmeter::csv::split_weighted;
use crate::import::{self, HEAD_BYTES};
use web_sys::Blob;

/// What to import: a `Blob` (a dropped file, pasted text) or a downloaded body, still in the
/// chunks `fetch` delivered.
enum Input {
    Blob(BlobSource),
    Chunks(ChunkSource),
}

impl Input {
    fn source(&self) -> &dyn RangeSource {
        match self {
            Input::Blob(b) => b,
            Input::Chunks(c) => c,
        }
    }
}

/// How a download of `size` bytes (as announced) with this `head` is read in ranges while it
/// arrives, if it is a large JMeter CSV: in a range per worker, the last one to the body's end
/// whatever its size turns out to be (a compressed body's announced size is not its own). The
/// last range, the first worker's own, is half as long as each other: its bytes arrive last, so
/// it starts last, and the first worker also takes the download (decision 0059: with equal
/// halves of a 200 MB file, the other worker's part came 0.5 s before the first worker's).
pub(super) fn body_plan(name: &str, head: &[u8], size: u64, workers: usize) -> Option<parallel::Plan> {
    let layout = parallel::range_layout(name, head, size)?;
    let weights: Vec<u64> = (0..workers.max(1)).map(|i| if i + 1 < workers { 2 } else { 1 }).collect();
    let mut plan = parallel::Plan { layout, ranges: split_weighted(size, &weights) };
    if let Some(last) = plan.ranges.last_mut() {
        last.1 = u64::MAX;
    }
    Some(plan)
}

/// Imports a file (`workers`: how many workers may share it).
pub(super) fn import_blob(job: u32, name: &str, blob: Blob, workers: u32) {
    import_input(job, name, Input::Blob(BlobSource { blob }), workers.max(1) as usize)
}

/// Downloads `url` and imports it; a big bundle is cut between workers while it arrives.
pub(super) fn import_url(job: u32, name: String, url: String, workers: u32) {
    let workers = workers.max(1) as usize;
    wasm_bindgen_futures::spawn_local(async move {
        match download(job, &url, &name, workers).await {
            Ok(Downloaded::Chunks(body)) => import_input(job, &name, Input::Chunks(body), workers),
            // Read in ranges while it arrived (`feed`): the merge follows the last part.
            Ok(Downloaded::Fed) => {}
            Ok(Downloaded::Bundle(gathered)) => {
                let seps = gathered.scanner.finish(&gathered.bytes);
                bundle_parts::start_or_load(job, &name, gathered.bytes, seps, workers, Some(gathered.cut));
            }
            Err(m) => {
                ranges::forget(job);
                post_error(job, &m)
            }
        }
    });
}

/// Imports a whole input, or starts a split read and reads range 0 itself. A large UTF-8 JMeter
/// CSV is read in ranges even by one worker (one range), with its reads ahead of its parsing
/// (`stream`); any other file is read in one pass.
fn import_input(job: u32, name: &str, input: Input, workers: usize) {
    let head = match input.source().read_at(0, HEAD_BYTES) {
        Ok(h) => h,
        Err(e) => return post_error(job, &format!("{name}: the file could not be read ({e})")),
    };
    let size = input.source().size();
    // A big bundle is cut into groups of runs, one per worker (`bundle_parts`).
    if splits_as_bundle(name, &head, size, workers) {
        tell_big(job, true, size);
        let bytes = match input.source().read_at(0, size as usize) {
            Ok(b) => b,
            Err(e) => return post_error(job, &format!("{name}: the file could not be read ({e})")),
        };
        let seps = crate::bundle::split::run_separators(&bytes);
        return bundle_parts::start_or_load(job, name, bytes, seps, workers, None);
    }
    let body = match input {
        Input::Blob(b) => b.blob,
        // A download whose size was not announced, read in ranges now that it is in.
        Input::Chunks(c) => {
            let Some(plan) = body_plan(name, &head, size, workers) else {
                return import_whole(job, name, &c, size);
            };
            return match ranges::start_body(job, name, plan) {
                Ok(mut feed) => {
                    c.chunks().iter().for_each(|chunk| feed.push(chunk.clone()));
                    feed.finish(Ok(()));
                    ranges::body_done(job);
                }
                Err(e) => post_error(job, &format!("{name}: {e}")),
            };
        }
    };
    let src = BlobSource { blob: body };
    let plan = parallel::plan(name, &head, size, workers);
    let layout = if plan.is_some() { None } else { parallel::range_layout(name, &head, size) };
    match (plan, layout) {
        (Some(plan), _) => ranges::start(job, name, src.blob, plan),
        (None, Some(layout)) => {
            ranges::read_alone(job, name, src.blob, parallel::Plan { layout, ranges: vec![(0, size)] })
        }
        (None, None) => import_whole(job, name, &src, size),
    }
}

/// Imports a file read in one pass (everything but a large JTL).
fn import_whole(job: u32, name: &str, src: &dyn RangeSource, size: u64) {
    let reader = match src.reader_from(0) {
        Ok(r) => r,
        Err(e) => return post_error(job, &format!("{name}: the file could not be read ({e})")),
    };
    blob_source::READ_MS.with(|r| r.set(0.0));
    let t0 = js_sys::Date::now();
    match import::import_sized(name, reader, Some(size), None, &mut |bytes, records| progress(job, bytes, records)) {
        Ok(imp) => {
            let notes = DoneNotes {
                ms: Some(js_sys::Date::now() - t0),
                read_ms: Some(blob_source::READ_MS.with(|r| r.get())),
                later: None,
            };
            post_imported(job, imp, notes)
        }
        Err(e) => post_error(job, &e.to_string()),
    }
}

/// Whether a file may be a bundle to cut between workers: big enough, not too big to read whole,
/// and a bundle by name or content.
pub(super) fn splits_as_bundle(name: &str, head: &[u8], size: u64, workers: usize) -> bool {
    workers >= 2
        && (crate::bundle::split_load::MIN_SPLIT_BYTES..=import::MAX_WHOLE_FILE_BYTES).contains(&size)
        && import::detect(name, head) == Ok(import::Format::Bundle)
}

/// Tells the page that a big file of `bytes` is coming, so that it starts the other workers (and
/// has them warm up the bundle path, for a `bundle`).
pub(super) fn tell_big(job: u32, bundle: bool, bytes: u64) {
    super::post(&ToPage::Big { job, bundle, bytes });
}
