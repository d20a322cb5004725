//! k6's end-of-test summary as printed to the terminal, for when that is all a user kept
//! (https://grafana.com/docs/k6/latest/results-output/end-of-test/). Both layouts: the classic one
//! (k6 < 1.0 and `--summary-mode=legacy`: checks and groups first, then one line per metric, `✓`/`✗`
//! before thresholded metrics) and the grouped one of k6 1.x (`█ THRESHOLDS`, `█ TOTAL RESULTS`
//! with HTTP/EXECUTION/NETWORK/CUSTOM categories, and in full mode `█ SCENARIO: x` and
//! `↳ GROUP: y` sections, whose metrics become sub-metrics tagged `scenario`/`group`).
//!
//! Values are as printed, so rounded: k6's text summary (internal/js/summary.js) truncates times
//! to two decimals in their unit (`1.14s`, `663.96µs`, `1m23s`), bytes to three digits (`1.3 MB`,
//! decimal units) and rates to 0.01 %. The banner, progress lines and log lines around the
//! summary are skipped; colours (ANSI escapes) are removed.

use crate::bundle::{LoadError, LoadErrorKind, Run};
use crate::import::k6::metrics::{parse_key, to_run, Check, Kind, Metric, Summary, Threshold};
use crate::import::Head;
use crate::import::{Ctx, Lines};
use std::io::BufRead;

/// Metric names whose summary line marks a k6 console summary.
const MARKERS: [&str; 7] =
    ["http_req_duration", "http_reqs", "iterations", "iteration_duration", "vus_max", "checks_total", "data_received"];

/// A metric line: `name....: values`, or `{ tag:value }...: values` under its parent.
fn metric_line(t: &str) -> Option<(&str, &str)> {
    let dots = t.find("...")?;
    let rest = t[dots..].trim_start_matches('.');
    let values = rest.strip_prefix(':')?;
    Some((t[..dots].trim(), values.trim()))
}

/// Without a leading `✓ `/`✗ ` mark: the text and whether the mark was a pass.
fn unmark(t: &str) -> (&str, Option<bool>) {
    if let Some(r) = t.strip_prefix('✓') {
        (r.trim_start(), Some(true))
    } else if let Some(r) = t.strip_prefix('✗') {
        (r.trim_start(), Some(false))
    } else {
        (t, None)
    }
}

/// Removes ANSI escape sequences (colours) from a line.
fn strip_ansi(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.clone().next() == Some('[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Content detection: a summary line of a core k6 metric, or k6's run header.
pub fn detect(h: &Head) -> bool {
    let text = &h.text;
    if text.contains("execution: local") && text.contains("scenarios:") && text.contains("script:") {
        return true;
    }
    text.lines().take(5000).any(|l| {
        let l = strip_ansi(l);
        let (t, _) = unmark(l.trim_start());
        metric_line(t).is_some_and(|(name, _)| MARKERS.contains(&name))
    })
}

/// Milliseconds from k6's duration text: `0s`, `12ns`, `663.96µs`, `144.56ms`, `1.14s`, `1m23s`,
/// `1h2m3s` (also the progress line's `0m30.0s`).
pub fn duration_ms(s: &str) -> Option<f64> {
    let num = |x: &str| x.parse::<f64>().ok().filter(|v| v.is_finite());
    if let Some(v) = s.strip_suffix("ms") {
        return num(v);
    }
    if let Some(v) = s.strip_suffix("µs").or_else(|| s.strip_suffix("us")) {
        return num(v).map(|v| v / 1000.0);
    }
    if let Some(v) = s.strip_suffix("ns") {
        return num(v).map(|v| v / 1e6);
    }
    let (mut total, mut current, mut any) = (0.0, String::new(), false);
    for c in s.chars() {
        let scale = match c {
            'h' => 3_600_000.0,
            'm' => 60_000.0,
            's' => 1000.0,
            '0'..='9' | '.' => {
                current.push(c);
                continue;
            }
            _ => return None,
        };
        total += num(&current)? * scale;
        current.clear();
        any = true;
    }
    (any && current.is_empty()).then_some(total)
}

/// A plain number, or bytes with k6's decimal unit (`519 kB`, `1.3 MB`).
fn quantity(number: &str, unit: Option<&str>) -> Option<f64> {
    let v = number.parse::<f64>().ok().filter(|v| v.is_finite())?;
    let scale = match unit {
        None | Some("B") => 1.0,
        Some("kB") => 1e3,
        Some("MB") => 1e6,
        Some("GB") => 1e9,
        Some("TB") => 1e12,
        Some("PB") => 1e15,
        Some(_) => return None,
    };
    Some(v * scale)
}

/// What a metric line's values say: the kind, the values, and whether they are times.
type Parsed = (Kind, Vec<(String, f64)>, bool);

/// The values of a metric line.
fn parse_values(text: &str) -> Option<Parsed> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let first = *tokens.first()?;
    if tokens.iter().all(|t| t.contains('=')) {
        let mut values = Vec::new();
        let mut time = false;
        for t in &tokens {
            let (k, v) = t.split_once('=')?;
            let value = match v.parse::<f64>() {
                Ok(x) if x.is_finite() => x,
                _ => {
                    time = true;
                    duration_ms(v)?
                }
            };
            values.push((k.to_string(), value));
        }
        return Some((Kind::Trend, values, time));
    }
    if let Some(pct) = first.strip_suffix('%') {
        let rate = pct.parse::<f64>().ok().filter(|v| v.is_finite())? / 100.0;
        let mut values = vec![("rate".to_string(), rate)];
        let n = |i: usize| tokens.get(i).and_then(|t| t.parse::<f64>().ok());
        match tokens.as_slice() {
            // `0.00% ✓ 0 ✗ 180` (classic): ✓ counts true values.
            [_, "✓", _, "✗", _] => values.extend([("passes".to_string(), n(2)?), ("fails".to_string(), n(4)?)]),
            // `0.00% 0 out of 45` (k6 1.x).
            [_, _, "out", "of", _] => {
                values.extend([("passes".to_string(), n(1)?), ("fails".to_string(), n(4)? - n(1)?)])
            }
            _ => {}
        }
        return Some((Kind::Rate, values, false));
    }
    if let Some(i) = tokens.iter().position(|t| t.starts_with("min=")) {
        let value = quantity(first, tokens.get(1).filter(|_| i == 2).copied())?;
        let mut values = vec![("value".to_string(), value)];
        for t in &tokens[i..] {
            let (k, v) = t.split_once('=')?;
            values.push((k.to_string(), v.parse().ok()?));
        }
        return Some((Kind::Gauge, values, false));
    }
    // Counter: `180 4.36938/s` or `1.3 MB 31 kB/s`.
    let last = *tokens.last()?;
    let per_s = last.strip_suffix("/s")?;
    let (rate, count_tokens) = match per_s.parse::<f64>() {
        Ok(r) => (r, &tokens[..tokens.len() - 1]),
        Err(_) => {
            (quantity(tokens.get(tokens.len().checked_sub(2)?)?, Some(per_s))?, &tokens[..tokens.len().checked_sub(2)?])
        }
    };
    let count = match count_tokens {
        [n] => quantity(n, None)?,
        [n, unit] => quantity(n, Some(unit))?,
        _ => return None,
    };
    Some((Kind::Counter, vec![("count".into(), count), ("rate".into(), rate)], false))
}

#[derive(Debug, Clone, PartialEq)]
enum Section {
    Classic,
    Thresholds,
    Total,
    /// A full-mode scenario or group section: its tags.
    Scope(Vec<(String, String)>),
}

/// Imports the console text, line by line.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let mut r = Reader::default();
    let mut lines = Lines::new(input);
    while let Some((line_no, bytes)) = lines.next_line(ctx)? {
        let raw = String::from_utf8_lossy(bytes);
        r.line(ctx, line_no, &strip_ansi(raw.trim_end()));
    }
    let mut s = r.finish(ctx);
    if s.metrics.is_empty() {
        return Err(ctx.error(
            LoadErrorKind::Empty,
            None,
            "no end-of-test summary lines (`http_req_duration....: avg=…`) were found in this k6 console output",
        ));
    }
    s.notes.push("Read from k6's console summary: values are as printed (k6 rounds them); percentiles are k6's (linear interpolation between the closest ranks).".into());
    to_run(ctx, s, "k6 console summary")
}

/// What the reader knows between lines: the summary so far and where in the text it is.
struct Reader {
    s: Summary,
    section: Section,
    /// The `█ group` title a classic summary's checks belong to.
    group: Option<String>,
    /// The last metric line's name and tags: `{tag:value}` lines below it are its sub-metrics.
    parent: Option<(String, Vec<(String, String)>)>,
    /// The metric the THRESHOLDS section's next marked lines are about.
    threshold_metric: Option<String>,
    thresholds: Vec<(String, Threshold)>,
    /// A failed check whose `↳ x% — ✓ n / ✗ m` line comes next.
    pending_check: Option<usize>,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            s: Summary::default(),
            section: Section::Classic,
            group: None,
            parent: None,
            threshold_metric: None,
            thresholds: Vec::new(),
            pending_check: None,
        }
    }
}

impl Reader {
    fn line(&mut self, ctx: &mut Ctx, line_no: u64, line: &str) {
        let t = line.trim_start();
        if let Some(title) = t.strip_prefix('█').map(str::trim) {
            self.title(title);
        } else if let Some(rest) = t.strip_prefix('↳') {
            self.arrow(rest.trim());
        } else if let Some(d) = progress_duration(t) {
            self.s.duration_ms = Some(d);
        } else {
            let (unmarked, mark) = unmark(t);
            if let Some((name, values)) = metric_line(unmarked) {
                self.metric(ctx, line_no, name, values, mark);
            } else if self.section == Section::Thresholds {
                self.threshold(t, unmarked, mark);
            } else if let (Some(ok), Section::Classic | Section::Total) = (mark, &self.section) {
                let path = match (&self.group, &self.section) {
                    (Some(g), Section::Classic) => format!("{g}::{unmarked}"),
                    _ => unmarked.to_string(),
                };
                self.s.checks.push(Check { path, passes: None, fails: 0 });
                self.pending_check = (!ok).then_some(self.s.checks.len() - 1);
            }
        }
    }

    /// A `█ TITLE` line: a section, a scenario or a group.
    fn title(&mut self, title: &str) {
        self.parent = None;
        self.section = match title {
            "THRESHOLDS" => Section::Thresholds,
            "TOTAL RESULTS" => Section::Total,
            _ => match title.strip_prefix("SCENARIO:") {
                Some(sc) => Section::Scope(vec![("scenario".into(), sc.trim().into())]),
                None => {
                    self.group = Some(title.to_string());
                    Section::Classic
                }
            },
        };
    }

    /// A `↳` line: a group inside a scope, or the counts of the failed check above.
    fn arrow(&mut self, rest: &str) {
        if let Some(g) = rest.strip_prefix("GROUP:") {
            let mut tags = match &self.section {
                Section::Scope(tags) => tags.iter().filter(|(k, _)| k != "group").cloned().collect(),
                _ => Vec::new(),
            };
            tags.push(("group".into(), g.trim().into()));
            self.section = Section::Scope(tags);
            self.parent = None;
        } else if let (Some(i), Some(fails)) =
            (self.pending_check.take(), rest.rsplit('✗').next().and_then(|f| f.trim().parse::<u64>().ok()))
        {
            let passes = rest.split('✓').nth(1).and_then(|p| p.split('/').next()).and_then(|p| p.trim().parse().ok());
            self.s.checks[i].fails = fails;
            self.s.checks[i].passes = passes;
        }
    }

    /// A metric line (`name....: avg=…`), or a sub-metric's (`{tag:value}...: …`) below one.
    fn metric(&mut self, ctx: &mut Ctx, line_no: u64, name: &str, values: &str, mark: Option<bool>) {
        let (name, tags) = if name.starts_with('{') && name.ends_with('}') {
            let (_, sub) = parse_key(&format!("x{name}"));
            let Some((p, ptags)) = self
                .parent
                .as_ref()
                .filter(|_| !sub.is_empty() && sub.iter().all(|(k, v)| !k.is_empty() && !v.is_empty()))
            else {
                ctx.warn(
                    format!("line {line_no}"),
                    format!("{name} is not a sub-metric of a metric line above; left out"),
                );
                return;
            };
            (p.clone(), ptags.iter().cloned().chain(sub).collect())
        } else if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            let scope = match &self.section {
                Section::Scope(tags) => tags.clone(),
                _ => Vec::new(),
            };
            self.parent = Some((name.to_string(), scope.clone()));
            (name.to_string(), scope)
        } else {
            return;
        };
        let name = match name.as_str() {
            "checks_total" | "checks_failed" => return,
            "checks_succeeded" => "checks".to_string(),
            _ => name,
        };
        let Some((kind, values, time)) = parse_values(values) else {
            ctx.warn(format!("line {line_no}"), format!("the values of {name} cannot be read; left out"));
            return;
        };
        let mut m = Metric {
            name,
            tags,
            kind: Some(kind),
            time: (kind == Kind::Trend).then_some(time),
            values,
            ..Default::default()
        };
        if let Some(ok) = mark {
            m.thresholds.push(Threshold { source: "(threshold)".into(), ok });
        }
        self.s.metrics.push(m);
    }

    /// A line of the THRESHOLDS section: a metric's name, or one of its thresholds, marked.
    fn threshold(&mut self, t: &str, unmarked: &str, mark: Option<bool>) {
        match mark {
            Some(ok) => {
                if let Some(metric) = &self.threshold_metric {
                    let source = unmarked.split('\'').nth(1).unwrap_or(unmarked).to_string();
                    self.thresholds.push((metric.clone(), Threshold { source, ok }));
                }
            }
            None if !t.is_empty() => self.threshold_metric = Some(t.to_string()),
            None => {}
        }
    }

    /// The summary, each threshold of the THRESHOLDS section on its metric.
    fn finish(mut self, ctx: &mut Ctx) -> Summary {
        for (key, th) in self.thresholds {
            let (name, tags) = parse_key(&key);
            match self.s.metrics.iter_mut().find(|m| m.name == name && m.tags == tags) {
                Some(m) => {
                    m.thresholds.retain(|t| t.source != "(threshold)");
                    m.thresholds.push(th);
                }
                None => ctx.warn(
                    "THRESHOLDS",
                    format!("threshold {} on {key}, a metric the summary does not list; left out", th.source),
                ),
            }
        }
        self.s
    }
}

/// The elapsed time of a progress line: `running (0m30.0s), 00/20 VUs, …` and
/// `default ✓ [====] 20 VUs  30s`.
fn progress_duration(t: &str) -> Option<f64> {
    t.strip_prefix("running (").and_then(|r| r.split(')').next()).and_then(duration_ms).or_else(|| {
        let bar = t.find("] ").filter(|_| t.contains(" VUs"))?;
        t[bar..].split_whitespace().last().and_then(duration_ms)
    })
}

#[cfg(test)]
mod tests;
