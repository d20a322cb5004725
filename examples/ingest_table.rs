//! Imports one JTL natively with the code the browser's ingest workers run (`import::common::parallel`:
//! one pass with 1 thread, byte ranges merged exactly with more), and prints one JSON line: the
//! seconds from opening the file to the finished run, the records read and the per-label table.
//! `scripts/bench-ingest.sh` runs it once per repetition (a fresh process, so its peak memory is
//! that of one import) and checks the table against the generator's answers.
//!
//!     cargo run --profile worker --example ingest_table -- FILE [THREADS]
//!
//! The `worker` profile is the one the browser's ingest worker is built with (opt-level 3).

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use runlens::import::common::parallel;
    use serde_json::json;

    let mut args = std::env::args_os().skip(1);
    let Some(path) = args.next().map(std::path::PathBuf::from) else {
        eprintln!("usage: ingest_table FILE [THREADS]");
        std::process::exit(2);
    };
    let threads = args.next().and_then(|t| t.to_str()?.parse::<usize>().ok()).unwrap_or(1).max(1);
    let t0 = std::time::Instant::now();
    let imported = match parallel::import_file(&path, threads) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    let table: Vec<serde_json::Value> = imported
        .bundle
        .runs
        .iter()
        .flat_map(|r| &r.transactions)
        .map(|t| {
            json!({
                "label": t.name, "count": t.samples, "errors": t.errors, "mean": t.mean_ms,
                "min": t.min_ms, "max": t.max_ms, "p50": t.median_ms, "p90": t.p90_ms, "p95": t.p95_ms, "p99": t.p99_ms,
            })
        })
        .collect();
    println!("{}", json!({"secs": secs, "threads": threads, "records": imported.records, "table": table}));
}

#[cfg(target_arch = "wasm32")]
fn main() {}
