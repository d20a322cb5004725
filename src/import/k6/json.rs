//! k6 `--out json` raw metric points (https://grafana.com/docs/k6/latest/results-output/real-time/json/):
//! newline-delimited JSON, a `{"type":"Metric",…}` line declaring each metric (its type and
//! whether it `contains` time) before its first `{"type":"Point","data":{"time","value","tags"},"metric":…}`.
//! k6 v2 writes `metric` first (internal/output/json/wrapper.go), older versions last; both are
//! read. Streamed line by line; lines of metrics that add nothing (`http_req_blocked`, `vus`, …)
//! are skipped after reading only their time, the rest are parsed with serde and aggregated by
//! `k6_points`.

use crate::bundle::{LoadError, Run};
use crate::import::k6::metrics::{is_builtin, Kind};
use crate::import::k6::points::{parse_time, Point, Points};
use crate::import::Head;
use crate::import::{Ctx, Lines};
use serde::Deserialize;
use std::borrow::Cow;
use std::io::BufRead;

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    metric: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    data: Option<Data<'a>>,
}

#[derive(Deserialize, Default)]
struct Data<'a> {
    #[serde(borrow, default)]
    time: Option<Cow<'a, str>>,
    #[serde(default)]
    value: Option<f64>,
    #[serde(borrow, default)]
    tags: Option<Tags<'a>>,
    /// Metric lines: the metric's name (k6 v2), type and value type.
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(rename = "type", borrow, default)]
    metric_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    contains: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct Tags<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    url: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    status: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    expected_response: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    error: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    error_code: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    check: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    group: Option<Cow<'a, str>>,
}

/// The first line is a k6 Metric or Point envelope.
pub fn detect(h: &Head) -> bool {
    let first = h.first_line();
    first.starts_with('{')
        && serde_json::from_str::<Envelope>(first)
            .is_ok_and(|e| (e.kind == "Metric" || e.kind == "Point") && e.metric.is_some())
}

/// The string value after `"key":"` in a line (k6 metric names and times have no escapes),
/// only when the key occurs once: a tag or metadata key of the same name makes the line go
/// through the full parse.
fn quick<'l>(line: &'l [u8], key: &[u8]) -> Option<&'l [u8]> {
    let first = memchr::memmem::find(line, key)?;
    if memchr::memmem::rfind(line, key) != Some(first) {
        return None;
    }
    let at = first + key.len();
    let len = memchr::memchr(b'"', &line[at..])?;
    Some(&line[at..at + len])
}

/// Built-in metrics whose points are aggregated (others are only timed).
const USED: [&str; 10] = [
    "http_req_duration",
    "http_req_failed",
    "checks",
    "iterations",
    "iteration_duration",
    "vus",
    "vus_max",
    "data_received",
    "data_sent",
    "dropped_iterations",
];

fn wanted(metric: &str) -> bool {
    USED.contains(&metric) || !is_builtin(metric)
}

/// Imports the file line by line.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let mut points = Points::default();
    let mut lines = Lines::new(input);
    while let Some((line_no, line)) = lines.next_line(ctx)? {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let is_point = memchr::memmem::find(line, b"\"type\":\"Point\"").is_some();
        let metric = quick(line, b"\"metric\":\"").and_then(|m| std::str::from_utf8(m).ok());
        if let (true, Some(m)) = (is_point, metric) {
            if !wanted(m) {
                let time = quick(line, b"\"data\":{\"time\":\"")
                    .and_then(|t| std::str::from_utf8(t).ok())
                    .and_then(parse_time);
                points.add(ctx, line_no, &Point { metric: m, time_ms: time, ..Default::default() });
                continue;
            }
        }
        let env: Envelope = match serde_json::from_slice(line) {
            Ok(e) => e,
            Err(e) => {
                ctx.warn(format!("line {line_no}"), format!("not a k6 JSON line ({e}); left out"));
                continue;
            }
        };
        let data = env.data.unwrap_or_default();
        let metric = env.metric.or(data.name).unwrap_or_default();
        match env.kind.as_ref() {
            "Metric" => {
                if let Some(kind) = data.metric_type.as_deref().and_then(Kind::parse) {
                    points.declared.insert(metric.into_owned(), (kind, data.contains.as_deref() == Some("time")));
                }
            }
            "Point" => {
                let Some(value) = data.value else {
                    ctx.warn(format!("line {line_no}"), "a point without a numeric value; left out");
                    continue;
                };
                let time_ms = data.time.as_deref().and_then(parse_time);
                if time_ms.is_none() {
                    ctx.warn(
                        format!("line {line_no}"),
                        "the point's time is missing or not a time; it counts without one",
                    );
                }
                let tags = data.tags.unwrap_or_default();
                let p = Point {
                    metric: &metric,
                    time_ms,
                    value,
                    name: tags.name.as_deref(),
                    url: tags.url.as_deref(),
                    status: tags.status.as_deref(),
                    expected_response: tags.expected_response.as_deref(),
                    error: tags.error.as_deref(),
                    error_code: tags.error_code.as_deref(),
                    check: tags.check.as_deref(),
                    group: tags.group.as_deref(),
                };
                points.add(ctx, line_no, &p);
            }
            other => ctx.warn(format!("line {line_no}"), format!("unknown line type {other:?}; left out")),
        }
    }
    ctx.progress.records.set(points.points);
    points.finish(ctx, "k6 JSON")
}
