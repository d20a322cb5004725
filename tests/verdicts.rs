//! Verdicts on the seed examples, as a release manager would read them: a failed run is no win,
//! a view offers the runs that have its data, and seed 001's 20-user comparison gets a verdict
//! per transaction and one overall statement (printed: `cargo test --test verdicts -- --nocapture`).
#![cfg(not(target_arch = "wasm32"))]

use runlens::analysis::{compare, summarize, Verdict, Why};
use runlens::bundle::{load_bundle_str, Run};
use runlens::model::{Section, Workspace};

fn workspace(file: &str) -> Workspace {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples").join(file);
    let loaded = load_bundle_str(file, &std::fs::read_to_string(path).unwrap()).unwrap();
    let mut ws = Workspace::default();
    ws.add(file, loaded.bundle, loaded.warnings);
    ws
}

fn runs<'w>(ws: &'w Workspace, ids: &[&str]) -> Vec<&'w Run> {
    ids.iter().map(|id| ws.run(id).unwrap()).collect()
}

#[test]
fn seed000_a_failed_run_is_not_a_91_percent_win() {
    let ws = workspace("folio-reindex-orchid-vs-poppy.json");
    let rows = compare(&runs(&ws, &["orchid", "poppy-t3"]), &ws.thresholds());
    let dur = rows.iter().find(|r| r.section == Section::Duration).unwrap();
    assert_eq!(dur.cells[1].verdict, Verdict::NotComparable);
    assert_eq!(dur.reason(1), "this run failed; its figures are not comparable");
    let s = summarize(&rows, 1);
    assert!(s.failed && s.worst.is_empty(), "{s:?}");
}

#[test]
fn seed001_latency_is_offered_from_the_runs_that_have_it() {
    let ws = workspace("folio-mod-search-eureka.json");
    let default = ws.default_selection();
    assert!(
        runs(&ws, &default.iter().map(String::as_str).collect::<Vec<_>>()).iter().all(|r| r.transactions.is_empty()),
        "the default pair has no latency"
    );
    let offers = ws.selections_with(|r| !r.transactions.is_empty());
    assert_eq!(offers.len(), 1, "{offers:?}");
    assert_eq!(offers[0].0, "20 users: non-Eureka vs Eureka");
    assert_eq!(offers[0].1, vec!["non-eureka-20u", "eureka-20u"]);
}

#[test]
fn seed001_twenty_users_eureka_vs_non_eureka() {
    let ws = workspace("folio-mod-search-eureka.json");
    let selected = runs(&ws, &["non-eureka-20u", "eureka-20u"]);
    let labels: Vec<String> = selected.iter().map(|r| r.label.clone()).collect();
    let rows = compare(&selected, &ws.thresholds());
    let tx: Vec<_> = rows.iter().filter(|r| r.section == Section::Transaction && &*r.metric == "p95").collect();
    assert_eq!(tx.len(), 46);
    for r in &tx {
        assert_eq!(r.cells[1].verdict, Verdict::Missing, "{}", r.key);
        assert_eq!(r.cells[1].why, Why::SectionAbsent(Section::Transaction));
        assert_eq!(r.reason(1), "this run has no per-transaction latency");
    }
    let kpi = rows.iter().find(|r| r.key.starts_with("Performance degradation")).unwrap();
    assert_eq!(kpi.cells[1].verdict, Verdict::Added, "the 7.8 % is a figure of the report, not a comparison of data");
    let statement = summarize(&rows, 1).sentence(&labels);
    println!("seed 001, 20 users: {statement}");
    for r in tx.iter().take(3) {
        println!("  {}: {} ({})", r.key, r.cells[1].verdict.label(), r.reason(1));
    }
    assert!(statement.starts_with(
        "20 users, Eureka (qep1) against 20 users, non-Eureka (qcp1): none of 46 transactions can be judged: 20 users, Eureka (qep1) has no per-transaction latency."
    ), "{statement}");
    assert!(statement.ends_with("No regression beyond noise among the figures both runs have."), "{statement}");
}

/// What the bundle would need: with seed 001's sample counts (3,682) and the spread of its first
/// transaction (median 487 ms, p95 1,148 ms: a log-normal with σ ≈ 0.52), histograms in both runs
/// would resolve a 7.8 % shift of the median from noise nearly always (its 95 % interval is about
/// ±3 %). A power estimate on simulated runs; the bundle itself carries no distributions.
#[test]
fn seed001_a_7_8_percent_shift_would_be_resolvable_with_histograms() {
    use runlens::analysis::noise::{quantile_change, seed, Rng};
    use runlens::bundle::Histogram;
    let sigma = (1148.0f64 / 487.0).ln() / 1.645;
    let sample = |k: f64, s: u64| {
        let mut rng = Rng::new(s);
        let mut v: Vec<f64> = (0..3682).map(|_| (487.0 * k * (sigma * rng.normal()).exp()).round()).collect();
        v.sort_by(f64::total_cmp);
        let mut h = Histogram::default();
        for x in v {
            if h.upper_bounds_ms.last() == Some(&x) {
                *h.counts.last_mut().unwrap() += 1;
            } else {
                h.upper_bounds_ms.push(x);
                h.counts.push(1);
            }
        }
        h
    };
    for (name, q) in [("median", 0.5), ("p95", 0.95)] {
        let (mut detected, mut width) = (0, 0.0);
        for s in 0..20 {
            let i = quantile_change(&sample(1.0, 100 + s), &sample(1.078, 200 + s), q, seed("x", q)).unwrap();
            detected += usize::from(i.lo > 0.0);
            width += (i.hi - i.lo) / 20.0;
        }
        println!("hypothetical 7.8 % shift of every sample, {name}: beyond noise in {detected} of 20 simulated pairs; mean interval width {:.1} pp", width * 100.0);
        assert!(detected >= if q == 0.5 { 18 } else { 12 }, "{name}: {detected}");
    }
}

#[test]
fn a_bundles_thresholds_load_apply_and_round_trip() {
    use runlens::model::Family;
    let text = r#"{"format": "runlens-bundle", "version": 1, "report": {"title": "t"},
        "runs": [{"id": "a", "label": "A", "duration_s": 100}, {"id": "b", "label": "B", "duration_s": 106}],
        "thresholds": {"duration": 10, "cpu": -1, "min_samples": 50}}"#;
    let loaded = load_bundle_str("t.json", text).unwrap();
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert_eq!(loaded.warnings[0].path, "thresholds.cpu");
    let mut ws = Workspace::default();
    ws.add("t.json", loaded.bundle, loaded.warnings);
    let th = ws.thresholds();
    assert_eq!(
        (th.of(Family::Duration), th.of(Family::Cpu), th.min_samples),
        (10.0, 5.0, 50),
        "a negative threshold keeps the default"
    );
    let rows = compare(&runs(&ws, &["a", "b"]), &th);
    assert_eq!(rows[0].cells[1].verdict, Verdict::WithinNoise, "+6 % is within the bundle's 10 %");
    let back = serde_json::to_string(&ws.to_bundle().unwrap()).unwrap();
    assert!(back.contains(r#""thresholds":{"cpu":-1.0,"duration":10.0,"min_samples":50}"#), "{back}");
}
