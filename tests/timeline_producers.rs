#![cfg(not(target_arch = "wasm32"))]
//! The importers' timelines against a brute-force recount of the raw rows: every bucket's
//! samples, errors, sum and cells, the users, bucket sums against the transactions, exact cells
//! against the transactions' nearest-rank percentiles; a JTL read in byte ranges (parts through
//! borsh) gives the one-pass timeline; every corpus file of a tool that writes raw samples gives a
//! well-formed timeline, and summaries none.

use proptest::prelude::*;
use runlens::bundle::{interval_for, Run, Timeline, TransactionTimeline};
use runlens::import::common::parallel::{decode_part, encode_part, finish, read_range, MemSource, Plan};
use runlens::import::common::samples::{log_relative_error, EXACT_CELLS, EXACT_VALUES};
use runlens::import::{import_bytes, jmeter::csv as jmeter_csv};
use std::collections::BTreeMap;
use std::path::Path;

/// One JTL row: label index, start (epoch ms), elapsed, success, allThreads.
type Row = (usize, i64, u64, bool, u64);

const LABELS: [&str; 4] = ["home", "search, quoted", "login", "cart"];

fn jtl(rows: &[Row]) -> Vec<u8> {
    let mut s = String::from("timeStamp,elapsed,label,responseCode,responseMessage,success,allThreads\n");
    for (l, t, e, ok, users) in rows {
        let label = if LABELS[*l].contains(',') { format!("\"{}\"", LABELS[*l]) } else { LABELS[*l].to_string() };
        s.push_str(&format!("{t},{e},{label},{},OK,{ok},{users}\n", if *ok { 200 } else { 500 }));
    }
    s.into_bytes()
}

fn import(rows: &[Row]) -> Run {
    let imp = import_bytes("gen.jtl", &jtl(rows)).unwrap();
    imp.bundle.runs.into_iter().next().unwrap()
}

/// (value, count) pairs of one bucket's cells.
fn cell_values(t: &TransactionTimeline, b: usize) -> Vec<(f64, u64)> {
    t.cells[b].chunks(2).map(|p| (t.values_ms[p[0] as usize], p[1])).collect()
}

fn nearest_rank(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p * sorted.len() as f64) / 100.0).ceil().max(1.0) as usize;
    sorted[rank - 1]
}

/// Checks `run`'s timeline against the rows it was imported from.
fn check(run: &Run, rows: &[Row]) {
    let tl: &Timeline = run.timeline.as_ref().expect("a timeline");
    assert!(tl.is_well_formed());
    let first = rows.iter().map(|r| r.1).min().unwrap();
    let last = rows.iter().map(|r| r.1).max().unwrap();
    let (interval, start, n) = interval_for(first, last);
    assert_eq!((tl.interval_s, tl.start_ms, tl.buckets, tl.origin_ms), (interval, start, n, first));
    let bucket = |t: i64| ((t - start) / (i64::from(interval) * 1000)) as usize;
    let mut users = vec![0u32; n as usize];
    for r in rows {
        users[bucket(r.1)] = users[bucket(r.1)].max(r.4 as u32);
    }
    assert_eq!(tl.users, users);
    let names: Vec<&str> = run.transactions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tl.transactions.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), names);
    for (t, txn) in tl.transactions.iter().zip(&run.transactions) {
        let label = LABELS.iter().position(|l| *l == t.name).unwrap();
        let mine: Vec<&Row> = rows.iter().filter(|r| r.0 == label).collect();
        let mut per: Vec<Vec<u64>> = vec![Vec::new(); n as usize];
        let mut errors = vec![0u64; n as usize];
        for r in &mine {
            per[bucket(r.1)].push(r.2);
            errors[bucket(r.1)] += u64::from(!r.3);
        }
        let distinct: std::collections::BTreeSet<u64> = mine.iter().map(|r| r.2).collect();
        let cells: usize = per.iter().map(|v| v.iter().collect::<std::collections::BTreeSet<_>>().len()).sum::<usize>();
        assert_eq!(t.exact, distinct.len() <= EXACT_VALUES || cells <= EXACT_CELLS, "{}", t.name);
        assert_eq!(t.samples, per.iter().map(|v| v.len() as u64).collect::<Vec<_>>());
        assert_eq!(t.errors, errors);
        assert_eq!(t.sum_ms, per.iter().map(|v| v.iter().sum::<u64>() as f64).collect::<Vec<_>>());
        assert_eq!(t.samples.iter().sum::<u64>(), txn.samples.unwrap());
        assert_eq!(t.errors.iter().sum::<u64>(), txn.errors.unwrap());
        for (b, raw) in per.iter_mut().enumerate() {
            raw.sort_unstable();
            let expanded: Vec<f64> =
                cell_values(t, b).into_iter().flat_map(|(v, c)| std::iter::repeat_n(v, c as usize)).collect();
            assert_eq!(expanded.len(), raw.len());
            if t.exact {
                assert_eq!(expanded, raw.iter().map(|v| *v as f64).collect::<Vec<_>>(), "{} bucket {b}", t.name);
            } else {
                let e = t.relative_error.unwrap();
                assert_eq!(e, log_relative_error());
                for (c, v) in expanded.iter().zip(raw.iter()) {
                    assert!((c - *v as f64).abs() <= c * e * (1.0 + 1e-9), "{} bucket {b}: {v} as {c}", t.name);
                }
            }
        }
        if t.exact {
            let all: Vec<f64> = {
                let mut v: Vec<f64> = (0..n as usize)
                    .flat_map(|b| cell_values(t, b))
                    .flat_map(|(v, c)| std::iter::repeat_n(v, c as usize))
                    .collect();
                v.sort_by(f64::total_cmp);
                v
            };
            let got = [txn.median_ms, txn.p90_ms, txn.p95_ms, txn.p99_ms, txn.min_ms, txn.max_ms];
            let want = [50.0, 90.0, 95.0, 99.0, 0.0, 100.0].map(|p| Some(nearest_rank(&all, p)));
            assert_eq!(got, want, "{}", t.name);
        }
    }
}

fn rows_strategy() -> impl Strategy<Value = Vec<Row>> {
    rows_of(LABELS.len(), 1..400)
}

fn rows_of(labels: usize, count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Row>> {
    // Run length (1 s to ~3 h: widths 1, 5, 60 s) and elapsed range (few or many distinct values).
    (prop_oneof![Just(1_000i64), Just(200_000), Just(1_000_000), Just(10_000_000)], 1u64..3000)
        .prop_flat_map(move |(span, spread)| {
            prop::collection::vec((0..labels, 0..span, 0..spread, prop::bool::weighted(0.9), 1u64..50), count.clone())
        })
        .prop_map(|rows| {
            rows.into_iter().map(|(l, t, e, ok, u)| (l, 1_700_000_000_123 + t, e, ok, u)).collect::<Vec<Row>>()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn every_bucket_equals_a_recount_of_the_rows(rows in rows_strategy()) {
        check(&import(&rows), &rows);
    }
}

proptest! {
    // More samples per label than exact cells can hold: counted without sorting (`cells.rs`).
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
    #[test]
    fn big_transactions_equal_a_recount_too(rows in rows_of(2, 9000..14000)) {
        check(&import(&rows), &rows);
    }
}

/// Enough distinct values in enough buckets for logarithmic cells, out of time order.
#[test]
fn many_distinct_values_fall_back_to_log_buckets_within_their_error() {
    let mut rows: Vec<Row> = (0..30_000u64)
        .map(|i| {
            (
                (i % 2) as usize,
                1_700_000_000_000 + (i * 7919 % 600_000) as i64,
                (i * 104_729) % 50_000,
                i % 13 != 0,
                1 + i % 20,
            )
        })
        .collect();
    rows.swap(10, 20_000);
    let run = import(&rows);
    assert!(run.timeline.as_ref().unwrap().transactions.iter().all(|t| !t.exact));
    check(&run, &rows);
}

/// Many samples of few values in few seconds (compacted while reading), out of order.
#[test]
fn compacted_samples_equal_a_recount() {
    let rows: Vec<Row> = (0..300_000u64)
        .map(|i| {
            ((i % 2) as usize, 1_700_000_000_000 + ((i * 7919) % 20_000) as i64, (i * 31) % 500, i % 17 != 0, i % 9)
        })
        .collect();
    check(&import(&rows), &rows);
}

/// Rows out of order, read in 2, 3 and 5 byte ranges whose parts cross borsh: the same timeline
/// (with enough samples per label to be compacted while reading).
#[test]
fn ranges_give_the_one_pass_timeline() {
    let rows: Vec<Row> = (0..300_000u64)
        .map(|i| {
            ((i % 4) as usize, 1_700_000_000_000 + ((i * 37) % 4000) as i64 * 25, (i * 13) % 997, i % 11 != 0, i % 30)
        })
        .collect();
    let bytes = jtl(&rows);
    let one = import_bytes("x.jtl", &bytes).unwrap();
    check(&one.bundle.runs[0], &rows);
    let src = MemSource(bytes.clone());
    for n in [2usize, 3, 5] {
        let plan = Plan {
            layout: jmeter_csv::layout(std::str::from_utf8(&bytes).unwrap()).unwrap(),
            ranges: jmeter_csv::split(bytes.len() as u64, n),
        };
        let parts = (0..n)
            .map(|i| read_range("x.jtl", &src, &plan, i, &mut |_| {}).unwrap())
            .map(|p| decode_part(&encode_part(&p)).unwrap())
            .collect();
        let merged = finish("x.jtl", &src, &plan, parts).unwrap();
        assert_eq!(merged.bundle.runs[0].timeline, one.bundle.runs[0].timeline, "{n} ranges");
        assert_eq!(merged.bundle, one.bundle);
    }
}

/// Raw-sample formats give a well-formed timeline whose buckets add up to their transactions;
/// summaries give none.
#[test]
fn corpus_files_give_well_formed_timelines() {
    let folders = ["gatling", "jmeter-csv", "jmeter-xml", "jmeter-statistics-json", "k6", "locust"];
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (name, path) in support::corpus::files(&folders) {
        let Ok(imp) = import_bytes(&name, &std::fs::read(&path).unwrap()) else { continue };
        let slug = imp.format.slug();
        let raw = ["jmeter-csv", "jmeter-xml", "gatling-log", "k6-json", "k6-csv", "locust-history"].contains(&slug);
        for run in &imp.bundle.runs {
            let Some(tl) = &run.timeline else {
                // Only a file without start times has no timeline among raw formats.
                assert!(!raw || run.start.is_none(), "{name} ({slug}) has no timeline");
                continue;
            };
            assert!(raw, "{name} ({slug}) is a summary with a timeline");
            assert!(tl.is_well_formed(), "{name}");
            *seen.entry(slug).or_default() += 1;
            for t in &tl.transactions {
                let Some(txn) = run.transactions.iter().find(|x| x.name == t.name) else {
                    assert_eq!(slug, "locust-history", "{name}: {}", t.name);
                    continue;
                };
                let sum = t.samples.iter().sum::<u64>();
                assert_eq!(sum, txn.samples.unwrap_or(0), "{name} {}", t.name);
                if slug != "locust-history" {
                    assert_eq!(
                        t.cells.iter().map(|c| c.chunks(2).map(|p| p[1]).sum::<u64>()).sum::<u64>(),
                        txn.histogram.as_ref().map_or(0, |h| h.counts.iter().sum()),
                        "{name} {}",
                        t.name
                    );
                }
            }
        }
    }
    for slug in ["jmeter-csv", "jmeter-xml", "gatling-log", "k6-csv", "locust-history"] {
        assert!(seen.get(slug).is_some_and(|n| *n > 0), "no {slug} file in the corpus: {seen:?}");
    }
}

/// Gatling writes users only where they start and end: every bucket that has requests still has
/// a user active (the requests say how many were active when they were written).
#[test]
fn gatling_buckets_with_requests_have_active_users() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/gatling/apicurio-2021-10-20-baseline-simulation.log");
    let bytes = std::fs::read(&path).unwrap();
    let run = import_bytes("simulation.log", &bytes).unwrap().bundle.runs.remove(0);
    let tl = run.usable_timeline().expect("a timeline");
    let busy = |b: usize| tl.transactions.iter().any(|t| t.samples[b] > 0);
    let idle: Vec<usize> = (0..tl.buckets as usize).filter(|b| busy(*b) && tl.users[*b] == 0).collect();
    assert!(idle.is_empty(), "buckets with requests and no user: {idle:?} of {}", tl.buckets);
    assert_eq!(tl.users.iter().max(), Some(&10), "10 users at most (10u-600i)");
}
