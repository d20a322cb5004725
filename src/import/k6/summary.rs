//! k6 end-of-test summary JSON, in its three shapes:
//! - the `handleSummary()` data (https://grafana.com/docs/k6/latest/results-output/end-of-test/custom-summary/):
//!   `metrics.<name>.{type, contains, values, thresholds.<source>.ok}`, `root_group` with checks,
//!   `state.testRunDurationMs`;
//! - the machine-readable summary of k6 v1.5+ (`--new-machine-readable-summary`, the default in
//!   v2; schema https://github.com/grafana/k6-summary): `results.metrics[]`, `results.checks`,
//!   `config.duration`, `metadata.generated_at`. k6 hands the schema's structs to JavaScript, which
//!   renames their fields (`generated_at`, `k6_version`, trend stats `p90`, `p95`; k6's own test
//!   internal/cmd/tests/cmd_run_test.go asserts that output); the schema's spellings
//!   (`generatedAt`, `p(90)`) are read too;
//! - the legacy `--summary-export` file
//!   (https://grafana.com/docs/k6/latest/using-k6/k6-options/reference/#summary-export): flat metric
//!   values, rates as `value`, and threshold flags that mean the OPPOSITE of `ok`: "threshold
//!   values are unintuitive: `true` indicates the threshold failed, and `false` that it succeeded"
//!   (https://grafana.com/docs/k6/v0.47.x/results-output/end-of-test/#summary-export-to-a-json-file;
//!   k6 writes it as `thresholds[name] = !threshold.ok` in internal/js/summary-wrapper.js).
//!
//! A JSON that only looks like a k6 summary (written by a script's own handleSummary, with keys of
//! its author's choosing) is refused with a message saying so: its numbers have no defined meaning.

use crate::bundle::{LoadError, LoadErrorKind, Run};
use crate::import::k6::metrics::{parse_key, to_run, Check, Kind, Metric, Summary, Threshold};
use crate::import::Head;
use crate::import::{common::civil, common::text, Ctx};
use serde_json::{Map, Value};
use std::io::Read;

/// Metric names every k6 run reports (one of them in a JSON makes it look like k6's).
const CORE_METRICS: [&str; 6] =
    ["http_reqs", "http_req_duration", "iterations", "iteration_duration", "vus", "vus_max"];

/// The `handleSummary()` data or the machine-readable summary.
pub fn detect(h: &Head) -> bool {
    let handle_summary =
        h.has_key("metrics", &['{']) && (h.has_key("contains", &['"']) || h.has_key("testRunDurationMs", &[]));
    let machine = (h.has_key("k6_version", &['"']) || h.has_key("k6Version", &['"'])) && h.has_key("results", &['{']);
    h.is_json_object() && (handle_summary || machine)
}

/// The legacy `--summary-export` file.
pub fn detect_export(h: &Head) -> bool {
    h.is_json_object()
        && h.has_key("metrics", &['{'])
        && !detect(h)
        && !h.has_key("sampleCount", &[])
        && (h.has_key("root_group", &['{']) || CORE_METRICS.iter().any(|m| h.has_key(m, &['{'])))
}

/// A summary a test script wrote itself: k6 metric names (two or more) as keys but no `metrics`
/// object. Tried
/// after every other JSON format; the importer refuses it with an explanation.
pub fn detect_custom(h: &Head) -> bool {
    h.is_json_object() && !h.has_key("metrics", &[]) && CORE_METRICS.iter().filter(|m| h.has_key(m, &[])).count() >= 2
}

/// Parses a whole JSON document, with line and column on error.
pub fn parse_json(ctx: &Ctx, text: &str) -> Result<Value, LoadError> {
    serde_json::from_str(text).map_err(|e| {
        ctx.error(LoadErrorKind::Syntax, None, format!("not valid JSON: {e}")).at(e.line(), Some(e.column()))
    })
}

fn root_object<'v>(ctx: &Ctx, v: &'v Value) -> Result<&'v Map<String, Value>, LoadError> {
    v.as_object().ok_or_else(|| ctx.error_at(LoadErrorKind::Schema, "$", "the file is JSON but not an object"))
}

/// Imports a `handleSummary()` or machine-readable summary (or refuses a custom one).
pub fn import(ctx: &mut Ctx, enc: text::Enc, input: impl Read) -> Result<Run, LoadError> {
    let text = crate::import::read_whole_text(ctx, enc, input)?;
    let doc = parse_json(ctx, &text)?;
    let root = root_object(ctx, &doc)?;
    let summary = if let Some(metrics) = root.get("metrics") {
        let metrics =
            metrics.as_object().ok_or_else(|| ctx.error_at(LoadErrorKind::Schema, "metrics", "is not an object"))?;
        from_handle_summary(ctx, root, metrics)
    } else if let Some(results) = root.get("results").and_then(Value::as_object) {
        from_machine_readable(ctx, root, results)
    } else {
        let keys: Vec<&str> = root.keys().take(8).map(String::as_str).collect();
        return Err(ctx.error(
            LoadErrorKind::Unsupported,
            None,
            format!(
                "this is a custom summary written by the test script's own handleSummary() (its keys: {}), not k6's summary \
                 data, so what its numbers mean is up to the script's author. Save k6's own summary instead: return \
                 {{ 'summary.json': JSON.stringify(data) }} from handleSummary(), or run k6 with --summary-export=summary.json.",
                keys.join(", ")
            ),
        ));
    };
    to_run(ctx, summary, "k6 summary")
}

/// Imports a legacy `--summary-export` file.
pub fn import_export(ctx: &mut Ctx, enc: text::Enc, input: impl Read) -> Result<Run, LoadError> {
    let text = crate::import::read_whole_text(ctx, enc, input)?;
    let doc = parse_json(ctx, &text)?;
    let root = root_object(ctx, &doc)?;
    let metrics = root
        .get("metrics")
        .and_then(Value::as_object)
        .ok_or_else(|| ctx.error_at(LoadErrorKind::Schema, "metrics", "is missing or not an object"))?;
    let mut s = Summary::default();
    for (path, obj, name, tags) in entries(ctx, metrics) {
        let mut m = Metric { name, tags, values: numbers(ctx, &path, obj, &["thresholds"]), ..Default::default() };
        if let Some(th) = obj.get("thresholds").and_then(Value::as_object) {
            for (source, failed) in th {
                match failed.as_bool() {
                    // The export's flag is true when the threshold FAILED (see the module docs).
                    Some(failed) => m.thresholds.push(Threshold { source: source.clone(), ok: !failed }),
                    None => ctx.warn(format!("{path}.thresholds.{source}"), "is not true or false; left out"),
                }
            }
        }
        if m.get("passes").is_some() || m.get("fails").is_some() {
            rename(&mut m, "value", "rate");
        }
        m.infer_kind();
        s.metrics.push(m);
    }
    if let Some(g) = root.get("root_group") {
        walk_group(ctx, g, "root_group", &mut s.checks);
    }
    // The export does not state the test's duration; a counter's count ÷ rate gives it.
    for counter in ["iterations", "http_reqs"] {
        let m = s.metrics.iter().find(|m| m.name == counter && m.tags.is_empty());
        if let Some((c, r)) = m.and_then(|m| Some((m.get("count")?, m.get("rate")?))).filter(|(_, r)| *r > 0.0) {
            s.duration_ms = Some(c / r * 1000.0);
            s.notes.push(format!(
                "The test's duration is derived from {counter}: count ÷ rate (the export does not state it)."
            ));
            break;
        }
    }
    s.notes.push("Read from k6's legacy --summary-export file: percentiles are k6's (linear interpolation between the closest ranks).".into());
    to_run(ctx, s, "k6 summary export")
}

fn rename(m: &mut Metric, from: &str, to: &str) {
    if m.get(to).is_none() {
        for (k, _) in m.values.iter_mut().filter(|(k, _)| k == from) {
            *k = to.to_string();
        }
    }
}

/// The numeric entries of an object; other values (but `skip`) are warned about.
fn numbers(ctx: &mut Ctx, path: &str, obj: &Map<String, Value>, skip: &[&str]) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (k, v) in obj {
        match v.as_f64() {
            Some(x) => out.push((k.clone(), x)),
            None if skip.contains(&k.as_str()) => {}
            None => ctx.warn(format!("{path}.{k}"), format!("{} is not a number; left out", short(v))),
        }
    }
    out
}

/// One entry of a `metrics` object: its JSON path, object, metric name and tags.
type Entry<'m> = (String, &'m Map<String, Value>, String, Vec<(String, String)>);

/// The entries of a `metrics` object; those that are not objects are warned about.
fn entries<'m>(ctx: &mut Ctx, metrics: &'m Map<String, Value>) -> Vec<Entry<'m>> {
    let mut out = Vec::new();
    for (key, v) in metrics {
        let path = format!("metrics.{key}");
        match v.as_object() {
            Some(obj) => {
                let (name, tags) = parse_key(key);
                out.push((path, obj, name, tags));
            }
            None => ctx.warn(path, "is not an object; left out"),
        }
    }
    out
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

fn from_handle_summary(ctx: &mut Ctx, root: &Map<String, Value>, metrics: &Map<String, Value>) -> Summary {
    let mut s = Summary::default();
    for (path, obj, name, tags) in entries(ctx, metrics) {
        let kind = obj.get("type").and_then(Value::as_str).and_then(Kind::parse);
        let time = obj.get("contains").and_then(Value::as_str).map(|c| c == "time");
        let values = match obj.get("values").and_then(Value::as_object) {
            Some(vals) => numbers(ctx, &format!("{path}.values"), vals, &[]),
            None => {
                ctx.warn(format!("{path}.values"), "is missing or not an object; the metric is left out");
                continue;
            }
        };
        let mut m = Metric { name, tags, kind, time, values, ..Default::default() };
        if let Some(th) = obj.get("thresholds").and_then(Value::as_object) {
            for (source, t) in th {
                match t.get("ok").and_then(Value::as_bool) {
                    Some(ok) => m.thresholds.push(Threshold { source: source.clone(), ok }),
                    None => {
                        ctx.warn(format!("{path}.thresholds.{source}.ok"), "is missing or not true/false; left out")
                    }
                }
            }
        }
        m.infer_kind();
        s.metrics.push(m);
    }
    if let Some(g) = root.get("root_group") {
        walk_group(ctx, g, "root_group", &mut s.checks);
    }
    s.duration_ms =
        root.get("state").and_then(|st| st.get("testRunDurationMs")).and_then(Value::as_f64).filter(|d| *d >= 0.0);
    let stats = root.get("options").and_then(|o| o.get("summaryTrendStats")).and_then(Value::as_array);
    if let Some(stats) = stats {
        let list: Vec<&str> = stats.iter().filter_map(Value::as_str).collect();
        s.notes.push(format!("Read from k6's handleSummary() data; trend stats {}; percentiles are k6's (linear interpolation between the closest ranks).", list.join(", ")));
    }
    s
}

fn from_machine_readable(ctx: &mut Ctx, root: &Map<String, Value>, results: &Map<String, Value>) -> Summary {
    let mut s = Summary::default();
    let list = results.get("metrics").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let checks = results
        .get("checks")
        .and_then(|c| c.get("metrics"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, v) in list.iter().chain(checks).enumerate() {
        let path = format!("results.metrics[{i}]");
        let Some(key) = v.get("name").and_then(Value::as_str) else {
            ctx.warn(path, "has no name; left out");
            continue;
        };
        let (name, tags) = parse_key(key);
        let mut values = match v.get("values").and_then(Value::as_object) {
            Some(vals) => numbers(ctx, &format!("{path}.values"), vals, &[]),
            None => {
                ctx.warn(format!("{path}.values"), "is missing or not an object; the metric is left out");
                continue;
            }
        };
        // `p90` as JavaScript sees the schema's `p(90)`.
        for (k, _) in values.iter_mut() {
            if let Some(rank) =
                k.strip_prefix('p').filter(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            {
                *k = format!("p({rank})");
            }
        }
        let name = if name == "checks_succeeded" { "checks".to_string() } else { name };
        let mut m = Metric {
            name,
            tags,
            kind: v.get("type").and_then(Value::as_str).and_then(Kind::parse),
            time: v.get("contains").and_then(Value::as_str).map(|c| c == "time"),
            values,
            ..Default::default()
        };
        if m.kind == Some(Kind::Rate) {
            if let (Some(matches), Some(total)) = (m.get("matches"), m.get("total")) {
                m.values.push(("passes".into(), matches));
                m.values.push(("fails".into(), (total - matches).max(0.0)));
            }
        }
        m.infer_kind();
        s.metrics.push(m);
    }
    let check_results = results
        .get("checks")
        .and_then(|c| c.get("results"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, c) in check_results.iter().enumerate() {
        match (c.get("name").and_then(Value::as_str), c.get("fails").and_then(Value::as_u64)) {
            (Some(name), Some(fails)) => {
                s.checks.push(Check { path: name.to_string(), passes: c.get("passes").and_then(Value::as_u64), fails })
            }
            _ => ctx.warn(format!("results.checks.results[{i}]"), "lacks a name or a whole-number fails; left out"),
        }
    }
    s.duration_ms = root
        .get("config")
        .and_then(|c| c.get("duration"))
        .and_then(Value::as_f64)
        .filter(|d| *d >= 0.0)
        .map(|d| d * 1000.0);
    let metadata = |a: &str, b: &str| root.get("metadata").and_then(|m| m.get(a).or_else(|| m.get(b)));
    s.end_ms =
        metadata("generated_at", "generatedAt").and_then(Value::as_str).and_then(civil::parse_datetime).map(|(t, _)| t);
    let version = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("?").to_string();
    s.notes.push(format!(
        "Read from k6's machine-readable summary (schema {}, k6 {}); the end time is when the summary was written; percentiles are k6's (linear interpolation between the closest ranks).",
        version(root.get("version")),
        version(metadata("k6_version", "k6Version"))
    ));
    s
}

/// Collects the checks of a group and its sub-groups (arrays in handleSummary data, objects keyed
/// by name in the legacy export).
fn walk_group(ctx: &mut Ctx, g: &Value, path: &str, out: &mut Vec<Check>) {
    let items = |v: Option<&Value>| -> Vec<Value> {
        match v {
            Some(Value::Array(a)) => a.clone(),
            Some(Value::Object(o)) => o.values().cloned().collect(),
            _ => Vec::new(),
        }
    };
    for (i, c) in items(g.get("checks")).iter().enumerate() {
        let name = c
            .get("path")
            .and_then(Value::as_str)
            .map(|p| p.trim_start_matches("::"))
            .or_else(|| c.get("name").and_then(Value::as_str));
        match (name, c.get("fails").and_then(Value::as_u64)) {
            (Some(name), Some(fails)) => {
                out.push(Check { path: name.to_string(), passes: c.get("passes").and_then(Value::as_u64), fails })
            }
            _ => ctx.warn(format!("{path}.checks[{i}]"), "lacks a name or a whole-number fails; left out"),
        }
    }
    for (i, sub) in items(g.get("groups")).iter().enumerate() {
        walk_group(ctx, sub, &format!("{path}.groups[{i}]"), out);
    }
}

#[cfg(test)]
mod tests;
