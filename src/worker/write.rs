//! The writer: an ingest worker started on its own (`ui::writer`), never cancelled with imports,
//! that writes bundles as JSON and makes the import panel's runs (`wire::write`). It answers
//! `{type:"write", job, data}` with `{type:"written", job, json}` (an array of UTF-8 texts), or
//! `{type:"written", job, data, runs, json}` for a merge (the merged bundle in pieces, as an
//! import's answer, and its JSON), `{type:"written", job, fragment}` or `{…, size}` for a link,
//! or `{type:"error", job, message}`.

use super::{bytes_to_js, get, msg, scope};
use crate::wire::write::{answer, Answer};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub(super) fn write(job: u32, data: &JsValue) {
    let request = get(data, "data").dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
    let transfer = Array::new();
    let array = |bytes: &[u8]| {
        let a = bytes_to_js(bytes);
        transfer.push(&a.buffer());
        JsValue::from(a)
    };
    let message = match answer(&request) {
        Ok(Answer::Json(texts)) => {
            let json: Array = texts.iter().map(|t| array(t)).collect();
            msg(&[("type", "written".into()), ("job", job.into()), ("json", json.into())])
        }
        Ok(Answer::Merged { pieces, json }) => {
            let json = Array::of1(&array(&json));
            let head = array(&pieces.head);
            let runs: Array = pieces.runs.iter().map(|r| array(r)).collect();
            msg(&[
                ("type", "written".into()),
                ("job", job.into()),
                ("data", head),
                ("runs", runs.into()),
                ("json", json.into()),
            ])
        }
        Ok(Answer::Link(fragment)) => match fragment {
            Ok(f) => msg(&[("type", "written".into()), ("job", job.into()), ("fragment", f.into())]),
            Err(size) => msg(&[("type", "written".into()), ("job", job.into()), ("size", (size as f64).into())]),
        },
        Err(message) => msg(&[("type", "error".into()), ("job", job.into()), ("message", message.into())]),
    };
    let _ = scope().post_message_with_transfer(&message, &transfer);
}
