#![cfg(not(target_arch = "wasm32"))]
//! runlens' import of a raw JTL against the statistics.json JMeter's dashboard made from the same
//! file (two pairs in tests/corpus: ehrbase-2022-05-13 and JMeter's own HTMLReportTestFile).
//!
//! Counts, errors, min, max, throughput and mean must equal JMeter's for every label and for
//! `Total`. Percentiles differ by definition, and this test explains every difference by
//! re-implementing JMeter's (here, not in the product) and reproducing its figures exactly:
//!
//! - `StatisticsSummaryConsumer` feeds each label's elapsed times, in file order (CsvFileSampleSource
//!   → normalizer → filters; nothing sorts them), to `PercentileAggregator`s built by
//!   `DescriptiveStatisticsFactory`: Commons Math `DescriptiveStatistics` with a window of
//!   `jmeter.reportgenerator.statistic_window` = 20,000 values (the last ones added; before JMeter
//!   5.5 the factory dropped the window size, so the window was unbounded) and
//!   `Percentile.withEstimationType(backend_metrics_percentile_estimator = LEGACY)`.
//! - LEGACY: pos = p/100·(n+1); below 1 the minimum, at n or above the maximum, else
//!   x[⌊pos⌋] + (pos − ⌊pos⌋)·(x[⌊pos⌋+1] − x[⌊pos⌋]) (1-based). runlens: nearest rank x[⌈p·n/100⌉].
//! - The median is the same aggregator at 50; the mean is Commons Math's incremental `Mean`
//!   (m += (x − m)/k), which differs from sum/n in the last bits; throughput is
//!   (n / (last end − first start)) · 1000.
//! - `Total` skips samples whose response message starts with "Number of samples in transaction"
//!   (Transaction Controller parents; runlens' run KPIs skip them too, unless the file has nothing
//!   else), and every statistic skips empty controllers ("… : 0"), which runlens counts like the
//!   Aggregate Report listener does. Neither pair has controller samples; the test checks that.
//!
//! `cargo test --test jmeter_dashboard_parity -- --nocapture` prints the table of differences.

use runlens::bundle::{Run, Transaction};
use runlens::import::import_bytes;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const WINDOW: usize = 20_000;

/// One raw sample: label, elapsed, start, success, response message.
struct Raw {
    label: String,
    elapsed: u64,
    start: i64,
    ok: bool,
    message: String,
}

fn corpus(rel: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(rel)).unwrap()
}

fn raw_samples(bytes: &[u8]) -> Vec<Raw> {
    let mut r = csv::Reader::from_reader(bytes);
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (ts, el, lb, ok, rm) = (col("timeStamp"), col("elapsed"), col("label"), col("success"), col("responseMessage"));
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            Raw {
                label: rec[lb].to_string(),
                elapsed: rec[el].parse().unwrap(),
                start: rec[ts].parse().unwrap(),
                ok: &rec[ok] == "true",
                message: rec[rm].to_string(),
            }
        })
        .collect()
}

/// Commons Math `Percentile` with `EstimationType.LEGACY` over `values` (any order).
fn legacy_percentile(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 1 {
        return v[0];
    }
    let q = p / 100.0;
    let pos = if q == 0.0 {
        0.0
    } else if q == 1.0 {
        n as f64
    } else {
        q * (n as f64 + 1.0)
    };
    let f = pos.floor();
    let (int_pos, dif) = (f as usize, pos - f);
    if pos < 1.0 {
        return v[0];
    }
    if pos >= n as f64 {
        return v[n - 1];
    }
    let (lower, upper) = (v[int_pos - 1], v[int_pos]);
    lower + dif * (upper - lower)
}

/// JMeter's dashboard statistics of one label (or Total) from its samples in file order.
struct Dashboard {
    n: u64,
    errors: u64,
    min: f64,
    max: f64,
    mean: f64,
    throughput: f64,
    /// median, pct1, pct2, pct3
    pcts: [f64; 4],
}

fn dashboard(samples: &[&Raw]) -> Dashboard {
    let mut m1 = 0.0;
    for (k, s) in samples.iter().enumerate() {
        m1 += (s.elapsed as f64 - m1) / (k + 1) as f64;
    }
    let window: Vec<f64> = samples.iter().rev().take(WINDOW).map(|s| s.elapsed as f64).collect();
    let first = samples.iter().map(|s| s.start).min().unwrap();
    let end = samples.iter().map(|s| s.start + s.elapsed as i64).max().unwrap();
    Dashboard {
        n: samples.len() as u64,
        errors: samples.iter().filter(|s| !s.ok).count() as u64,
        min: samples.iter().map(|s| s.elapsed).min().unwrap() as f64,
        max: samples.iter().map(|s| s.elapsed).max().unwrap() as f64,
        mean: m1,
        throughput: (samples.len() as f64 / (end - first) as f64) * 1000.0,
        pcts: [50.0, 90.0, 95.0, 99.0].map(|p| legacy_percentile(&window, p)),
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}

fn num(v: &Value, field: &str) -> f64 {
    v[field].as_f64().unwrap_or_else(|| panic!("{field} in {v}"))
}

/// Why runlens' nearest rank and JMeter's LEGACY estimate of the p-th percentile differ (or not).
fn why(sorted: &[f64], p: f64, runlens: f64, jmeter: f64) -> String {
    let n = sorted.len();
    let rank = ((p * n as f64) / 100.0).ceil().max(1.0) as usize;
    let pos = p / 100.0 * (n as f64 + 1.0);
    if runlens == jmeter {
        return "same".into();
    }
    if pos >= n as f64 {
        return format!("p{p}: JMeter's rank {pos:.2} ≥ n = {n} gives the max; runlens takes rank {rank}");
    }
    let f = pos.floor() as usize;
    let frac = pos - pos.floor();
    if frac == 0.0 || sorted[f - 1] == sorted[f] {
        return format!("p{p}: JMeter takes rank {f} (p·(n+1) = {pos:.2}), runlens rank {rank} (⌈p·n⌉)");
    }
    format!(
        "p{p}: JMeter interpolates x{f}={}…x{}={} at {frac:.2} (p·(n+1) = {pos:.2}), runlens takes x{rank} (⌈p·n⌉)",
        sorted[f - 1],
        f + 1,
        sorted[f]
    )
}

struct Pair {
    raw: &'static str,
    stats: &'static str,
}

const PAIRS: [Pair; 2] = [
    Pair { raw: "jmeter-csv/ehrbase-2022-05-13.jtl", stats: "jmeter-statistics-json/ehrbase-2022-05-13.json" },
    Pair {
        raw: "jmeter-csv/apache-jmeter-htmlreport-testfile.csv",
        stats: "jmeter-statistics-json/apache-jmeter-HTMLReportExpect.json",
    },
];

fn txn<'a>(run: &'a Run, name: &str) -> &'a Transaction {
    run.transactions.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("runlens has no transaction {name:?}"))
}

fn kpi(run: &Run, name: &str) -> f64 {
    run.kpis.iter().find(|k| k.name == name).map(|k| k.value).unwrap_or_else(|| panic!("no KPI {name}"))
}

#[test]
fn runlens_matches_jmeter_dashboard_and_percentile_differences_are_explained() {
    for pair in PAIRS {
        let raw_bytes = corpus(pair.raw);
        let run = import_bytes(pair.raw, &raw_bytes).unwrap().bundle.runs.remove(0);
        let raws = raw_samples(&raw_bytes);
        assert!(
            raws.iter().all(|r| !r.message.starts_with("Number of samples in transaction")),
            "the pair has controller samples"
        );
        let stats: Value = serde_json::from_slice(&corpus(pair.stats)).unwrap();
        let stats = stats.as_object().unwrap();
        let mut by_label: BTreeMap<&str, Vec<&Raw>> = BTreeMap::new();
        for r in &raws {
            by_label.entry(r.label.as_str()).or_default().push(r);
        }
        assert_eq!(stats.len(), by_label.len() + 1, "{}: one entry per label and Total", pair.stats);
        println!("\n{} vs {}", pair.raw, pair.stats);
        println!("| label | n | runlens p90 / p95 / p99 | JMeter p90 / p95 / p99 | why they differ |");
        println!("|---|---|---|---|---|");
        let mut same = 0;
        for (label, entry) in stats {
            let samples: Vec<&Raw> =
                if label == "Total" { raws.iter().collect() } else { by_label[label.as_str()].clone() };
            let ours = dashboard(&samples);
            // Our re-implementation of JMeter reproduces its file exactly.
            assert_eq!(ours.n, num(entry, "sampleCount") as u64, "{label}");
            assert_eq!(ours.errors, num(entry, "errorCount") as u64, "{label}");
            assert_eq!((ours.min, ours.max), (num(entry, "minResTime"), num(entry, "maxResTime")), "{label}");
            assert_eq!(ours.mean, num(entry, "meanResTime"), "{label}: Commons Math's incremental mean");
            assert_eq!(ours.throughput, num(entry, "throughput"), "{label}");
            let jm = ["medianResTime", "pct1ResTime", "pct2ResTime", "pct3ResTime"].map(|f| num(entry, f));
            assert_eq!(ours.pcts, jm, "{label}: JMeter's LEGACY percentiles over the last {WINDOW} samples");

            // runlens: the same counts, errors, min, max, mean (to float rounding) and throughput.
            let (rl_n, rl_err, rl_mean, rl_min, rl_max, rl_tput, rl_p) = if label == "Total" {
                let mins = run.transactions.iter().filter_map(|t| t.min_ms).fold(f64::MAX, f64::min);
                let maxs = run.transactions.iter().filter_map(|t| t.max_ms).fold(0.0, f64::max);
                let n = kpi(&run, "Samples");
                let p95 = kpi(&run, "p95 response time");
                (
                    n as u64,
                    (kpi(&run, "Error rate") * n / 100.0).round() as u64,
                    kpi(&run, "Mean response time"),
                    mins,
                    maxs,
                    kpi(&run, "Throughput"),
                    [None, None, Some(p95), None],
                )
            } else {
                let t = txn(&run, label);
                (
                    t.samples.unwrap(),
                    t.errors.unwrap(),
                    t.mean_ms.unwrap(),
                    t.min_ms.unwrap(),
                    t.max_ms.unwrap(),
                    t.throughput_per_s.unwrap(),
                    [t.median_ms, t.p90_ms, t.p95_ms, t.p99_ms],
                )
            };
            assert_eq!((rl_n, rl_err, rl_min, rl_max), (ours.n, ours.errors, ours.min, ours.max), "{label}");
            assert!(close(rl_mean, ours.mean, 1e-12), "{label}: mean {rl_mean} vs {}", ours.mean);
            assert!(close(rl_tput, ours.throughput, 1e-12), "{label}: throughput {rl_tput} vs {}", ours.throughput);

            // Percentiles: where they differ, the difference is the definition, shown per cell.
            let mut sorted: Vec<f64> = samples.iter().map(|s| s.elapsed as f64).collect();
            sorted.sort_by(f64::total_cmp);
            let nearest = |p: f64| sorted[((p * sorted.len() as f64) / 100.0).ceil().max(1.0) as usize - 1];
            let mut reasons = Vec::new();
            for (i, p) in [50.0, 90.0, 95.0, 99.0].into_iter().enumerate() {
                let runlens = rl_p[i].unwrap_or_else(|| nearest(p));
                assert_eq!(runlens, nearest(p), "{label} p{p}: runlens is nearest rank");
                let reason = why(&sorted, p, runlens, jm[i]);
                if reason != "same" {
                    reasons.push(reason);
                }
            }
            if reasons.is_empty() {
                same += 1;
                continue;
            }
            let show = |v: [f64; 3]| v.map(|x| format!("{x}")).join(" / ");
            println!(
                "| {label} | {} | {} | {} | {} |",
                ours.n,
                show([nearest(90.0), nearest(95.0), nearest(99.0)]),
                show([jm[1], jm[2], jm[3]]),
                reasons.join("; ")
            );
        }
        println!("({same} of {} rows have the same median, p90, p95 and p99 in both)", stats.len());
    }
}

#[test]
fn legacy_estimation_follows_commons_math() {
    // Commons Math's documented LEGACY examples: n = 4, p = 50 → pos 2.5 → halfway.
    assert_eq!(legacy_percentile(&[4.0, 1.0, 3.0, 2.0], 50.0), 2.5);
    assert_eq!(legacy_percentile(&[1.0, 2.0, 3.0, 4.0], 10.0), 1.0, "pos 0.5 < 1: the minimum");
    assert_eq!(legacy_percentile(&[1.0, 2.0, 3.0, 4.0], 90.0), 4.0, "pos 4.5 ≥ n: the maximum");
    assert_eq!(legacy_percentile(&[7.0], 99.0), 7.0);
}
