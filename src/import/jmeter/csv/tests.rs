//! Tests of the CSV JTL importer: layouts, awkward fields, and byte ranges merged exactly.

use super::*;
use crate::import::{import_bytes, Format};

const HEADER: &str = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

fn row(ts: u64, elapsed: u64, label: &str, code: &str, ok: bool) -> String {
    let q =
        |s: &str| if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() };
    format!("{ts},{elapsed},{},{},OK,TG 1-1,text,{ok},,100,10,1,1,http://x,1,0,0", q(label), q(code))
}

fn txn<'a>(run: &'a Run, name: &str) -> &'a crate::bundle::Transaction {
    run.transactions.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no transaction {name:?}"))
}

#[test]
fn awkward_labels_codes_and_times() {
    let rows = [
        row(1_000_000, 10, "a, \"quoted\"\nlabel", "200", true),
        row(1_000_500, 30, "404", "Non HTTP response code: java.net.SocketException", false),
        row(999_000, 20, "a, \"quoted\"\nlabel", "200", true),
        row(1_001_000, 40, "404", "200", true),
    ];
    let text = format!("{HEADER}\n{}\n", rows.join("\n"));
    let imp = import_bytes("r.jtl", text.as_bytes()).unwrap();
    assert_eq!(imp.format, Format::JmeterCsv);
    let run = &imp.bundle.runs[0];
    let a = txn(run, "a, \"quoted\"\nlabel");
    assert_eq!((a.samples, a.min_ms, a.max_ms, a.median_ms), (Some(2), Some(10.0), Some(20.0), Some(10.0)));
    // Unordered timestamps: the window is the earliest start to the latest end.
    assert_eq!(a.throughput_per_s, Some(2.0 * 1000.0 / (1_000_010.0 - 999_000.0)));
    let n = txn(run, "404");
    assert_eq!((n.samples, n.errors), (Some(2), Some(1)));
    assert_eq!(run.transactions[0].name, "a, \"quoted\"\nlabel", "order of first appearance");
    assert_eq!(run.errors[0].key(), "404: Non HTTP response code: java.net.SocketException/OK");
    // Times in seconds after the run's first sample (999 000 ms).
    assert_eq!((run.errors[0].first_s, run.errors[0].last_s), (Some(1.5), Some(1.5)));
    assert_eq!(run.start.as_deref(), Some("1970-01-01T00:16:39Z"));
    assert_eq!(run.duration_s, Some(2.04));
}

#[test]
fn tabs_subsets_and_formatted_times() {
    let text = "label\ttimeStamp\tsuccess\telapsed\n\"x\"\t2014-02-24 07:42:21.256\ttrue\t5\nx\t2014-02-24 07:42:22.256\tFALSE\t7\n";
    let imp = import_bytes("t.csv", text.as_bytes()).unwrap();
    let run = &imp.bundle.runs[0];
    assert_eq!((txn(run, "x").samples, txn(run, "x").errors, txn(run, "x").max_ms), (Some(2), Some(1), Some(7.0)));
    assert_eq!(run.start.as_deref(), Some("2014-02-24T07:42:21.256Z"));
    assert!(imp.warnings.iter().any(|w| w.message.contains("read as UTC")), "{:?}", imp.warnings);
}

#[test]
fn headerless_default_order() {
    let text = "1393227741256,1425,GET /login,200,OK,Thread Group 1-1,text,true,3478,1016\n1393227742815,59,GET /inv,500,ERR,Thread Group 1-1,text,false,3100,38\n";
    let imp = import_bytes("old.jtl", text.as_bytes()).unwrap();
    let run = &imp.bundle.runs[0];
    assert_eq!(run.transactions.len(), 2);
    assert_eq!(txn(run, "GET /inv").errors, Some(1));
    assert_eq!(txn(run, "GET /login").bytes_received, Some(3478));
    assert!(imp.warnings[0].message.contains("default column order"));
}

#[test]
fn bad_values_warn_with_their_line_and_never_panic() {
    let text =
        format!("{HEADER}\n{}\n1,abc,x,200,OK,t,text,true,,1,1,1,1,u,1,0,0\nshort,row\n", row(5, 1, "x", "200", true));
    let imp = import_bytes("b.jtl", text.as_bytes()).unwrap();
    assert_eq!(txn(&imp.bundle.runs[0], "x").samples, Some(1));
    let w: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert!(w.iter().any(|w| w.starts_with("line 3: elapsed \"abc\"")), "{w:?}");
    // A ragged row is skipped, and said to be.
    assert!(w.iter().any(|w| w.starts_with("line 4: the row has 2 fields where the columns need 11")), "{w:?}");
    assert_eq!(imp.bundle.runs[0].transactions.len(), 1);
}

#[test]
fn controller_parents_are_left_out_of_totals_when_children_exist() {
    let tc = "1000,50,TC,200,\"Number of samples in transaction : 2, number of failing samples : 0\",t 1-1,,true,,0,0,1,1,null,0,0,0";
    let text = format!("{HEADER}\n{}\n{}\n{tc}\n", row(1000, 20, "a", "200", true), row(1020, 30, "b", "200", true));
    let run = &import_bytes("tc.jtl", text.as_bytes()).unwrap().bundle.runs[0];
    assert_eq!(run.transactions.len(), 3);
    let samples = run.kpis.iter().find(|k| k.name == "Samples").unwrap().value;
    assert_eq!(samples, 2.0);
}

/// Imports `text` split into `n` ranges at every possible split of the first range, the way the
/// workers do, and checks the merged run equals the one-pass run.
fn ranges_equal_one_pass(text: &str, n: usize) {
    let one = import_bytes("f.jtl", text.as_bytes()).unwrap();
    let bytes = text.as_bytes();
    let lay = layout(text).unwrap();
    for (shift, _) in bytes.iter().enumerate().step_by(7) {
        let mut bounds = split(bytes.len() as u64, n);
        if bounds.len() < 2 {
            return;
        }
        bounds[0].1 = (shift as u64).clamp(1, bytes.len() as u64 - 1);
        bounds[1].0 = bounds[0].1;
        if bounds[1].0 >= bounds[1].1 {
            continue;
        }
        let mut parts: Vec<Part> = Vec::new();
        for (i, (s, e)) in bounds.iter().enumerate() {
            let start = if i == 0 {
                0
            } else {
                match first_record_start(*s, &bytes[(*s - 1) as usize..]) {
                    Some(p) => p,
                    None => bytes.len() as u64,
                }
            };
            let p = aggregate_range(&lay, &bytes[start as usize..], start, Some(*e), i == 0, &mut |_| {})
                .unwrap_or_default();
            parts.push(Part { start, ..p });
        }
        // Re-read any misaligned range from where the previous one stopped, as the driver does.
        while let Some(i) = first_misaligned(&parts) {
            let from = parts[i - 1].stop;
            let limit = bounds[i].1.max(from);
            parts[i] = aggregate_range(&lay, &bytes[from as usize..], from, Some(limit), false, &mut |_| {}).unwrap();
        }
        let progress = crate::import::Progress::default();
        let mut ctx = Ctx::new("f.jtl", &progress);
        let run = finish(&mut ctx, &lay, parts).unwrap();
        assert_eq!(run, one.bundle.runs[0], "split at {shift}");
    }
}

#[test]
fn byte_ranges_merge_to_the_one_pass_result_even_across_quoted_line_breaks() {
    let mut rows = vec![HEADER.to_string()];
    for i in 0..40u64 {
        let label = match i % 4 {
            0 => "plain",
            1 => "with, comma",
            2 => "multi\nline\n\"label\"",
            _ => "\n\nstarts with breaks",
        };
        rows.push(row(1000 + i * 10, i * 37 % 101, label, "200", i % 9 != 0));
    }
    let text = rows.join("\n") + "\n";
    ranges_equal_one_pass(&text, 2);
    ranges_equal_one_pass(&text, 3);
}

/// A range is read in blocks of records (`range::BLOCK_RECORDS`, one call each, for V8's tiers):
/// a range that ends in a later block stops at the right record, lines and counts carry over
/// from block to block, and progress is reported at every 65,536th record, once.
#[test]
fn a_range_over_many_blocks_stops_at_its_limit_and_reports_progress_once_per_65536() {
    let mut text = HEADER.to_string() + "\n";
    for i in 0..70_000u64 {
        text += &row(1000 + i, i % 97, if i % 3 == 0 { "a" } else { "b" }, "200", i % 11 != 0);
        text += "\n";
    }
    let bytes = text.as_bytes();
    let lay = layout(&text).unwrap();
    let mut calls = Vec::new();
    let whole = aggregate_range(&lay, bytes, 0, None, true, &mut |n| calls.push(n)).unwrap();
    assert_eq!((whole.records, whole.lines, whole.stop), (70_000, 70_001, bytes.len() as u64));
    assert_eq!(calls, vec![65_536]);
    // A limit in the middle of the 3rd block: the range holds the records that start before it.
    let limit = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(9_000).unwrap().0 as u64 + 1;
    let first = aggregate_range(&lay, bytes, 0, Some(limit), true, &mut |_| {}).unwrap();
    assert_eq!((first.records, first.stop), (9_000, limit));
    let second = aggregate_range(&lay, &bytes[limit as usize..], limit, None, false, &mut |_| {}).unwrap();
    assert_eq!(first.records + second.records, 70_000);
    assert_eq!(first.lines + second.lines, whole.lines);
}

/// Bytes in chunks of varying size, with `WouldBlock` between them (the ingest worker's queue of
/// slices that are still being read).
struct Trickle<'a> {
    bytes: &'a [u8],
    at: usize,
    calls: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(2) && self.at < self.bytes.len() {
            return Err(std::io::ErrorKind::WouldBlock.into());
        }
        let n = (1 + self.calls * 37 % 500).min(buf.len()).min(self.bytes.len() - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A range stepped through an input that keeps running dry reads the same part as one pass,
/// quoted line breaks and blank lines included: a starved step loses nothing.
#[test]
fn a_starved_range_reader_resumes_where_it_stopped() {
    let mut rows = vec![HEADER.to_string()];
    for i in 0..3_000u64 {
        let label = match i % 5 {
            0 => "plain",
            1 => "with, comma",
            2 => "multi\nline\n\"label\"",
            3 => "",
            _ => "x",
        };
        rows.push(row(1000 + i * 10, i * 37 % 101, label, "200", i % 9 != 0));
        if i % 13 == 0 {
            rows.push(String::new());
        }
    }
    let text = rows.join("\r\n") + "\n";
    let lay = layout(&text).unwrap();
    let one = aggregate_range(&lay, text.as_bytes(), 0, None, true, &mut |_| {}).unwrap();
    let mut reader = RangeReader::new(lay.clone(), Trickle { bytes: text.as_bytes(), at: 0, calls: 0 }, 0, None, true);
    let mut starved = 0;
    loop {
        match reader.step(&mut |_| {}).unwrap() {
            Step::More => {}
            Step::Starved => starved += 1,
            Step::Done => break,
        }
    }
    assert!(starved > 100, "the input ran dry only {starved} times");
    let part = reader.finish();
    assert_eq!((part.records, part.lines, part.stop), (one.records, one.lines, one.stop));
    let progress = crate::import::Progress::default();
    let run = |p| finish(&mut Ctx::new("f.jtl", &progress), &lay, vec![p]).unwrap();
    assert_eq!(run(part), run(one));
}

/// Errors by cause as JMeter's dashboard keys them: code and message, the failure message of an
/// assertion that failed on a success code, and a Transaction Controller's parent as one cause.
#[test]
fn errors_by_cause_read_assertions_and_transaction_controllers() {
    let line = |ts: u64, label: &str, code: &str, msg: &str, ok: bool, failure: &str| {
        format!("{ts},10,{label},{code},{msg},TG 1-1,text,{ok},{failure},100,10,1,1,http://x,1,0,0")
    };
    let rows = [
        line(1_000, "login", "200", "OK", true, ""),
        line(1_500, "login", "200", "OK", false, "Test failed: text expected to contain /Welcome/"),
        line(2_000, "login", "500", "Internal Server Error", false, ""),
        line(2_400, "search", "200", "OK", false, "Test failed: text expected to contain /Welcome/"),
        line(3_000, "TC", "", "\"Number of samples in transaction : 2, number of failing samples : 1\"", false, ""),
        line(9_000, "TC", "", "\"Number of samples in transaction : 5, number of failing samples : 3\"", false, ""),
        line(4_250, "login", "500", "Internal Server Error", false, "ignored: the code is an error"),
    ];
    let text = format!("{HEADER}\n{}\n", rows.join("\n"));
    let run = &import_bytes("r.jtl", text.as_bytes()).unwrap().bundle.runs[0];
    type Got = (String, Option<u64>, Option<f64>, Option<f64>);
    let got: Vec<Got> = run.errors.iter().map(|e| (e.key(), e.count, e.first_s, e.last_s)).collect();
    let want = [
        ("TC: failing child samples (Transaction Controller)", 2, 2.0, 8.0),
        ("login: 500/Internal Server Error", 2, 1.0, 3.25),
        ("login: 200/Test failed: text expected to contain /Welcome/", 1, 0.5, 0.5),
        ("search: 200/Test failed: text expected to contain /Welcome/", 1, 1.4, 1.4),
    ];
    assert_eq!(got, want.map(|(k, n, f, l)| (k.to_string(), Some(n), Some(f), Some(l))));
    assert_eq!(
        run.errors[0].example.as_deref(),
        Some("Number of samples in transaction : 2, number of failing samples : 1"),
        "the first original message"
    );
    assert!(run.errors[1].example.is_none(), "nothing was replaced");
}

/// `split_weighted` cuts `[0, size)` into consecutive ranges that cover it, each byte in the
/// range a brute-force count gives it (byte `b` belongs to the first range whose cumulative
/// weight share reaches past it: `b * total < size * cumulative`); `split` is the equal case.
#[test]
fn weighted_ranges_cover_the_file_in_proportion() {
    for (size, weights) in [(1000u64, vec![2u64, 1]), (999, vec![2, 2, 1]), (7, vec![1, 1, 1, 1]), (3, vec![5, 1, 1])] {
        let total: u64 = weights.iter().sum();
        let ranges = split_weighted(size, &weights);
        assert_eq!(ranges.first().map(|r| r.0), Some(0));
        assert_eq!(ranges.last().map(|r| r.1), Some(size));
        assert!(ranges.windows(2).all(|w| w[0].1 == w[1].0 && w[0].0 < w[0].1), "{ranges:?}");
        if ranges.len() == weights.len() {
            for (i, (a, b)) in ranges.iter().enumerate() {
                let upto: u64 = weights[..=i].iter().sum();
                let count = (0..size)
                    .filter(|&x| (x + 1) * total <= size * upto && x * total >= size * (upto - weights[i]))
                    .count();
                assert!((b - a).abs_diff(count as u64) <= 1, "{size} {weights:?} range {i}: {a}..{b}, {count} bytes");
            }
        }
    }
    assert_eq!(split(10, 3), vec![(0, 3), (3, 6), (6, 10)]);
    assert_eq!(split_weighted(12, &[2, 1]), vec![(0, 8), (8, 12)]);
}
