//! What an ingest worker sends the page ([`ToPage`]).

use super::read::{kind, Fields};
use super::{array_of, buffers, object, ProtocolError, RangeBytes};
use js_sys::{Array, Object, Uint8Array};
use wasm_bindgen::JsValue;

/// Ingest worker → page.
#[derive(Debug, Clone)]
pub enum ToPage {
    /// `{type:"ready", build}`: the worker runs (`build`: its build id); the writer says it too.
    Ready { build: String },
    /// `{type:"memory", bytes}`: the worker's wasm memory now, posted just before it answers a
    /// part of a job (a memory never shrinks: the page ends a worker that grew large once its job
    /// is over, `ui::ingest::pool::retire_spent`).
    Memory { bytes: u64 },
    /// `{type:"progress", job, bytes, records}`: this worker's bytes and records read so far.
    Progress { job: u32, bytes: u64, records: u64 },
    /// `{type:"plan", job, data, ranges, blob | ports}`: a large JMeter CSV is read in `ranges`
    /// ranges; `data` the plan (borsh, transferred), `bytes` where the ranges' bytes come from (a
    /// download exists only in the worker: its bytes come on ports, transferred).
    Plan { job: u32, data: Uint8Array, ranges: u32, bytes: RangeBytes },
    /// `{type:"part", job, index, data, failed}`: range `index` read (`data`: its
    /// `import::common::parallel` part, transferred), or why not (`failed`, with `data` empty).
    Part { job: u32, index: u32, data: Uint8Array, failed: Option<String> },
    /// `{type:"big", job, bundle, bytes}`: a big file of `bytes` is coming (a `bundle`: cut
    /// between workers).
    Big { job: u32, bundle: bool, bytes: u64 },
    /// `{type:"bundle-parts", job, parts, firsts, from, last}`: groups `from`, `from + 1`, … of a
    /// big bundle's runs (each `[` runs `]`, transferred), each group's first run's index in the
    /// bundle; `last`: no more groups follow.
    BundleParts { job: u32, parts: Vec<Uint8Array>, firsts: Vec<u32>, from: u32, last: bool },
    /// `{type:"runs-done", job, index, first, ids, runs}`: group `index` parsed, or `{…, failed}`
    /// (None) when it did not load cleanly.
    RunsDone { job: u32, index: u32, group: Option<LoadedGroup> },
    /// `{type:"done", job, data, runs, ms, read_ms, later}`: the answer (`wire::Pieces`: `data`
    /// its head, `runs` one array per run, all transferred). `ms`, `read_ms`: a one-worker
    /// import's timing (the ingest benchmark reads it); `later`: how many groups of a big bundle's
    /// runs were read on their own (`RunsDone`) and follow the head's runs.
    Done {
        job: u32,
        data: Uint8Array,
        runs: Vec<Uint8Array>,
        ms: Option<f64>,
        read_ms: Option<f64>,
        later: Option<u32>,
    },
    /// `{type:"error", job, message}`: the job failed; `message` is shown as it is.
    Error { job: u32, message: String },
}

/// A group of a big bundle's runs, parsed: each run in the wire's form (transferred), and its id.
#[derive(Debug, Clone)]
pub struct LoadedGroup {
    /// The group's first run's index in the bundle.
    pub first: u32,
    pub ids: Vec<String>,
    pub runs: Vec<Uint8Array>,
}

impl ToPage {
    pub fn to_js(&self) -> Object {
        let n = |n: u32| Some(JsValue::from(n));
        let big = |n: u64| Some(JsValue::from(n as f64));
        match self {
            ToPage::Ready { build } => object("ready", &[("build", Some(build.into()))]),
            ToPage::Memory { bytes } => object("memory", &[("bytes", big(*bytes))]),
            ToPage::Progress { job, bytes, records } => {
                object("progress", &[("job", n(*job)), ("bytes", big(*bytes)), ("records", big(*records))])
            }
            ToPage::Plan { job, data, ranges, bytes } => {
                let [b, p] = bytes.fields();
                object("plan", &[("job", n(*job)), ("data", Some(data.into())), ("ranges", n(*ranges)), b, p])
            }
            ToPage::Part { job, index, data, failed } => object(
                "part",
                &[
                    ("job", n(*job)),
                    ("data", Some(data.into())),
                    ("index", n(*index)),
                    ("failed", failed.as_deref().map(JsValue::from_str)),
                ],
            ),
            ToPage::Big { job, bundle, bytes } => {
                object("big", &[("job", n(*job)), ("bundle", Some((*bundle).into())), ("bytes", big(*bytes))])
            }
            ToPage::BundleParts { job, parts, firsts, from, last } => object(
                "bundle-parts",
                &[
                    ("job", n(*job)),
                    ("parts", Some(array_of(parts))),
                    ("firsts", Some(firsts.iter().map(|f| JsValue::from(*f)).collect::<Array>().into())),
                    ("from", n(*from)),
                    ("last", Some((*last).into())),
                ],
            ),
            ToPage::RunsDone { job, index, group: Some(g) } => object(
                "runs-done",
                &[
                    ("job", n(*job)),
                    ("index", n(*index)),
                    ("first", n(g.first)),
                    ("ids", Some(g.ids.iter().map(|i| JsValue::from_str(i)).collect::<Array>().into())),
                    ("runs", Some(array_of(&g.runs))),
                ],
            ),
            ToPage::RunsDone { job, index, group: None } => {
                object("runs-done", &[("job", n(*job)), ("index", n(*index)), ("failed", Some(JsValue::TRUE))])
            }
            ToPage::Done { job, data, runs, ms, read_ms, later } => object(
                "done",
                &[
                    ("job", n(*job)),
                    ("data", Some(data.into())),
                    ("runs", Some(array_of(runs))),
                    ("ms", ms.map(JsValue::from)),
                    ("read_ms", read_ms.map(JsValue::from)),
                    ("later", later.map(JsValue::from)),
                ],
            ),
            ToPage::Error { job, message } => object("error", &[("job", n(*job)), ("message", Some(message.into()))]),
        }
    }

    /// The job the message is about (every message but `Ready`).
    pub fn job(&self) -> Option<u32> {
        match self {
            ToPage::Ready { .. } | ToPage::Memory { .. } => None,
            ToPage::Progress { job, .. }
            | ToPage::Plan { job, .. }
            | ToPage::Part { job, .. }
            | ToPage::Big { job, .. }
            | ToPage::BundleParts { job, .. }
            | ToPage::RunsDone { job, .. }
            | ToPage::Done { job, .. }
            | ToPage::Error { job, .. } => Some(*job),
        }
    }

    /// The buffers posting this message transfers: every byte array it holds.
    pub fn transfer(&self) -> Array {
        match self {
            ToPage::Plan { data, bytes, .. } => {
                let list = buffers([data]);
                bytes.transfer(&list);
                list
            }
            ToPage::Part { data, .. } => buffers([data]),
            ToPage::BundleParts { parts, .. } => buffers(parts),
            ToPage::RunsDone { group: Some(g), .. } => buffers(&g.runs),
            ToPage::Done { data, runs, .. } => buffers(std::iter::once(data).chain(runs)),
            _ => Array::new(),
        }
    }

    /// Posts the message from a worker, transferring its buffers.
    pub fn post(&self, scope: &web_sys::DedicatedWorkerGlobalScope) {
        let _ = scope.post_message_with_transfer(&self.to_js(), &self.transfer());
    }

    pub fn from_js(v: &JsValue) -> Result<ToPage, ProtocolError> {
        let kind = kind(v)?;
        let message = match kind.as_str() {
            "ready" => ToPage::Ready { build: Fields::new(v, "ready").string_or_none("build").unwrap_or_default() },
            "memory" => ToPage::Memory { bytes: Fields::new(v, "memory").u64("bytes")? },
            "progress" => {
                let f = Fields::new(v, "progress");
                ToPage::Progress { job: f.job()?, bytes: f.u64("bytes")?, records: f.u64("records")? }
            }
            "plan" => {
                let f = Fields::new(v, "plan");
                ToPage::Plan {
                    job: f.job()?,
                    data: f.bytes("data")?,
                    ranges: f.u32("ranges")?,
                    bytes: f.range_bytes()?,
                }
            }
            "part" => {
                let f = Fields::new(v, "part");
                ToPage::Part {
                    job: f.job()?,
                    index: f.u32("index")?,
                    data: f.bytes("data")?,
                    failed: f.string_or_none("failed"),
                }
            }
            "big" => {
                let f = Fields::new(v, "big");
                ToPage::Big { job: f.job()?, bundle: f.bool("bundle")?, bytes: f.u64("bytes")? }
            }
            "bundle-parts" => {
                let f = Fields::new(v, "bundle-parts");
                ToPage::BundleParts {
                    job: f.job()?,
                    parts: f.byte_arrays("parts")?,
                    firsts: f.u32s("firsts")?,
                    from: f.u32("from")?,
                    last: f.bool("last")?,
                }
            }
            "runs-done" => {
                let f = Fields::new(v, "runs-done");
                let group = if f.flag("failed") {
                    None
                } else {
                    Some(LoadedGroup { first: f.u32("first")?, ids: f.strings("ids")?, runs: f.byte_arrays("runs")? })
                };
                ToPage::RunsDone { job: f.job()?, index: f.u32("index")?, group }
            }
            "done" => {
                let f = Fields::new(v, "done");
                ToPage::Done {
                    job: f.job()?,
                    data: f.bytes("data")?,
                    runs: f.byte_arrays("runs")?,
                    ms: f.number_or_none("ms"),
                    read_ms: f.number_or_none("read_ms"),
                    later: f.number_or_none("later").map(|n| n as u32),
                }
            }
            "error" => {
                let f = Fields::new(v, "error");
                ToPage::Error { job: f.job()?, message: f.string("message")? }
            }
            _ => return Err(ProtocolError::Kind(Some(kind))),
        };
        Ok(message)
    }
}
