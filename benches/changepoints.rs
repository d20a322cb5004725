//! Benchmark of change points (`analysis::changepoint`): 200 series of 300 points each with no
//! shift (the common case: a permutation test that stops early), with one step of 2 standard
//! deviations (a full test for the step, then an early stop), and with two steps; and
//! `history_shifts` over the example nightly history (40 runs, 21 trend metrics). Run: `cargo bench
//! --bench changepoints` (the release profile, as the page is built). Prints the median of 5 rounds
//! (no timing assertions anywhere).

use runlens::analysis::changepoint::history::history_shifts;
use runlens::analysis::changepoint::{change_points, DEFAULT};
use runlens::analysis::noise::Rng;
use runlens::bundle::{load_bundle_str, Run};
use std::time::Instant;
use support::stats::median_high;

const SERIES: usize = 200;
const POINTS: usize = 300;
const ROUNDS: usize = 5;

/// `SERIES` series of `POINTS` N(100, 3²) values, with `steps` steps of 2 sd spread evenly.
fn series(steps: usize) -> Vec<Vec<f64>> {
    let mut rng = Rng::new(7);
    (0..SERIES)
        .map(|_| (0..POINTS).map(|i| 100.0 + 3.0 * rng.normal() + 6.0 * (i * (steps + 1) / POINTS) as f64).collect())
        .collect()
}

/// The median over `ROUNDS` of `f`'s time in ms, and the last round's count of what it found.
fn timed(mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut times = Vec::with_capacity(ROUNDS);
    let mut found = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        found = f();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    (median_high(&mut times), found)
}

fn main() {
    for (name, steps) in [("no shift", 0), ("one step", 1), ("two steps", 2)] {
        let all = series(steps);
        let (ms, found) = timed(|| all.iter().map(|s| change_points(s, &DEFAULT).len()).sum());
        println!(
            "{SERIES} series × {POINTS} points, {name}: {ms:.1} ms median ({:.3} ms a series), {found} change points",
            ms / SERIES as f64
        );
    }
    let text = support::history::nightly_history();
    let loaded = load_bundle_str("nightly-history.json", &text).expect("the generated history loads");
    let runs: Vec<&Run> = loaded.bundle.runs.iter().collect();
    let (ms, found) = timed(|| history_shifts(&runs, None, &Default::default()).len());
    println!("history_shifts, the example history ({} runs): {ms:.1} ms median, {found} shifts", runs.len());
}
