#![cfg(not(target_arch = "wasm32"))]
//! The small import fixtures in tests/fixtures/import/<tool>/ (shapes the real corpus lacks; each
//! folder's README says where each shape comes from): every file imports or is refused with a
//! clear message, compared with its snapshot; detection by content agrees with detection by name;
//! what is imported is a valid bundle; and the point of each shape is asserted on its own.
//!
//! Update the snapshots after an intended change with `INSTA_UPDATE=always cargo test --test import_fixtures`.

mod support;

use runlens::bundle::{ByteSize, IndexStats, Resource, Run, Unit};
use runlens::import::{common::dump, detect_by_content, import, import_bytes, Format, Imported, HEAD_BYTES};
use std::path::{Path, PathBuf};
use support::snapshot;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import")
}

fn files() -> Vec<PathBuf> {
    snapshot::files(&root(), None)
}

fn load(folder: &str, file: &str) -> Imported {
    let bytes = std::fs::read(root().join(folder).join(file)).unwrap();
    import_bytes(file, &bytes).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn idx<'a>(run: &'a Run, name: &str) -> &'a IndexStats {
    run.indices.iter().find(|x| x.index == name).unwrap_or_else(|| panic!("no index {name:?}"))
}

fn res<'a>(run: &'a Run, service: &str, metric: &str) -> &'a Resource {
    run.resources
        .iter()
        .find(|r| r.service == service && r.metric == metric)
        .unwrap_or_else(|| panic!("no {service} · {metric}"))
}

#[test]
fn every_fixture_imports_or_is_refused_clearly() {
    for (name, text) in snapshot::texts(&files(), snapshot::Loader::NoWarning) {
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn detection_by_content_agrees_with_detection_by_name() {
    snapshot::detection_agrees(&files());
}

#[test]
fn cat_indices_blank_cells_stay_in_their_columns() {
    let run = &load("opensearch-cat-indices", "aligned-red-index.txt").bundle.runs[0];
    let red = idx(run, "broken-index");
    assert_eq!(
        (red.health.as_deref(), red.pri, red.rep, red.docs_count, red.store_size),
        (Some("red"), Some(5), Some(1), None, None)
    );
    assert_eq!(idx(run, ".kibana_1").pri_store_size, Some(ByteSize(5222)));
    let run = &load("opensearch-cat-indices", "es8-dataset-size.txt").bundle.runs[0];
    assert_eq!(
        (idx(run, "my-index-000002").store_size, idx(run, "my-index-000003").docs_count),
        (Some(ByteSize(260)), None)
    );
    let md = &load("opensearch-cat-indices", "markdown-table.md").bundle.runs[0];
    assert_eq!((md.indices.len(), idx(md, "broken-index").store_size), (2, None));
}

#[test]
fn cat_indices_without_header_uuid_or_alignment() {
    let imp = load("opensearch-cat-indices", "es8-no-header.txt");
    let run = &imp.bundle.runs[0];
    assert_eq!(run.indices.len(), 3);
    assert_eq!((idx(run, "my-index-000001").docs_count, idx(run, "my-index-000003").rep), (Some(1200), Some(1)));
    assert!(imp.warnings[0].message.contains("default column order"), "{:?}", imp.warnings);
    let old = &load("opensearch-cat-indices", "es1-no-uuid.txt").bundle.runs[0];
    assert_eq!((idx(old, "twitter").uuid.as_deref(), idx(old, "twitter").store_size), (None, Some(ByteSize(64 << 20))));
    let collapsed = &load("opensearch-cat-indices", "collapsed-whitespace.txt").bundle.runs[0];
    assert_eq!(idx(collapsed, "ocp2_contributor_fs09000000").docs_deleted, Some(1_300_484));
    let aliases = load("opensearch-cat-indices", "curl-aliases.txt");
    assert_eq!(idx(&aliases.bundle.runs[0], "ocp2_instance").store_size, Some(ByteSize(131_962_870_170)));
}

#[test]
fn cat_indices_confluence_page_gives_one_run_per_test() {
    let imp = load("opensearch-cat-indices", "confluence-two-tests.txt");
    let labels: Vec<&str> = imp.bundle.runs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, vec!["confluence-two-tests: Test #2", "confluence-two-tests: Test #4"]);
    assert_eq!(idx(&imp.bundle.runs[1], "ocp2_instance_fs09000000").pri_store_size, Some(ByteSize(44_345_537_331)));
}

#[test]
fn cat_indices_json_pages_and_aliases() {
    let run = &load("opensearch-cat-indices", "list-indices-two-pages.json").bundle.runs[0];
    assert_eq!(run.indices.iter().map(|x| x.index.as_str()).collect::<Vec<_>>(), vec!["logs-1", "logs-2"]);
    let run = &load("opensearch-cat-indices", "cat-json-aliases-bytes.json").bundle.runs[0];
    assert_eq!(idx(run, "ocp2_authority").store_size, Some(ByteSize(244_423_066)));
}

#[test]
fn cloudwatch_pages_partial_data_and_boto3() {
    let two = load("cloudwatch", "get-metric-data-two-pages.json");
    let s = res(&two.bundle.runs[0], "mod-search-b", "cpu").series.clone().unwrap();
    assert_eq!(s.t_s, vec![0.0, 300.0, 600.0, 900.0, 1200.0, 1500.0]);
    assert_eq!(s.values, vec![31.2, 29.8, 24.5, 20.1, 19.7, 18.2]);
    let array = load("cloudwatch", "get-metric-data-array-of-pages.json");
    assert_eq!(array.bundle.runs[0].resources, two.bundle.runs[0].resources);
    let partial = load("cloudwatch", "get-metric-data-partial.json");
    assert!(partial.warnings.iter().any(|w| w.message.contains("PartialData")), "{:?}", partial.warnings);
    let boto = load("cloudwatch", "boto3-json-default-str.json");
    assert_eq!(res(&boto.bundle.runs[0], "mem_search", "memory").peak, Some(64.0));
    let bytes = std::fs::read(root().join("cloudwatch/boto3-print-repr.txt")).unwrap();
    assert!(import_bytes("boto3-print-repr.txt", &bytes).unwrap_err().message.contains("default=str"));
    let q = &load("cloudwatch", "script-queries-and-results.json").bundle.runs[0];
    assert_eq!(
        (res(q, "db-ocp2-writer", "db_cpu").peak, res(q, "db-ocp2-writer", "db_connections").unit),
        (Some(63.0), Unit::Count)
    );
}

#[test]
fn docker_stats_series_need_times() {
    let timed = load("docker-stats", "loop-with-date.txt");
    let cpu = res(&timed.bundle.runs[0], "folio-mod-search-1", "cpu");
    assert_eq!(
        cpu.series.as_ref().map(|s| (s.t_s.clone(), s.values.clone())),
        Some((vec![0.0, 10.0, 20.0], vec![31.2, 24.55, 19.7]))
    );
    assert_eq!(res(&timed.bundle.runs[0], "folio-mod-search-1", "memory").peak, Some(1_404_454_306.0), "1.308GiB");
    for other in ["loop-with-date-default.txt", "format-csv-epoch.csv", "header-iso.csv"] {
        assert_eq!(load("docker-stats", other).bundle.runs[0].resources, timed.bundle.runs[0].resources, "{other}");
    }
    let stream = load("docker-stats", "stream-ansi.txt");
    let cpu = res(&stream.bundle.runs[0], "folio-mod-search-1", "cpu");
    assert_eq!((cpu.peak, cpu.series.is_none()), (Some(31.2), true));
    assert!(stream.warnings.iter().any(|w| w.message.contains("without times")));
    let json = load("docker-stats", "format-json.jsonl");
    assert_eq!(json.format, Format::DockerStats);
    assert_eq!(json.bundle.runs[0].resources, load("docker-stats", "no-stream-table.txt").bundle.runs[0].resources);
}

#[test]
fn locust_files_the_corpus_lacks() {
    let f = &load("locust", "folio_failures.csv").bundle.runs[0];
    assert_eq!(f.errors.len(), 2);
    assert!(f.errors[1].key().starts_with("POST /authn/login: ConnectionResetError(104,"), "{:?}", f.errors);
    let e = &load("locust", "folio_exceptions.csv").bundle.runs[0].errors[0];
    assert_eq!((e.count, e.services.len()), (Some(2), 2));
    let old = &load("locust", "locust-0.14_stats.csv").bundle.runs[0];
    assert_eq!((old.transactions.len(), old.transactions[0].p95_ms), (1, Some(1100.0)));
    let h = &load("locust", "aggregated-only_stats_history.csv").bundle.runs[0];
    assert_eq!((h.duration_s, h.dimensions.get("users").map(String::as_str)), (Some(15.0), Some("20")));
}

/// Every fixture cut short at many places, and read as each of these formats whatever it is,
/// gives a value or an error: never a panic.
#[test]
fn cut_and_misread_fixtures_never_panic() {
    use Format::*;
    let formats = Format::all().into_iter().filter(|f| {
        matches!(
            f,
            LocustStats
                | LocustHistory
                | LocustFailures
                | LocustExceptions
                | CatIndices
                | CatIndicesJson
                | CloudWatchMetricData
                | CloudWatchStatistics
                | CloudWatchWidget
                | DockerStats
        )
    });
    let formats: Vec<Format> = formats.collect();
    let mut runs = 0;
    for path in files() {
        let bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        let cuts: Vec<usize> = (0..24).map(|k| n * k / 23).chain([1, 2, n.saturating_sub(1)]).collect();
        for cut in cuts {
            for &f in &formats {
                if let Ok(imp) = import("cut", &bytes[..cut.min(n)], Some(f), &mut |_, _| {}) {
                    runs += imp.bundle.runs.len();
                }
            }
        }
    }
    assert!(runs > 0, "some cut files still import");
}

/// k6 and Gatling fixtures: each is recognised by content alone, whatever it is called, and imports
/// without warnings into one run (their figures are checked in the importers' unit tests).
#[test]
fn k6_and_gatling_fixtures_are_recognised_by_content_alone_and_import_cleanly() {
    let expected = [
        ("k6/console-classic.txt", Format::K6Console),
        ("k6/console-compact-v1.txt", Format::K6Console),
        ("k6/console-full-v1.txt", Format::K6Console),
        ("k6/handlesummary-compact.json", Format::K6Summary),
        ("k6/handlesummary-docs-reference.json", Format::K6Summary),
        ("k6/machine-readable-compact.json", Format::K6Summary),
        ("k6/summary-export-compact.json", Format::K6SummaryExport),
        ("k6/points-docs.ndjson", Format::K6Json),
        ("k6/points-v2-envelope.ndjson", Format::K6Json),
        ("gatling/stats-groups.js", Format::GatlingStats),
    ];
    let root = root();
    let mut listed: Vec<String> = Vec::new();
    for dir in ["k6", "gatling"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name != "README.md" {
                listed.push(format!("{dir}/{name}"));
            }
        }
    }
    listed.sort();
    let mut names: Vec<String> = expected.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(listed, names, "every fixture is listed here");
    for (path, format) in expected {
        let bytes = std::fs::read(root.join(path)).unwrap();
        assert_eq!(detect_by_content(&bytes[..bytes.len().min(HEAD_BYTES)]), Some(format), "{path}");
        let imp = import("upload.bin", &bytes[..], None, &mut |_, _| {}).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(imp.warnings.is_empty(), "{path}: {:?}", imp.warnings);
        assert_eq!(imp.bundle.runs.len(), 1, "{path}");
    }
}

/// The worker passes a file's size so that a file read whole takes one allocation; a size that is
/// wrong (a file that changed on disk meanwhile) must still give the whole file, and nothing more.
#[test]
fn a_known_size_reads_the_same_file_whole_even_when_it_is_wrong() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    let mut fixtures: Vec<PathBuf> =
        files().into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")).take(4).collect();
    fixtures.push(examples.join("folio-mod-search-eureka.json"));
    for path in fixtures {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let unsized_ = import(&name, &bytes[..], None, &mut |_, _| {}).map(|i| (dump::summary(&i), i.bundle));
        let len = bytes.len() as u64;
        for size in [len, 0, len / 2, len + 1, len * 3] {
            let sized = runlens::import::import_sized(&name, &bytes[..], Some(size), None, &mut |_, _| {})
                .map(|i| (dump::summary(&i), i.bundle));
            assert_eq!(sized, unsized_, "{name} read with the size given as {size} of {len}");
        }
    }
}
