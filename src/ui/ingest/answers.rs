//! What the page does with an ingest worker's message (`protocol::ToPage`): progress to the busy
//! bar, a plan's ranges and a big bundle's groups handed to the other workers, their answers
//! forwarded to the first worker, and the job's answer read (`ui::ingest_read`).

use super::job::{finish, kept_blob, report_soon, Group};
use super::pool::{ensure_slot, note_memory, ready, send, POOL};
use crate::protocol::{LoadedGroup, ProtocolError, RangeBytes, ToPage, ToWorker};
use crate::ui::ingest_read;
use crate::worker::BUILD;
use js_sys::{Object, Reflect, Uint8Array};
use wasm_bindgen::JsValue;

pub(super) fn on_message(index: usize, data: JsValue) {
    let message = match ToPage::from_js(&data) {
        Ok(m) => m,
        Err(e) => return unreadable(&e),
    };
    let current = POOL.with(|p| p.borrow().current.as_ref().map(|j| j.id));
    if let ToPage::Ready { build } = &message {
        if build != BUILD {
            leptos::logging::warn!("ingest worker build {build} differs from the page's {BUILD}");
        }
        return ready(index);
    }
    if let ToPage::Memory { bytes } = message {
        return note_memory(index, bytes);
    }
    if current.is_none() || message.job() != current {
        return;
    }
    match message {
        ToPage::Ready { .. } | ToPage::Memory { .. } => {}
        ToPage::Progress { bytes, records, .. } => {
            POOL.with(|p| {
                if let Some(j) = p.borrow_mut().current.as_mut() {
                    if let Some(b) = j.bytes.get_mut(index) {
                        *b = bytes;
                    }
                    if let Some(r) = j.records.get_mut(index) {
                        *r = records;
                    }
                }
            });
            report_soon();
        }
        ToPage::Plan { job, data, ranges, bytes } => hand_out_ranges(job, &data.to_vec(), ranges, &bytes),
        ToPage::Big { bundle, bytes, .. } => {
            // A download's size, as its server announced it (the busy bar's whole).
            let workers = POOL.with(|p| {
                let mut p = p.borrow_mut();
                if let Some(j) = p.current.as_mut() {
                    j.total.get_or_insert(bytes);
                }
                p.size
            });
            if bundle {
                // The page will hold the bundle's runs: about 1.5 times the file's bytes (a 50 MB
                // bundle grew the page's heap by 75 MB as it was read).
                crate::heap::reserve((bytes as f64 * 1.5) as u64);
            }
            for i in 1..workers {
                if ensure_slot(i) && bundle {
                    send(i, ToWorker::Warm);
                }
            }
        }
        ToPage::BundleParts { job, parts, firsts, from, last } => hand_out_groups(job, parts, &firsts, from, last),
        ToPage::RunsDone { job, index, group } => {
            // The runs stay here and are read while the first worker finishes; it gets their ids.
            POOL.with(|p| {
                let mut p = p.borrow_mut();
                let group = p
                    .current
                    .as_mut()
                    .and_then(|j| (index as usize).checked_sub(1).and_then(|i| j.groups.get_mut(i)))
                    .and_then(Option::as_mut);
                if let Some(g) = group {
                    g.answered = true;
                }
            });
            let ids = group.map(|LoadedGroup { first, ids, runs }| {
                leptos::task::spawn_local(ingest_read::read_later(job, index as usize, first as usize, runs));
                ids
            });
            send(0, ToWorker::RunsDone { job, index, ids });
        }
        ToPage::Part { job, index, data, failed } => send(0, ToWorker::Part { job, index, data, failed }),
        ToPage::Done { job, data, runs, ms, read_ms, later } => {
            // A one-worker import's own timing (the ingest benchmark reads it), or how many groups
            // of a big bundle's runs other workers read (the end-to-end tests do): kept as
            // `runlensIngest` on the window, never shown.
            if let Some(window) = web_sys::window() {
                let timing = Object::new();
                for (k, v) in [("ms", ms), ("readMs", read_ms), ("groups", later.map(f64::from))] {
                    let _ = Reflect::set(&timing, &k.into(), &v.map_or(JsValue::UNDEFINED, JsValue::from));
                }
                let _ = Reflect::set(&window, &"runlensIngest".into(), &timing);
            }
            let head = data.to_vec();
            let later = later.map(|n| n as usize);
            leptos::task::spawn_local(async move {
                if let Some(result) = ingest_read::read_done(job, &head, runs, later).await {
                    finish(
                        job,
                        result.map(|done| {
                            let kept = kept_blob(&done);
                            (done, kept)
                        }),
                    );
                }
            });
        }
        ToPage::Error { job, message } => finish(job, Err(message)),
    }
}

/// A message that does not read: the running job, if it is about it, fails (it would otherwise
/// wait for an answer that never comes); a message of no known kind is ignored.
fn unreadable(e: &ProtocolError) {
    if e.is_unknown_kind() {
        return;
    }
    leptos::logging::warn!("an ingest worker's message could not be read: {e}");
    let current = POOL.with(|p| p.borrow().current.as_ref().map(|j| j.id));
    if let Some(job) = e.job().filter(|j| Some(*j) == current) {
        finish(job, Err(format!("the ingest worker's answer could not be read ({e})")));
    }
}

/// The first worker split a large file in `ranges` ranges (`plan`): ranges 1.. go to the other
/// workers, each with its bytes (the file, or the range's port).
fn hand_out_ranges(job: u32, plan: &[u8], ranges: u32, bytes: &RangeBytes) {
    let name = POOL.with(|p| p.borrow().current.as_ref().map(|j| j.name.clone()).unwrap_or_default());
    for i in 1..ranges as usize {
        let slot = if ensure_slot(i) { i } else { 0 };
        POOL.with(|p| {
            if let Some(j) = p.borrow_mut().current.as_mut() {
                j.slots.push(slot);
                if let (None, RangeBytes::Blob(blob)) = (j.total, bytes) {
                    j.total = Some(blob.size() as u64);
                }
            }
        });
        // Each worker gets a copy of the plan (it is not transferred).
        let copy = Uint8Array::new_with_length(plan.len() as u32);
        copy.copy_from(plan);
        send(slot, ToWorker::Range { job, name: name.clone(), bytes: bytes.of_range(i), plan: copy, index: i as u32 });
    }
}

/// The first worker cut groups of a big bundle's runs (groups `from`, `from + 1`, …; `last`: no
/// more will come): each goes to the worker with the fewest bytes of groups still to parse.
fn hand_out_groups(job: u32, parts: Vec<Uint8Array>, firsts: &[u32], from: u32, last: bool) {
    // While the file still downloads, the first worker is busy with it (a group of its own counts
    // twice); once it is in, the first worker has only the head's one run left to parse.
    let workers = POOL.with(|p| p.borrow().size).max(1);
    for (k, part) in parts.into_iter().enumerate() {
        let index = from as usize + k;
        let bytes = u64::from(part.byte_length());
        let least_busy = POOL.with(|p| {
            let p = p.borrow();
            let load = |slot: usize| {
                let queued = p.current.as_ref().map_or(0, |j| {
                    j.groups.iter().flatten().filter(|g| g.slot == slot && !g.answered).map(|g| g.bytes).sum::<u64>()
                });
                // With this group, and the first worker's doubled while it downloads.
                (queued + bytes) * if slot == 0 && !last { 2 } else { 1 }
            };
            // The least loaded; on a tie, a worker other than the first.
            (0..workers).min_by_key(|&s| (load(s), s == 0)).unwrap_or(0)
        });
        let slot = if least_busy == 0 || ensure_slot(least_busy) { least_busy } else { 0 };
        POOL.with(|p| {
            if let Some(j) = p.borrow_mut().current.as_mut() {
                j.slots.push(slot);
                if j.groups.len() < index {
                    j.groups.resize(index, None);
                }
                j.groups[index - 1] = Some(Group { slot, bytes, answered: false });
            }
        });
        let first = firsts.get(k).copied().unwrap_or(0);
        send(slot, ToWorker::Runs { job, index: index as u32, first, data: part });
    }
}
