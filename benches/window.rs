//! Benchmark of moving the window (issue 30's target: every open view updated in ≤ 100 ms): a
//! 1-hour, 50-transaction, 20-user run and its candidate imported from generated JTLs, then for
//! several windows the work behind one move: both runs cut (`window_runs`), the bootstrap
//! intervals and the comparison of the cut runs, the latency table, and the Timeline view's
//! series; and the Trends view's cut of 90 such nights: every loaded run, not only the selected
//! two, cut whole (`trend_runs`) and as far as one metric needs (`trend_window`, what the view
//! does), then that metric's trend. Run: `cargo bench --bench window`. Prints medians (no timing
//! assertions anywhere).

use runlens::analysis::trend::{ordered, trend, trend_metrics, trend_runs, trend_window};
use runlens::analysis::window::{window_runs, WindowSpec};
use runlens::analysis::{compare_with, intervals};
use runlens::model::Thresholds;
use runlens::tables::{latency_table, run_series, RowFilter, SeriesOptions};
use std::sync::Arc;
use std::time::Instant;
use support::stats::median_high;

fn run(id: &str, slowdown: f64, night: u64) -> Arc<runlens::bundle::Run> {
    let jtl = support::jtl::ramped(3600, 300, slowdown, night, 50);
    let t = Instant::now();
    let imported = runlens::import::import_bytes(&format!("{id}.jtl"), &jtl).expect("the generated JTL imports");
    eprintln!("{id}: {} rows imported in {:.0} ms", jtl.iter().filter(|b| **b == b'\n').count() - 1, ms(t));
    let mut run = imported.bundle.runs.into_iter().next().expect("one run");
    run.id = id.into();
    Arc::new(run)
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let runs = [run("base", 1.0, 0), run("cand", 2.0, 1)];
    let th = Thresholds::default();
    let labels = vec!["base".to_string(), "cand".to_string()];
    let (mut cut, mut judged, mut table, mut series) = (vec![], vec![], vec![], vec![]);
    for i in 0..21u32 {
        let spec = if i == 0 { WindowSpec::Auto } else { WindowSpec::Range { from_s: 60 * i, to_s: 3000 + 20 * i } };
        let t = Instant::now();
        let w = window_runs(&runs, spec, &[]);
        cut.push(ms(t));
        let refs: Vec<&runlens::bundle::Run> = w.runs.iter().map(|r| &**r).collect();
        let t = Instant::now();
        let iv = intervals(&refs);
        let rows = compare_with(&refs, &th, &iv);
        judged.push(ms(t));
        let t = Instant::now();
        let lt = latency_table(&rows, &labels, &RowFilter::default());
        table.push(ms(t));
        std::hint::black_box(lt);
        let t = Instant::now();
        for p in [95u8, 99] {
            let o = SeriesOptions { percentile: p, transaction: None, clock: false, unit_s: 60.0 };
            std::hint::black_box(runs.iter().filter_map(|r| run_series(r, &o)).count());
        }
        series.push(ms(t) / 2.0);
    }
    let mut total: Vec<f64> = (0..cut.len()).map(|i| cut[i] + judged[i] + table[i]).collect();
    println!("window move, 2 runs × 50 transactions × 1 h (medians of {} moves):", cut.len());
    println!("  cut both runs          {:8.2} ms", median_high(&mut cut));
    println!("  intervals + compare    {:8.2} ms", median_high(&mut judged));
    println!("  latency table          {:8.2} ms", median_high(&mut table));
    println!("  total                  {:8.2} ms", median_high(&mut total));
    println!("  timeline series (view) {:8.2} ms", median_high(&mut series));
    // Trends: 90 nights, each as big as the base run (the same data under 90 ids: cutting costs
    // the same whatever the values).
    let nights: Vec<Arc<runlens::bundle::Run>> = (0..90)
        .map(|i| {
            let mut r = (*runs[0]).clone();
            r.id = format!("night-{i}");
            Arc::new(r)
        })
        .collect();
    let spec = |i: u32| WindowSpec::Range { from_s: 60 * i, to_s: 3000 + 20 * i };
    let mut trend_cut = Vec::new();
    for i in 1..8u32 {
        let t = Instant::now();
        let w = trend_runs(nights.iter(), &[], spec(i), &[]);
        trend_cut.push(ms(t));
        std::hint::black_box(w);
    }
    println!("  trends: cut 90 nights  {:8.2} ms (median of {} moves)", median_high(&mut trend_cut), 7);
    // The view on a window move: the 90 nights cut for the chosen metric, and its trend.
    let refs: Vec<&runlens::bundle::Run> = nights.iter().map(|r| &**r).collect();
    let metrics = trend_metrics(&refs);
    let usable = runlens::analysis::window::usable(&nights);
    for label in ["Run duration", "T25 · p95", "T25 · errors", "p95 response time"] {
        let m = metrics.iter().find(|m| m.label() == label).expect("a metric of the nights");
        let (mut cut, mut judged) = (Vec::new(), Vec::new());
        for i in 1..8u32 {
            let t = Instant::now();
            let w = trend_window(&nights, &usable, m, spec(i), &[]);
            cut.push(ms(t));
            let t = Instant::now();
            let refs: Vec<&runlens::bundle::Run> = w.runs.iter().map(|r| &**r).collect();
            std::hint::black_box(trend(&ordered(&refs, "start"), "night-0", m, "start", &th));
            judged.push(ms(t));
        }
        let (c, j) = (median_high(&mut cut), median_high(&mut judged));
        println!("  trends view, {label:<18} cut {c:6.2} ms + trend {j:6.2} ms");
    }
}
