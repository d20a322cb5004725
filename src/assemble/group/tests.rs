//! Tests of `group`: merging the runs of one test's files, and bundles of groups.

use super::*;
use crate::bundle::{ErrorEntry, Kpi, Resource, Transaction, Unit};
use crate::import::common::test_support::file;
use crate::import::{import_bytes, Format};

fn spec(id: &str) -> RunSpec {
    RunSpec { id: id.into(), ..Default::default() }
}

fn txn(name: &str, p95: f64) -> Transaction {
    Transaction { name: name.into(), p95_ms: Some(p95), ..Default::default() }
}

fn part(source: &str, run: Run) -> Part {
    Part { source: source.into(), run }
}

fn one_run_bundle(title: &str, id: &str) -> Bundle {
    Bundle {
        report: Report { title: title.into(), ..Default::default() },
        runs: vec![Run { id: id.into(), label: id.into(), ..Default::default() }],
        ..bundle_around_runs()
    }
}

#[test]
fn a_group_of_files_is_one_run_with_everything_and_the_widest_window() {
    let jtl = Run {
        id: "results".into(),
        start: Some("2023-10-01T10:18:05Z".into()),
        end: Some("2023-10-01T11:00:00Z".into()),
        duration_s: Some(2515.0),
        transactions: vec![txn("Login", 120.0), txn("Search", 300.0)],
        kpis: vec![Kpi { name: "Samples".into(), value: 10.0, unit: Unit::Count, ..Default::default() }],
        errors: vec![ErrorEntry { message: "500/Internal".into(), count: Some(2), ..Default::default() }],
        dimensions: [("users".to_string(), "20".to_string())].into(),
        notes: vec!["from the JTL".into()],
        ..Default::default()
    };
    let stats = Run {
        id: "stats".into(),
        // An offset, one minute before the JTL's start: the earliest start is compared as an instant.
        start: Some("2023-10-01T12:17:00+02:00".into()),
        end: Some("2023-10-01T10:59:00Z".into()),
        status: RunStatus::Failed,
        status_reason: Some("container restarted".into()),
        resources: vec![Resource {
            service: "mod-search".into(),
            metric: "cpu".into(),
            unit: Unit::Percent,
            peak: Some(90.0),
            ..Default::default()
        }],
        transactions: vec![txn("Login", 999.0)],
        dimensions: [("users".to_string(), "40".to_string())].into(),
        ..Default::default()
    };
    let s = RunSpec {
        id: "nightly".into(),
        label: None,
        dimensions: [("release".to_string(), "Poppy".to_string())].into(),
    };
    let (run, warnings) = merge_runs(&s, vec![part("out/results.jtl", jtl), part("stats.txt", stats)]);
    assert_eq!((run.id.as_str(), run.label.as_str()), ("nightly", "nightly"), "the label defaults to the id");
    assert_eq!(run.start.as_deref(), Some("2023-10-01T12:17:00+02:00"));
    assert_eq!(run.end.as_deref(), Some("2023-10-01T11:00:00Z"));
    assert_eq!(run.duration_s, Some(2580.0), "from the earliest start to the latest end");
    assert_eq!((run.status, run.status_reason.as_deref()), (RunStatus::Failed, Some("container restarted")));
    let names: Vec<(&str, Option<f64>)> = run.transactions.iter().map(|t| (t.name.as_str(), t.p95_ms)).collect();
    assert_eq!(names, vec![("Login", Some(120.0)), ("Search", Some(300.0))], "the first file's Login is kept");
    assert_eq!((run.resources.len(), run.kpis.len(), run.errors.len()), (1, 1, 1));
    let dims: Vec<(&str, &str)> = run.dimensions.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(dims, vec![("release", "Poppy"), ("users", "20")]);
    assert_eq!(
        run.notes,
        vec!["from the JTL".to_string(), "Merged by runlens from results.jtl, stats.txt.".to_string()]
    );
    let texts: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].starts_with("stats.txt: dimension users=40 differs from users=20"), "{texts:?}");
    assert!(
        texts[1].starts_with("stats.txt: transaction \"Login\" is also in out/results.jtl; the run keeps that one"),
        "{texts:?}"
    );
}

#[test]
fn the_spec_wins_over_file_dimensions_silently_and_one_file_gets_no_merge_note() {
    let r = Run {
        id: "a".into(),
        dimensions: [("users".to_string(), "20".to_string())].into(),
        duration_s: Some(5.0),
        ..Default::default()
    };
    let s = RunSpec {
        id: "x".into(),
        label: Some("Test #1".into()),
        dimensions: [("users".to_string(), "8".to_string())].into(),
    };
    let (run, warnings) = merge_runs(
        &s,
        vec![
            part("a.jtl", r.clone()),
            part("b.jtl", Run { dimensions: [("users".to_string(), "9".to_string())].into(), ..r }),
        ],
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(run.dimensions.get("users").map(String::as_str), Some("8"));
    assert_eq!(run.label, "Test #1");
    assert_eq!(run.duration_s, Some(5.0), "no times: the longest part's duration");
    let (run, _) = merge_runs(&spec("y"), vec![part("a.jtl", Run { notes: vec!["n".into()], ..Default::default() })]);
    assert_eq!(run.notes, vec!["n".to_string()]);
}

#[test]
fn real_files_of_one_test_merge_into_a_run_that_loads_back() {
    let jtl = import_bytes("results.jtl", &file("tests/corpus/jmeter-csv/ehrbase-2022-05-13.jtl")).unwrap();
    let idx = import_bytes("indices.txt", &file("tests/fixtures/import/opensearch-cat-indices/es8-dataset-size.txt"))
        .unwrap();
    let dock = import_bytes("docker.csv", &file("tests/fixtures/import/docker-stats/header-iso.csv")).unwrap();
    assert_eq!((jtl.format, idx.format, dock.format), (Format::JmeterCsv, Format::CatIndices, Format::DockerStats));
    let counts =
        (jtl.bundle.runs[0].transactions.len(), idx.bundle.runs[0].indices.len(), dock.bundle.runs[0].resources.len());
    assert!(counts.0 > 0 && counts.1 > 0 && counts.2 > 0, "{counts:?}");
    let group = |name: &str, imp: crate::import::Imported| File { name: name.into(), bundle: imp.bundle };
    let groups = vec![Group {
        run: Some(spec("nightly")),
        files: vec![group("results.jtl", jtl), group("indices.txt", idx), group("docker.csv", dock)],
    }];
    let (b, warnings) = bundle_of(None, groups, &Options { title: Some("Nightly".into()), baseline: None }).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(b.report.title, "Nightly");
    assert_eq!(b.runs.len(), 1);
    let r = &b.runs[0];
    assert_eq!((r.transactions.len(), r.indices.len(), r.resources.len()), counts);
    // The docker stats were taken in 2023, the JTL in 2022: the window is the load test's, the JTL's.
    assert_eq!(
        (r.start.as_deref(), r.end.as_deref()),
        (Some("2022-05-13T08:23:51.438Z"), Some("2022-05-13T08:24:14.192Z"))
    );
    let json = serde_json::to_string(&b).unwrap();
    let back = bundle::load_bundle_str("out.json", &json).unwrap();
    assert_eq!(back.bundle, b);
}

#[test]
fn ungrouped_files_keep_their_runs_and_one_file_keeps_its_report() {
    let hist = import_bytes(
        "h.csv",
        &file("tests/corpus/jmeter-aggregate-history/ballerina-h1_h1_passthrough-nightly-summary.csv"),
    )
    .unwrap();
    let n = hist.bundle.runs.len();
    assert!(n > 1, "a history file: {n} runs");
    let report = hist.bundle.report.clone();
    let files = vec![File { name: "h.csv".into(), bundle: hist.bundle.clone() }];
    let (b, warnings) = bundle_of(None, vec![Group { run: None, files }], &Options::default()).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(b, hist.bundle, "one file alone: the bundle the import made");
    assert_eq!(b.report, report);
    // In a group it is refused: a group merges one run per file.
    let files = vec![File { name: "h.csv".into(), bundle: hist.bundle }];
    let e = bundle_of(None, vec![Group { run: Some(spec("x")), files }], &Options::default()).unwrap_err();
    assert!(e.starts_with(&format!("h.csv holds {n} runs, and run x merges files of one run each")), "{e}");
}

#[test]
fn appending_keeps_the_history_makes_ids_unique_and_declares_the_comparison() {
    let mut history = one_run_bundle("Nightly history", "release-1");
    history.runs.push(Run { id: "nightly-1".into(), label: "nightly-1".into(), ..Default::default() });
    history.comparisons.push(Comparison {
        baseline: "release-1".into(),
        candidates: vec!["nightly-1".into()],
        ..Default::default()
    });
    history.thresholds = Some(bundle::Thresholds { latency: Some(10.0), ..Default::default() });
    let tonight = Group {
        run: Some(spec("nightly-1")),
        files: vec![File { name: "results.jtl".into(), bundle: one_run_bundle("results", "results") }],
    };
    let extra =
        Group { run: None, files: vec![File { name: "other.jtl".into(), bundle: one_run_bundle("other", "other") }] };
    let options = Options { title: None, baseline: Some("release-1".into()) };
    let append = File { name: "history.json".into(), bundle: history };
    let (b, warnings) = bundle_of(Some(append), vec![tonight, extra], &options).unwrap();
    let ids: Vec<&str> = b.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, vec!["release-1", "nightly-1", "nightly-1~2", "other"]);
    assert_eq!(
        warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        vec!["run nightly-1: run id \"nightly-1\" is already taken; this run is \"nightly-1~2\"".to_string()]
    );
    assert_eq!(b.report.title, "Nightly history", "the history's report stays");
    assert_eq!(b.thresholds.and_then(|t| t.latency), Some(10.0));
    assert_eq!(b.comparisons.len(), 1, "the earlier comparison of the same baseline is replaced");
    assert_eq!(b.comparisons[0].baseline, "release-1");
    assert_eq!(
        b.comparisons[0].candidates,
        vec!["nightly-1~2".to_string(), "other".to_string()],
        "the runs imported now"
    );
}

#[test]
fn several_new_files_make_a_title_of_their_names_and_keep_their_notes() {
    let mut a = one_run_bundle("a", "a");
    a.report.notes.push("Imported by runlens from a.jtl.".into());
    let files = (0..7).map(|i| File { name: format!("dir/r{i}.jtl"), bundle: one_run_bundle("x", &format!("r{i}")) });
    let files: Vec<File> = std::iter::once(File { name: "a.jtl".into(), bundle: a }).chain(files).collect();
    let (b, _) = bundle_of(None, vec![Group { run: None, files }], &Options::default()).unwrap();
    assert_eq!(b.report.title, "a, r0, r1, r2, r3 and 3 more");
    assert_eq!(b.report.notes, vec!["Imported by runlens from a.jtl.".to_string()]);
}

#[test]
fn a_baseline_must_exist_and_leave_something_to_compare() {
    let files = || vec![File { name: "a.jtl".into(), bundle: one_run_bundle("a", "a") }];
    let e = bundle_of(
        None,
        vec![Group { run: None, files: files() }],
        &Options { baseline: Some("zzz".into()), ..Default::default() },
    )
    .unwrap_err();
    assert_eq!(e, "--baseline zzz: no run has this id (the runs are a)");
    let e = bundle_of(
        None,
        vec![Group { run: None, files: files() }],
        &Options { baseline: Some("a".into()), ..Default::default() },
    )
    .unwrap_err();
    assert_eq!(e, "--baseline a: no run imported now is left to compare with it");
    let twice = vec![Group { run: Some(spec("x")), files: files() }, Group { run: Some(spec("x")), files: files() }];
    assert_eq!(
        bundle_of(None, twice, &Options::default()).unwrap_err(),
        "--run x is given twice; each run needs its own id"
    );
}

#[test]
fn the_window_is_the_load_tools_when_a_part_has_transactions() {
    // A CloudWatch query padded by an hour on both sides of a 40-minute test.
    let jtl = Run {
        start: Some("2023-10-01T10:00:00Z".into()),
        end: Some("2023-10-01T10:40:00Z".into()),
        transactions: vec![txn("Login", 120.0)],
        ..Default::default()
    };
    let cpu = Run {
        start: Some("2023-10-01T09:00:00Z".into()),
        end: Some("2023-10-01T11:40:00Z".into()),
        resources: vec![Resource {
            service: "mod-search".into(),
            metric: "cpu".into(),
            unit: Unit::Percent,
            peak: Some(40.0),
            ..Default::default()
        }],
        ..Default::default()
    };
    let (run, _) = merge_runs(&spec("t"), vec![part("cpu.json", cpu.clone()), part("t.jtl", jtl)]);
    assert_eq!(
        (run.start.as_deref(), run.end.as_deref(), run.duration_s),
        (Some("2023-10-01T10:00:00Z"), Some("2023-10-01T10:40:00Z"), Some(2400.0))
    );
    assert_eq!(run.resources.len(), 1, "the resources are still merged");
    // Without a load tool's part, the resources' window is all there is.
    let (run, _) = merge_runs(&spec("r"), vec![part("cpu.json", cpu)]);
    assert_eq!(run.duration_s, Some(9600.0));
}

#[test]
fn resource_series_count_from_the_merged_runs_start() {
    let jtl =
        Run { start: Some("2023-10-01T10:00:00Z".into()), transactions: vec![txn("Login", 1.0)], ..Default::default() };
    let series = crate::bundle::TimeSeries { t_s: vec![0.0, 3600.0, 5400.0], values: vec![1.0, 2.0, 3.0] };
    // The query began an hour before the test: its points are an hour earlier in the run's time.
    let cpu = Run {
        start: Some("2023-10-01T09:00:00Z".into()),
        resources: vec![Resource { series: Some(series), ..Resource::default() }],
        ..Default::default()
    };
    let (run, _) = merge_runs(&spec("t"), vec![part("cpu.json", cpu), part("t.jtl", jtl)]);
    assert_eq!(run.start.as_deref(), Some("2023-10-01T10:00:00Z"));
    assert_eq!(run.resources[0].series.as_ref().map(|s| s.t_s.clone()), Some(vec![-3600.0, 0.0, 1800.0]));
}
