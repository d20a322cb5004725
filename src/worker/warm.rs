//! A warm-up run of the two big paths, once, soon after the worker starts: a small generated bundle
//! and a small generated JTL are read through the very code a dropped file takes (`import`, or
//! `stream::read_range` and `parallel::finish`; then the wire encoding), and the answers are
//! thrown away.
//!
//! Why: V8 compiles a wasm function only when it is first called (with its baseline compiler,
//! Liftoff) and moves it to optimized code (TurboFan, on a background thread) only after it has
//! run for a while. Without this, the first file a user drops pays for both at once: the lazy
//! compilation of the import path, and the first part of the file parsed by baseline code while
//! TurboFan, on a two-core machine, competes for a core with the parser and the browser's reads.

use crate::import::{common::parallel, common::warmup};

/// The worker waits this long before warming up, so the page's first view does not compete with it.
pub const DELAY_MS: u32 = 300;

/// The warm-up of a worker started for a big bundle's later runs: the runs of a small generated
/// bundle through `split_load::load_runs` and the wire, as `bundle_parts::load_group` takes them.
pub fn bundle_group() {
    let bundle = warmup::bundle();
    let Some(split) = crate::bundle::split::split(bundle.as_bytes(), 2) else { return };
    for (first, part) in &split.parts {
        for run in crate::bundle::split_load::load_runs(part, *first).into_iter().flatten() {
            let _ = crate::wire::encode_run(run);
        }
    }
}

/// Runs the warm-up; errors are ignored (it only has to have run).
pub async fn run() {
    let bundle = warmup::bundle();
    let size = bundle.len() as u64;
    // As a file's reader is (`RangeSource::reader_from`): the same compiled copy of the importer.
    let reader: Box<dyn std::io::Read> = Box::new(bundle.as_bytes());
    if let Ok(imp) = crate::import::import_sized("warm-up.json", reader, Some(size), None, &mut |_, _| {}) {
        let _ = crate::wire::encode_done(imp);
    }
    let text = warmup::jtl();
    // Detection as a dropped file's head goes through it (the size only has to qualify).
    let head = &text.as_bytes()[..text.len().min(crate::import::HEAD_BYTES)];
    let Some(layout) = parallel::range_layout("warm-up.jtl", head, parallel::MIN_PARALLEL_BYTES) else { return };
    let Ok(blob) = web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&text.into())) else { return };
    let size = blob.size() as u64;
    let plan = parallel::Plan { layout, ranges: vec![(0, size)] };
    let part =
        super::stream::read_range("warm-up", &blob, &plan, 0, &|_, _| {}, &mut super::stream::Timing::default()).await;
    let src = super::blob_source::BlobSource { blob };
    if let Ok(imp) = part.and_then(|p| parallel::finish("warm-up", &src, &plan, vec![p])) {
        let _ = crate::wire::encode_done(imp);
    }
}
