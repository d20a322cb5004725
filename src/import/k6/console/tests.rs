//! Tests of the k6 console-summary importer: k6's units, both layouts (the docs' own examples),
//! agreement with the JSON summary of the same run, colours and hostile text.

use super::duration_ms;
use crate::bundle::{LoadErrorKind, RunStatus};
use crate::import::common::test_support::{file, import_run as import, kpi};
use crate::import::{import_bytes, Format};

fn fixture(name: &str) -> Vec<u8> {
    file(&format!("tests/fixtures/import/k6/{name}"))
}

#[test]
fn k6_duration_text() {
    let cases = [
        ("0s", Some(0.0)),
        ("12ns", Some(12e-6)),
        ("663.96µs", Some(0.66396)),
        ("7us", Some(0.007)),
        ("144.56ms", Some(144.56)),
        ("1.14s", Some(1140.0)),
        ("1m23s", Some(83_000.0)),
        ("1h2m3s", Some(3_723_000.0)),
        ("0m30.0s", Some(30_000.0)),
        ("5", None),
        ("abc", None),
        ("1x", None),
        ("", None),
    ];
    for (text, want) in cases {
        let got = duration_ms(text);
        assert!(got == want || got.zip(want).is_some_and(|(g, w)| (g - w).abs() < 1e-9), "{text}: {got:?} vs {want:?}");
    }
}

#[test]
fn the_classic_layout_of_the_docs() {
    let (format, run, warnings) = import("k6-output.txt", &fixture("console-classic.txt"));
    assert_eq!(format, Format::K6Console);
    assert!(warnings.is_empty(), "{warnings:?}");
    let all = &run.transactions[0];
    assert_eq!(all.name, "All requests");
    assert_eq!(
        (all.samples, all.errors, all.mean_ms, all.min_ms, all.max_ms),
        (Some(180), Some(0), Some(144.56), Some(104.11), Some(1140.0))
    );
    assert_eq!((all.median_ms, all.p90_ms, all.p95_ms), (Some(110.47), Some(203.54), Some(215.95)));
    assert_eq!(
        (kpi(&run, "Checks passed"), kpi(&run, "Data received"), kpi(&run, "Mean iteration duration")),
        (Some(50.0), Some(1.3e6), Some(12_910.0))
    );
    assert_eq!(run.errors[0].message, "check failed: Create resource - https://example.com/create::status equals 201");
    assert_eq!(run.errors[0].count, Some(45));
    // `✗ http_req_duration`: a threshold on it failed; the progress bar says 30 s.
    assert_eq!(run.status, RunStatus::Failed);
    assert_eq!(run.duration_s, Some(30.0));
    assert_eq!(run.dimensions.get("users").map(String::as_str), Some("20"));
}

#[test]
fn the_grouped_layout_agrees_with_the_json_of_the_same_run() {
    let (_, text, warnings) = import("out.txt", &fixture("console-compact-v1.txt"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let json = import_bytes("summary.json", &fixture("handlesummary-compact.json")).unwrap().bundle.runs.remove(0);
    assert_eq!(text.kpis.len(), json.kpis.len());
    for (t, j) in text.kpis.iter().zip(&json.kpis) {
        // Printed values are truncated to two decimals (times) or three digits (bytes).
        let tolerance = if t.unit == crate::bundle::Unit::Bytes { 0.01 * j.value } else { 0.01 };
        assert!(
            t.name == j.name && (t.value - j.value).abs() <= tolerance,
            "{} {} vs {} {}",
            t.name,
            t.value,
            j.name,
            j.value
        );
    }
    assert_eq!(text.status, RunStatus::Completed);
    let thresholds: Vec<&String> = text.notes.iter().filter(|n| n.starts_with("threshold")).collect();
    assert_eq!(
        thresholds,
        [
            "threshold ✓ http_req_duration p(95)<1500",
            "threshold ✓ http_req_duration p(90)<2000",
            "threshold ✓ http_req_failed rate<0.01"
        ]
    );
}

#[test]
fn full_mode_sections_become_tagged_transactions() {
    let (_, run, warnings) = import("full.txt", &fixture("console-full-v1.txt"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<&str> = run.transactions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "custom_waiting_time",
            "custom_waiting_time {scenario:left}",
            "{scenario:left}",
            "{scenario:left,group:crocodiles results}"
        ]
    );
    let left = &run.transactions[2];
    assert_eq!((left.samples, left.errors, left.mean_ms, left.p95_ms), (Some(40), Some(0), Some(134.17), Some(207.85)));
    // The totals come from TOTAL RESULTS only, not from the scenario's repeat of them.
    assert_eq!((kpi(&run, "Samples"), kpi(&run, "Mean response time")), (Some(65.0), Some(105.72)));
}

#[test]
fn colours_banner_and_logs_around_the_summary() {
    let text = "\n          /\\      |‾‾| /‾‾/   /‾‾/\n  execution: local\n     script: t.js\n  scenarios: (100.00%) 1 scenario, 1 max VUs\n\
        time=\"2025-01-01T00:00:00Z\" level=info msg=hello\n\
        running (0m02.5s), 0/1 VUs, 3 complete and 0 interrupted iterations\n\
        \x1b[32m✓\x1b[0m http_req_duration\x1b[2m.....:\x1b[0m avg=\x1b[36m1.5ms\x1b[0m min=1ms med=1.5ms max=2ms p(90)=1.9ms p(95)=1.95ms\n\
          { name:login }\x1b[2m...:\x1b[0m avg=2ms min=2ms med=2ms max=2ms p(90)=2ms p(95)=2ms\n\
        \x20 http_reqs.........: 3 1.2/s\n";
    let (format, run, _) = import("t.log", text.as_bytes());
    assert_eq!(format, Format::K6Console);
    assert_eq!(run.duration_s, Some(2.5));
    assert_eq!(run.transactions.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["login"]);
    assert_eq!(kpi(&run, "Mean response time"), Some(1.5));
    assert_eq!(run.status, RunStatus::Completed);
}

#[test]
fn hostile_console_text_never_panics() {
    let text = "http_req_duration..........: avg=garbage min=1ms\n{ orphan }.....: avg=1ms\n.....: 3\n✗\n↳\n↳  50% — ✓ x / ✗ y\n█\n\
        iterations...: 1 2 3 4/s\nvus_max.....: 99999999999999999999999 min=1 max=2\nhttp_reqs....: 1e400 1/s\n";
    let imp = crate::import::import("out.txt", text.as_bytes(), Some(Format::K6Console), &mut |_, _| {}).unwrap();
    let run = &imp.bundle.runs[0];
    assert!(run.transactions.is_empty(), "{:?}", run.transactions);
    assert_eq!(run.kpis.iter().map(|k| (k.name.as_str(), k.value)).collect::<Vec<_>>(), [("Max VUs", 2.0)]);
    let lines: Vec<&str> = imp.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(lines, ["line 1", "line 2", "line 8", "line 10"]);
    let e = crate::import::import("out.txt", &b"\xff\xfe\x00garbage\n"[..], Some(Format::K6Console), &mut |_, _| {})
        .unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Empty, "{e}");
    // A banner without a summary.
    let e = import_bytes("out.txt", b"  execution: local\n     script: s.js\n  scenarios: (100.00%) 1 scenario\n")
        .unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Empty);
    let (_, run, warnings) =
        import("out.txt", "http_req_duration....: avg=1ms min=1ms\nhttp_reqs....: 2 x/s\n".as_bytes());
    assert_eq!(run.kpis.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["Mean response time"]);
    assert!(warnings.iter().any(|w| w.starts_with("line 2: the values of http_reqs cannot be read")), "{warnings:?}");
}
