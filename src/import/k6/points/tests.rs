//! Tests of k6's raw points (`--out json`, `--out csv`): exact aggregation, the two formats of the
//! same points agree, agreement with a k6 summary of the same points, timestamps, failures,
//! hostile input.

use super::parse_time;
use crate::bundle::LoadErrorKind;
use crate::import::common::test_support::{file, import_run as import, kpi, txn};
use crate::import::{import_bytes, Format};

fn fixture(name: &str) -> Vec<u8> {
    file(&format!("tests/fixtures/import/k6/{name}"))
}

#[test]
fn the_docs_json_output_and_more_points() {
    let (format, run, warnings) = import("k6.json", &fixture("points-docs.ndjson"));
    assert_eq!(format, Format::K6Json);
    assert!(warnings.is_empty(), "{warnings:?}");
    // The docs' point has no name tag: its url names it.
    let tools = txn(&run, "https://quickpizza.grafana.com/api/tools");
    assert_eq!((tools.samples, tools.errors, tools.mean_ms), (Some(1), Some(0), Some(459.865729)));
    let pizza = txn(&run, "GET /api/pizza");
    assert_eq!(
        (pizza.samples, pizza.min_ms, pizza.median_ms, pizza.max_ms),
        (Some(3), Some(98.5), Some(101.25), Some(120.0))
    );
    assert!((pizza.mean_ms.unwrap() - (101.25 + 98.5 + 120.0) / 3.0).abs() < 1e-12);
    let ratings = txn(&run, "POST /api/ratings");
    assert_eq!((ratings.samples, ratings.errors, ratings.mean_ms), (Some(2), Some(1), Some(125.65)));
    let vote = txn(&run, "vote_latency_ms");
    assert_eq!((vote.samples, vote.mean_ms, vote.note.as_deref()), (Some(2), Some(85.5), Some("custom trend")));
    assert_eq!(
        (kpi(&run, "Samples"), kpi(&run, "Checks passed"), kpi(&run, "Iterations")),
        (Some(6.0), Some(80.0), Some(2.0))
    );
    assert!((kpi(&run, "Error rate").unwrap() - 100.0 / 6.0).abs() < 1e-12);
    assert_eq!(
        (kpi(&run, "Mean iteration duration"), kpi(&run, "Max VUs"), kpi(&run, "Data received")),
        (Some(1500.0), Some(10.0), Some(3000.0))
    );
    assert_eq!((kpi(&run, "pizza_errors"), kpi(&run, "queue_depth")), (Some(1.0), Some(7.0)));
    assert!((kpi(&run, "success_rate").unwrap() - 200.0 / 3.0).abs() < 1e-12);
    let errors: Vec<(String, Option<u64>)> = run.errors.iter().map(|e| (e.key(), e.count)).collect();
    let want = [("POST /api/ratings: 500/(no message)", Some(1)), ("check failed: my group::status is 200", Some(1))];
    assert_eq!(errors, want.map(|(k, n)| (k.to_string(), n)));
    // The first request started at its end (45.239531499) minus its 459.87 ms; +02:00 is UTC 12:34.
    assert_eq!(run.start.as_deref(), Some("2017-05-09T12:34:44.779Z"));
    assert_eq!(run.dimensions.get("users").map(String::as_str), Some("10"));
}

#[test]
fn k6_v2_envelopes_and_a_tag_named_metric() {
    let (_, run, warnings) = import("k6.json", &fixture("points-v2-envelope.ndjson"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let home = txn(&run, "home");
    assert_eq!((home.samples, home.min_ms, home.max_ms, home.errors), (Some(2), Some(12.5), Some(17.5), Some(0)));
    assert_eq!(
        run.transactions.len(),
        1,
        "the http_req_blocked point tagged metric=http_req_duration is not a request"
    );
}

/// Float durations that print exactly with k6's CSV `%f` (multiples of 1/8 ms).
fn durations(n: usize) -> Vec<(&'static str, f64)> {
    let names = ["a", "b", "c"];
    (0..n).map(|i| (names[i % 3], ((i * 7919) % 10007) as f64 / 8.0 + (i % 5) as f64 * 1000.0)).collect()
}

fn naive(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((p * v.len() as f64 / 100.0).ceil() as usize).max(1) - 1]
}

#[test]
fn the_same_points_as_json_and_csv_aggregate_exactly_and_identically() {
    let points = durations(20_000);
    let mut json = String::from(
        "{\"type\":\"Metric\",\"data\":{\"type\":\"trend\",\"contains\":\"time\"},\"metric\":\"http_req_duration\"}\n",
    );
    let mut csv = String::from("metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n");
    for (i, (name, ms)) in points.iter().enumerate() {
        let t = 1_700_000_000 + i as u64 / 100;
        json.push_str(&format!(
            "{{\"type\":\"Point\",\"data\":{{\"time\":\"{}\",\"value\":{ms},\"tags\":{{\"name\":\"{name}\",\"status\":\"200\",\"expected_response\":\"true\"}}}},\"metric\":\"http_req_duration\"}}\n",
            crate::import::common::civil::iso_utc(t as i64 * 1000)
        ));
        csv.push_str(&format!(
            "http_req_duration,{t},{ms:.6},,,,true,,GET,{name},HTTP/1.1,default,,200,,,http://x/{name},,\n"
        ));
    }
    let (fj, from_json, wj) = import("k6.json", json.as_bytes());
    let (fc, from_csv, wc) = import("k6.csv", csv.as_bytes());
    assert_eq!((fj, fc), (Format::K6Json, Format::K6Csv));
    assert!(wj.is_empty() && wc.is_empty(), "{wj:?} {wc:?}");
    assert_eq!(from_json.transactions, from_csv.transactions);
    assert_eq!(from_json.kpis, from_csv.kpis);
    for name in ["a", "b", "c"] {
        let values: Vec<f64> = points.iter().filter(|p| p.0 == name).map(|p| p.1).collect();
        let t = txn(&from_json, name);
        assert_eq!(t.samples, Some(values.len() as u64));
        assert!((t.mean_ms.unwrap() - values.iter().sum::<f64>() / values.len() as f64).abs() < 1e-9);
        for (p, got) in [(50.0, t.median_ms), (90.0, t.p90_ms), (95.0, t.p95_ms), (99.0, t.p99_ms)] {
            assert_eq!(got, Some(naive(values.clone(), p)), "{name} p{p}");
        }
        assert_eq!((t.min_ms, t.max_ms), (Some(naive(values.clone(), 0.0)), Some(naive(values.clone(), 100.0))));
    }
}

/// k6's own percentile (metrics/sink.go `TrendSink.P`): linear interpolation at index p·(n − 1).
fn k6_percentile(sorted: &[f64], p: f64) -> f64 {
    let i = p * (sorted.len() - 1) as f64;
    let (j, k) = (sorted[i.floor() as usize], sorted[i.ceil() as usize]);
    j + (k - j) * (i - i.floor())
}

/// How raw points are checked against k6's summary of the same run: counts, min, max and mean
/// agree exactly; k6's interpolated percentile and runlens' nearest-rank one both lie between the
/// two sorted values around index p·(n − 1), so they differ by at most that gap.
#[test]
fn raw_points_agree_with_a_k6_summary_export_of_them() {
    let points = durations(3001);
    let mut ndjson = String::new();
    for (i, (name, ms)) in points.iter().enumerate() {
        ndjson.push_str(&format!("{{\"type\":\"Point\",\"data\":{{\"time\":\"2025-01-01T00:00:{:02}Z\",\"value\":{ms},\"tags\":{{\"name\":\"{name}\"}}}},\"metric\":\"http_req_duration\"}}\n", i % 60));
    }
    let mut sorted: Vec<f64> = points.iter().map(|p| p.1).collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len() as f64;
    let stat = |p: f64| k6_percentile(&sorted, p);
    let export = format!(
        r#"{{"metrics":{{"http_req_duration":{{"avg":{},"min":{},"med":{},"max":{},"p(90)":{},"p(95)":{},"p(99)":{},"count":{n}}}}},"root_group":{{}}}}"#,
        sorted.iter().sum::<f64>() / n,
        sorted[0],
        stat(0.5),
        sorted[sorted.len() - 1],
        stat(0.9),
        stat(0.95),
        stat(0.99)
    );
    let (_, raw, _) = import("k6.json", ndjson.as_bytes());
    let (_, summary, _) = import("export.json", export.as_bytes());
    let k6 = txn(&summary, "All requests");
    assert_eq!(kpi(&raw, "Samples"), k6.samples.map(|s| s as f64));
    let raw_mean = kpi(&raw, "Mean response time").unwrap();
    assert!((raw_mean - k6.mean_ms.unwrap()).abs() <= 1e-9 * raw_mean);
    let raw_min = raw.transactions.iter().filter_map(|t| t.min_ms).fold(f64::MAX, f64::min);
    let raw_max = raw.transactions.iter().filter_map(|t| t.max_ms).fold(0.0, f64::max);
    assert_eq!((Some(raw_min), Some(raw_max)), (k6.min_ms, k6.max_ms));
    let ours = naive(sorted.clone(), 95.0);
    assert_eq!(kpi(&raw, "p95 response time"), Some(ours));
    let i = 0.95 * (n - 1.0);
    let (lo, hi) = (sorted[i.floor() as usize], sorted[i.ceil() as usize]);
    let theirs = k6.p95_ms.unwrap();
    assert!(lo <= ours && ours <= hi && lo <= theirs && theirs <= hi, "{lo} ≤ {ours}, {theirs} ≤ {hi}");
}

#[test]
fn k6_timestamp_formats() {
    let want = Some(1_633_706_790_123);
    for t in [
        "1633706790123",
        "1633706790123456",
        "1633706790123456789",
        "2021-10-08T15:26:30.123Z",
        "2021-10-08T17:26:30.123456789+02:00",
    ] {
        assert_eq!(parse_time(t), want, "{t}");
    }
    assert_eq!(parse_time("1633706790"), Some(1_633_706_790_000));
    for bad in ["", "-5", "99999999999999999999999", "12:00", "1e9"] {
        assert_eq!(parse_time(bad), None, "{bad}");
    }
}

#[test]
fn failures_without_http_req_failed_come_from_tags() {
    let csv = "metric_name,timestamp,metric_value,expected_response,status,error,error_code,name\n\
        http_req_duration,1633706790,10,false,200,,,a\n\
        http_req_duration,1633706791,20,true,503,,,a\n\
        http_req_duration,1633706792,30,,503,,,b\n\
        http_req_duration,1633706793,40,,0,dial: i/o timeout,1050,b\n\
        http_req_duration,1633706794,50,,200,,,b\n\
        my_custom,1633706794,3,,,,,\n";
    let (_, run, _) = import("k6.csv", csv.as_bytes());
    // expected_response wins where present; else status ≥ 400, status 0 or an error.
    assert_eq!((txn(&run, "a").errors, txn(&run, "b").errors), (Some(1), Some(2)));
    // By cause: the status, k6's error code where the status is 0, the error tag; at the point's
    // time (the request's end), after the first request's start (1633706790 s less 10 ms).
    let errors: Vec<(String, Option<u64>, Option<f64>)> =
        run.errors.iter().map(|e| (e.key(), e.count, e.first_s)).collect();
    let want = [("a: 200/(no message)", 0.01), ("b: 1050/dial: i/o timeout", 3.01), ("b: 503/(no message)", 2.01)];
    assert_eq!(errors, want.map(|(k, t)| (k.to_string(), Some(1), Some(t))));
    assert!(run.notes.iter().any(|n| n.contains("my_custom (1 points)")), "{:?}", run.notes);
    assert!(run.notes[0].contains("expected_response/status tags"));
}

#[test]
fn hostile_points_are_warned_about_and_skipped() {
    let csv = "metric_name,timestamp,metric_value,name\n\
        http_req_duration,1633706790,abc,a\n\
        http_req_duration,1633706790,-5,a\n\
        http_req_duration,1633706790,NaN,a\n\
        http_req_duration,1633706790,inf,a\n\
        http_req_duration,1633706790,1e300,a\n\
        http_req_duration,not-a-time,7,a\n\
        http_req_duration\n\
        http_req_duration,99999999999999999999,8,a\n";
    let (_, run, warnings) = import("k6.csv", csv.as_bytes());
    assert_eq!(txn(&run, "a").samples, Some(2));
    assert_eq!(run.start, None);
    let lines: Vec<&str> = warnings.iter().map(|w| w.split(':').next().unwrap_or("")).collect();
    assert_eq!(lines, ["line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9"]);
    let json = "{\"type\":\"Point\",\"data\":{\"time\":\"2025-01-01T00:00:00Z\",\"value\":5,\"tags\":{\"name\":\"a\"}},\"metric\":\"http_req_duration\"}\n\
        []\n\
        {\"type\":\"Point\"}\n\
        {\"type\":\"Point\",\"data\":{\"value\":\"5\"},\"metric\":\"http_req_duration\"}\n\
        {\"type\":\"Point\",\"data\":{\"value\":5,\"tags\":[1]},\"metric\":\"http_req_duration\"}\n\
        {\"type\":\"Thing\",\"metric\":\"x\"}\n\
        {\"type\":\"Point\",\"data\":{\"time\":\"2025-01-01T00:00:01Z\",\"value\":6,\"tags\":{\"name\":\"a\"}},\"metric\":\"http_req_dur";
    let (_, run, warnings) = import("k6.json", json.as_bytes());
    assert_eq!(txn(&run, "a").samples, Some(1));
    assert_eq!(warnings.len(), 6, "{warnings:?}");
    for (bytes, name) in [
        (&b"metric_name,timestamp,metric_value\n"[..], "k6.csv"),
        (b"{\"type\":\"Metric\",\"data\":{\"type\":\"trend\"},\"metric\":\"x\"}\n", "k6.json"),
    ] {
        assert_eq!(import_bytes(name, bytes).unwrap_err().kind, LoadErrorKind::Empty);
    }
}

#[test]
fn the_timeline_buckets_requests_by_their_start_and_failures_with_their_request() {
    let point = |metric: &str, time: &str, value: f64, name: &str| {
        format!(
            r#"{{"type":"Point","data":{{"time":"2024-01-01T00:00:{time}Z","value":{value},"tags":{{"name":"{name}"}}}},"metric":"{metric}"}}"#
        )
    };
    let lines = [
        point("vus", "00.500", 3.0, ""),
        // Ends in second 1, started in second 0: its failure counts in second 0.
        point("http_req_duration", "01.500", 600.0, "a"),
        point("http_req_failed", "01.500", 1.0, "a"),
        point("http_req_duration", "03.000", 1000.5, "b"),
        point("http_req_failed", "03.000", 0.0, "b"),
        point("http_req_duration", "02.100", 50.0, "a"),
        point("http_req_failed", "02.100", 0.0, "a"),
        point("vus", "02.500", 7.0, ""),
        point("vus", "02.700", 5.0, ""),
    ];
    let (_, run, _) = import("k6.json", lines.join("\n").as_bytes());
    let tl = run.timeline.expect("a timeline");
    assert!(tl.is_well_formed());
    assert_eq!((tl.interval_s, tl.buckets, tl.start_ms % 60_000, tl.origin_ms % 60_000), (1, 3, 0, 900));
    assert_eq!(tl.users, vec![3, 0, 7]);
    let [a, b] = &tl.transactions[..] else { panic!("{:?}", tl.transactions) };
    assert_eq!(
        (a.name.as_str(), &a.samples, &a.errors, &a.sum_ms),
        ("a", &vec![1, 0, 1], &vec![1, 0, 0], &vec![600.0, 0.0, 50.0])
    );
    assert_eq!((a.exact, &a.values_ms, &a.cells), (true, &vec![50.0, 600.0], &vec![vec![1, 1], vec![], vec![0, 1]]));
    assert_eq!(
        (b.name.as_str(), &b.samples, &b.errors, &b.values_ms),
        ("b", &vec![0, 1, 0], &vec![0, 0, 0], &vec![1000.5])
    );
}
