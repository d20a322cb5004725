//! A byte range of a `Blob` parsed while the browser reads the next bytes: the range is read as a
//! stream with a BYOB reader into one reused 1 MiB buffer, and the parser
//! (`jmeter::csv::RangeReader`) steps through what has arrived and asks for more when it runs dry
//! (`Step::Starved`). The browser fills the stream's pipe while the parser works, so reading
//! overlaps parsing; one buffer is used over and over, so no garbage ArrayBuffers pile up.
//! With `FileReaderSync` (`blob_source.rs`) the two took turns: 0.46 s of a 1.4 s one-worker
//! ingest of 200 MB was reading.

use crate::bundle::LoadError;
use crate::import::common::parallel::{self, Plan};
use crate::import::jmeter::csv::{Part, RangeReader, Step};
use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use std::cell::{Cell, RefCell};
use std::io::Read;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStreamByobReader, ReadableStreamGetReaderOptions, ReadableStreamReaderMode};

/// The stream's buffer (measured in Chromium: 1 MiB and 8 MiB read a 200 MB file equally fast).
const CHUNK_BYTES: u32 = 1 << 20;
/// Past the range's end only its last record is read, in small reads.
const TAIL_BYTES: u64 = 64 << 10;

/// Bytes that arrived and are not parsed yet: a view of the stream's buffer, which is read again
/// only once this is used up.
#[derive(Default)]
struct Arrived {
    view: Option<Uint8Array>,
    at: u32,
    /// No bytes will follow.
    done: bool,
}

/// The parser's input: what has arrived, then `WouldBlock` until more does (the parser steps
/// again once it has), then the end. Bytes go straight from the browser's buffer into the
/// splitter's, with no copy between.
struct ArrivedReader(Rc<RefCell<Arrived>>);

impl Read for ArrivedReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut a = self.0.borrow_mut();
        let Some(view) = &a.view else {
            return if a.done { Ok(0) } else { Err(std::io::ErrorKind::WouldBlock.into()) };
        };
        let len = view.length();
        let n = len.saturating_sub(a.at).min(u32::try_from(buf.len()).unwrap_or(u32::MAX));
        // `copy_to` needs the lengths equal: `n` bytes into `n` bytes.
        view.subarray(a.at, a.at + n).copy_to(&mut buf[..n as usize]);
        a.at += n;
        if a.at >= len {
            a.view = None;
            a.at = 0;
        }
        Ok(n as usize)
    }
}

/// How long a range waited for the file, and how long it took in all (ms).
#[derive(Debug, Default, Clone, Copy)]
pub struct Timing {
    pub waited_ms: f64,
    pub total_ms: f64,
}

fn read_err(name: &str, e: wasm_bindgen::JsValue) -> LoadError {
    let why =
        e.as_string().or_else(|| js_sys::Reflect::get(&e, &"message".into()).ok()?.as_string()).unwrap_or_default();
    LoadError::new(crate::bundle::LoadErrorKind::Io, name, format!("the file could not be read ({why})"))
}

/// Where a range's bytes come from while it is parsed: each call gives the next bytes that
/// arrived (awaiting them), `None` at the end of the file.
pub(super) trait Arrivals {
    async fn next(&mut self) -> Result<Option<Uint8Array>, LoadError>;
    /// Called between blocks of records: lets the worker's other work run (a download's next
    /// chunks) when it has some.
    async fn pause(&mut self) {}
}

/// A range of a `Blob`: read as a stream with a BYOB reader into one reused buffer, then, past
/// the range's end, its last record in small reads.
struct BlobArrivals<'a> {
    name: &'a str,
    blob: &'a Blob,
    stream: ReadableStreamByobReader,
    buffer: ArrayBuffer,
    streaming: bool,
    tail: u64,
}

impl Arrivals for BlobArrivals<'_> {
    async fn next(&mut self) -> Result<Option<Uint8Array>, LoadError> {
        let name = self.name;
        if self.streaming {
            let view = Uint8Array::new_with_byte_offset_and_length(&self.buffer, 0, CHUNK_BYTES);
            let read =
                JsFuture::from(self.stream.read_with_array_buffer_view(&view)).await.map_err(|e| read_err(name, e))?;
            if !Reflect::get(&read, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
                let value: Uint8Array =
                    Reflect::get(&read, &"value".into()).map_err(|e| read_err(name, e))?.unchecked_into();
                self.buffer = value.buffer();
                return Ok(Some(value));
            }
            self.streaming = false;
        }
        let size = self.blob.size() as u64;
        if self.tail >= size {
            return Ok(None);
        }
        // The range's last record runs past its end: read on in small steps.
        let stop = (self.tail + TAIL_BYTES).min(size);
        let part = self.blob.slice_with_f64_and_f64(self.tail as f64, stop as f64).map_err(|e| read_err(name, e))?;
        let bytes = JsFuture::from(part.array_buffer()).await.map_err(|e| read_err(name, e))?;
        self.tail = stop;
        Ok(Some(Uint8Array::new(&bytes)))
    }
}

/// Aggregates range `index` of `plan` over `blob` (`parallel::read_range`, reading while parsing).
/// `on_progress` is told the range's bytes read (at most its length: the last record runs past
/// it) and records so far, after each read and every 65,536 records.
pub async fn read_range(
    name: &str,
    blob: &Blob,
    plan: &Plan,
    index: usize,
    on_progress: &dyn Fn(u64, u64),
    timing: &mut Timing,
) -> Result<Part, LoadError> {
    let t0 = js_sys::Date::now();
    let src = super::blob_source::BlobSource { blob: blob.clone() };
    let (first, end) = parallel::range_bounds(name, &src, plan, index)?;
    if first >= end && index > 0 {
        return Ok(Part::empty_at(first));
    }
    let range = blob.slice_with_f64_and_f64(first as f64, end.max(first) as f64).map_err(|e| read_err(name, e))?;
    let options = ReadableStreamGetReaderOptions::new();
    options.set_mode(ReadableStreamReaderMode::Byob);
    let stream: ReadableStreamByobReader = range.stream().get_reader_with_options(&options).unchecked_into();
    let mut arrivals = BlobArrivals {
        name,
        blob,
        stream: stream.clone(),
        buffer: ArrayBuffer::new(CHUNK_BYTES),
        streaming: true,
        tail: end.max(first),
    };
    let part = parse(name, plan, index, (first, end), &mut arrivals, on_progress, timing).await;
    if arrivals.streaming {
        // The range ended before its bytes did (a later record starts past the limit).
        let _ = stream.cancel();
    }
    timing.total_ms += js_sys::Date::now() - t0;
    part
}

/// Aggregates range `index` of `plan`, from `first` (its first record) to `end`, from the bytes
/// `arrivals` gives (starting at `first`), parsing what has arrived while more arrives.
pub(super) async fn parse(
    name: &str,
    plan: &Plan,
    index: usize,
    (first, end): (u64, u64),
    arrivals: &mut impl Arrivals,
    on_progress: &dyn Fn(u64, u64),
    timing: &mut Timing,
) -> Result<Part, LoadError> {
    let arrived = Rc::new(RefCell::new(Arrived::default()));
    let mut parser = RangeReader::new(
        plan.layout.clone(),
        ArrivedReader(arrived.clone()),
        first,
        Some(end),
        index == 0 && plan.layout.header,
    );
    let (bytes_read, records) = (Cell::new(0u64), Cell::new(0u64));
    let mut on_records = |n: u64| {
        records.set(n);
        on_progress(bytes_read.get(), n);
    };
    loop {
        match parser.step(&mut on_records).map_err(|e| parallel::syntax_err(name, e))? {
            Step::More => arrivals.pause().await,
            Step::Done => break,
            Step::Starved => {
                let w0 = js_sys::Date::now();
                let next = arrivals.next().await?;
                timing.waited_ms += js_sys::Date::now() - w0;
                match next {
                    // (A stream never gives an empty chunk; one would read as the end of the file.)
                    Some(view) if view.length() > 0 => {
                        let n = u64::from(view.length());
                        bytes_read.set((bytes_read.get() + n).min(end.saturating_sub(first)));
                        *arrived.borrow_mut() = Arrived { view: Some(view), at: 0, done: false };
                        on_progress(bytes_read.get(), records.get());
                    }
                    Some(_) => {}
                    None => arrived.borrow_mut().done = true,
                }
            }
        }
    }
    Ok(parser.finish())
}
