//! Synthetic bundles (`docs/bundle-format.md`) as JSON text, titled "Generated". Each transaction's
//! statistics come from a `base` latency that varies with the transaction's index and its run.

use serde_json::{json, Value};

/// The run ids of [`generated`] and [`generated_with_histograms`].
const IDS: [&str; 4] = ["run-a", "run-b", "run-c", "run-d"];

fn document(runs: Vec<Value>) -> String {
    json!({"format": "runlens-bundle", "version": 1, "report": {"title": "Generated"}, "runs": runs}).to_string()
}

/// `runs` runs (at most 4: `run-a` … `run-d`) of `n` transactions `tx0000`, `tx0001`, … with
/// samples, errors, mean, median, p90, p95, p99, min, max and throughput, for size and speed checks.
pub fn generated(runs: usize, n: usize) -> String {
    let runs: Vec<Value> = (0..runs)
        .map(|r| {
            let tx: Vec<Value> = (0..n)
                .map(|i| {
                    let base = 50.0 + (i % 97) as f64 * 3.0 + r as f64 * (i % 7) as f64;
                    json!({
                        "name": format!("tx{i:04}"), "samples": 1000 + i, "errors": i % 5,
                        "mean_ms": base, "median_ms": base * 0.9, "p90_ms": base * 1.5, "p95_ms": base * 1.8,
                        "p99_ms": base * 2.5, "min_ms": base * 0.2, "max_ms": base * 4.0, "throughput_per_s": 12.5
                    })
                })
                .collect();
            json!({"id": IDS[r], "label": IDS[r], "transactions": tx})
        })
        .collect();
    document(runs)
}

/// As [`generated`], but each transaction has only samples, median and p95, and a 150-bucket
/// latency histogram (buckets about 3 % wide), so that comparing runs computes bootstrap intervals.
pub fn generated_with_histograms(runs: usize, n: usize) -> String {
    let runs: Vec<Value> = (0..runs)
        .map(|r| {
            let tx: Vec<Value> = (0..n)
                .map(|i| {
                    let base = 50.0 + (i % 97) as f64 * 3.0 + r as f64 * (i % 7) as f64;
                    let bounds: Vec<f64> = (0..150).map(|k| (base * 0.3 * 1.03f64.powi(k)).round() + k as f64).collect();
                    let counts: Vec<u64> =
                        (0..150).map(|k| 1 + (100.0 * (-((k as f64 - 40.0) / 18.0).powi(2)).exp()) as u64).collect();
                    json!({"name": format!("tx{i:04}"), "samples": counts.iter().sum::<u64>(), "median_ms": base, "p95_ms": base * 1.8,
                        "histogram": {"upper_bounds_ms": bounds, "counts": counts}})
                })
                .collect();
            json!({"id": IDS[r], "label": IDS[r], "transactions": tx})
        })
        .collect();
    document(runs)
}

/// `runs` runs `run-00`, `run-01`, … of `n` transactions `tx00000`, `tx00001`, … (the statistics of
/// [`generated`], the run's part of `base` repeating every 5 runs), each with a latency histogram
/// of `buckets` buckets (12 % wide) when `buckets > 0`; its samples are then the histogram's count.
/// `numbered(50, 2000, 32)` is the 50 MB bundle of the UI benchmark and `cargo bench --bench bundle_load`.
pub fn numbered(runs: usize, n: usize, buckets: usize) -> String {
    let runs: Vec<Value> = (0..runs)
        .map(|r| {
            let tx: Vec<Value> = (0..n)
                .map(|i| {
                    let base = 50.0 + (i % 97) as f64 * 3.0 + (r % 5) as f64 * (i % 7) as f64;
                    let mut t = json!({
                        "name": format!("tx{i:05}"), "samples": 1000 + i, "errors": i % 5,
                        "mean_ms": base, "median_ms": base * 0.9, "p90_ms": base * 1.5, "p95_ms": base * 1.8,
                        "p99_ms": base * 2.5, "min_ms": base * 0.2, "max_ms": base * 4.0, "throughput_per_s": 12.5
                    });
                    if buckets > 0 {
                        let bounds: Vec<f64> =
                            (0..buckets).map(|k| (base * 0.3 * 1.12f64.powi(k as i32)).round() + k as f64).collect();
                        let mid = buckets as f64 / 3.0;
                        let counts: Vec<u64> = (0..buckets)
                            .map(|k| 1 + (100.0 * (-((k as f64 - mid) / 5.0).powi(2)).exp()) as u64)
                            .collect();
                        t["samples"] = json!(counts.iter().sum::<u64>());
                        t["histogram"] = json!({"upper_bounds_ms": bounds, "counts": counts});
                    }
                    t
                })
                .collect();
            json!({"id": format!("run-{r:02}"), "label": format!("run {r:02}"), "transactions": tx})
        })
        .collect();
    document(runs)
}
