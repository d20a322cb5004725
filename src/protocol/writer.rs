//! What the page and the writer (`worker::write`) send each other ([`ToWriter`], [`FromWriter`]).

use super::read::{kind, Fields};
use super::{array_of, buffers, object, ProtocolError};
use js_sys::{Array, Object, Uint8Array};
use wasm_bindgen::JsValue;

/// Page → writer.
#[derive(Debug, Clone)]
pub enum ToWriter {
    /// `{type:"write", job, data}`: a `wire::write` request (transferred).
    Write { job: u32, data: Uint8Array },
}

/// Writer → page.
#[derive(Debug, Clone)]
pub enum FromWriter {
    /// `{type:"ready", build}`, as every ingest worker says it ([`super::ToPage::Ready`]).
    Ready { build: String },
    /// `{type:"memory", bytes}`: the writer's wasm memory, posted just before an answer (as an
    /// ingest worker posts [`super::ToPage::Memory`]; the page ends a writer that grew large).
    Memory { bytes: u64 },
    /// `{type:"written", job, …}`: the answer to request `job`.
    Written { job: u32, answer: Written },
    /// `{type:"error", job, message}`: request `job` failed (also made on the page when the
    /// writer dies); `message` is shown as it is.
    Error { job: u32, message: String },
}

/// The fields of a `written` answer, by what was asked (`wire::write::Answer`); every byte array is
/// transferred.
#[derive(Debug, Clone)]
pub enum Written {
    /// `{json}`: each bundle as UTF-8 JSON text.
    Json(Vec<Uint8Array>),
    /// `{data, runs, json}`: the merged bundle in pieces, as an import's answer (`wire::Pieces`),
    /// and its JSON (an array of one text). `data` is empty, and `runs` too, when the bundle is
    /// the one the page already shows (`wire::write::Answer::Shown`).
    Merged { data: Uint8Array, runs: Vec<Uint8Array>, json: Vec<Uint8Array> },
    /// `{fragment}`: the fragment of a link that carries the bundle.
    Fragment(String),
    /// `{size}`: the size of the bundle's gzip JSON, too big for a link.
    Size(u64),
}

impl ToWriter {
    pub fn to_js(&self) -> Object {
        let ToWriter::Write { job, data } = self;
        object("write", &[("job", Some((*job).into())), ("data", Some(data.into()))])
    }

    pub fn transfer(&self) -> Array {
        let ToWriter::Write { data, .. } = self;
        buffers([data])
    }

    pub fn from_js(v: &JsValue) -> Result<ToWriter, ProtocolError> {
        match kind(v)?.as_str() {
            "write" => {
                let f = Fields::new(v, "write");
                Ok(ToWriter::Write { job: f.job()?, data: f.bytes("data")? })
            }
            other => Err(ProtocolError::Kind(Some(other.into()))),
        }
    }
}

impl FromWriter {
    pub fn to_js(&self) -> Object {
        let n = |n: u32| Some(JsValue::from(n));
        match self {
            FromWriter::Ready { build } => object("ready", &[("build", Some(build.into()))]),
            FromWriter::Memory { bytes } => object("memory", &[("bytes", Some((*bytes as f64).into()))]),
            FromWriter::Written { job, answer } => match answer {
                Written::Json(json) => object("written", &[("job", n(*job)), ("json", Some(array_of(json)))]),
                Written::Merged { data, runs, json } => object(
                    "written",
                    &[
                        ("job", n(*job)),
                        ("data", Some(data.into())),
                        ("runs", Some(array_of(runs))),
                        ("json", Some(array_of(json))),
                    ],
                ),
                Written::Fragment(f) => object("written", &[("job", n(*job)), ("fragment", Some(f.into()))]),
                Written::Size(size) => object("written", &[("job", n(*job)), ("size", Some((*size as f64).into()))]),
            },
            FromWriter::Error { job, message } => {
                object("error", &[("job", n(*job)), ("message", Some(message.into()))])
            }
        }
    }

    pub fn transfer(&self) -> Array {
        match self {
            FromWriter::Written { answer: Written::Json(json), .. } => buffers(json),
            FromWriter::Written { answer: Written::Merged { data, runs, json }, .. } => {
                buffers(json.iter().chain([data]).chain(runs))
            }
            _ => Array::new(),
        }
    }

    pub fn from_js(v: &JsValue) -> Result<FromWriter, ProtocolError> {
        let kind = kind(v)?;
        let message = match kind.as_str() {
            "ready" => FromWriter::Ready { build: Fields::new(v, "ready").string_or_none("build").unwrap_or_default() },
            "memory" => FromWriter::Memory { bytes: Fields::new(v, "memory").u64("bytes")? },
            "written" => {
                let f = Fields::new(v, "written");
                // Which answer it is, by its fields.
                let answer = if let Some(fragment) = f.string_or_none("fragment") {
                    Written::Fragment(fragment)
                } else if let Some(size) = f.number_or_none("size") {
                    Written::Size(size as u64)
                } else if f.flag("data") {
                    Written::Merged {
                        data: f.bytes("data")?,
                        runs: f.byte_arrays("runs")?,
                        json: f.byte_arrays("json")?,
                    }
                } else {
                    Written::Json(f.byte_arrays("json")?)
                };
                FromWriter::Written { job: f.job()?, answer }
            }
            "error" => {
                let f = Fields::new(v, "error");
                FromWriter::Error { job: f.job()?, message: f.string("message")? }
            }
            _ => return Err(ProtocolError::Kind(Some(kind))),
        };
        Ok(message)
    }
}
