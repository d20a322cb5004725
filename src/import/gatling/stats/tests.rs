//! Tests of Gatling's stats.json / stats.js / global_stats.json importer: the JavaScript variant,
//! groups and escaped names, percentile ranks, hostile files.

use super::stats_js_to_json;
use crate::bundle::{LoadErrorKind, Run};
use crate::import::common::test_support::{file, import_run};
use crate::import::{import_bytes, Format};

fn import(name: &str, bytes: &[u8]) -> (Format, Run) {
    let (format, run, warnings) = import_run(name, bytes);
    assert!(warnings.is_empty(), "{warnings:?}");
    (format, run)
}

#[test]
fn stats_js_with_groups_strings_and_dashes() {
    let (format, run) = import("stats.js", &file("tests/fixtures/import/gatling/stats-groups.js"));
    assert_eq!(format, Format::GatlingStats);
    let rows: Vec<_> =
        run.transactions.iter().map(|t| (t.name.as_str(), t.samples, t.errors, t.median_ms, t.p99_ms)).collect();
    assert_eq!(
        rows,
        [
            ("Login", Some(2), Some(1), Some(350.0), Some(399.0)),
            ("Login / POST \"user\"", Some(2), Some(1), Some(350.0), Some(399.0)),
            ("Home", Some(4), Some(0), Some(25.0), Some(50.0)),
        ]
    );
    let home = &run.transactions[2];
    assert_eq!(
        (home.mean_ms, home.min_ms, home.max_ms, home.percentiles.get("p75"), home.p95_ms),
        (Some(30.0), Some(10.0), Some(50.0), Some(&40.0), Some(48.0))
    );
    assert_eq!(home.throughput_run_per_s, Some(0.4));
    assert!(run.transactions[0].note.as_deref().unwrap_or("").starts_with("Gatling group"));
    let kpis: Vec<(&str, f64)> = run.kpis.iter().map(|k| (k.name.as_str(), k.value)).collect();
    assert_eq!(kpis[..3], [("Samples", 6.0), ("Error rate", 100.0 / 6.0), ("Throughput", 0.6)]);
    assert_eq!(run.duration_s, Some(10.0));
    assert!(run.notes[0].contains("read as p50/p75/p95/p99, Gatling's defaults"));
}

#[test]
fn the_js_and_json_forms_of_one_report_agree() {
    let json = String::from_utf8(file("tests/corpus/gatling/apicurio-2021-10-20-baseline-stats.json")).unwrap();
    // stats.js as StatsJsTemplate writes it: unquoted top-level keys, numbers as strings.
    let mut js = String::from("var stats = ");
    let mut rest = json.as_str();
    while let Some(i) = rest.find('"') {
        js.push_str(&rest[..i]);
        let end = rest[i + 1..].find('"').map_or(rest.len(), |e| i + 1 + e);
        let key = &rest[i + 1..end];
        let after = rest[end + 1..].trim_start();
        if after.starts_with(':') && ["type", "name", "path", "pathFormatted", "stats", "contents"].contains(&key) {
            js.push_str(key);
        } else {
            js.push_str(&rest[i..=end]);
        }
        rest = &rest[end + 1..];
    }
    js.push_str(rest);
    let mut js = js.replace(": 0,\n", ": \"0\",\n");
    js.push_str(
        "\n\nfunction fillStats(stat){\n    $(\"#numberOfRequests\").append(stat.numberOfRequests.total);\n}\n",
    );
    assert!(js.contains("type: \"GROUP\"") && js.contains("contents: {"), "{}", &js[..200]);
    let (_, from_json) = import("stats.json", json.as_bytes());
    let (_, from_js) = import("stats.js", js.as_bytes());
    assert_eq!(from_json.transactions, from_js.transactions);
    assert_eq!(from_json.kpis, from_js.kpis);
}

#[test]
fn percentile_ranks_named_in_the_file_are_honoured() {
    let st = |name: &str| format!(r#""total": 7, "ok": 7, "ko": 0, "name": "response time {name} percentile""#);
    let json = format!(
        r#"{{"numberOfRequests": {{"total": 10, "ok": 10, "ko": 0}}, "meanNumberOfRequestsPerSecond": {{"total": 2}},
           "percentiles1": {{{}}}, "percentiles2": {{{}}}, "percentiles3": {{{}}}, "percentiles4": {{{}}}}}"#,
        st("50th"),
        st("90th"),
        st("99th"),
        st("99.9th")
    );
    let (format, run) = import("global_stats.json", json.as_bytes());
    assert_eq!(format, Format::GatlingGlobalStats);
    let t = &run.transactions[0];
    assert_eq!(
        (t.median_ms, t.p90_ms, t.p95_ms, t.p99_ms, t.percentiles.get("p99.9")),
        (Some(7.0), Some(7.0), None, Some(7.0), Some(&7.0))
    );
    assert!(run.notes[0].contains("p50/p90/p99/p99.9 as the file names them"), "{}", run.notes[0]);
    assert!(!run.kpis.iter().any(|k| k.name == "p95 response time"));
}

#[test]
fn js_object_conversion_keeps_strings_intact() {
    let js = r#"// comment-free header
var stats = { type: "GROUP", name: "a: {b} \"c\" d\\", path: "", stats: { "x": true }, contents: { } } function fillStats(){}"#;
    let json = stats_js_to_json(js).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["name"], "a: {b} \"c\" d\\");
    assert_eq!(v["stats"]["x"], true);
    assert_eq!(stats_js_to_json("var stats = { type: \"GROUP\", "), None);
    assert_eq!(stats_js_to_json("var stats = }}"), None);
}

#[test]
fn hostile_reports_fail_with_a_place() {
    let cases: [(&str, &[u8], LoadErrorKind, Option<&str>); 6] = [
        ("stats.json", br#"{"type": "GROUP", "stats": {"numberOfRequests": {"total": true}}, "contents": {}}"#, LoadErrorKind::Schema, Some("stats.numberOfRequests.total")),
        ("stats.json", br#"{"type": "GROUP", "stats": {"numberOfRequests": {"total": "lots"}}, "contents": {}}"#, LoadErrorKind::Schema, Some("stats.numberOfRequests.total")),
        ("stats.json", br#"{"type": "GROUP", "stats": {"numberOfRequests": {"total": 1}}, "contents": {"r": {"type": "REQUEST", "stats": 5}}}"#, LoadErrorKind::Schema, Some("contents.r.stats")),
        ("stats.json", br#"{"type": "GROUP", "contents": {}}"#, LoadErrorKind::Schema, Some("stats")),
        ("stats.json", br#"{"type": "GROUP", "stats": {}, "contents": {}}"#, LoadErrorKind::Empty, Some("contents")),
        ("stats.js", b"var stats = { type: \"GROUP\", stats: { \"numberOfRequests\": {", LoadErrorKind::Syntax, None),
    ];
    for (name, bytes, kind, path) in cases {
        let e = import_bytes(name, bytes).unwrap_err();
        assert_eq!((e.kind, e.path.as_deref()), (kind, path), "{e}");
    }
    // Huge and odd numbers are values, not failures.
    let (_, run) = import("global_stats.json", br#"{"numberOfRequests": {"total": 1e300, "ko": "-"}, "minResponseTime": {"total": -5}, "meanNumberOfRequestsPerSecond": {"total": 0}}"#);
    let t = &run.transactions[0];
    assert_eq!((t.samples, t.errors, t.min_ms), (None, None, None));
    assert_eq!(run.duration_s, None);
}
