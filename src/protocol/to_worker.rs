//! What the page sends an ingest worker ([`ToWorker`]).

use super::read::{kind, Fields};
use super::{buffers, object, ProtocolError, RangeBytes};
use js_sys::{Array, Object, Uint8Array};
use wasm_bindgen::JsValue;
use web_sys::Blob;

/// Page → ingest worker.
#[derive(Debug, Clone)]
pub enum ToWorker {
    /// `{type:"import", job, name, blob, workers}`: read a file (or pasted text); `workers`: how
    /// many workers may share it.
    Import { job: u32, name: String, blob: Blob, workers: u32 },
    /// `{type:"fetch", job, name, url, workers}`: download an absolute http(s) URL and read it.
    Fetch { job: u32, name: String, url: String, workers: u32 },
    /// `{type:"range", job, name, blob | ports, plan, index}`: read range `index` of the first
    /// worker's `plan` (borsh, `import::common::parallel::Plan`) from `bytes` (the file, or the
    /// range's port, transferred). The plan is copied, not transferred (each worker gets its own).
    Range { job: u32, name: String, bytes: RangeBytes, plan: Uint8Array, index: u32 },
    /// `{type:"part", job, index, data, failed}`: another worker's [`super::ToPage::Part`],
    /// forwarded to the first worker (`data` transferred).
    Part { job: u32, index: u32, data: Uint8Array, failed: Option<String> },
    /// `{type:"runs", job, index, first, data}`: parse group `index` of a big bundle's runs
    /// (`data`: `[` the runs `]`, transferred; `first`: the first run's index in the bundle).
    Runs { job: u32, index: u32, first: u32, data: Uint8Array },
    /// `{type:"runs-done", job, index, ids, failed}`: another worker's answer to `Runs`, without
    /// its runs, forwarded to the first worker: the group's run ids, or None (`failed`) when it did
    /// not load cleanly.
    RunsDone { job: u32, index: u32, ids: Option<Vec<String>> },
    /// `{type:"warm"}`: warm up the bundle path (a big bundle is coming).
    Warm,
}

impl ToWorker {
    pub fn to_js(&self) -> Object {
        let s = |s: &str| Some(JsValue::from_str(s));
        let n = |n: u32| Some(JsValue::from(n));
        match self {
            ToWorker::Import { job, name, blob, workers } => object(
                "import",
                &[("job", n(*job)), ("name", s(name)), ("blob", Some(blob.into())), ("workers", n(*workers))],
            ),
            ToWorker::Fetch { job, name, url, workers } => {
                object("fetch", &[("job", n(*job)), ("name", s(name)), ("url", s(url)), ("workers", n(*workers))])
            }
            ToWorker::Range { job, name, bytes, plan, index } => {
                let [b, p] = bytes.fields();
                object(
                    "range",
                    &[("job", n(*job)), ("name", s(name)), b, p, ("plan", Some(plan.into())), ("index", n(*index))],
                )
            }
            ToWorker::Part { job, index, data, failed } => object(
                "part",
                &[
                    ("job", n(*job)),
                    ("index", n(*index)),
                    ("data", Some(data.into())),
                    ("failed", failed.as_deref().and_then(s)),
                ],
            ),
            ToWorker::Runs { job, index, first, data } => object(
                "runs",
                &[("job", n(*job)), ("index", n(*index)), ("first", n(*first)), ("data", Some(data.into()))],
            ),
            ToWorker::RunsDone { job, index, ids } => object(
                "runs-done",
                &[
                    ("job", n(*job)),
                    ("index", n(*index)),
                    ("ids", ids.as_ref().map(|ids| ids.iter().map(|i| JsValue::from_str(i)).collect::<Array>().into())),
                    ("failed", ids.is_none().then_some(JsValue::TRUE)),
                ],
            ),
            ToWorker::Warm => object("warm", &[]),
        }
    }

    /// The buffers posting this message transfers.
    pub fn transfer(&self) -> Array {
        match self {
            ToWorker::Part { data, .. } | ToWorker::Runs { data, .. } => buffers([data]),
            ToWorker::Range { bytes, .. } => {
                let list = Array::new();
                bytes.transfer(&list);
                list
            }
            _ => Array::new(),
        }
    }

    pub fn from_js(v: &JsValue) -> Result<ToWorker, ProtocolError> {
        let kind = kind(v)?;
        let message = match kind.as_str() {
            "import" => {
                let f = Fields::new(v, "import");
                ToWorker::Import {
                    job: f.job()?,
                    name: f.string("name")?,
                    blob: f.handle("blob", "a Blob")?,
                    workers: f.u32("workers")?,
                }
            }
            "fetch" => {
                let f = Fields::new(v, "fetch");
                ToWorker::Fetch {
                    job: f.job()?,
                    name: f.string("name")?,
                    url: f.string("url")?,
                    workers: f.u32("workers")?,
                }
            }
            "range" => {
                let f = Fields::new(v, "range");
                ToWorker::Range {
                    job: f.job()?,
                    name: f.string("name")?,
                    bytes: f.range_bytes()?,
                    plan: f.bytes("plan")?,
                    index: f.u32("index")?,
                }
            }
            "part" => {
                let f = Fields::new(v, "part");
                ToWorker::Part {
                    job: f.job()?,
                    index: f.u32("index")?,
                    data: f.bytes("data")?,
                    failed: f.string_or_none("failed"),
                }
            }
            "runs" => {
                let f = Fields::new(v, "runs");
                ToWorker::Runs { job: f.job()?, index: f.u32("index")?, first: f.u32("first")?, data: f.bytes("data")? }
            }
            "runs-done" => {
                let f = Fields::new(v, "runs-done");
                // A group whose ids do not read did not load cleanly either.
                let ids = if f.flag("failed") { None } else { f.strings("ids").ok() };
                ToWorker::RunsDone { job: f.job()?, index: f.u32("index")?, ids }
            }
            "warm" => ToWorker::Warm,
            _ => return Err(ProtocolError::Kind(Some(kind))),
        };
        Ok(message)
    }
}
