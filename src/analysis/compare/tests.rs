//! Tests of `compare`: one per wrong verdict the issue lists, and the statistical cases with known
//! answers.

use super::*;
use crate::bundle::{Direction, ErrorEntry, Kpi, Phase, Resource, RunStatus, Transaction};
use crate::model::Family;

fn th() -> Thresholds {
    Thresholds::default()
}

fn run(id: &str, dur: Option<f64>, p95: Option<f64>, thr: Option<f64>) -> Run {
    Run {
        id: id.into(),
        label: id.into(),
        duration_s: dur,
        transactions: p95
            .map(|p| {
                vec![Transaction {
                    name: "search".into(),
                    p95_ms: Some(p),
                    throughput_per_s: thr,
                    ..Default::default()
                }]
            })
            .unwrap_or_default(),
        ..Default::default()
    }
}

fn find<'r>(rows: &'r [Row], key: &str, metric: &str) -> &'r Row {
    rows.iter().find(|r| &*r.key == key && &*r.metric == metric).unwrap_or_else(|| panic!("no row {key} · {metric}"))
}

fn with_resource(id: &str, metric: &str, unit: crate::bundle::Unit, avg: f64) -> Run {
    Run {
        id: id.into(),
        resources: vec![Resource {
            service: "s".into(),
            metric: metric.into(),
            unit,
            average: Some(avg),
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn judges_direction_and_threshold() {
    let (a, b) = (run("a", Some(40200.0), Some(100.0), Some(10.0)), run("b", Some(35220.0), Some(104.0), Some(12.0)));
    let rows = compare(&[&a, &b], &th());
    let dur = &rows[0];
    assert_eq!(dur.section, Section::Duration);
    assert_eq!(dur.cells[1].verdict, Verdict::Improved);
    assert!(matches!(dur.cells[1].change, Some(Change::Rel(r)) if (r + 0.12388).abs() < 1e-4));
    assert_eq!(find(&rows, "search", "p95").cells[1].verdict, Verdict::WithinNoise, "4 % is inside the 5 % threshold");
    assert_eq!(find(&rows, "search", "throughput").cells[1].verdict, Verdict::Improved, "higher throughput is better");
    let mut strict = th();
    strict.set(Family::Latency, 1.0);
    assert_eq!(find(&compare(&[&a, &b], &strict), "search", "p95").cells[1].verdict, Verdict::Regressed);
}

#[test]
fn a_failed_run_is_not_comparable_not_a_win() {
    let orchid = run("orchid", Some(40200.0), None, None);
    let t3 = Run {
        status: RunStatus::Failed,
        status_reason: Some("RANCHER-1032".into()),
        ..run("t3", Some(3600.0), None, None)
    };
    let rows = compare(&[&orchid, &t3], &th());
    let c = &rows[0].cells[1];
    assert_eq!(c.verdict, Verdict::NotComparable, "−91 % of a run that failed after an hour is no improvement");
    assert!(rows[0].reason(1).contains("this run failed"), "{}", rows[0].reason(1));
    let back = compare(&[&t3, &orchid], &th());
    assert_eq!(back[0].cells[1].verdict, Verdict::NotComparable);
    assert!(back[0].reason(1).contains("the baseline run failed"));
}

#[test]
fn resource_statistics_know_which_way_is_better() {
    use crate::bundle::Unit::*;
    let rows = compare(
        &[&with_resource("a", "free memory", Bytes, 1000.0), &with_resource("b", "free memory", Bytes, 1500.0)],
        &th(),
    );
    assert_eq!(rows[0].cells[1].verdict, Verdict::Improved, "more free memory is better");
    let rows = compare(
        &[
            &with_resource("a", "indexing rate", PerSecond, 100.0),
            &with_resource("b", "indexing rate", PerSecond, 80.0),
        ],
        &th(),
    );
    assert_eq!(rows[0].cells[1].verdict, Verdict::Regressed, "a lower rate is worse");
    let rows = compare(&[&with_resource("a", "cpu", Percent, 40.0), &with_resource("b", "cpu", Percent, 50.0)], &th());
    assert_eq!(rows[0].cells[1].verdict, Verdict::Regressed, "more CPU is worse");
}

#[test]
fn a_kpi_without_direction_follows_its_unit() {
    let kpi = |id: &str, v: f64| Run {
        id: id.into(),
        kpis: vec![Kpi {
            name: "Indexing".into(),
            value: v,
            unit: crate::bundle::Unit::PerSecond,
            direction: None,
            note: None,
        }],
        ..Default::default()
    };
    let rows = compare(&[&kpi("a", 100.0), &kpi("b", 120.0)], &th());
    assert_eq!(rows[0].cells[1].verdict, Verdict::Improved, "a throughput KPI that rises is better");
}

#[test]
fn errors_are_compared_as_rates() {
    let tx = |id: &str, samples: u64, errors: u64| Run {
        id: id.into(),
        transactions: vec![Transaction {
            name: "t".into(),
            samples: Some(samples),
            errors: Some(errors),
            ..Default::default()
        }],
        ..Default::default()
    };
    let rows = compare(&[&tx("a", 1000, 10), &tx("b", 2000, 20)], &th());
    let e = find(&rows, "t", "errors");
    assert_eq!(e.cells[1].verdict, Verdict::WithinNoise, "twice the samples at the same error rate: {}", e.reason(1));
    assert_eq!(e.cells[1].change, Some(Change::Points(0.0)));
    let rows = compare(&[&tx("a", 1000, 10), &tx("b", 1000, 40)], &th());
    let e = find(&rows, "t", "errors");
    assert_eq!(e.cells[1].verdict, Verdict::Regressed, "1 % to 4 %: {}", e.reason(1));
    assert!(e.reason(1).contains("Newcombe"), "{}", e.reason(1));
    // Run-level error lists: per hour when the runs state durations only.
    let errs = |id: &str, dur: f64, n: u64| Run {
        id: id.into(),
        duration_s: Some(dur),
        errors: vec![ErrorEntry { message: "timeout".into(), count: Some(n), ..Default::default() }],
        ..Default::default()
    };
    let rows = compare(&[&errs("a", 3600.0, 10), &errs("b", 7200.0, 20)], &th());
    assert_eq!(find(&rows, "timeout", "count").cells[1].verdict, Verdict::WithinNoise, "10 per hour both times");
}

#[test]
fn units_that_differ_are_not_comparable() {
    use crate::bundle::Unit::*;
    let rows =
        compare(&[&with_resource("a", "memory", Percent, 40.0), &with_resource("b", "memory", Bytes, 4e9)], &th());
    assert_eq!(rows[0].unit, Percent, "the baseline's unit, not the first run's to have it");
    let c = rows[0].cells[1];
    assert_eq!((c.verdict, c.unit), (Verdict::NotComparable, Bytes));
    assert!(rows[0].reason(1).contains("units differ: bytes here, percent in the baseline"));
}

#[test]
fn vanished_transactions_and_new_errors_are_regressions() {
    let mut a = run("a", None, Some(100.0), None);
    a.transactions.push(Transaction { name: "login".into(), p95_ms: Some(50.0), ..Default::default() });
    let mut b = run("b", None, Some(100.0), None);
    b.errors.push(ErrorEntry { message: "boom".into(), count: Some(1), ..Default::default() });
    let rows = compare(&[&a, &b], &th());
    let login = find(&rows, "login", "p95");
    assert_eq!(login.cells[1].verdict, Verdict::Removed);
    assert!(login.has_regression(), "a transaction that vanished");
    assert!(find(&rows, "boom", "count").has_regression(), "an error that is new");
    assert!(!find(&rows, "search", "p95").has_regression());
    // A run with no latency at all has no data, not 46 vanished transactions.
    let c = run("c", Some(1.0), None, None);
    let rows = compare(&[&a, &c], &th());
    let cell = find(&rows, "login", "p95").cells[1];
    assert_eq!((cell.verdict, cell.is_regression()), (Verdict::Missing, false));
}

#[test]
fn the_verdict_follows_the_shown_rounding() {
    let (a, b, c) =
        (run("a", None, Some(100.0), None), run("b", None, Some(104.96), None), run("c", None, Some(105.0), None));
    let rows = compare(&[&a, &b, &c], &th());
    let p95 = find(&rows, "search", "p95");
    assert_eq!(crate::format::relative(0.0496), "+5.0%");
    assert_eq!(
        (p95.cells[1].verdict, p95.cells[2].verdict),
        (Verdict::Regressed, Verdict::Regressed),
        "both read +5.0%"
    );
    let d = run("d", None, Some(104.94), None);
    assert_eq!(find(&compare(&[&a, &d], &th()), "search", "p95").cells[1].verdict, Verdict::WithinNoise, "+4.9%");
    // 60 s vs 89 s is +48 % and must not read "1 min vs 1 min".
    let rows = compare(&[&run("x", Some(60.0), None, None), &run("y", Some(89.0), None, None)], &th());
    assert_eq!(rows[0].cells[1].verdict, Verdict::Regressed);
    assert_ne!(crate::format::duration_s(60.0), crate::format::duration_s(89.0));
}

#[test]
fn percentages_change_in_points() {
    let rows = compare(
        &[
            &with_resource("a", "cpu", crate::bundle::Unit::Percent, 2.0),
            &with_resource("b", "cpu", crate::bundle::Unit::Percent, 2.2),
        ],
        &th(),
    );
    let c = rows[0].cells[1];
    assert!(matches!(c.change, Some(Change::Points(p)) if (p - 0.2).abs() < 1e-9), "{c:?}");
    assert_eq!(c.verdict, Verdict::WithinNoise, "+0.2 pp, not +10 %");
}

#[test]
fn marks_added_removed_and_neutral() {
    let a = run("a", None, Some(100.0), None);
    let mut b = run("b", Some(10.0), None, None);
    let docs = |v| Kpi {
        name: "docs".into(),
        value: v,
        unit: crate::bundle::Unit::Count,
        direction: Some(Direction::Neutral),
        note: None,
    };
    b.kpis.push(docs(5.0));
    let c = Run { kpis: vec![docs(9.0)], ..a.clone() };
    let rows = compare(&[&c, &b], &th());
    let p95 = find(&rows, "search", "p95");
    assert_eq!(p95.cells[1].verdict, Verdict::Missing, "b has no transactions at all");
    assert_eq!(rows.iter().find(|r| r.section == Section::Duration).unwrap().cells[1].verdict, Verdict::Added);
    assert_eq!(find(&rows, "docs", "").cells[1].verdict, Verdict::Changed);
    assert_eq!(p95.cells[0].verdict, Verdict::Baseline);
}

#[test]
fn metrics_of_one_key_stay_together() {
    let res = |phases: Vec<Phase>| Resource {
        service: "s".into(),
        metric: "cpu".into(),
        unit: crate::bundle::Unit::Percent,
        average: Some(1.0),
        phases,
        ..Default::default()
    };
    let other = Resource {
        service: "t".into(),
        metric: "cpu".into(),
        unit: crate::bundle::Unit::Percent,
        average: Some(2.0),
        ..Default::default()
    };
    let a = Run { id: "a".into(), resources: vec![res(vec![]), other.clone()], ..Default::default() };
    let b = Run {
        id: "b".into(),
        resources: vec![res(vec![Phase { label: "late".into(), average: Some(3.0), peak: None }]), other],
        ..Default::default()
    };
    let keys: Vec<(String, String)> =
        compare(&[&a, &b], &th()).into_iter().map(|r| (r.key.to_string(), r.metric.to_string())).collect();
    assert_eq!(
        keys,
        vec![
            ("s · cpu".into(), "average".into()),
            ("s · cpu".into(), "average (late)".into()),
            ("t · cpu".into(), "average".into())
        ]
    );
}

#[test]
fn zero_baseline_is_a_change_without_ratio() {
    let rows = compare(&[&run("a", Some(0.0), None, None), &run("b", Some(5.0), None, None)], &th());
    assert_eq!(rows[0].cells[1].change, Some(Change::Abs(5.0)));
    assert_eq!(rows[0].cells[1].verdict, Verdict::Regressed);
}

mod statistics {
    use super::*;
    use crate::analysis::noise::tests::lognormal;
    use crate::bundle::Histogram;

    fn tx_run(id: &str, h: Histogram) -> Run {
        let n: u64 = h.counts.iter().sum();
        let q = |p: f64| {
            let rank = (p * n as f64).ceil() as u64;
            let mut seen = 0;
            h.upper_bounds_ms
                .iter()
                .zip(&h.counts)
                .find(|(_, c)| {
                    seen += **c;
                    seen >= rank
                })
                .map(|(b, _)| *b)
        };
        let t = Transaction {
            name: "search".into(),
            samples: Some(n),
            median_ms: q(0.5),
            p95_ms: q(0.95),
            histogram: Some(h),
            ..Default::default()
        };
        Run { id: id.into(), label: id.into(), transactions: vec![t], ..Default::default() }
    }

    fn scaled(h: Histogram, k: f64) -> Histogram {
        Histogram { upper_bounds_ms: h.upper_bounds_ms.iter().map(|b| (b * k).round()).collect(), counts: h.counts }
    }

    #[test]
    fn identical_distributions_are_within_noise() {
        let a = tx_run("a", lognormal(3000, 300.0, 11));
        let rows = compare(&[&a, &a.clone()], &th());
        for m in ["median", "p95"] {
            let r = find(&rows, "search", m);
            assert_eq!(r.cells[1].verdict, Verdict::WithinNoise, "{m}: {}", r.reason(1));
            assert!(matches!(r.cells[1].why, Why::Interval { .. }), "{m} judged by the interval");
        }
    }

    #[test]
    fn independent_samples_of_one_distribution_are_within_noise() {
        // Not the same histogram twice: two samples of one distribution differ by chance, and
        // a 6 % threshold alone might call that a change; the interval must not.
        let (a, b) = (tx_run("a", lognormal(300, 300.0, 21)), tx_run("b", lognormal(300, 300.0, 22)));
        let mut t = th();
        t.set(Family::Latency, 0.0);
        let r = find(&compare(&[&a, &b], &t), "search", "median").cells[1];
        assert_eq!(r.verdict, Verdict::WithinNoise, "{r:?}");
    }

    #[test]
    fn a_shifted_distribution_regresses_with_the_right_sign() {
        let a = tx_run("a", lognormal(3000, 300.0, 12));
        let slower = tx_run("b", scaled(lognormal(3000, 300.0, 13), 1.25));
        let faster = tx_run("c", scaled(lognormal(3000, 300.0, 14), 0.8));
        let rows = compare(&[&a, &slower, &faster], &th());
        for m in ["median", "p95"] {
            let r = find(&rows, "search", m);
            assert_eq!(r.cells[1].verdict, Verdict::Regressed, "{m}: {}", r.reason(1));
            assert!(matches!(r.cells[1].change, Some(Change::Rel(x)) if x > 0.15), "{m} +25 %");
            assert!(
                matches!(r.cells[1].why, Why::Interval { interval, .. } if interval.lo > 0.1),
                "{m}: {}",
                r.reason(1)
            );
            assert_eq!(r.cells[2].verdict, Verdict::Improved, "{m}: {}", r.reason(2));
        }
    }

    #[test]
    fn tiny_samples_are_not_enough_data() {
        let (a, b) = (tx_run("a", lognormal(12, 300.0, 15)), tx_run("b", scaled(lognormal(12, 300.0, 16), 2.0)));
        let rows = compare(&[&a, &b], &th());
        let r = find(&rows, "search", "p95");
        assert_eq!(r.cells[1].verdict, Verdict::NotEnoughData, "{}", r.reason(1));
        assert!(r.reason(1).contains("12 in the baseline"), "{}", r.reason(1));
    }

    #[test]
    fn a_failed_run_is_not_comparable_even_with_distributions() {
        let a = tx_run("a", lognormal(3000, 300.0, 17));
        let b = Run { status: RunStatus::Aborted, ..tx_run("b", scaled(lognormal(3000, 300.0, 18), 1.5)) };
        let rows = compare(&[&a, &b], &th());
        let r = find(&rows, "search", "median");
        assert_eq!(r.cells[1].verdict, Verdict::NotComparable);
        assert!(r.reason(1).contains("aborted"));
    }
}

#[test]
fn rows_share_names_and_past_the_shared_list_keep_their_own() {
    // 50 phases give 100 metric names of one resource, past the list of shared names (64).
    let phases: Vec<Phase> = (0..50)
        .map(|i| Phase { label: format!("phase {i}"), average: Some(i as f64), peak: Some(2.0 * i as f64) })
        .collect();
    let res = Resource {
        service: "s".into(),
        metric: "cpu".into(),
        unit: crate::bundle::Unit::Percent,
        average: Some(1.0),
        phases,
        ..Default::default()
    };
    let tx =
        |name: &str| Transaction { name: name.into(), p95_ms: Some(10.0), mean_ms: Some(5.0), ..Default::default() };
    let a = Run {
        id: "a".into(),
        resources: vec![res.clone()],
        transactions: vec![tx("login"), tx("search")],
        ..Default::default()
    };
    let b = Run { id: "b".into(), ..a.clone() };
    let rows = compare(&[&a, &b], &th());
    for i in 0..50 {
        let avg = find(&rows, "s · cpu", &format!("average (phase {i})"));
        assert_eq!(avg.cells.iter().map(|c| c.value).collect::<Vec<_>>(), vec![Some(i as f64); 2]);
        assert_eq!(find(&rows, "s · cpu", &format!("peak (phase {i})")).cells[1].value, Some(2.0 * i as f64));
    }
    // One allocation per name: a key's rows share it, and so do the rows of one metric.
    let (p95, mean) = (find(&rows, "login", "p95"), find(&rows, "login", "mean"));
    assert!(Arc::ptr_eq(&p95.key, &mean.key));
    assert!(Arc::ptr_eq(&p95.metric, &find(&rows, "search", "p95").metric));
    // The average, and two per phase (no peak or minimum of the whole: no rows for them).
    assert_eq!(rows.iter().filter(|r| r.section == Section::Resource).count(), 1 + 100);
}

/// `compare_one` reads only the facts of its key (`model::key_facts`); every row it gives must be
/// the row `compare` gives, including the cells of runs that lack the key or the whole section.
#[test]
fn one_row_is_the_row_of_the_whole_comparison() {
    let check = |runs: &[&Run], what: &str| {
        let rows = compare(runs, &th());
        assert!(!rows.is_empty(), "{what}");
        for row in &rows {
            let one = compare_one(runs, &th(), row.section, &row.key, &row.metric);
            assert_eq!(one.as_ref(), Some(row), "{what}: {:?} {} · {}", row.section, row.key, row.metric);
        }
        assert_eq!(compare_one(runs, &th(), Section::Transaction, "no such transaction", "p95"), None, "{what}");
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") && !p.ends_with("index.json") {
            let b = crate::bundle::load_bundle("example.json", &std::fs::read(&p).unwrap()).unwrap().bundle;
            let mut runs: Vec<&Run> = b.runs.iter().collect();
            check(&runs, &p.display().to_string());
            runs.reverse();
            check(&runs, &format!("{} (reversed)", p.display()));
        }
    }
    // A run with the section but not the key, one without the section, one whose only transaction
    // has no number (no fact: as good as no section).
    let both = run("both", Some(60.0), Some(100.0), Some(5.0));
    let mut other_key = run("other", Some(60.0), Some(100.0), None);
    other_key.transactions[0].name = "login".into();
    let none = run("none", Some(60.0), None, None);
    let mut empty = run("empty", Some(60.0), None, None);
    empty.transactions.push(Transaction { name: "search".into(), ..Default::default() });
    check(&[&both, &other_key, &none, &empty], "made-up runs");
    check(&[&other_key, &both, &empty, &none], "made-up runs, another baseline");
}
