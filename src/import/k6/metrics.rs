//! k6 metrics as its end-of-test summaries report them (summary JSON, `--summary-export`, console
//! text), and how they become a runlens run. Metric names and types:
//! https://grafana.com/docs/k6/latest/using-k6/metrics/reference/ ; sub-metric selectors
//! `name{tag:value,…}`: https://grafana.com/docs/k6/latest/using-k6/thresholds/ (parsed as k6's
//! `metrics.ParseMetricName` does: tags split on `,`, each on its first `:`).
//!
//! Mapping: `http_req_duration` is the run total (KPIs); its tagged sub-metrics (`{name:x}`,
//! `{url:…}`, any tag but `expected_response` alone) and custom trends are transactions; built-in
//! rates and counters become the KPIs the raw importers also produce (Samples, Error rate,
//! Throughput, …); custom rates, counters and gauges become KPIs named after the metric.

use crate::bundle::{Direction, ErrorEntry, Kpi, LoadError, LoadErrorKind, Run, RunStatus, Transaction, Unit};
use crate::import::{common::names, Ctx};

/// A k6 metric type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Trend,
    Rate,
    Counter,
    Gauge,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "trend" => Some(Kind::Trend),
            "rate" => Some(Kind::Rate),
            "counter" => Some(Kind::Counter),
            "gauge" => Some(Kind::Gauge),
            _ => None,
        }
    }
}

/// One metric or sub-metric of a summary, values normalised: rates carry `rate`, `passes`,
/// `fails`; times are milliseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metric {
    pub name: String,
    pub tags: Vec<(String, String)>,
    pub kind: Option<Kind>,
    /// `Some(true)` when k6 says the values are times (`contains: "time"`); `None` when the file
    /// does not say (the legacy export).
    pub time: Option<bool>,
    pub values: Vec<(String, f64)>,
    pub thresholds: Vec<Threshold>,
}

impl Metric {
    pub fn get(&self, key: &str) -> Option<f64> {
        self.values.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The type from the values where the file does not state it (legacy export, console).
    pub fn infer_kind(&mut self) {
        if self.kind.is_some() {
            return;
        }
        let has = |k: &str| self.get(k).is_some();
        self.kind = if has("passes") || has("fails") {
            Some(Kind::Rate)
        } else if has("value") && has("min") && has("max") && !has("avg") {
            Some(Kind::Gauge)
        } else if has("rate") && has("count") && !has("avg") {
            Some(Kind::Counter)
        } else if self
            .values
            .iter()
            .any(|(k, _)| matches!(k.as_str(), "avg" | "med" | "min" | "max") || k.starts_with("p("))
        {
            Some(Kind::Trend)
        } else {
            None
        };
    }
}

/// A threshold and whether it held.
#[derive(Debug, Clone, PartialEq)]
pub struct Threshold {
    pub source: String,
    pub ok: bool,
}

/// A check: its path (`group::check`) and counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub path: String,
    pub passes: Option<u64>,
    pub fails: u64,
}

/// Everything a summary says, in one shape for every k6 summary format.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub metrics: Vec<Metric>,
    pub checks: Vec<Check>,
    pub duration_ms: Option<f64>,
    /// When the summary was written (≈ the end of the test), epoch ms.
    pub end_ms: Option<i64>,
    pub notes: Vec<String>,
}

/// Splits `http_req_duration{name:x,method:GET}` into the name and its tags.
pub fn parse_key(key: &str) -> (String, Vec<(String, String)>) {
    match key.split_once('{') {
        Some((name, rest)) if rest.ends_with('}') => {
            let inner = &rest[..rest.len() - 1];
            let tags = inner
                .split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|p| match p.split_once(':') {
                    Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                    None => (p.trim().to_string(), String::new()),
                })
                .collect();
            (name.trim().to_string(), tags)
        }
        _ => (key.trim().to_string(), Vec::new()),
    }
}

/// A count from a float that must be a non-negative whole number within f64's exact range.
pub fn count(v: f64) -> Option<u64> {
    (v.is_finite() && (0.0..=9.007_199_254_740_992e15).contains(&v)).then(|| v.round() as u64)
}

/// k6's built-in metrics (https://grafana.com/docs/k6/latest/using-k6/metrics/reference/): none of
/// them is a transaction except through `http_req_duration`'s sub-metrics.
pub fn is_builtin(name: &str) -> bool {
    const BUILTIN: [&str; 30] = [
        "vus",
        "vus_max",
        "iterations",
        "iteration_duration",
        "dropped_iterations",
        "data_received",
        "data_sent",
        "checks",
        "http_reqs",
        "http_req_blocked",
        "http_req_connecting",
        "http_req_duration",
        "http_req_failed",
        "http_req_receiving",
        "http_req_sending",
        "http_req_tls_handshaking",
        "http_req_waiting",
        "ws_connecting",
        "ws_msgs_received",
        "ws_msgs_sent",
        "ws_ping",
        "ws_session_duration",
        "ws_sessions",
        "grpc_req_duration",
        "grpc_streams",
        "grpc_streams_msgs_received",
        "grpc_streams_msgs_sent",
        "group_duration",
        "checks_total",
        "checks_succeeded",
    ];
    BUILTIN.contains(&name) || name.starts_with("browser_") || name == "checks_failed"
}

/// The transaction name of a tagged sub-metric: the `name` (else `url`) tag's value, then the
/// other tags in braces; a custom metric's name comes first.
pub fn transaction_name(metric: Option<&str>, tags: &[(String, String)]) -> String {
    let primary = tags.iter().find(|(k, _)| k == "name").or_else(|| tags.iter().find(|(k, _)| k == "url"));
    let rest: Vec<String> =
        tags.iter().filter(|t| primary.is_none_or(|p| !std::ptr::eq(*t, p))).map(|(k, v)| format!("{k}:{v}")).collect();
    let mut parts: Vec<String> = Vec::new();
    if let Some(m) = metric {
        parts.push(m.to_string());
    }
    if let Some((_, v)) = primary {
        parts.push(v.clone());
    }
    if !rest.is_empty() {
        parts.push(format!("{{{}}}", rest.join(",")));
    }
    parts.join(" ")
}

/// Whether a higher value of a custom rate or counter is good, from the words of its name.
pub fn direction_of(name: &str) -> Direction {
    let words: Vec<String> =
        name.to_ascii_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).map(str::to_string).collect();
    let bad = [
        "err", "error", "errors", "fail", "failed", "failure", "failures", "timeout", "timeouts", "dropped",
        "rejected", "retries",
    ];
    let good = ["ok", "success", "successes", "succeeded", "pass", "passed", "passes", "hit", "hits", "completed"];
    if words.iter().any(|w| bad.contains(&w.as_str())) {
        Direction::LowerIsBetter
    } else if words.iter().any(|w| good.contains(&w.as_str())) {
        Direction::HigherIsBetter
    } else {
        Direction::Neutral
    }
}

/// A transaction from a trend's values (k6 stat names: avg, min, med, max, count, p(N)).
pub fn trend_transaction(m: &Metric, name: String) -> Transaction {
    let mut t = Transaction { name, ..Default::default() };
    for (k, v) in &m.values {
        match k.as_str() {
            "avg" => t.mean_ms = Some(*v),
            "min" => t.min_ms = Some(*v),
            "max" => t.max_ms = Some(*v),
            "med" => t.median_ms = Some(*v),
            "count" => t.samples = count(*v),
            p => {
                let Some(rank) = p.strip_prefix("p(").and_then(|r| r.strip_suffix(')')) else { continue };
                match rank.parse::<f64>() {
                    Ok(50.0) => t.median_ms = t.median_ms.or(Some(*v)),
                    Ok(90.0) => t.p90_ms = Some(*v),
                    Ok(95.0) => t.p95_ms = Some(*v),
                    Ok(99.0) => t.p99_ms = Some(*v),
                    Ok(r) if r > 0.0 && r <= 100.0 => {
                        t.percentiles.insert(format!("p{rank}"), *v);
                    }
                    _ => {}
                }
            }
        }
    }
    if m.time == Some(false) {
        t.note = Some("k6 does not mark this trend as a time (contains: default); values are as recorded".into());
    }
    t
}

fn kpi(name: &str, value: f64, unit: Unit, direction: Direction, note: Option<&str>) -> Kpi {
    Kpi { name: name.into(), value, unit, direction: Some(direction), note: note.map(str::to_string) }
}

/// The run of a summary.
pub fn to_run(ctx: &mut Ctx, mut s: Summary, what: &str) -> Result<Run, LoadError> {
    // Up to ~300 years; anything else is not a test's duration.
    s.duration_ms = s.duration_ms.filter(|d| (0.0..1e13).contains(d));
    if s.metrics.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, format!("the {what} has no metrics")));
    }
    let totals = Totals::of(&s);
    let mut kpis = builtin_kpis(&s, &totals);
    let mut transactions = Vec::new();
    for m in &s.metrics {
        if m.kind == Some(Kind::Trend) && is_request_sub(m) {
            let mut t = trend_transaction(m, transaction_name(None, &m.tags));
            t.errors = tagged(&s, "http_req_failed", &m.tags).and_then(|f| f.get("passes")).and_then(count);
            t.throughput_run_per_s = tagged(&s, "http_reqs", &m.tags).and_then(|r| r.get("rate"));
            t.samples =
                t.samples.or_else(|| tagged(&s, "http_reqs", &m.tags).and_then(|r| r.get("count")).and_then(count));
            transactions.push(t);
        } else if !is_builtin(&m.name) {
            custom_metric(ctx, m, &mut transactions, &mut kpis);
        }
    }
    // Without a per-request breakdown the total is the one request transaction.
    if !s.metrics.iter().any(is_request_sub) {
        if let Some(d) = untagged(&s, "http_req_duration") {
            let mut t = trend_transaction(d, "All requests".into());
            t.errors = untagged(&s, "http_req_failed").and_then(|f| f.get("passes")).and_then(count);
            t.throughput_run_per_s = totals.throughput;
            t.samples = t.samples.or_else(|| totals.http_count.and_then(count));
            t.note = Some("k6 http_req_duration of every request (the file has no per-request sub-metrics)".into());
            transactions.insert(0, t);
        }
    }
    Ok(run_of(ctx.source, s, transactions, kpis, totals.vus_max))
}

/// A metric by name with no tags (the whole test's).
fn untagged<'s>(s: &'s Summary, name: &str) -> Option<&'s Metric> {
    s.metrics.iter().find(|m| m.name == name && m.tags.is_empty())
}

/// A metric by name and tags (a sub-metric).
fn tagged<'s>(s: &'s Summary, name: &str, tags: &[(String, String)]) -> Option<&'s Metric> {
    s.metrics.iter().find(|m| m.name == name && m.tags == tags)
}

/// The whole test's figures several parts of a run need.
struct Totals {
    /// HTTP requests per second, stated or over the test's duration.
    throughput: Option<f64>,
    http_count: Option<f64>,
    secs: Option<f64>,
    vus_max: Option<f64>,
}

impl Totals {
    fn of(s: &Summary) -> Totals {
        let http_rate = untagged(s, "http_reqs").and_then(|m| m.get("rate"));
        let http_count = untagged(s, "http_reqs").and_then(|m| m.get("count"));
        let secs = s.duration_ms.filter(|d| *d > 0.0).map(|d| d / 1000.0);
        Totals {
            throughput: http_rate.or_else(|| Some(http_count? / secs?)),
            http_count,
            secs,
            vus_max: untagged(s, "vus_max").and_then(|m| m.get("max").or(m.get("value"))),
        }
    }
}

/// The KPIs of k6's built-in metrics, in the order a report lists them.
fn builtin_kpis(s: &Summary, totals: &Totals) -> Vec<Kpi> {
    let mut kpis = Vec::new();
    let duration = untagged(s, "http_req_duration");
    if let Some(n) =
        untagged(s, "http_reqs").and_then(|m| m.get("count")).or_else(|| duration.and_then(|d| d.get("count")))
    {
        kpis.push(kpi("Samples", n, Unit::Count, Direction::Neutral, Some("HTTP requests")));
    }
    if let Some(r) = untagged(s, "http_req_failed").and_then(|m| m.get("rate")) {
        kpis.push(kpi("Error rate", r * 100.0, Unit::Percent, Direction::LowerIsBetter, Some("k6 http_req_failed")));
    }
    if let Some(t) = totals.throughput {
        kpis.push(kpi(
            "Throughput",
            t,
            Unit::PerSecond,
            Direction::HigherIsBetter,
            Some("k6 http_reqs per second over the whole test"),
        ));
    }
    if let Some(d) = duration {
        if let Some(v) = d.get("avg") {
            kpis.push(kpi("Mean response time", v, Unit::Ms, Direction::LowerIsBetter, Some("k6 http_req_duration")));
        }
        if let Some(v) = d.get("p(95)") {
            kpis.push(kpi(
                "p95 response time",
                v,
                Unit::Ms,
                Direction::LowerIsBetter,
                Some("k6 http_req_duration, k6's percentile (linear interpolation)"),
            ));
        }
    }
    if let Some(m) = untagged(s, "iterations") {
        if let Some(n) = m.get("count") {
            kpis.push(kpi("Iterations", n, Unit::Count, Direction::Neutral, None));
        }
        if let Some(r) = m.get("rate").or_else(|| Some(m.get("count")? / totals.secs?)) {
            kpis.push(kpi("Iteration rate", r, Unit::PerSecond, Direction::HigherIsBetter, None));
        }
    }
    if let Some(v) = untagged(s, "iteration_duration").and_then(|m| m.get("avg")) {
        kpis.push(kpi("Mean iteration duration", v, Unit::Ms, Direction::LowerIsBetter, None));
    }
    if let Some(r) = untagged(s, "checks").and_then(|m| m.get("rate")) {
        kpis.push(kpi("Checks passed", r * 100.0, Unit::Percent, Direction::HigherIsBetter, None));
    }
    if let Some(v) = totals.vus_max {
        kpis.push(kpi("Max VUs", v, Unit::Count, Direction::Neutral, Some("k6 vus_max")));
    }
    for (metric, label) in [("data_received", "Data received"), ("data_sent", "Data sent")] {
        if let Some(v) = untagged(s, metric).and_then(|m| m.get("count")) {
            kpis.push(kpi(label, v, Unit::Bytes, Direction::Neutral, None));
        }
    }
    if let Some(v) = untagged(s, "dropped_iterations").and_then(|m| m.get("count")) {
        kpis.push(kpi("Dropped iterations", v, Unit::Count, Direction::LowerIsBetter, None));
    }
    kpis
}

/// A metric the test script defined: a trend is a transaction, a rate, counter or gauge a KPI.
fn custom_metric(ctx: &mut Ctx, m: &Metric, transactions: &mut Vec<Transaction>, kpis: &mut Vec<Kpi>) {
    let name = transaction_name(Some(&m.name), &m.tags);
    let v = |k: &str| m.get(k);
    match m.kind {
        Some(Kind::Trend) => transactions.push(trend_transaction(m, name)),
        Some(Kind::Rate) => {
            if let Some(r) = v("rate") {
                kpis.push(kpi(
                    &name,
                    r * 100.0,
                    Unit::Percent,
                    direction_of(&m.name),
                    Some("custom rate: share of non-zero values"),
                ));
            }
        }
        Some(Kind::Counter) => {
            if let Some(c) = v("count") {
                kpis.push(kpi(&name, c, Unit::Count, direction_of(&m.name), Some("custom counter")));
            }
        }
        Some(Kind::Gauge) => {
            if let Some(g) = v("value") {
                kpis.push(kpi(&name, g, Unit::None, Direction::Neutral, Some("custom gauge: last value")));
            }
        }
        None => {
            ctx.warn(format!("metrics.{}", m.name), "the metric's type cannot be told from its values; it is left out")
        }
    }
}

/// The run of a summary named `name`: failed checks as errors, crossed thresholds as its status,
/// every threshold as a note.
fn run_of(name: &str, s: Summary, transactions: Vec<Transaction>, kpis: Vec<Kpi>, vus_max: Option<f64>) -> Run {
    let errors: Vec<ErrorEntry> = s
        .checks
        .iter()
        .filter(|c| c.fails > 0)
        .map(|c| ErrorEntry {
            message: format!("check failed: {}", c.path),
            count: Some(c.fails),
            ..Default::default()
        })
        .collect();
    let crossed: Vec<String> = s
        .metrics
        .iter()
        .flat_map(|m| m.thresholds.iter().filter(|t| !t.ok).map(move |t| format!("{} {}", key_of(m), t.source)))
        .collect();
    let mut run = Run {
        id: names::run_id(name),
        label: names::file_stem(name).to_string(),
        duration_s: s.duration_ms.map(|d| d / 1000.0),
        end: s.end_ms.map(crate::import::common::civil::iso_utc),
        start: match (s.end_ms, s.duration_ms) {
            (Some(e), Some(d)) => Some(crate::import::common::civil::iso_utc(e - d.round() as i64)),
            _ => None,
        },
        status: if crossed.is_empty() { RunStatus::Completed } else { RunStatus::Failed },
        status_reason: (!crossed.is_empty()).then(|| format!("k6 thresholds crossed: {}", crossed.join("; "))),
        transactions,
        kpis,
        errors,
        notes: s.notes,
        ..Default::default()
    };
    for m in &s.metrics {
        for t in &m.thresholds {
            run.notes.push(format!("threshold {} {} {}", if t.ok { "✓" } else { "✗" }, key_of(m), t.source));
        }
    }
    run.dimensions.extend(names::suggested_dimensions(name));
    if let Some(v) = vus_max.and_then(count) {
        run.dimensions.insert("users".into(), v.to_string());
    }
    run
}

/// A tagged sub-metric of `http_req_duration` other than the `expected_response` split.
fn is_request_sub(m: &Metric) -> bool {
    m.name == "http_req_duration" && !m.tags.is_empty() && !(m.tags.len() == 1 && m.tags[0].0 == "expected_response")
}

/// `name{tag:value,…}` as k6 writes it.
pub fn key_of(m: &Metric) -> String {
    if m.tags.is_empty() {
        return m.name.clone();
    }
    let tags: Vec<String> = m.tags.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    format!("{}{{{}}}", m.name, tags.join(","))
}
