//! A byte range of a `Blob` parsed while its next slices are still being read: the worker asks
//! for slices with `Blob.arrayBuffer()` a few ahead of the parser (`jmeter_csv::RangeReader`),
//! which steps through what has arrived, so reading the file overlaps parsing it. With
//! `FileReaderSync` (`blob_source.rs`) the two took turns: reading 200 MB took 0.46 s of a 1.4 s
//! one-worker ingest, on top of the parsing.

use crate::bundle::LoadError;
use crate::import::jmeter_csv::{Part, RangeReader, Step};
use crate::import::parallel::{self, Plan};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Read;
use std::rc::Rc;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

/// Bytes per read of the range itself; past its end (the last record runs over it) reads are small.
const SLICE_BYTES: u64 = 8 << 20;
const TAIL_BYTES: u64 = 64 << 10;
/// Reads in flight while the parser works.
const AHEAD: usize = 3;

/// Slices that have arrived, in file order.
#[derive(Default)]
struct Queue {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes of the front chunk already read.
    at: usize,
    /// No slice will follow.
    done: bool,
}

/// The parser's input: what has arrived, then `WouldBlock` until more does (the parser steps
/// again once it has), then the end.
struct QueueReader(Rc<RefCell<Queue>>);

impl Read for QueueReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut q = self.0.borrow_mut();
        loop {
            let Some(front) = q.chunks.front() else {
                return if q.done { Ok(0) } else { Err(std::io::ErrorKind::WouldBlock.into()) };
            };
            let at = q.at;
            if at >= front.len() {
                q.chunks.pop_front();
                q.at = 0;
                continue;
            }
            let n = buf.len().min(front.len() - at);
            buf[..n].copy_from_slice(&front[at..at + n]);
            q.at += n;
            return Ok(n);
        }
    }
}

/// How long a range waited for the file, and how long it took in all (ms).
#[derive(Debug, Default, Clone, Copy)]
pub struct Timing {
    pub waited_ms: f64,
    pub total_ms: f64,
}

fn read_err(name: &str, e: wasm_bindgen::JsValue) -> LoadError {
    let why = e.as_string().or_else(|| js_sys::Reflect::get(&e, &"message".into()).ok()?.as_string()).unwrap_or_default();
    LoadError {
        kind: crate::bundle::LoadErrorKind::Io,
        source: name.into(),
        path: None,
        line: None,
        column: None,
        message: format!("the file could not be read ({why})"),
    }
}

/// Aggregates range `index` of `plan` over `blob` (`parallel::read_range`, with reads ahead).
/// `on_progress` is told the range's bytes read (at most its length: the last record runs past
/// it) and records so far, after each slice and every 65,536 records.
pub async fn read_range(name: &str, blob: &Blob, plan: &Plan, index: usize, on_progress: &dyn Fn(u64, u64), timing: &mut Timing) -> Result<Part, LoadError> {
    let t0 = js_sys::Date::now();
    let src = super::blob_source::BlobSource { blob: blob.clone() };
    let (first, end) = parallel::range_bounds(name, &src, plan, index)?;
    if first >= end && index > 0 {
        return Ok(Part::empty_at(first));
    }
    let size = blob.size() as u64;
    let queue = Rc::new(RefCell::new(Queue::default()));
    let mut reader = RangeReader::new(plan.layout.clone(), QueueReader(queue.clone()), first, Some(end), index == 0 && plan.layout.header);
    let mut next = first;
    let mut inflight: VecDeque<JsFuture> = VecDeque::new();
    // Asks for the next slice: up to the range's end in big slices, then small ones.
    let ask = |next: &mut u64, inflight: &mut VecDeque<JsFuture>| -> Result<(), LoadError> {
        if *next >= size {
            return Ok(());
        }
        let stop = if *next < end { (*next + SLICE_BYTES).min(end) } else { (*next + TAIL_BYTES).min(size) };
        let part = blob.slice_with_f64_and_f64(*next as f64, stop as f64).map_err(|e| read_err(name, e))?;
        inflight.push_back(JsFuture::from(part.array_buffer()));
        *next = stop;
        Ok(())
    };
    while inflight.len() < AHEAD && next < end {
        ask(&mut next, &mut inflight)?;
    }
    let (bytes_read, records) = (std::cell::Cell::new(0u64), std::cell::Cell::new(0u64));
    let mut on_records = |n: u64| {
        records.set(n);
        on_progress(bytes_read.get(), n);
    };
    loop {
        match reader.step(&mut on_records).map_err(|e| parallel::syntax_err(name, e))? {
            Step::More => {}
            Step::Done => break,
            Step::Starved => {
                if inflight.is_empty() {
                    ask(&mut next, &mut inflight)?;
                }
                let Some(read) = inflight.pop_front() else {
                    queue.borrow_mut().done = true;
                    continue;
                };
                let w0 = js_sys::Date::now();
                let buf = read.await.map_err(|e| read_err(name, e))?;
                timing.waited_ms += js_sys::Date::now() - w0;
                let bytes = js_sys::Uint8Array::new(&buf).to_vec();
                bytes_read.set((bytes_read.get() + bytes.len() as u64).min(end - first));
                on_progress(bytes_read.get(), records.get());
                queue.borrow_mut().chunks.push_back(bytes);
                while inflight.len() < AHEAD && next < end {
                    ask(&mut next, &mut inflight)?;
                }
            }
        }
    }
    timing.total_ms += js_sys::Date::now() - t0;
    Ok(reader.finish())
}
