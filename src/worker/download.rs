//! A download (`fetch` in the worker): its body gathered chunk by chunk with progress, up to the
//! limit; a big bundle is gathered, scanned and cut into groups of runs while it arrives; a large
//! JMeter CSV of announced size is read in ranges while it arrives (`feed`).

use super::chunk_source::ChunkSource;
use super::feed::Feed;
use super::import_job::{body_plan, splits_as_bundle, tell_big};
use super::{bundle_parts, progress, ranges, scope};
use crate::bundle::split::Scanner;
use crate::bundle::stream_cut::StreamCut;
use crate::import::common::parallel::RangeSource;
use crate::import::HEAD_BYTES;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// A downloaded body: its chunks, or (a big bundle) its bytes already gathered and scanned for the
/// runs while they arrived, and the groups of runs already cut and posted to other workers.
pub(super) enum Downloaded {
    Chunks(ChunkSource),
    Bundle(Gathered),
    /// Read in ranges as it arrived (`ranges::start_body`): the merge follows.
    Fed,
}

/// A big bundle as it downloads.
pub(super) struct Gathered {
    /// Its bytes so far.
    pub bytes: Vec<u8>,
    /// Their scan for the runs' separators.
    pub scanner: Scanner,
    /// The groups of runs cut from them (and posted).
    pub cut: StreamCut,
}

/// Downloads `url`, reporting progress; refuses bodies over the limit.
pub(super) async fn download(job: u32, url: &str, name: &str, workers: usize) -> Result<Downloaded, String> {
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
    // A large JMeter CSV, read in ranges as it arrives (its parsers report progress).
    let mut feed: Option<Feed> = None;
    loop {
        let r = JsFuture::from(reader.read())
            .await
            .map_err(|_| format!("Could not read {url}: the connection broke off."))?;
        // A stream's read result, `{done, value}` (not a message).
        let done = Reflect::get(&r, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true);
        if !done {
            let value = Reflect::get(&r, &"value".into()).unwrap_or(JsValue::UNDEFINED);
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
            match (gathered.as_mut(), feed.as_mut()) {
                (Some(g), _) => {
                    append(&mut g.bytes, &chunk);
                    g.scanner.feed(&g.bytes);
                    let from = g.cut.take(g.scanner.seps());
                    bundle_parts::post_streamed(job, name, &g.bytes, &g.cut, from);
                }
                (None, Some(f)) => f.push(chunk),
                (None, None) => chunks.push(chunk),
            }
            if feed.is_none() {
                progress(job, total, 0);
            }
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
                let mut scanner = Scanner::default();
                scanner.feed(&bytes);
                let mut cut = StreamCut::new(bundle_parts::stream_group_bytes(length));
                let from = cut.take(scanner.seps());
                bundle_parts::post_streamed(job, name, &bytes, &cut, from);
                gathered = Some(Gathered { bytes, scanner, cut });
            } else if let Some(plan) = body_plan(name, &first, length, workers).filter(|_| !done) {
                let mut f = ranges::start_body(job, name, plan).map_err(|e| format!("{name}: {e}"))?;
                head.chunks().iter().for_each(|c| f.push(c.clone()));
                feed = Some(f);
            } else {
                chunks = head.chunks().to_vec();
            }
        }
        if done {
            break;
        }
    }
    if let Some(mut f) = feed {
        f.finish(Ok(()));
        ranges::body_done(job);
        return Ok(Downloaded::Fed);
    }
    Ok(match gathered {
        Some(g) => Downloaded::Bundle(g),
        None => Downloaded::Chunks(ChunkSource::new(chunks)),
    })
}

/// Appends a chunk's bytes.
fn append(bytes: &mut Vec<u8>, chunk: &Uint8Array) {
    let at = bytes.len();
    bytes.resize(at + chunk.length() as usize, 0);
    chunk.copy_to(&mut bytes[at..]);
}
