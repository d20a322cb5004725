#![cfg(not(target_arch = "wasm32"))]
//! A 200,000-row JMeter CSV JTL from `scripts/gen_jtl.py`, imported by streaming from a file,
//! against the generator's exact answers (nearest-rank percentiles, JMeter's throughput); and the
//! same file aggregated in 2 and 3 byte ranges, the way the ingest workers share a file, gives an
//! identical run. Skipped, with a notice, only when python3 is missing.

use runlens::bundle::Run;
use runlens::import::jmeter::csv::{
    aggregate_range, finish, first_misaligned, first_record_start, layout, split, Part,
};
use runlens::import::{import, Ctx, Format, Progress};
use serde_json::Value;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

const ROWS: u64 = 200_000;

/// Generates the file and its answers in a fresh temporary folder; `None` without python3.
fn generate() -> Option<(PathBuf, Value)> {
    let dir = std::env::temp_dir().join(format!("runlens-jtl-answers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (jtl, answers) = (dir.join("jtl.csv"), dir.join("answers.json"));
    let answers = support::jtl::gen_jtl_py(ROWS, &jtl, Some(&answers))?.expect("answers asked for");
    Some((jtl, answers))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

fn num(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"))
}

fn check_against_answers(run: &Run, answers: &Value) {
    let labels = answers["labels"].as_object().unwrap();
    assert_eq!(run.transactions.len(), labels.len() - 1, "one transaction per label (TOTAL aside)");
    for (name, a) in labels.iter().filter(|(n, _)| *n != "TOTAL") {
        let t = run.transactions.iter().find(|t| &t.name == name).unwrap_or_else(|| panic!("no transaction {name:?}"));
        assert_eq!(t.samples, Some(num(a, "count") as u64), "{name} count");
        assert_eq!(t.errors, Some(num(a, "errors") as u64), "{name} errors");
        let mean = t.mean_ms.unwrap();
        assert!(close(mean, num(a, "mean")), "{name} mean {mean} vs {}", num(a, "mean"));
        assert_eq!((t.min_ms, t.max_ms), (Some(num(a, "min")), Some(num(a, "max"))), "{name} min/max");
        assert_eq!(
            [t.median_ms, t.p90_ms, t.p95_ms, t.p99_ms],
            [Some(num(a, "p50")), Some(num(a, "p90")), Some(num(a, "p95")), Some(num(a, "p99"))],
            "{name} percentiles"
        );
        let tput = t.throughput_per_s.unwrap();
        assert!(close(tput, num(a, "throughput")), "{name} throughput {tput} vs {}", num(a, "throughput"));
    }
    let total = &labels["TOTAL"];
    let kpi = |k: &str| run.kpis.iter().find(|x| x.name == k).map(|x| x.value).unwrap_or_else(|| panic!("no KPI {k}"));
    assert_eq!(kpi("Samples"), num(total, "count"));
    assert!(close(kpi("Error rate"), num(total, "errors") * 100.0 / num(total, "count")));
    assert!(close(kpi("Mean response time"), num(total, "mean")));
    assert_eq!(kpi("p95 response time"), num(total, "p95"));
    assert!(close(kpi("Throughput"), num(total, "throughput")));
    let min = run.transactions.iter().filter_map(|t| t.min_ms).fold(f64::MAX, f64::min);
    let max = run.transactions.iter().filter_map(|t| t.max_ms).fold(0.0, f64::max);
    assert_eq!((min, max), (num(total, "min"), num(total, "max")));
}

/// Aggregates `path` in `n` byte ranges as the workers do: each range starts at the first record
/// after its start, ranges that do not start where the previous one stopped (a quoted line break
/// on the boundary) are read again from that stop, and the parts are merged in file order.
fn run_in_ranges(path: &Path, n: usize) -> Run {
    let size = std::fs::metadata(path).unwrap().len();
    let mut head = Vec::new();
    File::open(path).unwrap().take(64 << 10).read_to_end(&mut head).unwrap();
    let lay = layout(&String::from_utf8_lossy(&head)).unwrap();
    let bounds = split(size, n);
    assert_eq!(bounds.len(), n);
    let read_from = |start: u64, limit: u64, skip_header: bool| -> Part {
        let mut f = File::open(path).unwrap();
        f.seek(SeekFrom::Start(start)).unwrap();
        aggregate_range(&lay, BufReader::new(f), start, Some(limit), skip_header, &mut |_| {}).unwrap()
    };
    let mut parts: Vec<Part> = Vec::new();
    for (i, (s, e)) in bounds.iter().enumerate() {
        let start = if i == 0 {
            0
        } else {
            let mut f = File::open(path).unwrap();
            f.seek(SeekFrom::Start(s - 1)).unwrap();
            let mut probe = Vec::new();
            f.take(1 << 20).read_to_end(&mut probe).unwrap();
            first_record_start(*s, &probe).unwrap_or(size)
        };
        parts.push(read_from(start, *e, i == 0));
    }
    let mut rereads = 0;
    while let Some(i) = first_misaligned(&parts) {
        let from = parts[i - 1].stop;
        parts[i] = read_from(from, bounds[i].1.max(from), false);
        rereads += 1;
    }
    assert!(rereads <= n, "re-read more ranges than there are");
    let progress = Progress::default();
    let mut ctx = Ctx::new("jtl.csv", &progress);
    finish(&mut ctx, &lay, parts).unwrap()
}

#[test]
fn generated_jtl_matches_the_generators_answers_in_one_pass_and_in_ranges() {
    let Some((path, answers)) = generate() else {
        eprintln!("NOTICE: import_jtl_answers SKIPPED, not passed: python3 is not installed, so scripts/gen_jtl.py cannot run");
        return;
    };
    let mut calls = 0;
    let imp = import("jtl.csv", File::open(&path).unwrap(), None, &mut |_, _| calls += 1).unwrap();
    assert_eq!(imp.format, Format::JmeterCsv);
    assert_eq!(imp.records, ROWS);
    assert!(calls > 0, "progress was reported");
    assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
    let run = &imp.bundle.runs[0];
    check_against_answers(run, &answers);
    for n in [2, 3] {
        assert_eq!(&run_in_ranges(&path, n), run, "{n} ranges");
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
