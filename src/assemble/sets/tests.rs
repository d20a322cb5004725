//! Grouping by the tools' names, by stem and by time, on hand-made files (the corpus and generated
//! sets are in tests/grouping.rs).

use super::*;
use crate::bundle::{Histogram, IndexStats, Resource, Transaction, Unit};
use crate::import::common::civil;

#[derive(Clone, Copy)]
enum Kind {
    /// Samples (transactions with histograms).
    Samples,
    /// A summary (transactions without histograms).
    Summary,
    Resources,
    Indices,
}

/// A one-run file of `kind`, running from `from` to `to` minutes after 10:00 (none: no times).
fn file(kind: Kind, window: Option<(i64, i64)>) -> Bundle {
    let at = |m: i64| civil::iso_utc(1_700_000_000_000 + m * 60_000);
    let tx = |h: bool| Transaction {
        name: "login".into(),
        samples: Some(3),
        histogram: h.then(|| Histogram { upper_bounds_ms: vec![5.0], counts: vec![3] }),
        ..Default::default()
    };
    let run = Run {
        id: "r".into(),
        start: window.map(|w| at(w.0)),
        end: window.map(|w| at(w.1)),
        transactions: match kind {
            Kind::Samples => vec![tx(true)],
            Kind::Summary => vec![tx(false)],
            _ => vec![],
        },
        resources: match kind {
            Kind::Resources => {
                vec![Resource { service: "db".into(), metric: "cpu".into(), unit: Unit::Percent, ..Default::default() }]
            }
            _ => vec![],
        },
        indices: match kind {
            Kind::Indices => vec![IndexStats { index: "i".into(), ..Default::default() }],
            _ => vec![],
        },
        ..Default::default()
    };
    crate::import::bundle_around("x", crate::import::Format::JmeterCsv, vec![run])
}

/// The groups of `files` as lists of names.
fn grouped(files: &[(&str, Bundle)]) -> Vec<Vec<String>> {
    let items: Vec<Item> = files.iter().map(|(n, b)| Item { name: n, bundle: b }).collect();
    group(&items).into_iter().map(|g| g.into_iter().map(|i| files[i].0.to_string()).collect()).collect()
}

fn names(groups: &[&[&str]]) -> Vec<Vec<String>> {
    groups.iter().map(|g| g.iter().map(|s| s.to_string()).collect()).collect()
}

#[test]
fn locust_sets_of_a_baseline_and_a_candidate_are_two_runs() {
    let s = || file(Kind::Summary, None);
    let e = || file(Kind::Resources, None);
    let files = [
        ("base_stats.csv", s()),
        ("cand_failures.csv", e()),
        ("base_stats_history.csv", s()),
        ("cand_stats.csv", s()),
        ("base_failures.csv", e()),
        ("cand_exceptions.csv", e()),
        ("cand_stats_history.csv", s()),
        ("base_exceptions.csv", e()),
    ];
    assert_eq!(
        grouped(&files),
        names(&[
            &["base_stats.csv", "base_stats_history.csv", "base_failures.csv", "base_exceptions.csv"],
            &["cand_failures.csv", "cand_stats.csv", "cand_exceptions.csv", "cand_stats_history.csv"],
        ])
    );
}

#[test]
fn gatling_reports_group_by_folder_or_prefix() {
    let files = [
        ("out/base-1234/simulation.log", file(Kind::Samples, Some((0, 10)))),
        ("out/cand-5678/js/stats.json", file(Kind::Summary, None)),
        ("out/base-1234/js/global_stats.json", file(Kind::Summary, None)),
        ("out/cand-5678/simulation.log", file(Kind::Samples, Some((60, 70)))),
        ("out/base-1234/js/stats.json", file(Kind::Summary, None)),
    ];
    assert_eq!(
        grouped(&files),
        names(&[
            &["out/base-1234/simulation.log", "out/base-1234/js/global_stats.json", "out/base-1234/js/stats.json"],
            &["out/cand-5678/simulation.log", "out/cand-5678/js/stats.json"],
        ])
    );
    assert_eq!(set_key("a-b-simulation.log"), set_key("a-b-global_stats.json"));
    assert_ne!(set_key("a-simulation.log"), set_key("b-simulation.log"));
}

#[test]
fn a_test_s_files_group_by_stem_and_by_time() {
    let files = [
        ("poppy.jtl", file(Kind::Samples, None)),
        ("orchid.jtl", file(Kind::Samples, None)),
        ("indices-orchid.txt", file(Kind::Indices, None)),
        ("poppy.json", file(Kind::Summary, None)),
        ("cat_indices_poppy.txt", file(Kind::Indices, None)),
    ];
    assert_eq!(
        grouped(&files),
        names(&[&["poppy.jtl", "poppy.json", "cat_indices_poppy.txt"], &["orchid.jtl", "indices-orchid.txt"]])
    );
    let timed = [
        ("baseline.jtl", file(Kind::Samples, Some((0, 60)))),
        ("candidate.jtl", file(Kind::Samples, Some((120, 180)))),
        ("cw-a.json", file(Kind::Resources, Some((110, 190)))),
        ("cw-b.json", file(Kind::Resources, Some((-10, 70)))),
        ("cw-both.json", file(Kind::Resources, Some((-10, 190)))),
        ("_cat_indices.txt", file(Kind::Indices, None)),
    ];
    assert_eq!(
        grouped(&timed),
        names(&[
            &["baseline.jtl", "cw-b.json"],
            &["candidate.jtl", "cw-a.json"],
            &["cw-both.json"],
            &["_cat_indices.txt"],
        ]),
        "a file that could be either run's, by time or for want of one, is a run of its own"
    );
}

#[test]
fn load_generators_of_one_test_group_and_other_tests_do_not() {
    let files = [
        ("gen1.jtl", file(Kind::Samples, Some((0, 60)))),
        ("gen2.jtl", file(Kind::Samples, Some((1, 61)))),
        ("later.jtl", file(Kind::Samples, Some((50, 120)))),
        ("indices.txt", file(Kind::Indices, None)),
    ];
    assert_eq!(grouped(&files), names(&[&["gen1.jtl", "gen2.jtl"], &["later.jtl"], &["indices.txt"]]));
    let one = [
        ("results.jtl", file(Kind::Samples, None)),
        ("statistics.json", file(Kind::Summary, None)),
        ("_cat_indices.txt", file(Kind::Indices, None)),
    ];
    assert_eq!(
        grouped(&one),
        names(&[&["results.jtl", "statistics.json", "_cat_indices.txt"]]),
        "one test's files without names or times in common: the only run takes them"
    );
}

#[test]
fn a_file_of_several_runs_stays_alone() {
    let mut history = file(Kind::Summary, None);
    history.runs.push(history.runs[0].clone());
    let files = [("poppy-history.csv", history), ("poppy.jtl", file(Kind::Samples, None))];
    assert_eq!(grouped(&files), names(&[&["poppy-history.csv"], &["poppy.jtl"]]));
}
