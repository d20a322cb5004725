//! The JTL importer's hot path on bytes in memory: `RangeReader` in steps of 4,096 records (as
//! the ingest worker runs it), reading 1 MiB at a time out of the buffer, then the run and its
//! per-label table. Exported without wasm-bindgen (`buf`, `run`, `table`), so the page that
//! times it (`bench/ingest/parse.html`) needs no glue; natively `src/main.rs` calls the same.

use runlens::import::jmeter::csv::{self as jmeter_csv, RangeReader, Step};
use runlens::import::{Ctx, Progress};
use std::cell::RefCell;
use std::io::Read;

thread_local! {
    static DATA: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static TABLE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A buffer of `n` bytes for the caller to fill; its address.
#[no_mangle]
pub extern "C" fn buf(n: usize) -> *mut u8 {
    DATA.with(|d| {
        *d.borrow_mut() = vec![0; n];
        d.borrow_mut().as_mut_ptr()
    })
}

/// Reads the input as the worker's stream does: a copy of at most 1 MiB per read.
struct Chunks<'a> {
    data: &'a [u8],
    at: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = out.len().min(1 << 20).min(self.data.len() - self.at);
        out[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Imports `data` (a whole JMeter CSV); the per-label table as JSON lines of the benchmark's
/// shape (label, count, errors, mean, min, max, p50, p90, p95, p99), or why it failed.
pub fn import(data: &[u8]) -> Result<String, String> {
    let head = &data[..data.len().min(runlens::import::HEAD_BYTES)];
    let layout = jmeter_csv::layout(&String::from_utf8_lossy(head)).ok_or("not a JMeter CSV")?;
    let start = usize::from(data.starts_with(b"\xEF\xBB\xBF")) * 3;
    let mut range = RangeReader::new(layout.clone(), Chunks { data, at: start }, start as u64, None, layout.header);
    loop {
        match range.step(&mut |_| {}).map_err(|(line, e)| format!("line {line}: {e}"))? {
            Step::More => {}
            Step::Done => break,
            Step::Starved => return Err("starved".into()),
        }
    }
    let progress = Progress::default();
    let mut ctx = Ctx::new("file", &progress);
    let run = jmeter_csv::finish(&mut ctx, &layout, vec![range.finish()]).map_err(|e| e.to_string())?;
    let rows: Vec<serde_json::Value> = run
        .transactions
        .iter()
        .map(|t| {
            serde_json::json!({"label": t.name, "count": t.samples, "errors": t.errors, "mean": t.mean_ms, "min": t.min_ms,
                "max": t.max_ms, "p50": t.median_ms, "p90": t.p90_ms, "p95": t.p95_ms, "p99": t.p99_ms})
        })
        .collect();
    Ok(serde_json::Value::Array(rows).to_string())
}

/// Imports the first `len` bytes of the buffer; the length of the table's JSON (0 on failure).
#[no_mangle]
pub extern "C" fn run(len: usize) -> usize {
    let table = DATA.with(|d| import(&d.borrow()[..len])).unwrap_or_default();
    TABLE.with(|t| {
        *t.borrow_mut() = table;
        t.borrow().len()
    })
}

/// The address of the last table's JSON.
#[no_mangle]
pub extern "C" fn table() -> *const u8 {
    TABLE.with(|t| t.borrow().as_ptr())
}
