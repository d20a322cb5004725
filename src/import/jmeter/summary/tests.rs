//! Tests of the Aggregate/Summary Report importer: single reports, histories by run key and by
//! TOTAL rows, duplicates, JMeter's number formats.

use crate::bundle::Run;
use crate::import::{import_bytes, Format, Imported};

const AGG: &str =
    "Label,# Samples,Average,Median,90% Line,95% Line,99% Line,Min,Max,Error %,Throughput,Received KB/sec,Sent KB/sec";

fn txn<'a>(run: &'a Run, name: &str) -> &'a crate::bundle::Transaction {
    run.transactions.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no transaction {name:?}"))
}

fn kpi(run: &Run, name: &str) -> Option<f64> {
    run.kpis.iter().find(|k| k.name == name).map(|k| k.value)
}

fn warnings(imp: &Imported) -> Vec<String> {
    imp.warnings.iter().map(|w| w.to_string()).collect()
}

#[test]
fn one_report_with_total_row() {
    let text = format!("{AGG}\nlogin,200,12,10,20,25,40,3,90,1.50%,5.2,1.0,0.5\n\"search, fast\",100,8,7,9,10,11,1,30,0.00%,2.6,1.0,0.5\nTOTAL,300,10,9,18,24,39,1,90,1.00%,7.8,2.0,1.0\n");
    let imp = import_bytes("agg.csv", text.as_bytes()).unwrap();
    assert_eq!(imp.format, Format::JmeterSummary);
    assert_eq!(imp.bundle.runs.len(), 1);
    let run = &imp.bundle.runs[0];
    assert_eq!(run.id, "agg");
    let login = txn(run, "login");
    assert_eq!(
        (login.samples, login.errors, login.mean_ms, login.median_ms),
        (Some(200), Some(3), Some(12.0), Some(10.0))
    );
    assert_eq!(
        (login.p90_ms, login.p95_ms, login.p99_ms, login.min_ms, login.max_ms),
        (Some(20.0), Some(25.0), Some(40.0), Some(3.0), Some(90.0))
    );
    assert_eq!(login.throughput_per_s, Some(5.2));
    assert_eq!(txn(run, "search, fast").errors, Some(0));
    assert_eq!(run.transactions.len(), 2, "TOTAL is not a transaction");
    assert_eq!(
        (kpi(run, "Samples"), kpi(run, "Error rate"), kpi(run, "p95 response time")),
        (Some(300.0), Some(1.0), Some(24.0))
    );
    assert!(warnings(&imp).is_empty(), "{:?}", warnings(&imp));
}

#[test]
fn summary_report_and_plugin_headers() {
    let summary = "Label,# Samples,Average,Min,Max,Std. Dev.,Error %,Throughput,Received KB/sec,Sent KB/sec,Avg. Bytes\nx,10,5,1,9,2.1,10.000%,30/min,1,1,100.0\n";
    let run = &import_bytes("s.csv", summary.as_bytes()).unwrap().bundle.runs[0];
    let x = txn(run, "x");
    assert_eq!((x.samples, x.errors, x.throughput_per_s, x.p90_ms), (Some(10), Some(1), Some(0.5), None));
    assert!(run.notes[0].contains("Std. Dev., KB/sec and Avg. Bytes are not carried"));
    // JMeterPluginsCMD: resource keys as the header, the error rate as a fraction.
    let cmd = "sampler_label,aggregate_report_count,average,aggregate_report_median,aggregate_report_90%_line,aggregate_report_min,aggregate_report_max,aggregate_report_error%,aggregate_report_rate\ny,400,7,6,12,2,80,0.25,\"1,5\"\n";
    let run = &import_bytes("cmd.csv", cmd.as_bytes()).unwrap().bundle.runs[0];
    let y = txn(run, "y");
    assert_eq!((y.samples, y.errors, y.p90_ms, y.throughput_per_s), (Some(400), Some(100), Some(12.0), Some(1.5)));
}

#[test]
fn history_by_run_key_with_duplicates() {
    let text = format!(
        "{AGG},Date,Users\na,10,5,5,6,7,8,1,9,0.00%,1.0,1,1,1643261534,20\nTOTAL,10,5,5,6,7,8,1,9,0.00%,1.0,1,1,1643261534,20\n\
         a,12,6,5,6,7,8,1,9,0.00%,1.0,1,1,1643347934,20\na,12,6,5,6,7,8,1,9,0.00%,1.0,1,1,1643347934,20\n\
         a,99,6,5,6,7,8,1,9,0.00%,1.0,1,1,1643347934,20\na,7,4,4,4,4,4,4,4,0.00%,1.0,1,1,1643261534,40\n"
    );
    let imp = import_bytes("nightly-summary.csv", text.as_bytes()).unwrap();
    let runs = &imp.bundle.runs;
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[0].id, "nightly-summary-2022-01-27t05-32-14z-20");
    assert_eq!(runs[0].start.as_deref(), Some("2022-01-27T05:32:14Z"));
    assert_eq!(runs[0].dimensions.get("date").map(String::as_str), Some("2022-01-27T05:32:14Z"));
    assert_eq!(runs[0].dimensions.get("users").map(String::as_str), Some("20"));
    assert_eq!(kpi(&runs[0], "Samples"), Some(10.0));
    assert_eq!(txn(&runs[1], "a").samples, Some(12), "the first of the duplicates is kept");
    assert_eq!(runs[2].dimensions.get("users").map(String::as_str), Some("40"));
    assert_eq!(runs[2].label, "Date 2022-01-27T05:32:14Z, Users 40");
    let w = warnings(&imp);
    assert!(w.contains(&"line 5: repeats line 4 (same run, same label \"a\"); line 4 is kept".to_string()), "{w:?}");
    assert!(
        w.contains(&"line 6: has other figures than line 4 (same run, same label \"a\"); line 4 is kept".to_string()),
        "{w:?}"
    );
}

#[test]
fn histories_without_key_columns() {
    // TOTAL rows close each run.
    let blocks = format!("{AGG}\na,1,5,5,5,5,5,5,5,0.00%,1,1,1\nb,1,6,6,6,6,6,6,6,0.00%,1,1,1\nTOTAL,2,5,5,6,6,6,5,6,0.00%,1,1,1\na,1,7,7,7,7,7,7,7,0.00%,1,1,1\nTOTAL,1,7,7,7,7,7,7,7,0.00%,1,1,1\n");
    let imp = import_bytes("hist.csv", blocks.as_bytes()).unwrap();
    let runs = &imp.bundle.runs;
    assert_eq!(runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["hist-1", "hist-2"]);
    assert_eq!(
        (runs[0].transactions.len(), kpi(&runs[0], "Samples"), txn(&runs[1], "a").mean_ms),
        (2, Some(2.0), Some(7.0))
    );
    // Neither keys nor TOTAL rows: one run per row, with a warning.
    let rows =
        format!("{AGG}\na,1,5,5,5,5,5,5,5,0.00%,1,1,1\nb,1,6,6,6,6,6,6,6,0.00%,1,1,1\na,1,7,7,7,7,7,7,7,0.00%,1,1,1\n");
    let imp = import_bytes("rows.csv", rows.as_bytes()).unwrap();
    assert_eq!(imp.bundle.runs.len(), 3);
    assert!(warnings(&imp)[0].contains("each row is read as a run of its own"));
}

#[test]
fn bad_values_warn_with_their_line_and_bad_files_are_refused() {
    let text = format!("{AGG}\na,many,5,5,5,5,5,5,5,n/a,1,1,1\n");
    let imp = import_bytes("bad.csv", text.as_bytes()).unwrap();
    let w = warnings(&imp);
    assert!(w.iter().any(|w| w == "line 2: # Samples \"many\" is not a number; read as missing"), "{w:?}");
    assert!(w.iter().any(|w| w == "line 2: Error % \"n/a\" is not a number; read as missing"), "{w:?}");
    assert_eq!(txn(&imp.bundle.runs[0], "a").samples, None);
    let err = import_bytes("empty.csv", format!("{AGG}\n").as_bytes()).unwrap_err();
    assert!(err.message.contains("no rows"), "{err}");
}
