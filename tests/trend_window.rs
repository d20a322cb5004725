//! The Trends view under the window: a trend of generated nightly runs (`support::jtl::ramped`,
#![cfg(not(target_arch = "wasm32"))]
//! each night slower in its ramp-up) cut to the window equals the trend of the runs cut one by one
//! (`window_run`), its values equal a brute-force recount of the raw rows in the window, and a run
//! without a timeline stays whole and says so. The view cuts the runs only as far as the chosen
//! metric needs (`trend_window`): for every metric on offer, under every kind of window, that
//! trend equals the trend of the runs cut whole.

use runlens::analysis::trend::{trend, trend_metrics, trend_runs, trend_window, Trend, TrendMetric};
use runlens::analysis::window::{usable, window_run, Outcome, Shift, WindowSpec};
use runlens::bundle::Run;
use runlens::model::Thresholds;
use std::sync::Arc;

const SECONDS: u64 = 120;
const RAMP_S: u64 = 30;
const LABELS: u64 = 2;
/// Ramp-up slowdown of each night.
const SLOWDOWNS: [f64; 4] = [1.0, 1.5, 2.0, 3.0];

fn night(n: u64) -> Arc<Run> {
    let jtl = support::jtl::ramped(SECONDS, RAMP_S, SLOWDOWNS[n as usize], n, LABELS);
    let b = runlens::import::import_bytes(&format!("night-{n}.jtl"), &jtl).expect("the generated JTL imports");
    let mut run = b.bundle.runs.into_iter().next().expect("one run");
    (run.id, run.label) = (format!("n{n}"), format!("night {n}"));
    Arc::new(run)
}

/// The nearest-rank p95 of label `T01`'s rows of night `n` that start in [from_s, to_s) of test
/// time, recomputed from `ramped`'s documented formula.
fn brute_p95(n: u64, from_s: u64, to_s: u64) -> f64 {
    let mut v: Vec<f64> = (0..SECONDS * 20)
        .filter(|i| i % LABELS == 0 && (from_s * 1000..to_s * 1000).contains(&(i * 50)))
        .map(|i| {
            let slow = if i * 50 < RAMP_S * 1000 { SLOWDOWNS[n as usize] } else { 1.0 };
            ((100 + (i * 7_919 + n * 104_729) % 200) as f64 * slow).round()
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[(v.len() * 95).div_ceil(100) - 1]
}

fn p95_of_t01(runs: &[&Run]) -> TrendMetric {
    trend_metrics(runs).into_iter().find(|m| m.key == "T01" && m.metric == "p95").expect("T01 · p95 in every run")
}

fn trend_of(runs: &[Arc<Run>]) -> Trend {
    let refs: Vec<&Run> = runs.iter().map(|r| &**r).collect();
    trend(&refs, "n0", &p95_of_t01(&refs), "bundle", &Thresholds::default()).expect("a trend")
}

fn values(t: &Trend) -> Vec<Option<f64>> {
    t.row.cells.iter().map(|c| c.value).collect()
}

#[test]
fn a_windowed_trend_is_the_trend_of_the_runs_cut_one_by_one() {
    let runs: Vec<Arc<Run>> = (0..4).map(night).collect();
    let (from_s, to_s) = (20u32, 90u32);
    let cut = trend_runs(runs.iter(), &[], WindowSpec::Range { from_s, to_s }, &[]);
    assert!(cut.outcomes.iter().all(|o| matches!(o, Outcome::Cut { .. })), "{:?}", cut.outcomes);
    let one_by_one: Vec<Arc<Run>> =
        runs.iter().map(|r| Arc::new(window_run(r, from_s as f64, to_s as f64).expect("a timeline").0)).collect();
    let windowed = trend_of(&cut.runs);
    assert_eq!(windowed, trend_of(&one_by_one));
    let brute: Vec<Option<f64>> = (0..4).map(|n| Some(brute_p95(n, from_s.into(), to_s.into()))).collect();
    assert_eq!(values(&windowed), brute);
    // The whole runs' trend differs: the window is what the trend shows.
    let whole = trend_runs(runs.iter(), &[], WindowSpec::Whole, &[]);
    assert!(whole.outcomes.is_empty());
    let whole_brute: Vec<Option<f64>> = (0..4).map(|n| Some(brute_p95(n, 0, SECONDS))).collect();
    assert_eq!(values(&trend_of(&whole.runs)), whole_brute);
    assert_ne!(whole_brute, brute);
}

#[test]
fn a_run_without_a_timeline_stays_whole_and_says_so() {
    let mut runs: Vec<Arc<Run>> = (0..3).map(night).collect();
    let mut bare = (*runs[2]).clone();
    bare.timeline = None;
    runs[2] = Arc::new(bare);
    let cut = trend_runs(runs.iter(), &[], WindowSpec::Range { from_s: 40, to_s: 100 }, &[]);
    assert!(matches!(cut.outcomes[..], [Outcome::Cut { .. }, Outcome::Cut { .. }, Outcome::NoTimeline]));
    assert!(Arc::ptr_eq(&cut.runs[2], &runs[2]), "the run without a timeline is shared whole");
    assert_eq!(values(&trend_of(&cut.runs))[2], Some(brute_p95(2, 0, SECONDS)));
}

fn trend_of_metric(runs: &[Arc<Run>], m: &TrendMetric) -> Option<Trend> {
    let refs: Vec<&Run> = runs.iter().map(|r| &**r).collect();
    trend(&refs, "n0", m, "bundle", &Thresholds::default())
}

#[test]
fn the_trend_of_runs_cut_for_one_metric_is_the_trend_of_runs_cut_whole_for_every_metric() {
    let mut runs: Vec<Arc<Run>> = (0..4).map(night).collect();
    let mut bare = (*runs[3]).clone();
    bare.timeline = None;
    runs.push(Arc::new(Run { id: "bare".into(), ..bare }));
    let shifts = [Shift { run: "n2".into(), seconds: 7 }];
    let windows = [
        WindowSpec::Auto,
        WindowSpec::Range { from_s: 20, to_s: 90 },
        WindowSpec::Range { from_s: 0, to_s: 3 },
        WindowSpec::Range { from_s: 100, to_s: 400 },
        WindowSpec::Range { from_s: 500, to_s: 600 },
        WindowSpec::Whole,
    ];
    let refs: Vec<&Run> = runs.iter().map(|r| &**r).collect();
    let offered = trend_metrics(&refs);
    let sections: std::collections::BTreeSet<String> = offered.iter().map(|m| format!("{:?}", m.section)).collect();
    assert_eq!(sections.into_iter().collect::<Vec<_>>(), ["Duration", "Error", "Kpi", "Transaction"]);
    let tx_metrics: std::collections::BTreeSet<&str> =
        offered.iter().filter(|m| m.key == "T01").map(|m| m.metric.as_str()).collect();
    assert_eq!(tx_metrics.into_iter().collect::<Vec<_>>(), ["errors", "median", "p95", "throughput"]);
    let mut compared = 0;
    for spec in windows {
        let whole = trend_runs(runs.iter(), &[], spec, &shifts);
        // Every metric the view offers, and those of the cut runs (a window can drop some).
        let cut_refs: Vec<&Run> = whole.runs.iter().map(|r| &**r).collect();
        let mut metrics = offered.clone();
        metrics.extend(trend_metrics(&cut_refs).into_iter().filter(|m| !offered.contains(m)));
        for m in &metrics {
            let focused = trend_window(&runs, &usable(&runs), m, spec, &shifts);
            assert_eq!(trend_window(&runs, &[], m, spec, &shifts).runs, focused.runs, "usable found there");
            assert_eq!(focused.outcomes, whole.outcomes, "{spec:?} {}", m.label());
            let want = trend_of_metric(&whole.runs, m);
            assert_eq!(trend_of_metric(&focused.runs, m), want, "{spec:?} {}", m.label());
            compared += usize::from(want.is_some());
        }
    }
    assert!(compared >= 6 * offered.len() - 12, "most metrics make a trend in most windows: {compared}");
}
