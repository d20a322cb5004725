//! AWS CloudWatch metric data as the AWS CLI or boto3 saves it:
//! `aws cloudwatch get-metric-data` (https://docs.aws.amazon.com/cli/latest/reference/cloudwatch/get-metric-data.html)
//! and `aws cloudwatch get-metric-statistics`
//! (https://docs.aws.amazon.com/cli/latest/reference/cloudwatch/get-metric-statistics.html).
//!
//! One file is one run. Every series becomes a `Resource` per service and metric (see `naming`),
//! with peak, average and min, and the values in time order at seconds after the earliest
//! timestamp of the file. The file may hold one response, several written one after another
//! (paging with `NextToken`, or a loop over services), or a JSON array of them; results with the
//! same `Id` and `Label` are one series, whatever page they are on. `get-metric-data` returns the
//! newest values first; they are sorted. A `PartialData` or error status, `Messages`, and a last
//! page that still has a `NextToken` are warnings. Times are ISO 8601 strings as the CLI prints
//! them (`…Z`, `…+00:00`), boto3 datetimes written with `json.dump(…, default=str)`
//! (`2024-09-29 22:10:00+00:00`), or epoch numbers. Python's `print(response)` is not JSON and is
//! refused with the way to save it. A dashboard widget's source is refused (`widget`).

mod naming;
mod widget;

pub use widget::{detect as detect_widget, refuse as refuse_widget};

use crate::bundle::{LoadError, LoadErrorKind, Resource, Run, TimeSeries, Unit};
use crate::import::common::json_docs;
use crate::import::common::series::{resource, seconds_after, summarize, Points};
use crate::import::Head;
use crate::import::{common::civil, common::names, Ctx};
use serde_json::{Map, Value};

fn starts_like_json(h: &Head) -> bool {
    h.trimmed().starts_with(['{', '['])
}

/// Content detection of `get-metric-data` output (also Python's print of it, refused on import).
pub fn detect_metric_data(h: &Head) -> bool {
    starts_like_json(h) && h.text.contains("MetricDataResults")
}

/// Content detection of `get-metric-statistics` output.
pub fn detect_statistics(h: &Head) -> bool {
    starts_like_json(h) && (h.text.contains("\"Datapoints\"") || h.text.contains("'Datapoints'"))
}

/// A query of a `MetricDataQueries` list saved beside the results (optional).
#[derive(Default)]
struct Query {
    namespace: Option<String>,
    metric: Option<String>,
    dims: Vec<(String, String)>,
    stat: Option<String>,
    period: Option<f64>,
    unit: Option<String>,
    expression: Option<String>,
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

fn query(q: &Map<String, Value>) -> Query {
    let stat = q.get("MetricStat");
    let metric = stat.and_then(|m| m.get("Metric"));
    let dims = metric
        .and_then(|m| m.get("Dimensions"))
        .and_then(Value::as_array)
        .map(|d| d.iter().filter_map(|x| Some((s(x.get("Name"))?, s(x.get("Value"))?))).collect())
        .unwrap_or_default();
    Query {
        namespace: s(metric.and_then(|m| m.get("Namespace"))),
        metric: s(metric.and_then(|m| m.get("MetricName"))),
        dims,
        stat: s(stat.and_then(|m| m.get("Stat"))),
        period: stat.and_then(|m| m.get("Period")).and_then(Value::as_f64),
        unit: s(stat.and_then(|m| m.get("Unit"))),
        expression: s(q.get("Expression")),
    }
}

/// A time: an ISO 8601 string, or epoch seconds (milliseconds when larger than 10^11).
fn time_ms(v: &Value, assumed_utc: &mut bool) -> Option<i64> {
    match v {
        Value::String(t) => civil::parse_datetime(t).map(|(ms, zone)| {
            *assumed_utc |= zone == civil::Zone::AssumedUtc;
            ms
        }),
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite() && x.abs() < 1e16).map(|x| {
            if x.abs() > 1e11 {
                x as i64
            } else {
                (x * 1000.0) as i64
            }
        }),
        _ => None,
    }
}

/// One series being read: `get-metric-data` values, or `get-metric-statistics` datapoints as
/// (statistic, points).
struct Series {
    id: String,
    label: String,
    path: String,
    values: Points,
    stats: Vec<(String, Points)>,
    sample_counts: Vec<(i64, f64)>,
    unit: Option<String>,
}

impl Series {
    fn stat_mut(&mut self, name: &str) -> &mut Points {
        let i = match self.stats.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None => {
                self.stats.push((name.to_string(), Points::default()));
                self.stats.len() - 1
            }
        };
        &mut self.stats[i].1
    }
}

/// Everything read from a file.
#[derive(Default)]
struct Read {
    queries: Vec<(String, Query)>,
    data: Vec<Series>,
    stats: Vec<Series>,
    next_token: bool,
    assumed_utc: bool,
}

fn read_results(ctx: &mut Ctx, path: &str, results: &[Value], r: &mut Read) {
    for (i, res) in results.iter().enumerate() {
        let at = format!("{path}MetricDataResults[{i}]");
        let id = s(res.get("Id")).unwrap_or_default();
        let label = s(res.get("Label")).unwrap_or_default();
        match res.get("StatusCode").and_then(Value::as_str) {
            Some("Complete") | None => {}
            Some("PartialData") => ctx.warn(&at, format!("{id} ({label}): CloudWatch returned PartialData: more values exist than this response holds; fetch the next page with its NextToken")),
            Some(other) => ctx.warn(&at, format!("{id} ({label}): status {other}")),
        }
        for m in res.get("Messages").and_then(Value::as_array).into_iter().flatten() {
            ctx.warn(
                &at,
                format!("{}: {}", s(m.get("Code")).unwrap_or_default(), s(m.get("Value")).unwrap_or_default()),
            );
        }
        let times: &[Value] = res.get("Timestamps").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        let values: &[Value] = res.get("Values").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        if times.len() != values.len() {
            ctx.warn(&at, format!("{} timestamps but {} values; only pairs are read", times.len(), values.len()));
        }
        let k = match r.data.iter().position(|x| x.id == id && x.label == label) {
            Some(k) => k,
            None => {
                r.data.push(Series {
                    id: id.clone(),
                    label: label.clone(),
                    path: at.clone(),
                    values: Points::default(),
                    stats: vec![],
                    sample_counts: vec![],
                    unit: None,
                });
                r.data.len() - 1
            }
        };
        let mut bad = 0;
        for (t, v) in times.iter().zip(values) {
            match (time_ms(t, &mut r.assumed_utc), v.as_f64()) {
                (Some(t), Some(v)) => r.data[k].values.push(Some(t), v),
                _ => bad += 1,
            }
        }
        if bad > 0 {
            ctx.warn(&at, format!("{bad} values without a readable time or number were skipped"));
        }
    }
}

fn read_datapoints(ctx: &mut Ctx, path: &str, page: &Map<String, Value>, r: &mut Read) {
    let label = s(page.get("Label")).unwrap_or_default();
    let mut series = Series {
        id: String::new(),
        label,
        path: path.to_string(),
        values: Points::default(),
        stats: vec![],
        sample_counts: vec![],
        unit: None,
    };
    let points: &[Value] = page.get("Datapoints").and_then(Value::as_array).map_or(&[], Vec::as_slice);
    for (i, p) in points.iter().enumerate() {
        let Some(t) = p.get("Timestamp").and_then(|t| time_ms(t, &mut r.assumed_utc)) else {
            ctx.warn(format!("{path}Datapoints[{i}]"), "no readable Timestamp; skipped");
            continue;
        };
        for stat in ["Average", "Maximum", "Minimum", "Sum", "SampleCount"] {
            if let Some(v) = p.get(stat).and_then(Value::as_f64) {
                series.stat_mut(stat).push(Some(t), v);
                if stat == "SampleCount" {
                    series.sample_counts.push((t, v));
                }
            }
        }
        for (name, v) in p.get("ExtendedStatistics").and_then(Value::as_object).into_iter().flatten() {
            if let Some(v) = v.as_f64() {
                series.stat_mut(name).push(Some(t), v);
            }
        }
        if series.unit.is_none() {
            series.unit = s(p.get("Unit"));
        }
    }
    r.stats.push(series);
}

/// Reads every response object in the file.
fn read(ctx: &mut Ctx, docs: &[Value]) -> Read {
    let mut r = Read::default();
    let mut pages: Vec<(String, &Map<String, Value>)> = Vec::new();
    for (d, doc) in docs.iter().enumerate() {
        let base = if docs.len() == 1 { String::new() } else { format!("document {} ", d + 1) };
        match doc {
            Value::Array(items) => pages
                .extend(items.iter().enumerate().filter_map(|(i, v)| Some((format!("{base}[{i}]."), v.as_object()?)))),
            Value::Object(o) => pages.push((base, o)),
            _ => ctx.warn(base.trim().to_string(), "not a CloudWatch response (an object); skipped"),
        }
    }
    for (_, page) in &pages {
        for q in
            page.get("MetricDataQueries").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object)
        {
            r.queries.push((s(q.get("Id")).unwrap_or_default(), query(q)));
        }
    }
    for (path, page) in pages {
        if let Some(results) = page.get("MetricDataResults").and_then(Value::as_array) {
            read_results(ctx, &path, results, &mut r);
            r.next_token = page.get("NextToken").is_some_and(|t| t.as_str().is_some_and(|t| !t.is_empty()));
        }
        if page.contains_key("Datapoints") {
            read_datapoints(ctx, &path, page, &mut r);
        }
        for m in page.get("Messages").and_then(Value::as_array).into_iter().flatten() {
            ctx.warn(
                format!("{path}Messages"),
                format!("{}: {}", s(m.get("Code")).unwrap_or_default(), s(m.get("Value")).unwrap_or_default()),
            );
        }
    }
    r
}

/// Service, metric, unit (with the factor into it) and note of a `get-metric-data` series.
fn name_data(x: &Series, q: Option<&Query>) -> (Option<String>, String, Unit, f64, String) {
    let mut note = format!("get-metric-data {} (label {:?})", x.id, x.label);
    let (label_service, label_metric) = naming::from_label(&x.label);
    let by_label = || -> (Option<String>, String, Option<Unit>) {
        match label_metric.clone().or_else(|| naming::from_id(&x.id)) {
            Some((metric, unit)) => (label_service.clone(), metric, unit),
            None => (Some(if x.label.is_empty() { x.id.clone() } else { x.label.clone() }), "value".to_string(), None),
        }
    };
    let (service, metric, unit) = match q {
        Some(q) => match (&q.metric, &q.expression) {
            (Some(m), _) => {
                let (metric, unit) = naming::metric(m, q.namespace.as_deref());
                let from_label = if label_metric.is_some() {
                    label_service.clone()
                } else {
                    Some(x.label.clone()).filter(|l| !l.is_empty())
                };
                if let Some(stat) = &q.stat {
                    note.push_str(&format!(
                        ": {stat} of {m}{}",
                        q.period.map_or(String::new(), |p| format!(" per {p} s"))
                    ));
                }
                (naming::service_of_dimensions(&q.dims).or(from_label), metric, unit)
            }
            (None, Some(e)) => {
                note.push_str(&format!(": expression {e}"));
                (Some(if x.label.is_empty() { x.id.clone() } else { x.label.clone() }), "value".to_string(), None)
            }
            (None, None) => by_label(),
        },
        None => by_label(),
    };
    let (unit, scale) = match q.and_then(|q| q.unit.as_deref()) {
        Some(u) => naming::unit(u).unwrap_or_else(|| {
            note.push_str(&format!("; CloudWatch unit {u}"));
            (Unit::None, 1.0)
        }),
        None => (unit.unwrap_or(Unit::None), 1.0),
    };
    (service, metric, unit, scale, note)
}

fn scaled(p: Points, f: f64) -> Points {
    Points {
        timed: p.timed.into_iter().map(|(t, v)| (t, v * f)).collect(),
        untimed: p.untimed.into_iter().map(|v| v * f).collect(),
    }
}

/// A `get-metric-statistics` series as a resource: the series of Average (else the first statistic
/// present); peak from Maximum, min from Minimum, average weighted by SampleCount where given.
fn stats_resource(x: Series, service: &str, start: i64, note: &mut String) -> Resource {
    let (metric, default_unit) = naming::metric(&x.label, None);
    let (unit, f) = match x.unit.as_deref() {
        Some(u) => naming::unit(u).unwrap_or_else(|| {
            note.push_str(&format!("; CloudWatch unit {u}"));
            (Unit::None, 1.0)
        }),
        None => (default_unit.unwrap_or(Unit::None), 1.0),
    };
    let get = |name: &str| x.stats.iter().find(|(n, _)| n == name).map(|(_, p)| p.clone());
    let shown =
        x.stats.iter().find(|(n, _)| n == "Average").or(x.stats.first()).map(|(n, _)| n.clone()).unwrap_or_default();
    note.push_str(&format!(": series of {shown} per period"));
    let mut r = resource(service, &metric, unit, scaled(get(&shown).unwrap_or_default(), f), Some(start));
    let max = get("Maximum").map(|p| summarize(p.timed.iter().map(|v| v.1 * f)).0);
    let min = get("Minimum").map(|p| summarize(p.timed.iter().map(|v| v.1 * f)).2);
    r.peak = max.unwrap_or(r.peak);
    r.min = min.unwrap_or(if shown == "Maximum" { None } else { r.min });
    r.average = match get("Average") {
        Some(avg) if !x.sample_counts.is_empty() => {
            let weights: Vec<f64> = avg
                .timed
                .iter()
                .map(|(t, _)| x.sample_counts.iter().find(|(u, _)| u == t).map_or(0.0, |w| w.1))
                .collect();
            let total: f64 = weights.iter().sum();
            (total > 0.0)
                .then(|| avg.timed.iter().zip(&weights).map(|((_, v), w)| v * w * f).sum::<f64>() / total)
                .or(r.average)
        }
        Some(_) => r.average,
        None if shown == "Maximum" || shown == "Minimum" => None,
        None => r.average,
    };
    r
}

/// Imports `get-metric-data` or `get-metric-statistics` output.
pub fn import(ctx: &mut Ctx, text: &str) -> Result<Run, LoadError> {
    let docs = match json_docs::parse(ctx, text) {
        Ok(d) => d,
        Err(e) if text.trim_start().starts_with("{'") || text.contains("datetime.datetime(") => {
            return Err(LoadError::new(e.kind, e.source, "this is Python's print() of a boto3 response, not JSON (single quotes, datetime.datetime(…)); save the response with json.dump(response, f, default=str) and open that file"));
        }
        Err(e) => return Err(e),
    };
    let mut r = read(ctx, &docs);
    ctx.record((r.data.len() + r.stats.len()) as u64);
    let all_times = r.data.iter().map(|x| &x.values).chain(r.stats.iter().flat_map(|x| x.stats.iter().map(|(_, p)| p)));
    let (start, end) = all_times.fold((None, None), |(a, b): (Option<i64>, Option<i64>), p| {
        (a.into_iter().chain(p.first_ms()).min(), b.into_iter().chain(p.last_ms()).max())
    });
    let Some(start) = start else {
        return Err(ctx.error(
            LoadErrorKind::Empty,
            None,
            "the file has no CloudWatch values (no MetricDataResults or Datapoints with a time)",
        ));
    };
    let mut run = Run {
        id: names::run_id(ctx.source),
        label: names::file_stem(ctx.source).to_string(),
        start: Some(civil::iso_utc(start)),
        ..Default::default()
    };
    if let Some(end) = end {
        run.end = Some(civil::iso_utc(end));
        run.duration_s = Some(seconds_after(end, start));
    }
    let mut unnamed = Vec::new();
    for x in r.data.iter_mut() {
        // Overlapping pages repeat values: an exact (time, value) repeat is one value.
        x.values.timed.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        x.values.timed.dedup();
    }
    for x in r.data.iter().filter(|x| !x.values.is_empty()) {
        let q = r.queries.iter().find(|(id, _)| *id == x.id).map(|(_, q)| q);
        let (service, metric, unit, f, note) = name_data(x, q);
        let service = service.unwrap_or_else(|| {
            unnamed.push(x.id.clone());
            x.id.clone()
        });
        let mut res = resource(&service, &metric, unit, scaled(x.values.clone(), f), Some(start));
        res.note = Some(note);
        push_unique(ctx, &mut run.resources, res, &x.id, &x.path);
    }
    if !unnamed.is_empty() {
        ctx.warn("Label", format!(
            "{} series name only their metric, so their query ids ({}) stand for the service; give each query a Label such as \"${{PROP('Dim.ServiceName')}} ${{PROP('MetricName')}}\"",
            unnamed.len(),
            unnamed.join(", ")
        ));
    }
    let stem = names::file_stem(ctx.source).to_string();
    let n_stats = r.stats.len();
    for (k, x) in r.stats.into_iter().enumerate() {
        let repeated = n_stats > 1;
        let service = if repeated { format!("{stem} #{}", k + 1) } else { stem.clone() };
        let mut note = format!("get-metric-statistics {:?}", x.label);
        let path = x.path.clone();
        let mut res = stats_resource(x, &service, start, &mut note);
        res.note = Some(note);
        if res.peak.is_some() {
            push_unique(ctx, &mut run.resources, res, &service, &path);
        }
    }
    if n_stats > 0 {
        ctx.warn("Label", "get-metric-statistics output names the metric but not the service; the file name stands for the service (rename the file, or use get-metric-data with labels)");
    }
    if r.next_token {
        ctx.warn("NextToken", "the last page has a NextToken: CloudWatch has more values than this file holds (run the command again with --next-token and add its output)");
    }
    if r.assumed_utc {
        ctx.warn("Timestamps", "times carry no time zone; they are read as UTC");
    }
    if run.resources.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file has no CloudWatch values"));
    }
    run.notes.push(format!(
        "{} CloudWatch series imported from {}; times are seconds after the earliest timestamp.",
        run.resources.len(),
        names::file_name(ctx.source)
    ));
    Ok(run)
}

/// Adds a resource; a (service, metric) already taken gets the query id added to its service.
fn push_unique(ctx: &mut Ctx, resources: &mut Vec<Resource>, mut r: Resource, id: &str, path: &str) {
    if resources.iter().any(|x| x.service == r.service && x.metric == r.metric) {
        let renamed = format!("{} ({id})", r.service);
        ctx.warn(path, format!("{} · {} appears twice; this one is named {renamed:?}", r.service, r.metric));
        r.service = renamed;
    }
    if r.series.as_ref().is_some_and(|s: &TimeSeries| s.t_s.windows(2).any(|w| w[0] == w[1])) {
        ctx.warn(path, "some timestamps appear twice with different values (overlapping pages?); all values are kept");
    }
    resources.push(r);
}

#[cfg(test)]
mod tests;
