#![cfg(not(target_arch = "wasm32"))]
//! Two load generators' results of one test merged (`assemble::group::merge_runs`, as `runlens
//! import --run` and the import panel merge them) equal the concatenated file imported, field by
//! field: generated JTLs (written here, seeded), corpus JTLs, JMeter XML, a Gatling log and k6
//! points split into two generators. Where a part's histogram does not carry every distinct value
//! the merge says so, and each percentile is within one histogram bucket of the true one.

use runlens::assemble::group::{merge_runs, Part, RunSpec};
use runlens::bundle::{Run, Transaction, Warning};
use runlens::import::import_bytes;
use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

fn run_of(name: &str, text: &str) -> Run {
    let mut b = import_bytes(name, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}")).bundle;
    assert_eq!(b.runs.len(), 1);
    b.runs.remove(0)
}

/// A seeded JMeter CSV of `rows` samples over `labels` labels, response times from `distinct`
/// values, a sample every ~40 ms; rows for which `keep` holds.
fn jtl(rows: u64, labels: u64, distinct: u64, seed: u64) -> Vec<String> {
    let mut x = seed;
    let mut next = move || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        x >> 33
    };
    (0..rows)
        .map(|i| {
            let label = next() % labels;
            let elapsed = 20 + next() % distinct * 3;
            let ok = next() % 17 != 0;
            let ts = 1_700_000_000_000u64 + i * 40 + next() % 30;
            format!(
                "{ts},{elapsed},label-{label},{},{},gen 1-{},text,{ok},,{},{},5,10,http://x/{label},{},0,3",
                if ok { 200 } else { 500 },
                if ok { "OK" } else { "Internal Server Error" },
                i % 5,
                100 + next() % 900,
                50 + label,
                elapsed / 2
            )
        })
        .collect()
}

const JTL_HEADER: &str = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

/// Splits `body` lines between two generators (every `k`-th line to the second) and returns both
/// files and their concatenation, each wrapped in `head` and `tail`.
fn split(head: &str, body: &[String], tail: &str, k: usize) -> (String, String, String) {
    let wrap = |lines: Vec<&String>| {
        let mut s = String::from(head);
        lines.iter().for_each(|l| {
            s.push_str(l);
            s.push('\n');
        });
        s.push_str(tail);
        s
    };
    let a: Vec<&String> = body.iter().enumerate().filter(|(i, _)| i % k != 0).map(|x| x.1).collect();
    let b: Vec<&String> = body.iter().enumerate().filter(|(i, _)| i % k == 0).map(|x| x.1).collect();
    let both: Vec<&String> = a.iter().chain(&b).copied().collect();
    (wrap(a), wrap(b), wrap(both))
}

/// A corpus file whose first line is a header (a JTL's, Gatling's RUN line), its other lines split
/// between two generators.
fn split_after_first_line(rel: &str) -> (String, String, String) {
    let text = read(rel);
    let mut lines = text.lines();
    let head = format!("{}\n", lines.next().unwrap());
    let body: Vec<String> = lines.map(str::to_string).collect();
    split(&head, &body, "", 2)
}

/// Merges the two parts as `runlens import --run` does.
fn merged(name: &str, a: &str, b: &str) -> (Run, Vec<Warning>) {
    let parts = vec![
        Part { source: format!("gen1-{name}"), run: run_of(&format!("gen1-{name}"), a) },
        Part { source: format!("gen2-{name}"), run: run_of(&format!("gen2-{name}"), b) },
    ];
    merge_runs(&RunSpec { id: "r".into(), ..Default::default() }, parts)
}

/// The labels a warning says have an estimated window or approximate percentiles.
fn named_in(warnings: &[Warning], what: &str, t: &Transaction) -> bool {
    warnings.iter().any(|w| w.message.contains(what) && w.message.contains(&format!("{:?}", t.name)))
}

/// Every field of every transaction and KPI equal to the concatenated file's, except what a
/// warning names: a label's throughput over an estimated window (then checked against the bounds
/// of the window), approximate percentiles (then within 3.2 % of the true value).
fn assert_merge_equals_concatenation(name: &str, a: &str, b: &str, all: &str) -> (usize, usize) {
    let (m, warnings) = merged(name, a, b);
    let want = run_of(&format!("all-{name}"), all);
    assert_eq!((&m.start, &m.end, m.duration_s), (&want.start, &want.end, want.duration_s), "{name}: window");
    assert_eq!(m.transactions.len(), want.transactions.len(), "{name}: labels");
    assert_eq!(m.errors, want.errors, "{name}: errors");
    let (mut approx, mut estimated) = (0, 0);
    // Whether a label spans its generator's run (then its window is known): the label's own
    // throughput equals its run throughput, or it is not in that generator at all.
    let (ra, rb) = (run_of("a", a), run_of("b", b));
    let span = |r: &Run, name: &str| {
        r.transactions.iter().find(|t| t.name == name).is_none_or(|t| t.throughput_per_s == t.throughput_run_per_s)
    };
    let in_both = |name: &str| [&ra, &rb].iter().all(|r| r.transactions.iter().any(|t| t.name == name));
    let spans_all = |n: &str| !in_both(n) || (span(&ra, n) && span(&rb, n));
    let estimated_runs = warnings.iter().any(|w| w.message.contains("run throughput is over an estimated window"));
    for (got, want) in m.transactions.iter().zip(&want.transactions) {
        let at = format!("{name}, {}", want.name);
        assert_eq!(got.name, want.name, "{at}: order");
        assert_eq!((got.samples, got.errors), (want.samples, want.errors), "{at}: counts");
        assert_eq!((got.min_ms, got.max_ms), (want.min_ms, want.max_ms), "{at}: extremes");
        assert_eq!((got.bytes_received, got.bytes_sent), (want.bytes_received, want.bytes_sent), "{at}: bytes");
        if !estimated_runs {
            assert_eq!(got.throughput_run_per_s, want.throughput_run_per_s, "{at}: run throughput");
        }
        let close = |x: Option<f64>, y: Option<f64>, rel: f64| match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() <= y.abs() * rel,
            (x, y) => x == y,
        };
        assert!(close(got.mean_ms, want.mean_ms, 1e-12), "{at}: mean {:?} vs {:?}", got.mean_ms, want.mean_ms);
        let pct = |t: &Transaction| [t.median_ms, t.p90_ms, t.p95_ms, t.p99_ms];
        if got.note.as_deref().is_some_and(|n| n.contains("within one histogram bucket")) {
            approx += 1;
            for (g, w) in pct(got).into_iter().zip(pct(want)) {
                assert!(close(g, w, 0.032), "{at}: approximate percentile {g:?} vs {w:?}");
            }
        } else {
            assert_eq!(pct(got), pct(want), "{at}: percentiles");
            assert_eq!(got.percentiles, want.percentiles, "{at}: named percentiles");
            assert_eq!(got.histogram, want.histogram, "{at}: histogram");
            assert_eq!(got.note, want.note, "{at}: note");
        }
        if spans_all(&want.name) || estimated_runs {
            if !estimated_runs {
                assert_eq!(got.throughput_per_s, want.throughput_per_s, "{at}: throughput");
            }
        } else {
            estimated += 1;
            assert!(
                named_in(&warnings, "estimated window", got)
                    || warnings.iter().any(|w| w.message.contains("more not listed"))
            );
            // The estimate lies between the label's throughput over the whole run and over the
            // longest generator's window of it.
            let n = want.samples.unwrap() as f64;
            let run_len = m.duration_s.unwrap() * 1000.0;
            assert!(got.throughput_per_s.unwrap() >= n * 1000.0 / run_len * (1.0 - 1e-12), "{at}: estimate");
        }
    }
    for k in &want.kpis {
        let g = m.kpis.iter().find(|x| x.name == k.name).unwrap_or_else(|| panic!("{name}: KPI {} missing", k.name));
        let exact_p95 = !warnings.iter().any(|w| w.message.contains("p95 response time")) && approx == 0;
        let estimated_kpi = (estimated_runs && k.name == "Throughput")
            || warnings.iter().any(|w| w.message.contains(&format!("KPI {:?} is over an estimated window", k.name)))
            || warnings.iter().any(|w| w.message.contains(&format!("KPI {:?} differs", k.name)));
        if k.name == "p95 response time" && approx > 0 {
            assert!((g.value - k.value).abs() <= k.value * 0.032, "{name}: approximate p95 {} vs {}", g.value, k.value);
        }
        if (k.name != "p95 response time" || exact_p95) && !estimated_kpi {
            assert!(
                (g.value - k.value).abs() <= k.value.abs() * 1e-12,
                "{name}: KPI {} {} vs {}",
                k.name,
                g.value,
                k.value
            );
        }
    }
    eprintln!(
        "{name}: {} labels, {approx} approximate, {estimated} over an estimated window; warnings: {:?}",
        want.transactions.len(),
        warnings.iter().map(|w| w.message.chars().take(60).collect::<String>()).collect::<Vec<_>>()
    );
    (approx, estimated)
}

#[test]
fn generated_jtls_merge_exactly() {
    for (rows, labels, seed, k) in [(4000, 5, 1, 2), (1500, 12, 7, 3), (300, 1, 11, 2)] {
        let body = jtl(rows, labels, 60, seed);
        let (a, b, all) = split(&format!("{JTL_HEADER}\n"), &body, "", k);
        let (approx, _) = assert_merge_equals_concatenation(&format!("gen-{seed}.jtl"), &a, &b, &all);
        assert_eq!(approx, 0, "60 distinct values per label: every histogram is exact");
    }
}

#[test]
fn labels_spanning_their_run_have_exact_throughput() {
    let body = jtl(2000, 1, 40, 5);
    let (a, b, all) = split(&format!("{JTL_HEADER}\n"), &body, "", 2);
    let (approx, estimated) = assert_merge_equals_concatenation("one-label.jtl", &a, &b, &all);
    assert_eq!((approx, estimated), (0, 0));
}

#[test]
fn many_distinct_values_merge_exactly_through_exact_timelines_else_within_a_bucket() {
    // 2,000 samples a label: more than 256 distinct values, but the timelines keep every value.
    let body = jtl(6000, 3, 900, 3);
    let (a, b, all) = split(&format!("{JTL_HEADER}\n"), &body, "", 2);
    let (approx, _) = assert_merge_equals_concatenation("wide.jtl", &a, &b, &all);
    assert_eq!(approx, 0, "exact timelines make the merge exact");
    // 10,000 samples a label: past the timelines' exact cells too: approximate, and said.
    let body = jtl(30000, 3, 900, 3);
    let (a, b, all) = split(&format!("{JTL_HEADER}\n"), &body, "", 2);
    let (approx, _) = assert_merge_equals_concatenation("wider.jtl", &a, &b, &all);
    assert_eq!(approx, 3, "every label has more than 256 distinct values and an inexact timeline");
}

#[test]
fn corpus_jtls_split_in_two_merge_back() {
    for f in [
        "tests/corpus/jmeter-csv/ehrbase-2022-05-13.jtl",
        "tests/corpus/jmeter-csv/apache-jmeter-htmlreport-testfile.csv",
    ] {
        let (a, b, all) = split_after_first_line(f);
        assert_merge_equals_concatenation(f, &a, &b, &all);
    }
}

#[test]
fn jmeter_xml_split_in_two_merges_back() {
    let text = read("tests/corpus/jmeter-xml/apache-jmeter-sample_log1c-2005.jtl");
    let lines: Vec<&str> = text.lines().collect();
    let body: Vec<String> = lines.iter().filter(|l| l.starts_with("<httpSample")).map(|l| l.to_string()).collect();
    assert_eq!(body.len(), 2000);
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n";
    let (a, b, all) = split(head, &body, "</testResults>\n", 3);
    assert_merge_equals_concatenation("log1c.jtl", &a, &b, &all);
}

#[test]
fn gatling_logs_split_in_two_merge_back() {
    for f in [
        "tests/corpus/gatling/apicurio-2021-10-20-baseline-simulation.log",
        "tests/corpus/gatling/taurus-gatling-4-000-simulation.log",
    ] {
        let (a, b, all) = split_after_first_line(f);
        let (approx, _) = assert_merge_equals_concatenation("simulation.log", &a, &b, &all);
        eprintln!("{f}: {approx} labels merged approximately");
    }
}

#[test]
fn k6_points_split_in_two_merge_back() {
    let text = read("tests/fixtures/import/k6/points-docs.ndjson");
    let (decl, points): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.contains("\"type\":\"Metric\""));
    let head: String = decl.iter().map(|l| format!("{l}\n")).collect();
    let body: Vec<String> = points.iter().map(|l| l.to_string()).collect();
    let (a, b, all) = split(&head, &body, "", 2);
    assert_merge_equals_concatenation("points.ndjson", &a, &b, &all);
}
