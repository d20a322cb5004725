//! A download read in byte ranges while it arrives (`ranges::start_body`): the first worker keeps
//! the whole body as the chunks `fetch` gave (`Body`) and posts each range's bytes but the last's,
//! in batches of at least 1 MiB, on that range's `MessagePort` (transferred, so no copy crosses
//! the page) to the worker that parses it as they come (`receive`); it parses the last range
//! itself, from the `Body`, as its bytes (the last to arrive) come. Nothing
//! is glued into a `Blob` and read back: a `Blob` of thousands of chunk parts read by slices with
//! `FileReaderSync` was slow (most of a 200 MB `?src=` load) and once failed with
//! `NotReadableError` (decision 0059).

use super::chunk_source::ChunkSource;
use super::stream::Arrivals;
use crate::bundle::{LoadError, LoadErrorKind};
use crate::import::common::parallel::Plan;
use crate::import::jmeter::csv::first_record_start;
use crate::import::HEAD_BYTES;
use js_sys::Uint8Array;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, MessagePort};

/// A later range's bytes are posted in batches of at least this many bytes.
const BATCH_BYTES: u32 = 1 << 20;
/// A range's worker gets this many bytes past the range's end for its last record; a longer last
/// record fails the range, which the first worker then reads again (`parallel::settle`).
const TAIL_BYTES: u64 = 1 << 20;

/// Bytes of a file from offset `base` on, as they arrive; `end`: whether they are all in, and
/// whether they reach the file's end (`eof`) or stop short of it (a later range's bytes).
#[derive(Default)]
struct State {
    base: u64,
    chunks: Vec<Uint8Array>,
    /// Where each chunk starts (absolute offsets).
    starts: Vec<u64>,
    size: u64,
    end: Option<Result<bool, String>>,
    /// Bumped on every change; the parser's wait ends when it moves.
    version: u64,
    waker: Option<Waker>,
}

/// Arriving bytes, shared by what receives them and what parses them.
#[derive(Clone, Default)]
pub(super) struct Body(Rc<RefCell<State>>);

impl Body {
    fn from(base: u64) -> Body {
        let body = Body::default();
        body.0.borrow_mut().base = base;
        body
    }

    fn changed(&self) {
        let mut s = self.0.borrow_mut();
        s.version += 1;
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    }

    pub(super) fn push(&self, chunk: Uint8Array) {
        {
            let mut s = self.0.borrow_mut();
            let at = s.base + s.size;
            s.size += u64::from(chunk.length());
            s.starts.push(at);
            s.chunks.push(chunk);
        }
        self.changed();
    }

    /// No more bytes: `Ok(eof)`, or why they stopped.
    pub(super) fn end(&self, end: Result<bool, String>) {
        self.0.borrow_mut().end.get_or_insert(end);
        self.changed();
    }

    pub(super) fn is_complete(&self) -> bool {
        matches!(self.0.borrow().end, Some(Ok(_)))
    }

    /// The whole body (the first worker's, from offset 0) for reading again (`parallel::settle`).
    pub(super) fn source(&self) -> ChunkSource {
        ChunkSource::new(self.0.borrow().chunks.clone())
    }

    /// Waits until something changed.
    async fn wait(&self) {
        let seen = self.0.borrow().version;
        WaitChange { body: self, seen }.await
    }

    /// The bytes from `at` to the end of the chunk holding it (`None`: not arrived yet).
    fn view_from(&self, at: u64) -> Option<Uint8Array> {
        let s = self.0.borrow();
        let i = s.starts.partition_point(|&st| st <= at).checked_sub(1)?;
        let (chunk, start) = (s.chunks.get(i)?, s.starts.get(i)?);
        let from = u32::try_from(at - start).ok()?;
        (from < chunk.length()).then(|| chunk.subarray(from, chunk.length()))
    }

    /// Awaits the bytes at `at`: `None` at the end of the file; an error where the bytes stopped
    /// short of it (or broke off).
    async fn next_from(&self, name: &str, at: u64) -> Result<Option<Uint8Array>, LoadError> {
        loop {
            if let Some(v) = self.view_from(at) {
                return Ok(Some(v));
            }
            let end = self.0.borrow().end.clone();
            match end {
                Some(Ok(true)) => return Ok(None),
                Some(Ok(false)) => {
                    return Err(LoadError::new(LoadErrorKind::Io, name, "a range ran past the bytes it was given"))
                }
                Some(Err(why)) => return Err(LoadError::new(LoadErrorKind::Io, name, why)),
                None => self.wait().await,
            }
        }
    }

    /// Up to `len` bytes from `at`, once they are in (fewer at the end of the file).
    async fn read(&self, name: &str, mut at: u64, len: usize) -> Result<Vec<u8>, LoadError> {
        let mut out = Vec::with_capacity(len);
        while out.len() < len {
            let Some(v) = self.next_from(name, at).await? else { break };
            let n = (v.length() as usize).min(len - out.len());
            let from = out.len();
            out.resize(from + n, 0);
            v.subarray(0, n as u32).copy_to(&mut out[from..]);
            at += n as u64;
        }
        Ok(out)
    }

    /// Where range `index` of `plan` starts its first record and where it ends, as
    /// `parallel::range_bounds` says, from the bytes as they arrive.
    pub(super) async fn range_bounds(&self, name: &str, plan: &Plan, index: usize) -> Result<(u64, u64), LoadError> {
        let (start, end) = plan.ranges.get(index).copied().unwrap_or((0, 0));
        if index == 0 {
            // A byte order mark is not part of the first record.
            let bom = self.read(name, 0, 3).await? == b"\xEF\xBB\xBF";
            return Ok((if bom { 3 } else { 0 }, end));
        }
        let mut at = start.saturating_sub(1);
        loop {
            let probe = self.read(name, at, HEAD_BYTES).await?;
            if probe.is_empty() {
                return Ok((at, end));
            }
            if let Some(p) = first_record_start(at + 1, &probe) {
                return Ok((p, end));
            }
            at += probe.len() as u64;
        }
    }
}

struct WaitChange<'a> {
    body: &'a Body,
    seen: u64,
}

impl Future for WaitChange<'_> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut s = self.body.0.borrow_mut();
        if s.version != self.seen {
            return Poll::Ready(());
        }
        s.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// A range's bytes from a `Body`, from `at` on. `downloading`: the body is this worker's own
/// download, whose chunks arrive only while the parser lets them (see `pause`).
pub(super) struct BodyArrivals<'a> {
    pub name: &'a str,
    pub body: &'a Body,
    pub at: u64,
    pub downloading: bool,
}

impl Arrivals for BodyArrivals<'_> {
    async fn next(&mut self) -> Result<Option<Uint8Array>, LoadError> {
        let v = self.body.next_from(self.name, self.at).await?;
        self.at += v.as_ref().map_or(0, |v| u64::from(v.length()));
        Ok(v)
    }

    /// While the download runs, the first worker's parser gives way after every block of
    /// records, so that the chunks that came meanwhile are taken (and any bytes still owed to
    /// the other ranges posted on): a body stream is read only as fast as it is asked for.
    async fn pause(&mut self) {
        if self.downloading && self.body.0.borrow().end.is_none() {
            next_task().await;
        }
    }
}

/// Resumes in a task of its own, after the tasks queued before it (the download's chunks): a
/// message to this worker itself, which, unlike a nested `setTimeout(0)`, is not held back 4 ms.
async fn next_task() {
    thread_local! {
        static CHANNEL: Option<web_sys::MessageChannel> = web_sys::MessageChannel::new().ok();
    }
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        CHANNEL.with(|c| match c {
            Some(c) => {
                c.port2().set_onmessage(Some(&resolve));
                let _ = c.port1().post_message(&JsValue::NULL);
            }
            None => {
                let _ = resolve.call0(&JsValue::NULL);
            }
        })
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A range's bytes on their way to its worker: its port, the window of the file it gets, and the
/// batch not yet posted.
struct Outlet {
    port: MessagePort,
    from: u64,
    to: u64,
    batch: Vec<Uint8Array>,
    batched: u32,
}

impl Outlet {
    fn post(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let out = Uint8Array::new_with_length(self.batched);
        let mut at = 0;
        for piece in self.batch.drain(..) {
            out.set(&piece, at);
            at += piece.length();
        }
        self.batched = 0;
        let _ = self.port.post_message_with_transferable(&out, &js_sys::Array::of1(&out.buffer()));
    }
}

/// The first worker's side of a download read in ranges: each chunk goes into its `Body` (its own
/// range, the last, and any reading again) and, cut to each other range's window, to that
/// range's port.
pub(super) struct Feed {
    pub body: Body,
    outlets: Vec<Outlet>,
}

impl Feed {
    /// A feed for `plan`'s ranges, and the ports the other workers receive on: port `i` carries
    /// range `i`, for every range but the last (the first worker's own: its bytes arrive last, so
    /// parsing them as they come holds back no other range's).
    pub(super) fn new(plan: &Plan) -> Result<(Feed, Vec<MessagePort>), String> {
        let (mut outlets, mut ports) = (Vec::new(), Vec::new());
        let last = plan.ranges.len().saturating_sub(1);
        for &(start, end) in plan.ranges.iter().take(last) {
            let channel =
                web_sys::MessageChannel::new().map_err(|_| "no MessageChannel in this browser".to_string())?;
            // From one byte before the range (its first record's boundary; range 0 from the file's
            // start) to past its end (its last record).
            let (from, to) = (start.saturating_sub(1), end.saturating_add(TAIL_BYTES));
            outlets.push(Outlet { port: channel.port1(), from, to, batch: Vec::new(), batched: 0 });
            ports.push(channel.port2());
        }
        Ok((Feed { body: Body::from(0), outlets }, ports))
    }

    pub(super) fn push(&mut self, chunk: Uint8Array) {
        let (a, b) = {
            let s = self.body.0.borrow();
            (s.size, s.size + u64::from(chunk.length()))
        };
        for o in &mut self.outlets {
            let (lo, hi) = (a.max(o.from), b.min(o.to));
            if lo < hi {
                o.batch.push(chunk.subarray((lo - a) as u32, (hi - a) as u32));
                o.batched += (hi - lo) as u32;
                if o.batched >= BATCH_BYTES {
                    o.post();
                }
            }
        }
        self.body.push(chunk);
    }

    /// The download ended (`Ok`) or broke off: every range hears of it.
    pub(super) fn finish(&mut self, end: Result<(), String>) {
        let size = self.body.0.borrow().size;
        for o in &mut self.outlets {
            o.post();
            // Its bytes reach the file's end, or stop short of it (a failed download: short).
            let eof = end.is_ok() && size <= o.to;
            let _ = o.port.post_message(&JsValue::from_bool(eof));
            o.port.close();
        }
        self.outlets.clear();
        self.body.end(end.map(|()| true));
    }
}

impl Drop for Feed {
    /// A download dropped before it finished (an error on the way) fails the ranges waiting on it.
    fn drop(&mut self) {
        if !self.outlets.is_empty() || self.body.0.borrow().end.is_none() {
            self.finish(Err("the download broke off".into()));
        }
    }
}

/// The receiving side of a range's port: a `Body` from the range's window's start, filled as
/// the byte arrays arrive, ended by `true` (its bytes reach the file's end) or `false`.
pub(super) fn receive(port: &MessagePort, plan: &Plan, index: usize) -> Body {
    let from = plan.ranges.get(index).map_or(0, |r| r.0.saturating_sub(1));
    let body = Body::from(from);
    // The handler holds the body weakly: once the range is parsed, its bytes go.
    let weak: Weak<RefCell<State>> = Rc::downgrade(&body.0);
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let Some(state) = weak.upgrade() else { return };
        let body = Body(state);
        let data = e.data();
        match data.dyn_into::<Uint8Array>() {
            Ok(bytes) => body.push(bytes),
            Err(other) => body.end(Ok(other.as_bool().unwrap_or(false))),
        }
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    body
}
