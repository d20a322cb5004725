//! The messages between the page and the workers of the `ingest` binary, one enum per direction
//! and per kind of worker; nothing else builds or reads a message object. Each message is a plain
//! JS object `{type, job, …}` (`to_js`, read back by `from_js`), so that its `Blob`s and byte
//! arrays pass by structured clone, and its byte arrays' buffers are transferred (`transfer`),
//! never copied.
//!
//! **Ingest workers** (`ui::ingest` ↔ `worker`; `ingest`):
//! - A worker starts by posting [`ToPage::Ready`]; the page queues what it sends a worker until then.
//! - The page runs one job at a time: [`ToWorker::Import`] (a `Blob`) or [`ToWorker::Fetch`] (a
//!   URL) to the first worker. The worker answers [`ToPage::Progress`] now and then, and ends with
//!   [`ToPage::Done`] (the answer in `wire::Pieces`: its head, and one array per run, read on the
//!   page one run at a time, `ui::ingest_read`) or [`ToPage::Error`].
//! - A big file: [`ToPage::Big`] first, so the page starts the other workers (and, for a bundle,
//!   sends them [`ToWorker::Warm`]) and takes heap room for a bundle's runs.
//! - A large JMeter CSV read in ranges: [`ToPage::Plan`]; the page sends [`ToWorker::Range`] 1..
//!   to the other workers, each answers [`ToPage::Part`], which the page forwards to the first
//!   worker as [`ToWorker::Part`]; the first worker merges and posts [`ToPage::Done`]. The ranges'
//!   bytes ([`RangeBytes`]): a file's `Blob`, which every worker reads; or, a download, one
//!   `MessagePort` per range but the last (transferred), on which the first worker posts that
//!   range's bytes as they arrive (`worker::feed`), so that they are parsed while the rest
//!   downloads; the first worker reads the last range itself.
//! - A big bundle cut into groups of runs (`worker::bundle_parts`): [`ToPage::BundleParts`], more
//!   of them while it downloads; the page hands each group to the worker with the fewest bytes
//!   still to parse as [`ToWorker::Runs`], reads each answer, [`ToPage::RunsDone`], at once and
//!   forwards it without its runs to the first worker ([`ToWorker::RunsDone`]), whose
//!   [`ToPage::Done`] then says how many groups were read on their own (`later`).
//! - Cancelling is `Worker.terminate()`, not a message.
//! - Before each answer ([`ToPage::Part`], [`ToPage::RunsDone`], [`ToPage::Done`],
//!   [`ToPage::Error`]) a worker posts [`ToPage::Memory`], its wasm memory's size: a wasm memory
//!   never shrinks, so the page ends a worker that grew large once its job is over.
//!
//! **The writer** (`ui::writer` ↔ `worker::write`): after [`FromWriter::Ready`], each
//! [`ToWriter::Write`] (a `wire::write` request) is answered by [`FromWriter::Written`] or
//! [`FromWriter::Error`] with the same `job`, just after a [`FromWriter::Memory`].
//!
//! Workers start through a module shim whose URLs carry the build id (`ui::ingest::pool`), so a
//! worker of an older deploy is never paired with a newer page; [`ToPage::Ready`] carries the id.

mod read;
mod to_page;
mod to_worker;
mod writer;

pub use read::RangeBytes;
pub use to_page::{LoadedGroup, ToPage};
pub use to_worker::ToWorker;
pub use writer::{FromWriter, ToWriter, Written};

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

/// A message that could not be read: not one of the kinds this side takes, or a field missing or
/// of the wrong kind. An error value: a message is never assumed to be well formed.
#[derive(Debug, Clone, PartialEq)]
pub enum ProtocolError {
    /// The `type` is missing or unknown here.
    Kind(Option<String>),
    /// A field of a message of `kind` (its job, when it has one that reads).
    Field { kind: &'static str, job: Option<u32>, field: &'static str, expected: &'static str, missing: bool },
}

impl ProtocolError {
    /// The job the unreadable message was about, if that much reads.
    pub fn job(&self) -> Option<u32> {
        match self {
            ProtocolError::Kind(_) => None,
            ProtocolError::Field { job, .. } => *job,
        }
    }

    /// Whether the message is of no kind this side takes (another side's message may be).
    pub fn is_unknown_kind(&self) -> bool {
        matches!(self, ProtocolError::Kind(_))
    }
}

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProtocolError::Kind(None) => write!(f, "a message without a type"),
            ProtocolError::Kind(Some(kind)) => write!(f, "a message of unknown type \"{kind}\""),
            ProtocolError::Field { kind, field, expected, missing: true, .. } => {
                write!(f, "a \"{kind}\" message without its {field} ({expected})")
            }
            ProtocolError::Field { kind, field, expected, missing: false, .. } => {
                write!(f, "a \"{kind}\" message whose {field} is not {expected}")
            }
        }
    }
}

/// A message object from its fields, in order (an absent field is not set).
fn object(kind: &str, fields: &[(&str, Option<JsValue>)]) -> Object {
    let o = Object::new();
    let _ = Reflect::set(&o, &"type".into(), &kind.into());
    for (k, v) in fields {
        if let Some(v) = v {
            let _ = Reflect::set(&o, &JsValue::from_str(k), v);
        }
    }
    o
}

/// A transfer list: the buffers of these byte arrays.
fn buffers<'a>(arrays: impl IntoIterator<Item = &'a js_sys::Uint8Array>) -> Array {
    arrays.into_iter().map(|a| JsValue::from(a.buffer())).collect()
}

/// An array of byte arrays (each posted as itself; its buffer goes in the transfer list).
fn array_of<'a>(arrays: impl IntoIterator<Item = &'a js_sys::Uint8Array>) -> JsValue {
    arrays.into_iter().map(JsValue::from).collect::<Array>().into()
}
