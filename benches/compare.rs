//! Benchmark of the work behind a baseline/candidate switch on a large bundle: `analysis::compare`
//! and the latency table for 2 runs × 2,000 transactions, and the bootstrap intervals of the same
//! runs when every transaction carries a histogram, and the latency table of 2 × 10,000
//! transactions behind a keystroke in its filter, and the trends view's work on a 50-run history
//! (its list of metrics, and one metric's trend). Run: `cargo bench --bench compare`.
//! Prints the median of the runs (no timing assertions anywhere).

use runlens::analysis::{compare_with, intervals, Intervals};
use runlens::bundle::{Histogram, Run, Transaction};
use runlens::model::Thresholds;
use runlens::tables::{latency_table, RowFilter};
use std::time::Instant;
use support::stats::median_high;

/// A histogram of `samples` values around `b` ms in buckets about 3 % wide, as the importers
/// write them for transactions with many distinct values.
fn histogram(b: f64, samples: u64) -> Histogram {
    let bounds: Vec<f64> = (0..150).map(|i| b * 0.3 * 1.03f64.powi(i)).collect();
    let weights: Vec<f64> = (0..150).map(|i| (-((i as f64 - 40.0) / 18.0).powi(2)).exp()).collect();
    let total: f64 = weights.iter().sum();
    let counts = weights.iter().map(|w| (w / total * samples as f64).round() as u64 + 1).collect();
    Histogram { upper_bounds_ms: bounds, counts }
}

fn run(id: &str, n: usize, k: f64, with_histograms: bool) -> Run {
    Run {
        id: id.into(),
        label: id.into(),
        transactions: (0..n)
            .map(|i| {
                let b = 50.0 + (i % 97) as f64 * 3.0 * k;
                Transaction {
                    name: format!("tx{i:05}"),
                    samples: Some(1000),
                    errors: Some(1),
                    mean_ms: Some(b),
                    median_ms: Some(b * 0.9),
                    p90_ms: Some(b * 1.5),
                    p95_ms: Some(b * 1.8),
                    p99_ms: Some(b * 2.5),
                    min_ms: Some(b * 0.2),
                    max_ms: Some(b * 4.0),
                    throughput_per_s: Some(12.5),
                    histogram: with_histograms.then(|| histogram(b, 1000)),
                    ..Default::default()
                }
            })
            .collect(),
        ..Default::default()
    }
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let th = Thresholds::default();
    let (a, b) = (run("a", 2000, 1.0, false), run("b", 2000, 1.1, false));
    let labels = vec!["a".to_string(), "b".to_string()];
    let (mut t_facts, mut t_cmp, mut t_tab) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..31 {
        let t0 = Instant::now();
        let n = runlens::model::facts(&a).len() + runlens::model::facts(&b).len();
        t_facts.push(ms(t0));
        assert_eq!(n, 2 * 2000 * 10);
        let t0 = Instant::now();
        let rows = compare_with(&[&a, &b], &th, &Intervals::default());
        t_cmp.push(ms(t0));
        let t1 = Instant::now();
        let t = latency_table(&rows, &labels, &RowFilter::default());
        t_tab.push(ms(t1));
        assert_eq!(t.rows.len(), 4000);
    }
    println!(
        "compare 2x2000: median {:.2} ms (of which flattening the runs into facts {:.2} ms); latency_table: median {:.2} ms",
        median_high(&mut t_cmp),
        median_high(&mut t_facts),
        median_high(&mut t_tab)
    );
    // The table behind a keystroke in the filter of 2 × 10,000 transactions (bench-ui figure 3).
    let (a10, b10) = (run("a", 10_000, 1.0, false), run("b", 10_000, 1.1, false));
    let rows = compare_with(&[&a10, &b10], &th, &Intervals::default());
    let mut t_filter = Vec::new();
    for i in 0..31 {
        let f = RowFilter { text: if i % 2 == 0 { "3".into() } else { "7".into() }, regressions_only: false };
        let t0 = Instant::now();
        let t = latency_table(&rows, &labels, &f);
        t_filter.push(ms(t0));
        assert!(t.rows.len() > 2000);
    }
    println!(
        "latency_table of 2x10,000 transactions filtered by one digit: median {:.2} ms",
        median_high(&mut t_filter)
    );
    let (ha, hb) = (run("a", 2000, 1.0, true), run("b", 2000, 1.1, true));
    let mut t_iv = Vec::new();
    for _ in 0..5 {
        let t0 = Instant::now();
        let iv = intervals(&[&ha, &hb]);
        t_iv.push(ms(t0));
        assert_eq!(iv.len(), 2000);
    }
    println!(
        "bootstrap intervals (median, p95, p99, 1,000 replicates each) and exceedance tests (max, min) for 2,000 transactions with 150-bucket histograms: median {:.0} ms",
        median_high(&mut t_iv)
    );
    // The trends view on a history of 50 runs × 2,000 transactions: its list of metrics (once per
    // history), and the trend of one metric (again at every change of metric, baseline or order).
    let history: Vec<Run> = (0..50).map(|i| run(&format!("n{i:02}"), 2000, 1.0 + i as f64 / 100.0, false)).collect();
    let refs: Vec<&Run> = history.iter().collect();
    let (mut t_metrics, mut t_trend) = (Vec::new(), Vec::new());
    for _ in 0..11 {
        let t0 = Instant::now();
        let metrics = runlens::analysis::trend::trend_metrics(&refs);
        t_metrics.push(ms(t0));
        let m = metrics.iter().find(|m| m.key == "tx01234" && m.metric == "p95").expect("a p95 trend");
        let t0 = Instant::now();
        let t = runlens::analysis::trend::trend(&refs, "n00", m, runlens::analysis::trend::ORDER_BUNDLE, &th)
            .expect("a trend");
        t_trend.push(ms(t0));
        assert_eq!(t.row.cells.len(), 50);
    }
    println!("trends of 50 runs x 2,000 transactions: the list of metrics median {:.1} ms; one metric's trend median {:.2} ms", median_high(&mut t_metrics), median_high(&mut t_trend));
}
