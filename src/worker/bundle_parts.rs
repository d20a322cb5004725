//! A big bundle loaded by several workers (`bundle::split_load`): the first worker cuts it into
//! groups of runs, posts the later groups (`{type:"bundle-parts", job, parts, firsts}`; the page
//! hands group i to worker i as `{type:"runs", job, index, first, data}`) and parses the head
//! meanwhile. Each worker answers with its runs already in the wire's form (`{type:"runs-done",
//! job, index, first, ids, runs}`, or `failed`); the page keeps the runs and reads them at once
//! (`ui::ingest_read`), and forwards the ids to the first worker, which finishes the head with
//! them and posts the answer with the head's runs and the number of later groups (`later`).
//! Anything but a clean load (`split_load` says when) loads the whole file again in one pass,
//! for its exact messages, and posts every run.

use super::{get, get_u32, msg, post_done, post_error, scope, take_first};
use crate::bundle::split::Cut;
use crate::bundle::split_load::{self, Head};
use crate::import;
use js_sys::{Array, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A bundle whose later groups are being loaded by other workers.
struct Pending {
    job: u32,
    name: String,
    /// The head (the bundle with the first group's runs), and what it replaced of the file
    /// (`Cut::head`): the one-pass load needs the whole file when the cut does not load cleanly.
    head_bytes: Vec<u8>,
    replaced: (usize, Vec<u8>),
    head: Option<Head>,
    /// The head's runs, encoded for the page.
    head_runs: Vec<Vec<u8>>,
    /// Each later group: its runs' ids (the page keeps and reads their pieces, `ui::ingest_read`),
    /// or None when it did not load cleanly.
    parts: Vec<Option<Option<Vec<String>>>>,
}

thread_local! {
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
}

/// Cuts the bundle in `bytes` (`seps`: its runs' separators, `split::run_separators`) into
/// `workers` groups and starts loading it, or loads it in one pass when it cannot be cut.
pub fn start_or_load(job: u32, name: &str, bytes: Vec<u8>, seps: Option<Vec<usize>>, workers: usize) {
    let Some(cut) = seps.and_then(|seps| Cut::new(&bytes, &seps, workers)) else {
        return load_whole(job, name, &bytes);
    };
    let parts = Array::new();
    let firsts = Array::new();
    let transfer = Array::new();
    for (i, &(first, ..)) in cut.parts.iter().enumerate() {
        // `[`, the runs, `]`, copied once, straight from the file's bytes.
        let inner = cut.part_inner(&bytes, i);
        let arr = Uint8Array::new_with_length(inner.len() as u32 + 2);
        arr.set_index(0, b'[');
        arr.subarray(1, inner.len() as u32 + 1).copy_from(inner);
        arr.set_index(inner.len() as u32 + 1, b']');
        transfer.push(&arr.buffer());
        parts.push(&arr);
        firsts.push(&(first as u32).into());
    }
    let message = msg(&[("type", "bundle-parts".into()), ("job", job.into()), ("parts", parts.into()), ("firsts", firsts.into())]);
    let _ = scope().post_message_with_transfer(&message, &transfer);
    let later = cut.parts.len();
    let (head_bytes, replaced) = cut.head(bytes);
    let mut head = split_load::parse_head(&head_bytes);
    // The head's runs in the wire's form now, while the other workers are still at theirs.
    let head_runs = head.as_mut().map_or_else(Vec::new, |h| h.runs_mut().iter_mut().map(crate::wire::encode_run_ref).collect());
    PENDING.with(|q| q.borrow_mut().push(Pending { job, name: name.into(), head_bytes, replaced, head, head_runs, parts: (0..later).map(|_| None).collect() }));
    try_finish(job);
}

/// Loads a later group of runs for another worker's bundle and posts its pieces.
pub fn load_group(job: u32, data: &JsValue) {
    let index = get_u32(data, "index");
    let first = get_u32(data, "first") as usize;
    let loaded = get(data, "data").dyn_into::<Uint8Array>().ok().and_then(|d| split_load::load_runs(&d.to_vec(), first));
    let Some(runs) = loaded else {
        let _ = scope().post_message(&msg(&[("type", "runs-done".into()), ("job", job.into()), ("index", index.into()), ("failed", true.into())]));
        return;
    };
    let ids: Array = runs.iter().map(|r| JsValue::from_str(&r.id)).collect();
    let pieces = Array::new();
    let transfer = Array::new();
    for run in runs {
        let arr = super::bytes_to_js(&crate::wire::encode_run(run));
        transfer.push(&arr.buffer());
        pieces.push(&arr);
    }
    let message = msg(&[("type", "runs-done".into()), ("job", job.into()), ("index", index.into()), ("first", (first as u32).into()), ("ids", ids.into()), ("runs", pieces.into())]);
    let _ = scope().post_message_with_transfer(&message, &transfer);
}

/// Takes a later group's answer (forwarded by the page) and finishes when all are in.
pub fn take_group(job: u32, data: &JsValue) {
    // Group i of the page's message is the bundle's part i - 1 (the head is group 0).
    let Some(slot) = (get_u32(data, "index") as usize).checked_sub(1) else { return };
    let part = if get(data, "failed").is_truthy() {
        None
    } else {
        get(data, "ids").dyn_into::<Array>().ok().and_then(|a| a.iter().map(|v| v.as_string()).collect::<Option<Vec<String>>>())
    };
    PENDING.with(|q| {
        if let Some(p) = q.borrow_mut().iter_mut().find(|p| p.job == job).and_then(|p| p.parts.get_mut(slot)) {
            *p = Some(part);
        }
    });
    try_finish(job);
}

fn try_finish(job: u32) {
    let Some(p) = PENDING.with(|q| take_first(q, |p| p.job == job && p.parts.iter().all(Option::is_some))) else {
        return;
    };
    let later: Option<Vec<Vec<String>>> = p.parts.into_iter().flatten().collect();
    let groups = later.as_ref().map_or(0, Vec::len);
    let finished = p.head.zip(later).and_then(|(head, later)| split_load::finish_head(&p.name, head, &later.concat()));
    match finished {
        Some(mut loaded) => {
            // The runs are dropped after the answer is posted: freeing them takes a while.
            let runs = std::mem::take(&mut loaded.bundle.runs);
            let pieces = crate::wire::Pieces { head: crate::wire::encode_head(import::imported_bundle(loaded)), runs: p.head_runs };
            post_done(job, pieces, &[("later", (groups as u32).into())]);
            drop(runs);
        }
        // The one-pass load, for its exact warnings and errors.
        None => load_whole(job, &p.name, &Cut::restore(p.head_bytes, p.replaced)),
    }
}

/// Loads a bundle's bytes in one pass and posts the answer.
pub fn load_whole(job: u32, name: &str, bytes: &[u8]) {
    let size = Some(bytes.len() as u64);
    match import::import_sized(name, std::io::Cursor::new(bytes), size, Some(import::Format::Bundle), &mut |b, r| super::progress(job, b, r)) {
        Ok(imp) => super::post_imported(job, imp, &[]),
        Err(e) => post_error(job, &e.to_string()),
    }
}
