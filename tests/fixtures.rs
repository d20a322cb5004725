#![cfg(not(target_arch = "wasm32"))]
//! The loader's exact behaviour on the bundles in tests/fixtures: valid ones load with exactly the
//! expected warnings (path and message), invalid ones fail with the expected kind, path, position
//! and message. Every fixture file must have an entry here.

use runlens::bundle::{
    load_bundle, load_bundle_str, ByteSize, Direction, LoadError, LoadErrorKind, Loaded, RunStatus, Unit,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(kind)
}

fn read(kind: &str, name: &str) -> String {
    std::fs::read_to_string(dir(kind).join(name)).unwrap_or_else(|e| panic!("{kind}/{name}: {e}"))
}

fn files(kind: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir(kind))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect()
}

fn load_ok(name: &str) -> Loaded {
    load_bundle_str(name, &read("valid", name)).unwrap_or_else(|e| panic!("{name} should load: {e}"))
}

fn load_err(name: &str) -> LoadError {
    match load_bundle_str(name, &read("invalid", name)) {
        Ok(l) => panic!("{name} should not load; it did, with warnings {:?}", l.warnings),
        Err(e) => e,
    }
}

// ---------------------------------------------------------------------------------------------
// Valid bundles: (file, exact warnings as (path, part of the message)).

const VALID: &[(&str, &[(&str, &str)])] = &[
    ("minimal.json", &[]),
    ("full.json", &[]),
    ("warn-negative-duration.json", &[("runs[0].duration_s", "negative duration (-30 s)")]),
    ("warn-nan-latency.json", &[("line 10", "NaN is not a number JSON allows; read as a missing value")]),
    (
        "warn-percentiles-out-of-order.json",
        &[("runs[0].transactions[0].p95_ms", "percentiles out of order: p90_ms = 400 > p95_ms = 350")],
    ),
    ("warn-errors-exceed-samples.json", &[("runs[0].transactions[0].errors", "12 errors but only 10 samples")]),
    ("warn-unknown-field.json", &[("runs[0].transactions[0].apdex", "unknown field, ignored")]),
    (
        "warn-duplicate-transactions.json",
        &[("runs[0].transactions[2]", "\"Login\" appears twice; comparisons use the first")],
    ),
];

#[test]
fn valid_fixtures_load_with_exactly_the_expected_warnings() {
    for (name, expected) in VALID {
        let loaded = load_ok(name);
        let got: Vec<(String, String)> = loaded.warnings.iter().map(|w| (w.path.clone(), w.message.clone())).collect();
        assert_eq!(got.len(), expected.len(), "{name}: warnings {got:?}, expected {expected:?}");
        for ((path, message), (want_path, want_message)) in got.iter().zip(expected.iter()) {
            assert_eq!(path, want_path, "{name}: warning path");
            assert!(message.contains(want_message), "{name}: warning {message:?} lacks {want_message:?}");
        }
    }
}

#[test]
fn valid_fixtures_round_trip() {
    for (name, _) in VALID {
        let first = load_ok(name).bundle;
        let written = serde_json::to_string_pretty(&first).unwrap();
        let second = load_bundle_str(name, &written).unwrap_or_else(|e| panic!("{name} rewritten: {e}"));
        assert_eq!(first, second.bundle, "{name} changed in a round trip");
        assert!(
            second.warnings.iter().all(|w| w.message != "unknown field, ignored"),
            "{name}: the rewritten bundle has unknown fields: {:?}",
            second.warnings
        );
    }
}

#[test]
fn minimal_bundle_has_one_run_and_defaults() {
    let b = load_ok("minimal.json").bundle;
    assert_eq!(b.report.title, "Minimal bundle");
    assert_eq!(b.runs.len(), 1);
    let run = &b.runs[0];
    assert_eq!((run.id.as_str(), run.label.as_str()), ("run-1", "Only run"));
    assert_eq!(run.status, RunStatus::Completed, "status defaults to completed");
    assert!(run.transactions.is_empty() && run.indices.is_empty() && b.comparisons.is_empty());
    // The canonical form leaves defaults out.
    let written = serde_json::to_value(&b).unwrap();
    assert_eq!(
        written,
        serde_json::json!({
            "format": "runlens-bundle", "version": 1,
            "report": { "title": "Minimal bundle" },
            "runs": [{ "id": "run-1", "label": "Only run" }]
        })
    );
}

#[test]
fn full_bundle_reads_every_field() {
    let b = load_ok("full.json").bundle;
    let r = &b.report;
    assert_eq!(r.tickets.len(), 2);
    assert_eq!(r.tickets[0].relation.as_deref(), Some("tested"));
    assert_eq!(r.tickets[1].url, None);
    assert_eq!(r.summary.len(), 2);
    assert_eq!(r.links[0].label, "Dashboard");
    assert!(r.environment.as_deref().unwrap().contains("pcp1"));

    assert_eq!(b.runs.len(), 4);
    let statuses: Vec<RunStatus> = b.runs.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [RunStatus::Completed, RunStatus::Failed, RunStatus::Aborted, RunStatus::Unknown]);
    assert_eq!(b.runs[1].status_reason.as_deref(), Some("Kafka consumer lag never recovered."));
    assert_eq!(b.runs[1].duration_s, Some(6480.5));

    let run = &b.runs[0];
    assert_eq!(run.duration_s, Some(7200.0));
    assert_eq!(run.dimensions.get("users").map(String::as_str), Some("20"));
    assert_eq!(run.conditions.len(), 2);

    let t = &run.transactions[0];
    assert_eq!((t.samples, t.errors), (Some(12000), Some(3)));
    assert_eq!((t.median_ms, t.p99_ms, t.max_ms), (Some(380.0), Some(950.25), Some(1800.0)));
    assert_eq!(t.throughput_per_s, Some(16.7));
    assert_eq!(t.percentiles.get("p99.9"), Some(&1500.0));
    let h = t.histogram.as_ref().unwrap();
    assert_eq!(h.upper_bounds_ms, [250.0, 500.0, 1000.0, 2000.0]);
    assert_eq!(h.counts.iter().sum::<u64>(), 12000);

    let res = &run.resources[0];
    assert_eq!(res.unit, Unit::Percent);
    assert_eq!(res.peak, Some(140.0), "CPU percent may exceed 100");
    assert_eq!(res.phases.len(), 2);
    assert_eq!(res.phases[1].peak, None);
    let series = res.series.as_ref().unwrap();
    assert_eq!(series.t_s, [0.0, 60.0, 120.0]);
    assert_eq!(series.values, [10.0, 80.5, 60.0]);

    // _cat/indices aliases and human sizes (binary multiples).
    let idx = &run.indices[0];
    assert_eq!(idx.docs_count, Some(8_123_456));
    assert_eq!(idx.docs_deleted, Some(1024));
    assert_eq!(idx.store_size, Some(ByteSize(131_962_870_170)));
    assert_eq!(idx.pri_store_size, Some(ByteSize((61.4 * (1u64 << 30) as f64).round() as u64)));
    assert_eq!((idx.pri, idx.rep), (Some(4), Some(1)));
    let idx = &run.indices[1];
    assert_eq!(idx.store_size, Some(ByteSize(832)));
    assert_eq!(idx.pri_store_size, Some(ByteSize(15_872)));

    let dirs: Vec<Option<Direction>> = run.kpis.iter().map(|k| k.direction).collect();
    assert_eq!(
        dirs,
        [Some(Direction::LowerIsBetter), Some(Direction::HigherIsBetter), Some(Direction::Neutral), None],
        "a direction left out stays unstated (the comparison infers it from name and unit)"
    );
    let units: Vec<Unit> = run.kpis.iter().map(|k| k.unit).collect();
    assert_eq!(units, [Unit::S, Unit::PerSecond, Unit::Count, Unit::Bytes]);

    assert_eq!(run.errors[0].count, Some(3));
    assert_eq!(run.errors[0].services, ["mod-search", "okapi"]);

    let tenant = &run.tenants[0];
    assert_eq!(tenant.tenant, "fs09000000");
    assert_eq!(tenant.kpis[0].value, 2700.0);
    assert_eq!(tenant.transactions[0].p95_ms, Some(690.0));

    let m = &run.modules[0];
    assert_eq!((m.running_tasks, m.cpu_units, m.memory_mib, m.xmx_mib), (Some(4), Some(2048), Some(3072), Some(2200)));
    assert_eq!(m.settings.get("SEARCH_BY_ALL_FIELDS_ENABLED").map(String::as_str), Some("true"));

    assert_eq!(run.infrastructure.len(), 2);
    assert_eq!(run.infrastructure[1].count, Some(4));
    assert_eq!(run.infrastructure[1].settings.get("version").map(String::as_str), Some("2.7"));

    assert_eq!(b.comparisons.len(), 2);
    assert_eq!(b.comparisons[0].baseline, "orchid");
    assert_eq!(b.comparisons[0].candidates, ["poppy", "poppy-retry"]);
    assert_eq!(b.comparisons[1].title, None);
}

#[test]
fn sizes_are_written_back_as_integers_under_canonical_names() {
    let b = load_ok("full.json").bundle;
    let v = serde_json::to_value(&b).unwrap();
    let idx = &v["runs"][0]["indices"][0];
    assert_eq!(idx["store_size"], serde_json::json!(131_962_870_170u64));
    assert_eq!(idx["docs_count"], serde_json::json!(8_123_456));
    assert!(idx.get("store.size").is_none() && idx.get("docs.count").is_none());
}

#[test]
fn nan_is_read_as_a_missing_value() {
    let b = load_ok("warn-nan-latency.json").bundle;
    let t = &b.runs[0].transactions[0];
    assert_eq!((t.median_ms, t.p95_ms, t.p99_ms), (Some(120.0), None, Some(300.0)));
}

#[test]
fn byte_order_mark_is_skipped() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(read("valid", "minimal.json").as_bytes());
    let loaded = load_bundle("bom.json", &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.warnings.is_empty());
    let err = load_bundle("latin1.json", b"{\"format\": \"caf\xE9\"}").unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Syntax);
    assert!(err.message.contains("not UTF-8"), "{}", err.message);
}

// ---------------------------------------------------------------------------------------------
// Invalid bundles.

struct Expect {
    file: &'static str,
    kind: LoadErrorKind,
    path: Option<&'static str>,
    /// (line, column) when the error carries a position.
    at: Option<(usize, usize)>,
    message: &'static str,
}

const fn e(
    file: &'static str,
    kind: LoadErrorKind,
    path: Option<&'static str>,
    at: Option<(usize, usize)>,
    message: &'static str,
) -> Expect {
    Expect { file, kind, path, at, message }
}

use LoadErrorKind::*;

const INVALID: &[Expect] = &[
    e("not-json.json", Syntax, None, Some((5, 3)), "not valid JSON: expected `,` or `}`"),
    e("json-array.json", NotABundle, None, Some((3, 1)), "expected a JSON object with \"format\": \"runlens-bundle\""),
    e("positional-array.json", NotABundle, None, Some((1, 87)), "expected a JSON object"),
    e("jmeter-csv.json", Syntax, None, Some((1, 2)), "not valid JSON"),
    e("wrong-format.json", NotABundle, Some("format"), None, "format is \"k6-summary\", expected \"runlens-bundle\""),
    e("missing-format.json", NotABundle, Some("format"), None, "there is no \"format\": \"runlens-bundle\" field"),
    e(
        "version-2.json",
        UnsupportedVersion,
        Some("version"),
        None,
        "bundle version 2 is not supported; this runlens reads version 1",
    ),
    e("version-string.json", UnsupportedVersion, Some("version"), None, "\"version\" must be the number 1"),
    e("missing-title.json", Schema, Some("report"), Some((4, 37)), "missing field `title`"),
    e(
        "wrong-type-samples.json",
        Schema,
        Some("runs[0].transactions[0].samples"),
        Some((9, 59)),
        "invalid type: string \"many\", expected u64",
    ),
    e(
        "bad-size.json",
        Schema,
        Some("runs[0].indices[0].store_size"),
        Some((9, 73)),
        "\"12 parsecs\" has an unknown unit \"parsecs\"",
    ),
    e("bad-status.json", Schema, Some("runs[0].status"), Some((5, 57)), "unknown variant `crashed`"),
    e("duplicate-run-ids.json", Invalid, Some("runs[1].id"), None, "duplicate run id \"a\""),
    e("empty-run-id.json", Invalid, Some("runs[1].id"), None, "a run id cannot be empty"),
    e(
        "comparison-unknown-candidate.json",
        Invalid,
        Some("comparisons[0].candidates[0]"),
        None,
        "no run has the id \"c\"",
    ),
    e("comparison-unknown-baseline.json", Invalid, Some("comparisons[1].baseline"), None, "no run has the id \"zz\""),
    e(
        "comparison-no-candidates.json",
        Invalid,
        Some("comparisons[0].candidates"),
        None,
        "needs at least one candidate",
    ),
    e("empty-runs.json", Invalid, Some("runs"), None, "a bundle needs at least one run"),
];

#[test]
fn invalid_fixtures_fail_with_the_expected_error() {
    let mut failures = Vec::new();
    for x in INVALID {
        let err = load_err(x.file);
        let got_at = err.line.zip(err.column);
        if err.kind != x.kind
            || err.path.as_deref() != x.path
            || got_at != x.at
            || !err.message.contains(x.message)
            || err.source != x.file
        {
            failures.push(format!(
                "{}: got kind {:?}, path {:?}, at {:?}, message {:?}; expected {:?}, {:?}, {:?}, containing {:?}",
                x.file, err.kind, err.path, got_at, err.message, x.kind, x.path, x.at, x.message
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn error_display_names_file_position_path_and_message() {
    assert_eq!(
        load_err("not-json.json").to_string(),
        "not-json.json, line 5, column 3: not valid JSON: expected `,` or `}`"
    );
    assert_eq!(
        load_err("wrong-type-samples.json").to_string(),
        "wrong-type-samples.json, line 9, column 59, at runs[0].transactions[0].samples: \
         invalid type: string \"many\", expected u64"
    );
    assert_eq!(
        load_err("duplicate-run-ids.json").to_string(),
        "duplicate-run-ids.json, at runs[1].id: duplicate run id \"a\""
    );
}

#[test]
fn every_fixture_file_has_an_expectation() {
    let valid: BTreeSet<String> = VALID.iter().map(|(n, _)| n.to_string()).collect();
    let invalid: BTreeSet<String> = INVALID.iter().map(|x| x.file.to_string()).collect();
    assert_eq!(files("valid"), valid, "tests/fixtures/valid and VALID differ");
    assert_eq!(files("invalid"), invalid, "tests/fixtures/invalid and INVALID differ");
}

#[test]
fn gzip_bundles_load_by_content_and_broken_gzip_is_a_syntax_error() {
    use std::io::Write;
    let text = std::fs::read(dir("valid").join("minimal.json")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let bytes = gz.finish().unwrap();
    let loaded = runlens::bundle::load_bundle("minimal.json.gz", &bytes).unwrap();
    assert_eq!(loaded.bundle, runlens::bundle::load_bundle("minimal.json", &text).unwrap().bundle);
    let err = runlens::bundle::load_bundle("broken.json.gz", &bytes[..bytes.len() / 2]).unwrap_err();
    assert_eq!(err.kind, runlens::bundle::LoadErrorKind::Syntax);
    assert!(err.to_string().starts_with("broken.json.gz: the file looks gzip-compressed"), "{err}");
}
