//! A big bundle loaded by several workers (`bundle::split_load`): the first worker cuts it into
//! groups of runs, posts the later groups (`ToPage::BundleParts`; the page hands each to the
//! least busy worker as `ToWorker::Runs`) and parses the head meanwhile. A downloaded bundle is
//! cut while it arrives (`bundle::stream_cut`), its groups posted as they are complete, and its
//! head keeps only the first run. Each worker answers with its runs already in the wire's form
//! (`ToPage::RunsDone`); the page keeps the runs and reads them at once (`ui::ingest_read`), and
//! forwards the ids to the first worker (`ToWorker::RunsDone`), which finishes the head with
//! them and posts the answer with the head's runs and the number of later groups (`later`).
//! Anything but a clean load (`split_load` says when) loads the whole file again in one pass,
//! for its exact messages, and posts every run.

use super::{post, post_done, post_error, take_first, DoneNotes};
use crate::bundle::split::Cut;
use crate::bundle::split_load::{self, Head};
use crate::bundle::stream_cut::StreamCut;
use crate::import;
use crate::protocol::{LoadedGroup, ToPage};
use js_sys::Uint8Array;
use std::cell::RefCell;

/// A bundle whose later groups are being loaded by other workers.
struct Pending {
    job: u32,
    name: String,
    /// The head, once the whole file is in and cut (groups cut while it downloads are out
    /// before that).
    head: Option<HeadPart>,
    /// Each later group's answer.
    parts: Vec<GroupAnswer>,
}

/// What the first worker hears of a later group.
enum GroupAnswer {
    /// Not answered yet.
    Waiting,
    /// Its runs' ids (the page keeps and reads their pieces, `ui::ingest_read`).
    Loaded(Vec<String>),
    /// It did not load cleanly.
    Failed,
}

/// The head (the bundle with the first group's runs), and what it replaced of the file
/// (`Cut::head`): the one-pass load needs the whole file when the cut does not load cleanly.
struct HeadPart {
    head_bytes: Vec<u8>,
    replaced: (usize, Vec<u8>),
    head: Option<Head>,
    /// The head's runs, encoded for the page.
    head_runs: Vec<Vec<u8>>,
}

thread_local! {
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
}

/// How many bytes of runs a group cut during a download holds: a dozen groups or so, so that the
/// other workers parse (and the page reads) while the rest arrives.
pub fn stream_group_bytes(length: u64) -> usize {
    (length / 12).clamp(2 << 20, 16 << 20) as usize
}

/// Posts later groups `parts` of `bytes` (`Cut::parts`; the first is group `first_index` + 1, as
/// the page numbers them: the head is group 0), `last` when no more will follow, and keeps room
/// for their answers.
fn post_groups(job: u32, name: &str, bytes: &[u8], parts: &[(usize, usize, usize)], first_index: usize, last: bool) {
    let groups = parts
        .iter()
        .map(|&part| {
            // `[`, the runs, `]`, copied once, straight from the file's bytes.
            let inner = crate::bundle::split::group_inner(bytes, part);
            let arr = Uint8Array::new_with_length(inner.len() as u32 + 2);
            arr.set_index(0, b'[');
            arr.subarray(1, inner.len() as u32 + 1).copy_from(inner);
            arr.set_index(inner.len() as u32 + 1, b']');
            arr
        })
        .collect();
    // A part is `Cut::parts`' (first run, separator before, separator after).
    let firsts = parts.iter().map(|part| part.0 as u32).collect();
    post(&ToPage::BundleParts { job, parts: groups, firsts, from: (first_index + 1) as u32, last });
    PENDING.with(|q| {
        let mut q = q.borrow_mut();
        if !q.iter().any(|p| p.job == job) {
            q.push(Pending { job, name: name.into(), head: None, parts: Vec::new() });
        }
        if let Some(p) = q.iter_mut().find(|p| p.job == job) {
            p.parts.resize_with(first_index + parts.len(), || GroupAnswer::Waiting);
        }
    });
}

/// Posts the groups of a download's `cut` from group `from` on (those cut since the last call).
pub fn post_streamed(job: u32, name: &str, bytes: &[u8], cut: &StreamCut, from: usize) {
    if from < cut.len() {
        post_groups(job, name, bytes, &cut.parts()[from..], from, false);
    }
}

/// Cuts the bundle in `bytes` (`seps`: its runs' separators, `split::run_separators`) into
/// `workers` groups and starts loading it, or loads it in one pass when it cannot be cut.
/// `streamed`: the groups already cut and posted while it downloaded (`post_streamed`).
pub fn start_or_load(
    job: u32,
    name: &str,
    bytes: Vec<u8>,
    seps: Option<Vec<usize>>,
    workers: usize,
    streamed: Option<StreamCut>,
) {
    let (cut, posted) = match streamed.filter(|c| !c.is_empty()) {
        Some(c) => {
            let posted = c.len();
            (seps.and_then(|seps| c.finish(&bytes, &seps)), posted)
        }
        None => (seps.and_then(|seps| Cut::new(&bytes, &seps, workers)), 0),
    };
    let Some(cut) = cut else {
        // Groups already out are answered to no one.
        let _ = PENDING.with(|q| take_first(q, |p| p.job == job));
        return load_whole(job, name, &bytes);
    };
    post_groups(job, name, &bytes, &cut.parts[posted..], posted, true);
    let (head_bytes, replaced) = cut.head(bytes);
    let mut head = split_load::parse_head(&head_bytes);
    // The head's runs in the wire's form now, while the other workers are still at theirs.
    let head_runs =
        head.as_mut().map_or_else(Vec::new, |h| h.runs_mut().iter_mut().map(crate::wire::encode_run_ref).collect());
    PENDING.with(|q| {
        if let Some(p) = q.borrow_mut().iter_mut().find(|p| p.job == job) {
            p.head = Some(HeadPart { head_bytes, replaced, head, head_runs });
        }
    });
    try_finish(job);
}

/// Loads later group `index` of runs for another worker's bundle (`first`: its first run's index
/// in the bundle) and posts its pieces.
pub fn load_group(job: u32, index: u32, first: u32, data: &Uint8Array) {
    // Room for the group's text, its runs and their encoding, taken in one step.
    crate::heap::reserve(u64::from(data.length()) * 3);
    let group = split_load::load_runs(&data.to_vec(), first as usize).map(|runs| LoadedGroup {
        first,
        ids: runs.iter().map(|r| r.id.clone()).collect(),
        runs: runs.into_iter().map(|run| super::bytes_to_js(&crate::wire::encode_run(run))).collect(),
    });
    post(&ToPage::RunsDone { job, index, group });
}

/// Takes a later group's answer (forwarded by the page; `ids`: its runs' ids, None when it did not
/// load cleanly) and finishes when all are in.
pub fn take_group(job: u32, index: u32, ids: Option<Vec<String>>) {
    // Group i of the page's message is the bundle's part i - 1 (the head is group 0).
    let Some(slot) = (index as usize).checked_sub(1) else { return };
    let answer = ids.map_or(GroupAnswer::Failed, GroupAnswer::Loaded);
    PENDING.with(|q| {
        if let Some(p) = q.borrow_mut().iter_mut().find(|p| p.job == job).and_then(|p| p.parts.get_mut(slot)) {
            *p = answer;
        }
    });
    try_finish(job);
}

fn try_finish(job: u32) {
    let Some(p) = PENDING.with(|q| {
        take_first(q, |p| {
            p.job == job && p.head.is_some() && p.parts.iter().all(|g| !matches!(g, GroupAnswer::Waiting))
        })
    }) else {
        return;
    };
    let Some(h) = p.head else { return };
    let later: Option<Vec<Vec<String>>> = p
        .parts
        .into_iter()
        .map(|g| match g {
            GroupAnswer::Loaded(ids) => Some(ids),
            GroupAnswer::Waiting | GroupAnswer::Failed => None,
        })
        .collect();
    let groups = later.as_ref().map_or(0, Vec::len);
    let finished = h.head.zip(later).and_then(|(head, later)| split_load::finish_head(&p.name, head, &later.concat()));
    match finished {
        Some(mut loaded) => {
            // The runs are dropped after the answer is posted: freeing them takes a while.
            let runs = std::mem::take(&mut loaded.bundle.runs);
            let pieces = crate::wire::Pieces {
                head: crate::wire::encode_head(import::imported_bundle(loaded)),
                runs: h.head_runs,
            };
            post_done(job, pieces, DoneNotes { later: Some(groups as u32), ..DoneNotes::default() });
            drop(runs);
        }
        // The one-pass load, for its exact warnings and errors.
        None => load_whole(job, &p.name, &Cut::restore(h.head_bytes, h.replaced)),
    }
}

/// Loads a bundle's bytes in one pass and posts the answer.
pub fn load_whole(job: u32, name: &str, bytes: &[u8]) {
    let size = Some(bytes.len() as u64);
    match import::import_sized(name, std::io::Cursor::new(bytes), size, Some(import::Format::Bundle), &mut |b, r| {
        super::progress(job, b, r)
    }) {
        Ok(imp) => super::post_imported(job, imp, DoneNotes::default()),
        Err(e) => post_error(job, &e.to_string()),
    }
}
