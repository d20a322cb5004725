//! Tests of the Locust importers: column layouts of several versions, the Aggregated row, history
//! series, failures and exceptions, and input that is not what it claims.

use crate::bundle::{Run, Transaction, Unit};
use crate::import::{import_bytes, Format, Imported};

fn imp(name: &str, text: &str) -> Imported {
    import_bytes(name, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn txn<'a>(run: &'a Run, name: &str) -> &'a Transaction {
    run.transactions
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no transaction {name:?} in {:?}", run.transactions))
}

fn kpi(run: &Run, name: &str) -> f64 {
    run.kpis.iter().find(|k| k.name == name).unwrap_or_else(|| panic!("no KPI {name:?}")).value
}

#[test]
fn stats_with_custom_percentiles_na_and_the_aggregated_row() {
    let text = "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,75%,99.9%,100%\n\
GET,/x,10,2,120,130.5,100,200,5,1.5,0.3,120,150,200,200\n\
POST,/never,0,0,0,0.0,0,0,0,0.0,0.0,N/A,N/A,N/A,N/A\n\
,Aggregated,10,2,120,130.5,100,200,5,1.5,0.3,120,150,200,200\n";
    let i = imp("pasted text", text);
    assert_eq!(i.format, Format::LocustStats);
    let run = &i.bundle.runs[0];
    let x = txn(run, "GET /x");
    assert_eq!(
        (x.samples, x.errors, x.mean_ms, x.median_ms, x.min_ms, x.max_ms),
        (Some(10), Some(2), Some(130.5), Some(120.0), Some(100.0), Some(200.0))
    );
    assert_eq!((x.p90_ms, x.p95_ms, x.p99_ms, x.throughput_per_s), (None, None, None, Some(1.5)));
    assert_eq!(
        x.percentiles.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(),
        vec![("p100", 200.0), ("p75", 150.0), ("p99.9", 200.0)]
    );
    let never = txn(run, "POST /never");
    assert!(never.percentiles.is_empty() && never.p99_ms.is_none(), "N/A is missing: {never:?}");
    assert_eq!(run.transactions.len(), 2, "the Aggregated row is not a transaction");
    assert_eq!((kpi(run, "Samples"), kpi(run, "Error rate"), kpi(run, "Throughput")), (10.0, 20.0, 1.5));
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
}

#[test]
fn names_before_the_2020_rename_and_blank_lines() {
    // Locust 0.13 (`locust/stats.py` before commit 1906dba6): "# requests", "Requests Failed/s", "99.999".
    let text = "\"Type\",\"Name\",\"# requests\",\"# failures\",\"Median response time\",\"Average response time\",\"Min response time\",\"Max response time\",\"Average Content Size\",\"Requests/s\",\"Requests Failed/s\",\"50%\",\"90%\",\"95%\",\"99%\",\"99.999\",\"100%\"\r\n\r\n\
\"GET\",\"/a\",4,1,50,55,40,90,10,0.40,0.10,50,80,90,90,90,90\r\n\r\n\
\"None\",\"Total\",4,1,50,55,40,90,10,0.40,0.10,50,80,90,90,90,90\r\n";
    let i = imp("old_stats.csv", text);
    let run = &i.bundle.runs[0];
    let a = txn(run, "GET /a");
    assert_eq!(
        (a.samples, a.errors, a.p90_ms, a.p95_ms, a.p99_ms),
        (Some(4), Some(1), Some(80.0), Some(90.0), Some(90.0))
    );
    assert_eq!(a.percentiles.get("p99.999"), Some(&90.0));
    assert_eq!(kpi(run, "Error rate"), 25.0);
    assert_eq!(run.transactions.len(), 1, "'None','Total' is the old total row");
}

#[test]
fn a_fifty_percent_column_that_differs_from_the_median_is_kept_apart() {
    let text = "Type,Name,Request Count,Median Response Time,50%,95%\nGET,/a,3,100,110,130\n";
    let run = &imp("r_stats.csv", text).bundle.runs[0];
    let a = txn(run, "GET /a");
    assert_eq!((a.median_ms, a.percentiles.get("p50"), a.p95_ms), (Some(100.0), Some(&110.0), Some(130.0)));
}

#[test]
fn history_gives_series_totals_and_the_run_window() {
    let text = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,95%,Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average Content Size\n\
1700000000,0,,Aggregated,0.000000,0.000000,N/A,N/A,0,0,0,0.0,0,0,0\n\
1700000005,10,,Aggregated,4.000000,0.000000,100,150,20,0,100,110.0,90,160,5\n\
1700000010,20,,Aggregated,8.000000,1.000000,120,300,60,3,110,130.0,90,310,5\n";
    let i = imp("pasted text", text);
    assert_eq!(i.format, Format::LocustHistory);
    let run = &i.bundle.runs[0];
    assert_eq!((run.start.as_deref(), run.duration_s), (Some("2023-11-14T22:13:20Z"), Some(10.0)));
    assert_eq!(run.dimensions.get("users").map(String::as_str), Some("20"));
    let res = |m: &str| {
        run.resources.iter().find(|r| r.service == "locust" && r.metric == m).unwrap_or_else(|| panic!("no {m}"))
    };
    let users = res("users");
    assert_eq!(
        (users.unit, users.peak, users.series.as_ref().map(|s| s.t_s.clone())),
        (Unit::Count, Some(20.0), Some(vec![0.0, 5.0, 10.0]))
    );
    let p95 = res("response time p95");
    assert_eq!((p95.unit, p95.peak, p95.min), (Unit::Ms, Some(300.0), Some(150.0)));
    assert_eq!(p95.series.as_ref().map(|s| s.t_s.clone()), Some(vec![5.0, 10.0]), "N/A rows have no value");
    assert_eq!(res("requests/s").average, Some(4.0));
    assert_eq!((kpi(run, "Samples"), kpi(run, "Error rate"), kpi(run, "Throughput")), (60.0, 5.0, 6.0));
    assert!(run.transactions.is_empty(), "without --csv-full-history there are no per-request rows");
}

#[test]
fn failures_and_exceptions_become_errors() {
    let f = "Method,Name,Error,Occurrences,First Seen,Last Seen\nGET,/x,\"HTTPError('500 Server Error: boom, really')\",7,2025-01-01T00:00:00Z,2025-01-01T00:01:00Z\n,Custom,ZeroDivisionError('division by zero'),2,,\n";
    let i = imp("pasted text", f);
    assert_eq!(i.format, Format::LocustFailures);
    let run = &i.bundle.runs[0];
    assert_eq!(run.errors[0].key(), "GET /x: HTTPError('500 Server Error: boom, really')");
    assert_eq!(
        (run.errors[0].count, run.errors[1].key()),
        (Some(7), "Custom: ZeroDivisionError('division by zero')".into())
    );
    assert_eq!(kpi(run, "Failures"), 9.0);
    let e = "Count,Message,Traceback,Nodes\n3,\"ValueError('x')\",\"Traceback (most recent call last):\n  File \"\"locustfile.py\"\", line 9, in t\n    raise ValueError('x')\n\",\"worker-1, worker-2\"\n";
    let i = imp("run_exceptions.csv", e);
    assert_eq!(i.format, Format::LocustExceptions);
    let err = &i.bundle.runs[0].errors[0];
    assert_eq!(
        (err.message.as_str(), err.count, err.services.clone()),
        ("ValueError('x')", Some(3), vec!["worker-1".to_string(), "worker-2".to_string()])
    );
    assert!(err.note.as_deref().is_some_and(|n| n.ends_with("raise ValueError('x')")), "{:?}", err.note);
    let none = imp("x_failures.csv", "Method,Name,Error,Occurrences\n");
    assert_eq!(kpi(&none.bundle.runs[0], "Failures"), 0.0, "no failures is a result");
}

#[test]
fn ragged_rows_bad_numbers_and_huge_counts_warn_without_failing() {
    let text = "Type,Name,Request Count,Failure Count,Median Response Time,95%\nGET,/a,12\nGET,/b,99999999999999999999999,1e400,abc,7\nGET\n,Aggregated,x\n";
    let i = imp("h_stats.csv", text);
    let run = &i.bundle.runs[0];
    assert_eq!(txn(run, "GET /a").samples, Some(12));
    let b = txn(run, "GET /b");
    assert_eq!((b.samples, b.errors, b.median_ms, b.p95_ms), (None, None, None, Some(7.0)));
    assert!(i.warnings.len() >= 3, "{:?}", i.warnings);
    assert!(i.warnings.iter().all(|w| w.path.starts_with("line ")), "{:?}", i.warnings);
    // An unterminated quote is read to the end of the file, not a panic.
    let i = imp("q_stats.csv", "Type,Name,Request Count\nGET,\"/a,1\nGET,/b,2\n");
    assert_eq!(i.bundle.runs[0].transactions.len(), 1);
}

#[test]
fn headers_without_rows_and_wrong_files_are_refused_clearly() {
    let e = import_bytes("x_stats.csv", b"Type,Name,Request Count,50%\n").unwrap_err();
    assert!(e.message.contains("no rows"), "{e}");
    let e = import_bytes("x_stats.csv", b"just some text\n").unwrap_err();
    assert!(e.message.contains("Locust stats header"), "{e}");
    let e = import_bytes("x_stats_history.csv", b"").unwrap_err();
    assert_eq!(e.kind, crate::bundle::LoadErrorKind::Empty);
}

#[test]
fn history_timeline_counts_differences_of_the_totals_and_restarts_after_a_reset() {
    let text = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,Total Request Count,Total Failure Count\n\
1700000000,2,GET,/a,0,0,10,4,1\n\
1700000000,2,,Aggregated,0,0,10,4,1\n\
1700000001,5,GET,/a,0,0,10,9,1\n\
1700000001,5,,Aggregated,0,0,10,9,1\n\
1700000003,4,GET,/a,0,0,10,3,2\n\
1700000003,4,,Aggregated,0,0,10,3,2\n";
    let run = &imp("x_stats_history.csv", text).bundle.runs[0];
    let tl = run.timeline.as_ref().expect("a timeline");
    assert!(tl.is_well_formed());
    assert_eq!((tl.interval_s, tl.buckets, tl.origin_ms), (1, 4, 1_700_000_000_000));
    assert_eq!(tl.users, vec![2, 5, 0, 4]);
    let [a] = &tl.transactions[..] else { panic!("{:?}", tl.transactions) };
    // 4, then 9 − 4, then a reset: 3 from zero.
    assert_eq!((a.name.as_str(), &a.samples, &a.errors), ("GET /a", &vec![4, 5, 0, 3], &vec![1, 0, 0, 2]));
    assert!(a.values_ms.is_empty() && a.cells.is_empty() && a.sum_ms.is_empty() && !a.exact);
}

/// Without `--csv-full-history` the history counts the run as a whole: its timeline entry is the
/// run's total (samples, errors, throughput over time, and the window's KPIs), no transaction the
/// Timeline's picker offers or the window cuts; with per-name rows nothing is a total.
#[test]
fn history_without_per_name_rows_gives_a_run_total_and_no_phantom_transaction() {
    use crate::analysis::window::window_run;
    use crate::tables::{run_series, timeline_transactions, SeriesOptions};
    let text = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,Total Request Count,Total Failure Count\n\
1700000000,2,,Aggregated,0,0,10,4,1\n\
1700000001,5,,Aggregated,0,0,10,9,1\n\
1700000002,5,,Aggregated,0,0,10,15,3\n\
1700000003,4,,Aggregated,0,0,10,22,3\n";
    let run = &imp("x_stats_history.csv", text).bundle.runs[0];
    let tl = run.timeline.as_ref().expect("a timeline");
    let [total] = &tl.transactions[..] else { panic!("{:?}", tl.transactions) };
    // 4, 9 − 4, 15 − 9, 22 − 15 requests; 1, 0, 2, 0 failures.
    assert!(total.total, "the entry is the run's total");
    assert_eq!((&total.samples, &total.errors), (&vec![4, 5, 6, 7], &vec![1, 0, 2, 0]));
    assert!(run.transactions.is_empty() && tl.transaction("Aggregated").is_none());
    assert!(timeline_transactions([run]).is_empty(), "the picker offers no transaction");
    let all = SeriesOptions { percentile: 95, transaction: None, clock: false, unit_s: 60.0 };
    let s = run_series(run, &all).expect("series");
    assert_eq!((s.throughput, s.errors), (vec![4.0, 5.0, 6.0, 7.0], vec![1.0, 0.0, 2.0, 0.0]));
    let one = SeriesOptions { transaction: Some("Aggregated"), ..all };
    assert_eq!(run_series(run, &one).map(|s| s.throughput), Some(vec![0.0; 4]), "not a transaction");
    // The window [1 s, 3 s): buckets 1 and 2, 11 samples of which 2 failed.
    let (cut, applied) = window_run(run, 1.0, 3.0).expect("cut");
    assert_eq!(applied.samples, 11);
    assert!(cut.transactions.is_empty());
    let k = |name: &str| cut.kpis.iter().find(|k| k.name == name).map(|k| k.value);
    assert_eq!((k("Samples"), k("Error rate")), (Some(11.0), Some(2.0 * 100.0 / 11.0)));

    let full = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,Total Request Count,Total Failure Count\n\
1700000000,2,GET,/a,0,0,10,4,1\n\
1700000000,2,,Aggregated,0,0,10,4,1\n";
    let run = &imp("x_stats_history.csv", full).bundle.runs[0];
    let tl = run.timeline.as_ref().expect("a timeline");
    assert!(tl.transactions.iter().all(|t| !t.total) && tl.transaction("GET /a").is_some());
}
