//! k6's raw metric points (`--out csv`, `--out json`; https://grafana.com/docs/k6/latest/results-output/real-time/)
//! aggregated exactly, like a JTL: every `http_req_duration` point is one request, counted per
//! `name` tag (k6 sets it to the URL unless the script names the request; the `url` tag is the
//! fallback) with `samples::Values::add_f64` (k6 durations are float milliseconds), so means are
//! exact and percentiles nearest-rank over every value. The readers (`k6_csv.rs`, `k6_json.rs`)
//! stream the file and hand each point to `Points::add`; nothing but the aggregates is kept.
//!
//! Failures: a request failed when its `http_req_failed` point is 1 (k6 ≥ 0.31 writes one per
//! request with the same tags); files without that metric fall back to the
//! `expected_response:false` tag, else to status ≥ 400, status 0 or an `error` tag. Failures are
//! errors by cause (`common::causes`): the request, its status (k6's `error_code` when the status
//! is 0) and its `error` tag, at the point's time. A point's
//! time is when k6 emitted it, the end of the request (k6 lib/netext/httpext/tracer.go uses the
//! trail's EndTime), so a request's start is its time minus its duration.

use crate::bundle::{Direction, ErrorEntry, Kpi, LoadError, LoadErrorKind, Run, Transaction, Unit};
use crate::import::common::causes::Causes;
use crate::import::common::samples::{run_kpis, timeline_of, Aggregator, LabelStats, Seconds};
use crate::import::k6::metrics::{direction_of, is_builtin, Kind};
use crate::import::{common::civil, common::names, Ctx};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// The fields of one point that matter here (tags absent from a file are `None`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Point<'a> {
    pub metric: &'a str,
    pub time_ms: Option<i64>,
    pub value: f64,
    pub name: Option<&'a str>,
    pub url: Option<&'a str>,
    pub status: Option<&'a str>,
    pub expected_response: Option<&'a str>,
    pub error: Option<&'a str>,
    pub error_code: Option<&'a str>,
    pub check: Option<&'a str>,
    pub group: Option<&'a str>,
}

/// Milliseconds since the epoch from a k6 timestamp: Unix seconds (the CSV default), milli-,
/// micro- or nanoseconds (told apart by their number of digits), or RFC 3339.
pub fn parse_time(s: &str) -> Option<i64> {
    parse_time_any(s).filter(|t| civil::plausible(*t))
}

fn parse_time_any(s: &str) -> Option<i64> {
    let s = s.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let v: i64 = s.parse().ok()?;
        return Some(match s.len() {
            0..=11 => v.checked_mul(1000)?,
            12..=14 => v,
            15..=17 => v / 1000,
            _ => v / 1_000_000,
        });
    }
    civil::parse_datetime(s).map(|(t, _)| t)
}

#[derive(Debug, Default, Clone)]
struct Failures {
    /// `http_req_failed` points, and those with value 1.
    metric_points: u64,
    metric_failed: u64,
    /// Duration points whose tags say the request failed.
    by_tags: u64,
    /// The failed `http_req_failed` points per second of their request's start.
    metric_seconds: Seconds,
    /// The time (its end) and start of the label's last duration point: a failure point with the
    /// same time is that request's.
    last_request: (i64, i64),
}

/// What the points of one file add up to.
#[derive(Default)]
pub struct Points {
    requests: Aggregator,
    failures: Vec<Failures>,
    custom: Aggregator,
    causes_by_metric: Causes,
    causes_by_tags: Causes,
    checks: Vec<(String, u64, u64)>,
    check_index: FxHashMap<String, usize>,
    iterations: f64,
    iteration_ms: (u64, f64),
    vus_max: Option<f64>,
    counters: BTreeMap<&'static str, f64>,
    /// Custom metrics' types and whether they are times, from `--out json`'s Metric lines.
    pub declared: FxHashMap<String, (Kind, bool)>,
    custom_rates: BTreeMap<String, (u64, u64)>,
    custom_counters: BTreeMap<String, f64>,
    custom_gauges: BTreeMap<String, f64>,
    undeclared: BTreeMap<String, u64>,
    window: (Option<i64>, Option<i64>),
    pub points: u64,
}

fn failed_by_tags(p: &Point) -> bool {
    match p.expected_response {
        Some(e) => e == "false",
        None => {
            p.error.is_some_and(|e| !e.is_empty())
                || p.status.and_then(|s| s.parse::<u32>().ok()).is_some_and(|s| s == 0 || s >= 400)
        }
    }
}

/// Counts a failed request of label `i` by cause: its code the HTTP status (k6's `error_code`
/// when the status is 0 or absent), its message the `error` tag.
fn add_cause(causes: &mut Causes, label: &str, p: &Point) {
    let status = p.status.filter(|s| !s.is_empty() && *s != "0");
    let code = status.or(p.error_code.filter(|c| !c.is_empty())).unwrap_or("");
    let message = p.error.unwrap_or("");
    causes.add(label, code.as_bytes(), message.as_bytes(), p.time_ms, 1);
}

/// Adds one float duration ending at `end_ms` to a label; `timeline`: whether the label has a
/// timeline (requests), and whether this request failed by its tags. Returns the start, if known.
fn add_duration(stats: &mut LabelStats, ms: f64, end_ms: Option<i64>, timeline: Option<bool>) -> Option<i64> {
    stats.elapsed.add_f64(ms);
    let end = end_ms?;
    let start = end.saturating_sub(ms.round() as i64);
    if let Some(failed) = timeline {
        stats.seconds.add_f64(start, ms, failed);
    }
    stats.first_start_ms = Some(stats.first_start_ms.map_or(start, |f| f.min(start)));
    stats.last_end_ms = Some(stats.last_end_ms.map_or(end, |l| l.max(end)));
    Some(start)
}

impl Points {
    fn request_label(&mut self, p: &Point, seen: u64) -> usize {
        let raw = p.name.filter(|n| !n.is_empty()).or(p.url).unwrap_or("");
        let i = self.requests.label_id(raw.as_bytes(), seen, || raw.to_string());
        if i >= self.failures.len() {
            self.failures.resize(i + 1, Failures::default());
        }
        i
    }

    /// Adds a point; `seen` orders labels (a line or record number).
    pub fn add(&mut self, ctx: &mut Ctx, seen: u64, p: &Point) {
        let trend = p.metric == "http_req_duration"
            || !is_builtin(p.metric) && self.declared.get(p.metric).is_some_and(|d| d.0 == Kind::Trend);
        // Up to ~31 years: anything longer is not a duration k6 measured.
        if trend && !(p.value.is_finite() && (0.0..1e12).contains(&p.value)) {
            ctx.warn(
                format!("line {seen}"),
                format!("{} value {} is not a duration; the point is left out", p.metric, p.value),
            );
            return;
        }
        self.points += 1;
        if let Some(t) = p.time_ms {
            self.window.0 = Some(self.window.0.map_or(t, |w| w.min(t)));
            self.window.1 = Some(self.window.1.map_or(t, |w| w.max(t)));
        }
        match p.metric {
            "http_req_duration" => {
                let i = self.request_label(p, seen);
                let failed = failed_by_tags(p);
                if let (Some(start), Some(end)) =
                    (add_duration(&mut self.requests.labels[i], p.value, p.time_ms, Some(failed)), p.time_ms)
                {
                    self.failures[i].last_request = (end, start);
                }
                if failed {
                    self.failures[i].by_tags += 1;
                    add_cause(&mut self.causes_by_tags, &self.requests.labels[i].name, p);
                }
            }
            "http_req_failed" => {
                let i = self.request_label(p, seen);
                self.failures[i].metric_points += 1;
                if p.value != 0.0 {
                    let f = &mut self.failures[i];
                    if let Some(t) = p.time_ms {
                        f.metric_seconds.add_errors(if t == f.last_request.0 { f.last_request.1 } else { t }, 1);
                    }
                    f.metric_failed += 1;
                    add_cause(&mut self.causes_by_metric, &self.requests.labels[i].name, p);
                }
            }
            "checks" => {
                let check = p.check.unwrap_or("");
                let path = match p.group.map(|g| g.trim_start_matches("::")).filter(|g| !g.is_empty()) {
                    Some(g) => format!("{g}::{check}"),
                    None => check.to_string(),
                };
                let n = self.checks.len();
                let i = *self.check_index.entry(path.clone()).or_insert(n);
                if i == n {
                    self.checks.push((path, 0, 0));
                }
                if p.value != 0.0 {
                    self.checks[i].1 += 1
                } else {
                    self.checks[i].2 += 1
                }
            }
            "iterations" => self.iterations += p.value,
            "iteration_duration" => self.iteration_ms = (self.iteration_ms.0 + 1, self.iteration_ms.1 + p.value),
            "vus" => {
                if let (Some(t), Some(n)) = (p.time_ms, crate::import::k6::metrics::count(p.value)) {
                    self.requests.users.add(t, n);
                }
            }
            "vus_max" => self.vus_max = Some(self.vus_max.map_or(p.value, |v| v.max(p.value))),
            "data_received" => *self.counters.entry("data_received").or_insert(0.0) += p.value,
            "data_sent" => *self.counters.entry("data_sent").or_insert(0.0) += p.value,
            "dropped_iterations" => *self.counters.entry("dropped_iterations").or_insert(0.0) += p.value,
            m if is_builtin(m) => {}
            m => match self.declared.get(m).map(|d| d.0) {
                Some(Kind::Trend) => {
                    let i = self.custom.label_id(m.as_bytes(), seen, || m.to_string());
                    add_duration(&mut self.custom.labels[i], p.value, p.time_ms, None);
                }
                Some(Kind::Rate) => {
                    let r = self.custom_rates.entry(m.to_string()).or_insert((0, 0));
                    *r = (r.0 + u64::from(p.value != 0.0), r.1 + 1);
                }
                Some(Kind::Counter) => *self.custom_counters.entry(m.to_string()).or_insert(0.0) += p.value,
                Some(Kind::Gauge) => {
                    self.custom_gauges.insert(m.to_string(), p.value);
                }
                None => *self.undeclared.entry(m.to_string()).or_insert(0) += 1,
            },
        }
    }

    /// The run of the whole file.
    pub fn finish(mut self, ctx: &mut Ctx, what: &str) -> Result<Run, LoadError> {
        if self.requests.labels.iter().all(|l| l.samples() == 0) && self.custom.labels.is_empty() {
            return Err(ctx.error(
                LoadErrorKind::Empty,
                None,
                format!("the {what} file has no http_req_duration points (no HTTP requests) and no custom trends"),
            ));
        }
        let by_metric = self.failures.iter().any(|f| f.metric_points > 0);
        for (l, f) in self.requests.labels.iter_mut().zip(&self.failures) {
            l.errors = if f.metric_points > 0 { f.metric_failed } else { f.by_tags };
            if by_metric {
                l.seconds.take_errors_from(&f.metric_seconds);
            }
        }
        let window = self.requests.run_window();
        let transactions = self.transactions(window);
        let mut kpis = run_kpis(&self.requests.total(), window);
        self.add_kpis(&mut kpis);
        let start = [window.0, self.window.0].into_iter().flatten().min();
        let errors = self.error_entries(by_metric, start.unwrap_or(0));
        if let Some(w) = (if by_metric { &self.causes_by_metric } else { &self.causes_by_tags }).warning() {
            ctx.warn("errors", w);
        }
        let end = [window.1, self.window.1].into_iter().flatten().max();
        let name = ctx.source;
        let mut run = Run {
            id: names::run_id(name),
            label: names::file_stem(name).to_string(),
            start: start.map(civil::iso_utc),
            end: end.map(civil::iso_utc),
            duration_s: match (start, end) {
                (Some(s), Some(e)) if e >= s => Some((e - s) as f64 / 1000.0),
                _ => None,
            },
            transactions,
            kpis,
            errors,
            timeline: (if by_metric { &self.causes_by_metric } else { &self.causes_by_tags })
                .with_timeline(self.timeline()),
            ..Default::default()
        };
        let requests: u64 = self.requests.labels.iter().map(LabelStats::samples).sum();
        run.notes.push(format!(
            "{} points read from {} ({what}), {requests} HTTP requests; percentiles are exact (nearest rank) over k6's values; failures from {}.",
            self.points,
            names::file_name(name),
            if by_metric { "http_req_failed" } else { "the expected_response/status tags (the file has no http_req_failed)" }
        ));
        if !self.undeclared.is_empty() {
            let list: Vec<String> = self.undeclared.iter().map(|(m, n)| format!("{m} ({n} points)")).collect();
            run.notes.push(format!(
                "Custom metrics whose type the file does not say are left out: {}. k6's --out json declares types.",
                list.join(", ")
            ));
        }
        run.dimensions.extend(names::suggested_dimensions(name));
        if let Some(v) = self.vus_max.and_then(crate::import::k6::metrics::count) {
            run.dimensions.insert("users".into(), v.to_string());
        }
        Ok(run)
    }

    /// The requests' timeline (custom trends have none), in the order of their transactions.
    fn timeline(&self) -> Option<crate::bundle::Timeline> {
        let mut labels: Vec<&LabelStats> = self.requests.labels.iter().filter(|l| l.samples() > 0).collect();
        labels.sort_by_key(|l| l.first_seen);
        timeline_of(labels.into_iter().map(|l| (l.name.as_str(), false, &l.seconds)), &self.requests.users)
    }

    /// The requests' transactions, then the custom trends', each in order of first appearance.
    fn transactions(&self, window: (Option<i64>, Option<i64>)) -> Vec<Transaction> {
        let mut transactions: Vec<Transaction> = Vec::new();
        for agg in [&self.requests, &self.custom] {
            let mut labels: Vec<&LabelStats> = agg.labels.iter().filter(|l| l.samples() > 0).collect();
            labels.sort_by_key(|l| l.first_seen);
            transactions.extend(labels.into_iter().map(|l| l.to_transaction(window)));
        }
        for t in transactions.iter_mut().skip(self.requests.labels.iter().filter(|l| l.samples() > 0).count()) {
            let time = self.declared.get(&t.name).is_some_and(|d| d.1);
            t.note = Some(if time {
                "custom trend".into()
            } else {
                "custom trend, not marked as a time: values are as recorded".into()
            });
        }
        transactions
    }

    /// Iterations, checks, VUs, data and the custom rates, counters and gauges, after the
    /// requests' KPIs.
    fn add_kpis(&self, kpis: &mut Vec<Kpi>) {
        let secs = match self.window {
            (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1000.0),
            _ => None,
        };
        if self.iterations > 0.0 {
            kpis.push(kpi("Iterations", self.iterations, Unit::Count, Direction::Neutral, None));
            if let Some(s) = secs {
                kpis.push(kpi(
                    "Iteration rate",
                    self.iterations / s,
                    Unit::PerSecond,
                    Direction::HigherIsBetter,
                    Some("over the first to the last point"),
                ));
            }
        }
        if self.iteration_ms.0 > 0 {
            kpis.push(kpi(
                "Mean iteration duration",
                self.iteration_ms.1 / self.iteration_ms.0 as f64,
                Unit::Ms,
                Direction::LowerIsBetter,
                None,
            ));
        }
        let (passes, total) = self.checks.iter().fold((0, 0), |(p, t), c| (p + c.1, t + c.1 + c.2));
        if total > 0 {
            kpis.push(kpi(
                "Checks passed",
                passes as f64 * 100.0 / total as f64,
                Unit::Percent,
                Direction::HigherIsBetter,
                None,
            ));
        }
        if let Some(v) = self.vus_max {
            kpis.push(kpi("Max VUs", v, Unit::Count, Direction::Neutral, Some("k6 vus_max")));
        }
        for (metric, label, unit, dir) in [
            ("data_received", "Data received", Unit::Bytes, Direction::Neutral),
            ("data_sent", "Data sent", Unit::Bytes, Direction::Neutral),
            ("dropped_iterations", "Dropped iterations", Unit::Count, Direction::LowerIsBetter),
        ] {
            if let Some(v) = self.counters.get(metric) {
                kpis.push(kpi(label, *v, unit, dir, None));
            }
        }
        for (name, (trues, n)) in &self.custom_rates {
            kpis.push(kpi(
                name,
                *trues as f64 * 100.0 / *n as f64,
                Unit::Percent,
                direction_of(name),
                Some("custom rate: share of non-zero values"),
            ));
        }
        for (name, v) in &self.custom_counters {
            kpis.push(kpi(name, *v, Unit::Count, direction_of(name), Some("custom counter")));
        }
        for (name, v) in &self.custom_gauges {
            kpis.push(kpi(name, *v, Unit::None, Direction::Neutral, Some("custom gauge: last value")));
        }
    }

    /// Failed requests by cause (most first), from `http_req_failed` or else from the tags, then
    /// the failed checks; times in seconds after `origin_ms`.
    fn error_entries(&self, by_metric: bool, origin_ms: i64) -> Vec<ErrorEntry> {
        let causes = if by_metric { &self.causes_by_metric } else { &self.causes_by_tags };
        let mut errors = causes.entries(origin_ms);
        errors.extend(self.checks.iter().filter(|c| c.2 > 0).map(|c| ErrorEntry {
            message: format!("check failed: {}", c.0),
            count: Some(c.2),
            ..Default::default()
        }));
        errors
    }
}

/// A KPI of the file.
fn kpi(name: &str, value: f64, unit: Unit, direction: Direction, note: Option<&str>) -> Kpi {
    Kpi { name: name.into(), value, unit, direction: Some(direction), note: note.map(str::to_string) }
}

#[cfg(test)]
mod tests;
