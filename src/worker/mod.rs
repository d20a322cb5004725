//! The ingest worker (a second wasm binary, `src/bin/ingest.rs`): reads files, downloads and pasted
//! text off the page's thread and hands back finished bundles. It answers messages from
//! `ui::ingest`; the protocol is documented there. All parsing happens here, so the page's binary
//! links no parser. Cancelling is `Worker.terminate()` from the page: no loop here checks for it
//! (a large JTL's reads are awaited, `stream`; everything else runs without yielding).

mod blob_source;
mod bundle_parts;
pub mod chunk_source;
mod stream;
mod warm;
mod write;

use crate::bundle::stream_cut::StreamCut;
use crate::import::common::parallel::RangeSource;
use crate::import::{self, common::parallel, HEAD_BYTES};
use blob_source::BlobSource;
use chunk_source::ChunkSource;
use js_sys::{Object, Reflect, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, DedicatedWorkerGlobalScope, MessageEvent};

/// Build id baked into both binaries; the worker reports it so a stale cached worker is noticed.
pub const BUILD: &str = env!("RUNLENS_BUILD");

/// A file being read in ranges by several workers: this worker read range 0 and waits for the rest.
struct Pending {
    job: u32,
    name: String,
    blob: Blob,
    plan: parallel::Plan,
    /// Each range's part, or why it failed (`parallel::settle` reads a failed range again from
    /// where the previous one stopped: it may have started inside a quoted line break).
    parts: Vec<Option<Result<import::jmeter::csv::Part, crate::bundle::LoadError>>>,
}

thread_local! {
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
}

pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Builds a message object from (key, value) pairs.
pub fn msg(pairs: &[(&str, JsValue)]) -> Object {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}

fn post(o: &Object) {
    let _ = scope().post_message(o);
}

pub(crate) fn bytes_to_js(bytes: &[u8]) -> Uint8Array {
    let arr = Uint8Array::new_with_length(bytes.len() as u32);
    arr.copy_from(bytes);
    arr
}

/// Posts bytes, transferring their buffer (no copy on the page's side).
fn post_bytes(kind: &str, job: u32, extra: &[(&str, JsValue)], bytes: &[u8]) {
    let arr = bytes_to_js(bytes);
    let mut pairs = vec![("type", kind.into()), ("job", job.into()), ("data", arr.clone().into())];
    pairs.extend(extra.iter().cloned());
    let transfer = js_sys::Array::of1(&arr.buffer());
    let _ = scope().post_message_with_transfer(&msg(&pairs), &transfer);
}

/// Posts a finished import: its head as `data`, its runs as `runs` (one array each, all
/// transferred), so the page reads them one by one (`wire::Pieces`).
pub(crate) fn post_done(job: u32, pieces: crate::wire::Pieces, extra: &[(&str, JsValue)]) {
    let head = bytes_to_js(&pieces.head);
    let runs = js_sys::Array::new();
    let transfer = js_sys::Array::of1(&head.buffer());
    for arr in pieces.runs.iter().map(|r| bytes_to_js(r)) {
        transfer.push(&arr.buffer());
        runs.push(&arr);
    }
    let mut pairs = vec![("type", "done".into()), ("job", job.into()), ("data", head.into()), ("runs", runs.into())];
    pairs.extend(extra.iter().cloned());
    let _ = scope().post_message_with_transfer(&msg(&pairs), &transfer);
}

/// `post_done` of one worker's import.
pub(crate) fn post_imported(job: u32, imp: import::Imported, extra: &[(&str, JsValue)]) {
    post_done(job, crate::wire::encode_done(imp), extra)
}

pub(crate) fn post_error(job: u32, message: &str) {
    post(&msg(&[("type", "error".into()), ("job", job.into()), ("message", message.into())]));
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
    post(&msg(&[
        ("type", "progress".into()),
        ("job", job.into()),
        ("bytes", (bytes as f64).into()),
        ("records", (records as f64).into()),
    ]));
}

pub(crate) fn get(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

pub(crate) fn get_u32(o: &JsValue, k: &str) -> u32 {
    get(o, k).as_f64().unwrap_or(0.0) as u32
}

/// Starts the worker: installs the message handler and says it is ready.
pub fn run() {
    crate::js_platform::install();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|e: MessageEvent| handle(e.data()));
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&msg(&[("type", "ready".into()), ("build", BUILD.into())]));
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
    if get(&data, "type").as_string().as_deref() == Some("warm") {
        // A worker started for a big bundle's later runs: warm up while the file arrives.
        if !GIVEN_WORK.with(|g| g.get()) {
            warm::bundle_group();
        }
        return;
    }
    GIVEN_WORK.with(|g| g.set(true));
    let job = get_u32(&data, "job");
    let name = get(&data, "name").as_string().unwrap_or_default();
    match get(&data, "type").as_string().as_deref() {
        Some("import") => match get(&data, "blob").dyn_into::<Blob>() {
            Ok(blob) => {
                import_input(job, &name, Input::Blob(BlobSource { blob }), get_u32(&data, "workers").max(1) as usize)
            }
            Err(_) => post_error(job, "nothing to read was given"),
        },
        Some("fetch") => {
            let url = get(&data, "url").as_string().unwrap_or_default();
            let workers = get_u32(&data, "workers").max(1) as usize;
            wasm_bindgen_futures::spawn_local(async move {
                match download(job, &url, &name, workers).await {
                    Ok(Downloaded::Chunks(body)) => import_input(job, &name, Input::Chunks(body), workers),
                    Ok(Downloaded::Bundle(bytes, scanner, cut)) => {
                        let seps = scanner.finish(&bytes);
                        bundle_parts::start_or_load(job, &name, bytes, seps, workers, Some(cut));
                    }
                    Err(m) => post_error(job, &m),
                }
            });
        }
        Some("range") => read_range(job, &name, &data),
        Some("part") => take_part(job, &data),
        Some("runs") => bundle_parts::load_group(job, &data),
        Some("runs-done") => bundle_parts::take_group(job, &data),
        Some("write") => write::write(job, &data),
        _ => {}
    }
}

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

    /// The input as a `Blob`, for reading in ranges: a body's chunks are glued together here.
    fn into_blob(self) -> Result<Blob, String> {
        match self {
            Input::Blob(b) => Ok(b.blob),
            Input::Chunks(c) => {
                let parts: js_sys::Array = c.chunks().iter().collect();
                Blob::new_with_u8_array_sequence(&parts)
                    .map_err(|_| "the downloaded file could not be kept in memory".to_string())
            }
        }
    }
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
    let plan = parallel::plan(name, &head, size, workers);
    let layout = if plan.is_some() { None } else { parallel::range_layout(name, &head, size) };
    if plan.is_none() && layout.is_none() {
        return import_whole(job, name, input.source(), size);
    }
    let blob = match input.into_blob() {
        Ok(b) => b,
        Err(e) => return post_error(job, &format!("{name}: {e}")),
    };
    if let Some(plan) = plan {
        let encoded = rmp_serde::to_vec(&plan).unwrap_or_default();
        // The blob goes along: a downloaded file exists only here, and the others must read it too.
        post_bytes(
            "plan",
            job,
            &[("ranges", (plan.ranges.len() as u32).into()), ("blob", blob.clone().into())],
            &encoded,
        );
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
        return;
    }
    if let Some(layout) = layout {
        let plan = parallel::Plan { layout, ranges: vec![(0, size)] };
        let name = name.to_string();
        wasm_bindgen_futures::spawn_local(async move {
            let mut timing = stream::Timing::default();
            let part = stream::read_range(&name, &blob, &plan, 0, &range_progress(job), &mut timing).await;
            let src = BlobSource { blob };
            match part.and_then(|p| parallel::finish(&name, &src, &plan, vec![p])) {
                // Timings of a one-worker import, for the ingest benchmark: all of it, and the
                // part spent waiting for the file.
                Ok(imp) => {
                    post_imported(job, imp, &[("ms", timing.total_ms.into()), ("read_ms", timing.waited_ms.into())])
                }
                Err(e) => post_error(job, &e.to_string()),
            }
        });
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
            let timing =
                [("ms", (js_sys::Date::now() - t0).into()), ("read_ms", blob_source::READ_MS.with(|r| r.get()).into())];
            post_imported(job, imp, &timing)
        }
        Err(e) => post_error(job, &e.to_string()),
    }
}

/// Progress of a range: its bytes read (`stream` caps them at the range's length, as its last
/// record runs past it, else the parts would add up to more than the file) and records so far.
fn range_progress(job: u32) -> impl Fn(u64, u64) {
    move |bytes, records| progress(job, bytes, records)
}

/// Reads one range for another worker's file and posts the part.
fn read_range(job: u32, name: &str, data: &JsValue) {
    let (Ok(blob), Ok(plan_bytes)) = (get(data, "blob").dyn_into::<Blob>(), get(data, "plan").dyn_into::<Uint8Array>())
    else {
        return post_error(job, "a range was asked for without its file");
    };
    let plan: parallel::Plan = match rmp_serde::from_slice(&plan_bytes.to_vec()) {
        Ok(p) => p,
        Err(e) => return post_error(job, &format!("{name}: a plan could not be read ({e})")),
    };
    let index = get_u32(data, "index") as usize;
    let name = name.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        match stream::read_range(&name, &blob, &plan, index, &range_progress(job), &mut stream::Timing::default()).await
        {
            Ok(part) => post_bytes("part", job, &[("index", (index as u32).into())], &parallel::encode_part(&part)),
            // A failed range goes back too: the worker that merges reads it again (see `Pending`).
            Err(e) => {
                post_bytes("part", job, &[("index", (index as u32).into()), ("failed", e.to_string().into())], &[])
            }
        }
    });
}

/// Receives another worker's part (forwarded by the page) and finishes when all are in.
fn take_part(job: u32, data: &JsValue) {
    let Ok(bytes) = get(data, "data").dyn_into::<Uint8Array>() else { return };
    let index = get_u32(data, "index") as usize;
    let part = match get(data, "failed").as_string() {
        Some(message) => Err(crate::bundle::LoadError {
            kind: crate::bundle::LoadErrorKind::Syntax,
            source: String::new(),
            path: None,
            line: None,
            column: None,
            message,
        }),
        None => match parallel::decode_part(&bytes.to_vec()) {
            Ok(p) => Ok(p),
            Err(e) => return post_error(job, &e),
        },
    };
    PENDING.with(|q| {
        if let Some(p) = q.borrow_mut().iter_mut().find(|p| p.job == job) {
            if let Some(slot) = p.parts.get_mut(index) {
                *slot = Some(part);
            }
        }
    });
    try_finish(job);
}

/// Takes the first entry `done` says is complete out of a queue of work waiting for parts from
/// other workers.
pub(crate) fn take_first<T>(queue: &RefCell<Vec<T>>, done: impl Fn(&T) -> bool) -> Option<T> {
    let mut q = queue.borrow_mut();
    let i = q.iter().position(done)?;
    Some(q.remove(i))
}

fn try_finish(job: u32) {
    let Some(p) = PENDING.with(|q| take_first(q, |p| p.job == job && p.parts.iter().all(Option::is_some))) else {
        return;
    };
    let src = BlobSource { blob: p.blob };
    let results = p.parts.into_iter().flatten().collect();
    let settled = parallel::settle(&p.name, &src, &p.plan, results);
    match settled.and_then(|parts| parallel::finish(&p.name, &src, &p.plan, parts)) {
        Ok(imp) => post_imported(job, imp, &[]),
        Err(e) => post_error(job, &e.to_string()),
    }
}

/// Whether a file may be a bundle to cut between workers: big enough, not too big to read whole,
/// and a bundle by name or content.
fn splits_as_bundle(name: &str, head: &[u8], size: u64, workers: usize) -> bool {
    workers >= 2
        && (crate::bundle::split_load::MIN_SPLIT_BYTES..=import::MAX_WHOLE_FILE_BYTES).contains(&size)
        && import::detect(name, head) == Ok(import::Format::Bundle)
}

/// Tells the page that a big file is coming, so that it starts the other workers (and has them
/// warm up the bundle path, for a `bundle`).
/// `bytes`: the file's size.
fn tell_big(job: u32, bundle: bool, bytes: u64) {
    post(&msg(&[
        ("type", "big".into()),
        ("job", job.into()),
        ("bundle", bundle.into()),
        ("bytes", (bytes as f64).into()),
    ]));
}

/// A downloaded body: its chunks, or (a big bundle) its bytes already gathered and scanned for the
/// runs while they arrived, and the groups of runs already cut and posted to other workers.
enum Downloaded {
    Chunks(ChunkSource),
    Bundle(Vec<u8>, crate::bundle::split::Scanner, StreamCut),
}

/// A big bundle as it downloads: its bytes so far, their scan, the groups cut from them.
type Gathered = (Vec<u8>, crate::bundle::split::Scanner, StreamCut);

/// Downloads `url`, reporting progress; refuses bodies over the limit.
async fn download(job: u32, url: &str, name: &str, workers: usize) -> Result<Downloaded, String> {
    use wasm_bindgen_futures::JsFuture;
    let resp = JsFuture::from(scope().fetch_with_str(url)).await.map_err(|_| {
        format!("Could not fetch {url}: the server did not answer, or it does not allow other sites to read it (cross-origin reads need an Access-Control-Allow-Origin header).")
    })?;
    let resp: web_sys::Response = resp.unchecked_into();
    if !resp.ok() {
        return Err(format!(
            "Could not fetch {url}: the server answered HTTP {} {}.",
            resp.status(),
            resp.status_text()
        ));
    }
    let Some(body) = resp.body() else {
        return Ok(Downloaded::Chunks(ChunkSource::new(Vec::new())));
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut chunks = Vec::new();
    let mut total = 0u64;
    // The length the server announced (none for a chunked body, the compressed one for a
    // compressed body: only a hint for what to expect).
    let length =
        resp.headers().get("content-length").ok().flatten().and_then(|l| crate::number::parse_f64(&l)).unwrap_or(0.0)
            as u64;
    // Undecided until the head is in (or the body ends): whether this is a big bundle, gathered
    // and scanned as it arrives.
    let mut decided = length < crate::bundle::split_load::MIN_SPLIT_BYTES;
    let mut gathered: Option<Gathered> = None;
    loop {
        let r = JsFuture::from(reader.read())
            .await
            .map_err(|_| format!("Could not read {url}: the connection broke off."))?;
        let done = get(&r, "done").as_bool().unwrap_or(true);
        if !done {
            let value = get(&r, "value");
            total += Reflect::get(&value, &"byteLength".into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as u64;
            if total > crate::import::MAX_DOWNLOAD_BYTES {
                let _ = reader.cancel();
                return Err(format!(
                    "Did not load {url}: it is larger than {} GiB, more than a browser tab can hold.",
                    crate::import::MAX_DOWNLOAD_BYTES >> 30
                ));
            }
            let Ok(chunk) = value.dyn_into::<Uint8Array>() else {
                return Err(format!("Could not read {url}: the browser gave something other than bytes."));
            };
            match gathered.as_mut() {
                Some((bytes, scanner, cut)) => {
                    append(bytes, &chunk);
                    scanner.feed(bytes);
                    let from = cut.take(scanner.seps());
                    bundle_parts::post_streamed(job, name, bytes, cut, from);
                }
                None => chunks.push(chunk),
            }
            progress(job, total, 0);
        }
        if !decided && (done || total >= HEAD_BYTES as u64) {
            decided = true;
            let head = ChunkSource::new(std::mem::take(&mut chunks));
            let first = head.read_at(0, HEAD_BYTES).unwrap_or_default();
            let bundle = splits_as_bundle(name, &first, length.max(total), workers);
            tell_big(job, bundle, length.max(total));
            if bundle {
                let mut bytes = Vec::new();
                if bytes.try_reserve_exact(length as usize).is_err() {
                    return Err(format!("Did not load {url}: there is not enough memory for it."));
                }
                head.chunks().iter().for_each(|c| append(&mut bytes, c));
                let mut scanner = crate::bundle::split::Scanner::default();
                scanner.feed(&bytes);
                let mut cut = StreamCut::new(bundle_parts::stream_group_bytes(length));
                let from = cut.take(scanner.seps());
                bundle_parts::post_streamed(job, name, &bytes, &cut, from);
                gathered = Some((bytes, scanner, cut));
            } else {
                chunks = head.chunks().to_vec();
            }
        }
        if done {
            break;
        }
    }
    Ok(match gathered {
        Some((bytes, scanner, cut)) => Downloaded::Bundle(bytes, scanner, cut),
        None => Downloaded::Chunks(ChunkSource::new(chunks)),
    })
}

/// Appends a chunk's bytes.
fn append(bytes: &mut Vec<u8>, chunk: &Uint8Array) {
    let at = bytes.len();
    bytes.resize(at + chunk.length() as usize, 0);
    chunk.copy_to(&mut bytes[at..]);
}
