//! A nightly history with known shifts, as the example bundle `public/examples/nightly-history.json`
//! (written by `UPDATE_EXAMPLES=1 cargo test --test examples`) and the change-point tests read it:
//! 40 nights of five transactions, each figure with about 2.5 % noise, and
//! - `search` p95 and median 12 % slower from `nightly-26` on (a regression);
//! - `browse` p95 45 % slower on `nightly-12` alone (a blip);
//! - `checkout` p95 and median 15 % slower from `nightly-31` on, which carries an
//!   `expected_change` annotation (a trade-off);
//! - every latency 60 % slower on `nightly-21`, annotated `excluded` (a broken environment).

use serde_json::{json, Value};

/// Nights in the history.
pub const NIGHTS: usize = 40;

/// A transaction: its name, its p95 in ms, and the factor of each night (1-based) on it.
type Shape = (&'static str, f64, fn(usize) -> f64);

fn transactions() -> [Shape; 5] {
    [
        ("login", 140.0, |_| 1.0),
        ("search", 420.0, |n| if n >= 26 { 1.12 } else { 1.0 }),
        ("browse", 180.0, |n| if n == 12 { 1.45 } else { 1.0 }),
        ("checkout", 310.0, |n| if n >= 31 { 1.15 } else { 1.0 }),
        ("logout", 60.0, |_| 1.0),
    ]
}

/// A value in [−1, 1) for `(night, slot)`, the same on every call (an integer hash).
fn jitter(night: usize, slot: usize) -> f64 {
    let mut z = (night as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (slot as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 32;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// About N(0, 1): the sum of three jitters, scaled.
fn noise(night: usize, slot: usize) -> f64 {
    jitter(night, 3 * slot) + jitter(night, 3 * slot + 1) + jitter(night, 3 * slot + 2)
}

fn tenth(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// Night `n`'s start: 02:00 UTC on October `n`, then on into November.
fn start(n: usize) -> String {
    let (month, day) = if n <= 31 { (10, n) } else { (11, n - 31) };
    format!("2026-{month:02}-{day:02}T02:00:00Z")
}

fn night(n: usize) -> Value {
    let broken = if n == 21 { 1.6 } else { 1.0 };
    let tx: Vec<Value> = transactions()
        .iter()
        .enumerate()
        .map(|(k, (name, p95, factor))| {
            let level = p95 * factor(n) * broken;
            let p95 = tenth(level * (1.0 + 0.025 * noise(n, 2 * k)));
            let median = tenth(level * 0.55 * (1.0 + 0.025 * noise(n, 2 * k + 1)));
            let errors = ((jitter(n, 100 + k) + 1.0) * 3.0) as u64;
            json!({"name": name, "samples": 12000, "errors": errors, "median_ms": median, "p95_ms": p95,
                   "throughput_per_s": tenth(200.0 / (1.0 + k as f64) * (1.0 + 0.02 * noise(n, 50 + k)))})
        })
        .collect();
    let id = format!("nightly-{n:02}");
    let mut run = json!({
        "id": id, "label": id, "start": start(n),
        "duration_s": tenth(3600.0 + 20.0 * noise(n, 90)), "dimensions": {"night": format!("{n:02}")},
        "transactions": tx
    });
    if n == 21 {
        run["annotation"] = json!({"kind": "excluded", "note": "load generator shared a host with a backup job"});
    }
    if n == 31 {
        run["annotation"] = json!({"kind": "expected_change", "note": "audit log written synchronously (accepted)"});
    }
    run
}

/// The history as pretty JSON text.
pub fn nightly_history() -> String {
    let runs: Vec<Value> = (1..=NIGHTS).map(night).collect();
    let doc = json!({
        "format": "runlens-bundle", "version": 1,
        "report": {"title": "Nightly history (generated): 40 nights, known shifts"},
        "runs": runs
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
