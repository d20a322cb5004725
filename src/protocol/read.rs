//! Reading a message object's fields, each a typed value or a `ProtocolError` that names the
//! message's kind and the field.

use super::ProtocolError;
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, MessagePort};

/// A field of a JS object, `undefined` when absent (the one such helper: nothing else reads a
/// message's fields).
fn get(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

/// The `type` of a message.
pub(super) fn kind(v: &JsValue) -> Result<String, ProtocolError> {
    get(v, "type").as_string().ok_or(ProtocolError::Kind(None))
}

/// The fields of one message of `kind`.
pub(super) struct Fields<'a> {
    v: &'a JsValue,
    kind: &'static str,
    job: Option<u32>,
}

impl<'a> Fields<'a> {
    pub(super) fn new(v: &'a JsValue, kind: &'static str) -> Self {
        Fields { v, kind, job: get(v, "job").as_f64().map(|j| j as u32) }
    }

    fn error(&self, field: &'static str, expected: &'static str) -> ProtocolError {
        let missing = get(self.v, field).is_undefined();
        ProtocolError::Field { kind: self.kind, job: self.job, field, expected, missing }
    }

    pub(super) fn job(&self) -> Result<u32, ProtocolError> {
        self.job.ok_or_else(|| self.error("job", "a number"))
    }

    pub(super) fn number(&self, field: &'static str) -> Result<f64, ProtocolError> {
        get(self.v, field).as_f64().ok_or_else(|| self.error(field, "a number"))
    }

    pub(super) fn number_or_none(&self, field: &'static str) -> Option<f64> {
        get(self.v, field).as_f64()
    }

    pub(super) fn u32(&self, field: &'static str) -> Result<u32, ProtocolError> {
        self.number(field).map(|n| n as u32)
    }

    pub(super) fn u64(&self, field: &'static str) -> Result<u64, ProtocolError> {
        self.number(field).map(|n| n as u64)
    }

    pub(super) fn string(&self, field: &'static str) -> Result<String, ProtocolError> {
        get(self.v, field).as_string().ok_or_else(|| self.error(field, "a string"))
    }

    pub(super) fn string_or_none(&self, field: &'static str) -> Option<String> {
        get(self.v, field).as_string()
    }

    pub(super) fn bool(&self, field: &'static str) -> Result<bool, ProtocolError> {
        get(self.v, field).as_bool().ok_or_else(|| self.error(field, "true or false"))
    }

    /// Whether the field is set to anything truthy (a flag that is absent when not raised).
    pub(super) fn flag(&self, field: &'static str) -> bool {
        get(self.v, field).is_truthy()
    }

    /// A field holding a JS object of type `T` (a `Blob`, a `Uint8Array`).
    pub(super) fn handle<T: JsCast>(&self, field: &'static str, expected: &'static str) -> Result<T, ProtocolError> {
        get(self.v, field).dyn_into::<T>().map_err(|_| self.error(field, expected))
    }

    /// A range's bytes: a `blob`, or `ports` (an array of `MessagePort`s).
    pub(super) fn range_bytes(&self) -> Result<RangeBytes, ProtocolError> {
        const EXPECTED: &str = "a Blob or an array of MessagePorts";
        if let Ok(blob) = self.handle::<Blob>("blob", EXPECTED) {
            return Ok(RangeBytes::Blob(blob));
        }
        let a = self.array("ports", EXPECTED)?;
        let ports = a.iter().map(|x| x.dyn_into::<MessagePort>().map_err(|_| self.error("ports", EXPECTED)));
        Ok(RangeBytes::Ports(ports.collect::<Result<_, _>>()?))
    }

    pub(super) fn bytes(&self, field: &'static str) -> Result<Uint8Array, ProtocolError> {
        self.handle(field, "a Uint8Array")
    }

    fn array(&self, field: &'static str, expected: &'static str) -> Result<Array, ProtocolError> {
        self.handle::<Array>(field, expected)
    }

    /// An array of byte arrays.
    pub(super) fn byte_arrays(&self, field: &'static str) -> Result<Vec<Uint8Array>, ProtocolError> {
        const EXPECTED: &str = "an array of Uint8Arrays";
        let a = self.array(field, EXPECTED)?;
        a.iter().map(|x| x.dyn_into::<Uint8Array>().map_err(|_| self.error(field, EXPECTED))).collect()
    }

    pub(super) fn u32s(&self, field: &'static str) -> Result<Vec<u32>, ProtocolError> {
        const EXPECTED: &str = "an array of numbers";
        let a = self.array(field, EXPECTED)?;
        a.iter().map(|x| x.as_f64().map(|n| n as u32).ok_or_else(|| self.error(field, EXPECTED))).collect()
    }

    pub(super) fn strings(&self, field: &'static str) -> Result<Vec<String>, ProtocolError> {
        const EXPECTED: &str = "an array of strings";
        let a = self.array(field, EXPECTED)?;
        a.iter().map(|x| x.as_string().ok_or_else(|| self.error(field, EXPECTED))).collect()
    }
}

/// Where the workers reading a file in ranges get its bytes: the file (a `Blob` every worker
/// reads), or a download's ranges, one `MessagePort` per range but the last, in order, on which
/// the first worker posts that range's bytes (`worker::feed`). The page hands out ranges 1.. as
/// for a file; with ports, its range `i` gets port `i - 1`, which carries range `i - 1`: the first
/// worker reads the last range itself (its bytes arrive last).
#[derive(Debug, Clone)]
pub enum RangeBytes {
    Blob(Blob),
    Ports(Vec<MessagePort>),
}

impl RangeBytes {
    /// The message's fields for it.
    pub(super) fn fields(&self) -> [(&'static str, Option<JsValue>); 2] {
        match self {
            RangeBytes::Blob(b) => [("blob", Some(b.into())), ("ports", None)],
            RangeBytes::Ports(p) => [("blob", None), ("ports", Some(p.iter().collect::<Array>().into()))],
        }
    }

    /// What posting it transfers: its ports.
    pub(super) fn transfer(&self, list: &Array) {
        if let RangeBytes::Ports(p) = self {
            p.iter().for_each(|p| {
                list.push(p);
            });
        }
    }

    /// The bytes of the page's range `index` (> 0) for the worker that reads it: the same `Blob`,
    /// or port `index - 1`.
    pub fn of_range(&self, index: usize) -> RangeBytes {
        match self {
            RangeBytes::Blob(b) => RangeBytes::Blob(b.clone()),
            RangeBytes::Ports(p) => RangeBytes::Ports(p.get(index.wrapping_sub(1)).cloned().into_iter().collect()),
        }
    }
}
