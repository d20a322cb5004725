#![cfg(not(target_arch = "wasm32"))]
//! The same Gatling run imported twice, from its raw simulation.log and from Gatling's own
//! js/stats.json, must agree: counts, OK/KO, min and max exactly; the mean as Gatling rounds it;
//! the throughput as Gatling computes it; and the percentiles within Gatling's own definition.
//!
//! How Gatling computes report percentiles (gatling-charts GeneralStatsBuffers, Gatling 2.2 to
//! 3.14): every response time (whole ms) goes into a t-digest, com.tdunning AVLTreeDigest 3.1 with
//! compression δ = 100 (not HdrHistogram, which only feeds the Graphite writer); the report value
//! is `math.round(digest.quantile(p / 100))`. AVLTreeDigest.quantile interpolates linearly between
//! centroid centres at index q·(n − 1), so with one value per centroid it is the "linear between
//! closest ranks" percentile (R-7) rounded to ms; a centroid holds at most 4·n·q·(1 − q)/δ values
//! (AVLTreeDigest.add), so Gatling's figure lies between the sorted values at ranks
//! q·(n − 1) ± (4·n·q·(1 − q)/δ + 1). runlens reports exact nearest-rank percentiles. The test
//! checks Gatling's figure against that window of the raw values, and prints the comparison
//! (`cargo test --test gatling_raw_vs_summary -- --nocapture`).

use runlens::bundle::Transaction;
use runlens::import::import_bytes;
use std::collections::BTreeMap;
use std::path::Path;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/gatling").join(name)).unwrap()
}

/// An independent reading of a Gatling 3.5 log: response times per request name.
fn oracle(log: &str) -> BTreeMap<String, Vec<i64>> {
    let mut out: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for line in log.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "REQUEST" {
            let (start, end): (i64, i64) = (f[3].parse().unwrap(), f[4].parse().unwrap());
            out.entry(f[2].to_string()).or_default().push(end - start);
        }
    }
    out.values_mut().for_each(|v| v.sort_unstable());
    out
}

fn nearest_rank(sorted: &[i64], p: f64) -> i64 {
    let rank = ((p * sorted.len() as f64) / 100.0).ceil().max(1.0) as usize;
    sorted[rank - 1]
}

/// linear interpolation between the closest ranks, rounded as Gatling rounds.
fn linear(sorted: &[i64], p: f64) -> i64 {
    let i = p / 100.0 * (sorted.len() - 1) as f64;
    let (lo, hi) = (sorted[i.floor() as usize] as f64, sorted[i.ceil() as usize] as f64);
    (lo + (hi - lo) * (i - i.floor())).round() as i64
}

/// The raw values Gatling's t-digest estimate can fall between.
fn tdigest_window(sorted: &[i64], p: f64) -> (i64, i64) {
    let (n, q) = (sorted.len() as f64, p / 100.0);
    let centroid = 4.0 * n * q * (1.0 - q) / 100.0 + 1.0;
    let i = q * (n - 1.0);
    let lo = (i - centroid).floor().max(0.0) as usize;
    let hi = ((i + centroid).ceil() as usize).min(sorted.len() - 1);
    (sorted[lo], sorted[hi])
}

fn by_name(ts: &[Transaction]) -> BTreeMap<&str, &Transaction> {
    ts.iter().map(|t| (t.name.as_str(), t)).collect()
}

fn compare(run: &str) -> usize {
    let log_bytes = corpus(&format!("{run}-simulation.log"));
    let raw = import_bytes(&format!("{run}-simulation.log"), &log_bytes).unwrap();
    let summary = import_bytes(&format!("{run}-stats.json"), &corpus(&format!("{run}-stats.json"))).unwrap();
    let (raw_run, sum_run) = (&raw.bundle.runs[0], &summary.bundle.runs[0]);
    let values = oracle(std::str::from_utf8(&log_bytes).unwrap());
    let (raw_t, sum_t) = (by_name(&raw_run.transactions), by_name(&sum_run.transactions));
    assert_eq!(raw_t.keys().collect::<Vec<_>>(), sum_t.keys().collect::<Vec<_>>(), "{run}: the same requests");
    // Gatling's mean requests/s divides by the run's duration rounded up to whole seconds.
    let secs = raw_run.duration_s.unwrap().ceil();
    println!("\n{run}: runlens from simulation.log (exact, nearest rank) vs Gatling's stats.json (t-digest, rounded)");
    println!(
        "{:<38} {:>11} {:>9} {:>9} {:>11} | {:>16} {:>16} {:>16} {:>16}",
        "request",
        "n ok/ko",
        "min",
        "max",
        "mean",
        "p50 rl/G [win]",
        "p75 rl/G [win]",
        "p95 rl/G [win]",
        "p99 rl/G [win]"
    );
    let mut linear_misses = Vec::new();
    for (name, s) in &sum_t {
        let r = raw_t[name];
        let sorted = &values[*name];
        let n = sorted.len() as u64;
        // The importer agrees with the independent reading…
        assert_eq!(r.samples, Some(n), "{name}");
        assert_eq!((r.min_ms, r.max_ms), (Some(sorted[0] as f64), Some(*sorted.last().unwrap() as f64)), "{name}");
        assert_eq!(r.mean_ms, Some(sorted.iter().sum::<i64>() as f64 / n as f64), "{name}");
        for (p, got) in
            [(50.0, r.median_ms), (95.0, r.p95_ms), (99.0, r.p99_ms), (75.0, r.percentiles.get("p75").copied())]
        {
            assert_eq!(got, Some(nearest_rank(sorted, p) as f64), "{name} p{p}");
        }
        // …and with Gatling.
        assert_eq!((r.samples, r.errors), (s.samples, s.errors), "{name}: count and KO");
        assert_eq!((r.min_ms, r.max_ms), (s.min_ms, s.max_ms), "{name}: min/max");
        assert_eq!(r.mean_ms.map(f64::round), s.mean_ms, "{name}: mean as Gatling rounds it");
        let tput = s.throughput_run_per_s.unwrap();
        assert!((tput - n as f64 / secs).abs() < 1e-9, "{name}: {tput} vs {n}/{secs}");
        let mut cells = Vec::new();
        for (p, g) in
            [(50.0, s.median_ms), (75.0, s.percentiles.get("p75").copied()), (95.0, s.p95_ms), (99.0, s.p99_ms)]
        {
            let g = g.unwrap() as i64;
            let (lo, hi) = tdigest_window(sorted, p);
            assert!(lo <= g && g <= hi, "{run} {name} p{p}: Gatling {g} outside the t-digest window [{lo}, {hi}]");
            if g != linear(sorted, p) {
                linear_misses.push(format!("{name} p{p}: Gatling {g}, exact linear {}", linear(sorted, p)));
            }
            cells.push(format!("{}/{} [{lo}-{hi}]", nearest_rank(sorted, p), g));
        }
        let ko = s.errors.unwrap();
        println!(
            "{:<38} {:>11} {:>9} {:>9} {:>11} | {:>16} {:>16} {:>16} {:>16}",
            name.chars().take(38).collect::<String>(),
            format!("{}/{}", n - ko, ko),
            sorted[0],
            sorted.last().unwrap(),
            format!("{:.2}/{}", r.mean_ms.unwrap(), s.mean_ms.unwrap()),
            cells[0],
            cells[1],
            cells[2],
            cells[3]
        );
    }
    // The run totals: every request, as in Gatling's Global Information.
    let all: Vec<i64> = {
        let mut v: Vec<i64> = values.values().flatten().copied().collect();
        v.sort_unstable();
        v
    };
    let kpi = |run: &runlens::bundle::Run, k: &str| run.kpis.iter().find(|x| x.name == k).map(|x| x.value);
    assert_eq!(kpi(raw_run, "Samples"), kpi(sum_run, "Samples"));
    assert_eq!(kpi(raw_run, "Error rate"), kpi(sum_run, "Error rate"));
    assert_eq!(kpi(raw_run, "Mean response time").map(f64::round), kpi(sum_run, "Mean response time"));
    let (lo, hi) = tdigest_window(&all, 95.0);
    let g95 = kpi(sum_run, "p95 response time").unwrap() as i64;
    assert!(lo <= g95 && g95 <= hi, "global p95 {g95} outside [{lo}, {hi}]");
    println!(
        "{:<38} {:>11} {:>9} {:>9} {:>11} | p95 {}/{} [{lo}-{hi}]",
        "Global Information",
        all.len(),
        all[0],
        all.last().unwrap(),
        format!("{:.2}/{}", kpi(raw_run, "Mean response time").unwrap(), kpi(sum_run, "Mean response time").unwrap()),
        nearest_rank(&all, 95.0),
        g95
    );
    println!(
        "Gatling's figure equals the exact linear (R-7) percentile, rounded, in {} of {} cases; t-digest merging explains the rest: {:?}",
        4 * sum_t.len() - linear_misses.len(),
        4 * sum_t.len(),
        linear_misses
    );
    sum_t.len()
}

#[test]
fn raw_log_and_gatling_summary_agree() {
    assert_eq!(compare("apicurio-2021-10-20-baseline"), 9);
    assert_eq!(compare("apicurio-2021-10-21-candidate"), 9);
}

#[test]
fn global_stats_match_the_log_totals() {
    for run in ["apicurio-2021-10-20-baseline", "apicurio-2021-10-21-candidate"] {
        let raw = import_bytes("r.log", &corpus(&format!("{run}-simulation.log"))).unwrap();
        let global = import_bytes("global_stats.json", &corpus(&format!("{run}-global_stats.json"))).unwrap();
        let t = &global.bundle.runs[0].transactions[0];
        let r = &raw.bundle.runs[0];
        let samples: u64 = r.transactions.iter().map(|t| t.samples.unwrap()).sum();
        let errors: u64 = r.transactions.iter().map(|t| t.errors.unwrap()).sum();
        assert_eq!((t.samples, t.errors), (Some(samples), Some(errors)), "{run}");
        let min = r.transactions.iter().filter_map(|t| t.min_ms).fold(f64::MAX, f64::min);
        let max = r.transactions.iter().filter_map(|t| t.max_ms).fold(0.0, f64::max);
        assert_eq!((t.min_ms, t.max_ms), (Some(min), Some(max)), "{run}");
    }
}
