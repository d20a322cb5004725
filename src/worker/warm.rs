//! A warm-up run of the JTL path, once, soon after the worker starts: a small generated JTL is read
//! through the very code a dropped file takes (`stream::read_range`, `parallel::finish`, the wire
//! encoding), and the answer is thrown away.
//!
//! Why: V8 compiles a wasm function only when it is first called (with its baseline compiler,
//! Liftoff) and moves it to optimized code (TurboFan, on a background thread) only after it has
//! run for a while. Without this, the first file a user drops pays for both at once: the lazy
//! compilation of the import path, and the first part of the file parsed by baseline code while
//! TurboFan, on a two-core machine, competes for a core with the parser and the browser's reads.

use crate::import::parallel;
use std::fmt::Write;

/// Records of the warm-up file: enough for V8 to tier the hot functions up (about 3 MB).
const RECORDS: usize = 16_000;
/// The worker waits this long before warming up, so the page's first view does not compete with it.
pub const DELAY_MS: u32 = 300;

/// A JTL in JMeter's default layout, with some quoted labels (commas inside) and some failures,
/// so that every branch of the hot path runs.
fn sample_jtl() -> String {
    let mut s = String::with_capacity(RECORDS * 200);
    s.push_str("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n");
    for i in 0..RECORDS {
        let label = i % 23;
        let elapsed = 20 + (i * 7919) % 1400;
        let ok = i % 53 != 0;
        let _ = if label % 5 == 0 {
            write!(s, "{},{elapsed},\"GET /search?q=a,b&n={label}\",", 1_700_000_000_000u64 + i as u64 * 37)
        } else {
            write!(s, "{},{elapsed},GET /instances/{label},", 1_700_000_000_000u64 + i as u64 * 37)
        };
        let (code, msg) = if ok { ("200", "OK") } else { ("500", "Internal Server Error") };
        let _ = writeln!(
            s,
            "{code},{msg},Thread Group 1-{},text,{ok},,{},{},20,20,http://localhost:8080/instances/{label},{},0,{}",
            i % 20 + 1,
            900 + i % 4000,
            300 + i % 200,
            elapsed.saturating_sub(3),
            i % 4
        );
    }
    s
}

/// Runs the warm-up; errors are ignored (it only has to have run).
pub async fn run() {
    let text = sample_jtl();
    // Detection as a dropped file's head goes through it (the size only has to qualify).
    let head = &text.as_bytes()[..text.len().min(crate::import::HEAD_BYTES)];
    let Some(layout) = parallel::range_layout("warm-up.jtl", head, parallel::MIN_PARALLEL_BYTES) else { return };
    let Ok(blob) = web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&text.into())) else { return };
    let size = blob.size() as u64;
    let plan = parallel::Plan { layout, ranges: vec![(0, size)] };
    let part = super::stream::read_range("warm-up", &blob, &plan, 0, &|_, _| {}, &mut super::stream::Timing::default()).await;
    let src = super::blob_source::BlobSource { blob };
    if let Ok(imp) = part.and_then(|p| parallel::finish("warm-up", &src, &plan, vec![p])) {
        let _ = crate::wire::encode_done(imp);
    }
}
