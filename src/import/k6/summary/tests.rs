//! Tests of the k6 summary JSON importers: the three shapes of one run agree, the export's
//! inverted threshold flag, tagged sub-metrics, custom trend stats, refusals and hostile input.

use crate::bundle::{LoadErrorKind, Run, RunStatus};
use crate::import::common::test_support::{file, import_run, kpi, txn};
use crate::import::{import_bytes, Format};

fn fixture(name: &str) -> Vec<u8> {
    file(&format!("tests/fixtures/import/k6/{name}"))
}

fn run_of(name: &str, bytes: &[u8]) -> (Format, Run) {
    let (format, run, _) = import_run(name, bytes);
    (format, run)
}

#[test]
fn one_run_in_three_shapes_gives_the_same_figures() {
    let (f1, hs) = run_of("summary.json", &fixture("handlesummary-compact.json"));
    let (f2, ex) = run_of("export.json", &fixture("summary-export-compact.json"));
    let (f3, mr) = run_of("summary.json", &fixture("machine-readable-compact.json"));
    assert_eq!((f1, f2, f3), (Format::K6Summary, Format::K6SummaryExport, Format::K6Summary));
    let figures = |r: &Run| r.kpis.iter().map(|k| (k.name.clone(), k.value)).collect::<Vec<_>>();
    assert_eq!(figures(&hs), figures(&ex));
    // The machine-readable file has no rates: count ÷ its duration (6.858556 s, rounded in the file).
    for ((a, x), (b, y)) in figures(&hs).into_iter().zip(figures(&mr)) {
        assert!(a == b && (x - y).abs() <= 1e-6 * x.abs(), "{a} {x} vs {b} {y}");
    }
    // The export does not say whether a custom trend is a time, so it carries no such note.
    let plain = |r: &Run| {
        let mut ts = r.transactions.clone();
        for t in &mut ts {
            t.note = None;
            t.throughput_run_per_s = t.throughput_run_per_s.map(|x| (x * 1e5).round() / 1e5);
        }
        ts
    };
    assert_eq!(plain(&hs), plain(&ex));
    assert_eq!(plain(&hs), plain(&mr));
    // The values of the fixture (see its README): 45 requests, 6.56109/s, mean 140.3642 ms.
    assert_eq!(
        (kpi(&hs, "Samples"), kpi(&hs, "Throughput"), kpi(&hs, "Mean response time")),
        (Some(45.0), Some(6.56109), Some(140.3642))
    );
    let all = txn(&hs, "All requests");
    assert_eq!(
        (all.samples, all.errors, all.median_ms, all.p90_ms, all.p99_ms),
        (Some(45), Some(0), Some(140.9601), Some(146.8813), None)
    );
    assert_eq!(hs.dimensions.get("users").map(String::as_str), Some("1"));
    assert_eq!(hs.status, RunStatus::Completed);
    // The machine-readable summary says when it was written: the end; start = end − duration.
    assert_eq!(mr.end.as_deref(), Some("2025-06-02T10:00:06.858Z"));
}

/// k6 docs: in the --summary-export file "`true` indicates the threshold failed, and `false` that
/// it succeeded" (https://grafana.com/docs/k6/v0.47.x/results-output/end-of-test/).
#[test]
fn the_exports_threshold_flag_means_failed() {
    let export = |flag: bool| {
        format!(
            r#"{{"root_group":{{"groups":{{}},"checks":{{}}}},"metrics":{{"http_reqs":{{"count":3,"rate":3,"thresholds":{{"rate<100":{flag}}}}}}}}}"#
        )
    };
    let (_, failed) = run_of("e.json", export(true).as_bytes());
    assert_eq!(failed.status, RunStatus::Failed);
    assert_eq!(failed.status_reason.as_deref(), Some("k6 thresholds crossed: http_reqs rate<100"));
    let (_, passed) = run_of("e.json", export(false).as_bytes());
    assert_eq!((passed.status, passed.status_reason), (RunStatus::Completed, None));
    // handleSummary data says `ok`, the other way round.
    let hs = r#"{"metrics":{"http_reqs":{"type":"counter","contains":"default","values":{"count":3,"rate":3},"thresholds":{"rate<100":{"ok":false}}}}}"#;
    assert_eq!(run_of("s.json", hs.as_bytes()).1.status, RunStatus::Failed);
    // The corpus export: p(99)=1470.86 ms under "p(99)<15000": false, which therefore held.
    let corpus = file("tests/corpus/k6/nt531-network-chaos-summary-export.json");
    let (_, run) = run_of("nt531.json", &corpus);
    assert_eq!(run.status, RunStatus::Completed);
    assert!(txn(&run, "All requests").p99_ms.unwrap() < 15000.0);
}

#[test]
fn tagged_sub_metrics_and_custom_trends_become_transactions() {
    let hs = r#"{
      "state": {"testRunDurationMs": 4000},
      "metrics": {
        "http_req_duration": {"type":"trend","contains":"time","values":{"avg":50,"p(99.9)":90,"count":12}},
        "http_req_duration{name:login}": {"type":"trend","contains":"time","values":{"avg":80,"med":75,"p(99.9)":120,"count":10}},
        "http_req_failed{name:login}": {"type":"rate","contains":"default","values":{"rate":0.3,"passes":3,"fails":7}},
        "http_reqs{name:login}": {"type":"counter","contains":"default","values":{"count":10,"rate":2.5}},
        "http_req_duration{url:https://x.test:8443/a?b=1}": {"type":"trend","contains":"time","values":{"avg":20,"count":2}},
        "http_req_duration{expected_response:true}": {"type":"trend","contains":"time","values":{"avg":49,"count":11}},
        "http_req_duration{name:home,method:GET}": {"type":"trend","contains":"time","values":{"avg":5}},
        "vote_latency_ms": {"type":"trend","contains":"time","values":{"avg":33,"p(99.9)":70,"count":4}},
        "vote_error_rate": {"type":"rate","contains":"default","values":{"rate":0.25,"passes":1,"fails":3}},
        "votes_ok": {"type":"counter","contains":"default","values":{"count":3,"rate":0.75}},
        "http_reqs": {"type":"counter","contains":"default","values":{"count":12}}
      }}"#;
    let (_, run) = run_of("s.json", hs.as_bytes());
    let names: Vec<&str> = run.transactions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["home {method:GET}", "login", "https://x.test:8443/a?b=1", "vote_latency_ms"]);
    let login = txn(&run, "login");
    assert_eq!(
        (login.samples, login.errors, login.throughput_run_per_s, login.median_ms),
        (Some(10), Some(3), Some(2.5), Some(75.0))
    );
    // Custom summaryTrendStats: p(99.9) is kept by its name, p(90) is absent.
    assert_eq!((login.percentiles.get("p99.9"), login.p90_ms), (Some(&120.0), None));
    assert_eq!(txn(&run, "vote_latency_ms").percentiles.get("p99.9"), Some(&70.0));
    // Throughput without a rate: count ÷ the test's duration.
    assert_eq!(kpi(&run, "Throughput"), Some(3.0));
    let dir = |n: &str| run.kpis.iter().find(|k| k.name == n).map(|k| (k.value, k.direction));
    assert_eq!(dir("vote_error_rate"), Some((25.0, Some(crate::bundle::Direction::LowerIsBetter))));
    assert_eq!(dir("votes_ok"), Some((3.0, Some(crate::bundle::Direction::HigherIsBetter))));
}

#[test]
fn the_docs_reference_example_reads_with_its_failed_thresholds() {
    let (_, run) = run_of("raw-data.json", &fixture("handlesummary-docs-reference.json"));
    let t = txn(&run, "{staticAsset:yes}");
    assert_eq!(
        (t.min_ms, t.max_ms, t.percentiles.get("p99.99")),
        (Some(135.092841), Some(846.198634), Some(&846.1973802197999))
    );
    assert_eq!(run.status, RunStatus::Failed);
    let reason = run.status_reason.unwrap();
    assert!(
        reason.contains("http_req_duration p(95)<500")
            && reason.contains("http_req_duration{staticAsset:yes} p(99)<250"),
        "{reason}"
    );
    assert!((run.duration_s.unwrap() - 30.898965069).abs() < 1e-9);
}

#[test]
fn failing_checks_in_groups_are_errors() {
    let hs = r#"{"metrics":{"checks":{"type":"rate","contains":"default","values":{"rate":0.75,"passes":45,"fails":15}}},
      "root_group":{"name":"","path":"","groups":[{"name":"child","path":"::child","groups":[],"checks":[
        {"name":"check1","path":"::child::check1","passes":30,"fails":0},
        {"name":"check2","path":"::child::check2","passes":5,"fails":10}]}],"checks":[]}}"#;
    let (_, run) = run_of("s.json", hs.as_bytes());
    assert_eq!(kpi(&run, "Checks passed"), Some(75.0));
    assert_eq!(
        run.errors.iter().map(|e| (e.message.as_str(), e.count)).collect::<Vec<_>>(),
        [("check failed: child::check2", Some(10))]
    );
}

#[test]
fn a_script_written_summary_is_refused_with_the_reason() {
    let e = import_bytes("summary.json", br#"{"vus_max": 20, "iterations": 9, "latency_ms": {"p95": "302.10"}}"#)
        .unwrap_err();
    // One k6-looking key is not enough to call a JSON a k6 summary.
    assert_eq!(import_bytes("x.json", br#"{"iterations": 9}"#).unwrap_err().kind, LoadErrorKind::UnknownFormat);
    assert_eq!(e.kind, LoadErrorKind::Unsupported);
    assert!(e.message.contains("custom summary") && e.message.contains("latency_ms"), "{}", e.message);
}

#[test]
fn hostile_summaries_fail_cleanly() {
    let cases: [(&[u8], LoadErrorKind); 5] = [
        (br#"{"metrics": {"http_reqs": {"type": "counter", "values": {"count": 3"#, LoadErrorKind::Syntax),
        (br#"{"metrics": [1, 2], "state": {"testRunDurationMs": 1}}"#, LoadErrorKind::UnknownFormat),
        (
            br#"{"metrics": {"http_reqs": {"type":"counter","contains":"default","values":{"count":1e999}}}}"#,
            LoadErrorKind::Syntax,
        ),
        (br#"{"metrics": {}, "state": {"testRunDurationMs": 1}}"#, LoadErrorKind::Empty),
        (br#"{"metrics": {"vus": {"type":"gauge","contains":"x"}}, "root_group": {}}"#, LoadErrorKind::Empty),
    ];
    for (bytes, kind) in cases {
        let e = import_bytes("s.json", bytes).unwrap_err();
        assert_eq!(e.kind, kind, "{e}");
    }
    // Read as a summary when the user says so: a `metrics` that is not an object.
    let as_summary = |b: &[u8]| crate::import::import("s.json", b, Some(Format::K6Summary), &mut |_, _| {});
    assert_eq!(as_summary(br#"{"metrics": [1, 2]}"#).unwrap_err().kind, LoadErrorKind::Schema);
    assert_eq!(as_summary(b"[1]").unwrap_err().kind, LoadErrorKind::Schema);
    assert_eq!(as_summary(b"").unwrap_err().kind, LoadErrorKind::Syntax);
    let e = import_bytes("s.json", b"{\n\"metrics\": {\"http_reqs\": {\"type\":\"counter\",\"contains\":\"default\",\"values\":{\"count\":3}},}\n}").unwrap_err();
    assert_eq!((e.kind, e.line), (LoadErrorKind::Syntax, Some(2)));
    // Wrong types inside: warnings with the JSON path, the rest imported.
    let odd = br#"{"metrics": {"http_reqs": {"type":"counter","contains":"default","values":{"count":"3","rate":1.7976931348623157e308}},
      "http_req_duration": {"type":"trend","contains":"time","values":{"avg":null,"max":1e308}, "thresholds": {"p(95)<1": {"ok": "no"}}},
      "junk": 7}, "state": {"testRunDurationMs": 1e300}}"#;
    let imp = import_bytes("s.json", odd).unwrap();
    let w: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert!(w.iter().any(|w| w.starts_with("metrics.http_reqs.values.count: \"3\" is not a number")), "{w:?}");
    assert!(w.iter().any(|w| w.starts_with("metrics.junk: is not an object")), "{w:?}");
    assert!(w.iter().any(|w| w.starts_with("metrics.http_req_duration.thresholds.p(95)<1.ok")), "{w:?}");
    let run = &imp.bundle.runs[0];
    assert_eq!(run.duration_s, None, "an absurd duration is dropped");
    assert_eq!(txn(run, "All requests").max_ms, Some(1e308));
}
