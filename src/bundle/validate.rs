//! Checks a typed bundle for consistency: hard errors (duplicate run ids, comparisons naming
//! unknown runs) and warnings for odd but usable values.

use super::warnings::Warnings;
use super::{Bundle, Run, Transaction};
use std::collections::HashSet;

type Invalid = (String, String);

/// `later` are the ids of runs after `b.runs` that were loaded elsewhere (`split_load`) and
/// already checked one by one: only their ids are checked here (none for a bundle read whole).
pub(crate) fn validate_with_later(b: &Bundle, later: &[String], warnings: &mut Warnings) -> Result<(), Invalid> {
    if b.runs.is_empty() && later.is_empty() {
        return Err(("runs".into(), "a bundle needs at least one run".into()));
    }
    let mut ids = HashSet::new();
    for (i, run) in b.runs.iter().enumerate() {
        check_id(i, &run.id, &mut ids)?;
        check_run(&format!("runs[{i}]"), run, warnings);
    }
    for (j, id) in later.iter().enumerate() {
        check_id(b.runs.len() + j, id, &mut ids)?;
    }
    for (i, c) in b.comparisons.iter().enumerate() {
        if !ids.contains(c.baseline.as_str()) {
            return Err((format!("comparisons[{i}].baseline"), format!("no run has the id {:?}", c.baseline)));
        }
        if c.candidates.is_empty() {
            return Err((format!("comparisons[{i}].candidates"), "a comparison needs at least one candidate".into()));
        }
        for (j, cand) in c.candidates.iter().enumerate() {
            if !ids.contains(cand.as_str()) {
                return Err((format!("comparisons[{i}].candidates[{j}]"), format!("no run has the id {cand:?}")));
            }
        }
    }
    if let Some(t) = &b.thresholds {
        const FAMILIES: [&str; 8] =
            ["latency", "throughput", "error_rate", "cpu", "memory", "size", "duration", "count"];
        for f in FAMILIES {
            if let Some(v) = t.get(f).filter(|v| !(v.is_finite() && *v >= 0.0)) {
                warn(
                    warnings,
                    format!("thresholds.{f}"),
                    format!("a threshold cannot be negative ({v}); the default is used"),
                );
            }
        }
    }
    for (i, r) in b.label_rules.iter().enumerate() {
        if let Some(why) = crate::model::labels::problem(r) {
            warn(warnings, format!("label_rules[{i}]"), format!("the rule {why}; it is ignored"));
        }
    }
    Ok(())
}

fn check_id<'a>(i: usize, id: &'a str, seen: &mut HashSet<&'a str>) -> Result<(), Invalid> {
    if id.trim().is_empty() {
        return Err((format!("runs[{i}].id"), "a run id cannot be empty".into()));
    }
    if !seen.insert(id) {
        return Err((format!("runs[{i}].id"), format!("duplicate run id {id:?}")));
    }
    Ok(())
}

fn warn(warnings: &mut Warnings, path: String, message: impl Into<String>) {
    warnings.push(path, message);
}

pub(crate) fn check_run(at: &str, run: &Run, w: &mut Warnings) {
    if let Some(d) = run.duration_s {
        if d < 0.0 {
            warn(w, format!("{at}.duration_s"), format!("negative duration ({d} s)"));
        }
    }
    if let (Some(s), Some(e)) = (&run.start, &run.end) {
        if e < s && s.len() == e.len() {
            warn(w, format!("{at}.end"), format!("ends ({e}) before it starts ({s})"));
        }
    }
    duplicates(w, at, "transactions", run.transactions.iter().map(|t| t.name.as_str()));
    duplicates(w, at, "indices", run.indices.iter().map(|x| x.index.as_str()));
    duplicates(w, at, "kpis", run.kpis.iter().map(|k| k.name.as_str()));
    duplicates(w, at, "modules", run.modules.iter().map(|m| m.module.as_str()));
    duplicates(w, at, "resources", run.resources.iter().map(|r| format!("{} {}", r.service, r.metric)));
    for (i, t) in run.transactions.iter().enumerate() {
        check_transaction(|| format!("{at}.transactions[{i}]"), t, w);
    }
    for (i, r) in run.resources.iter().enumerate() {
        if let Some(s) = &r.series {
            if s.t_s.len() != s.values.len() {
                warn(
                    w,
                    format!("{at}.resources[{i}].series"),
                    format!("{} times but {} values; the extra ones are not drawn", s.t_s.len(), s.values.len()),
                );
            }
        }
        for (name, v) in [("peak", r.peak), ("average", r.average), ("min", r.min)] {
            if v.is_some_and(|v| v < 0.0) {
                warn(w, format!("{at}.resources[{i}].{name}"), "negative utilization");
            }
        }
    }
}

fn duplicates<K: AsRef<str> + std::hash::Hash + Eq>(
    w: &mut Warnings,
    at: &str,
    list: &str,
    keys: impl Iterator<Item = K>,
) {
    let mut seen = rustc_hash::FxHashSet::default();
    seen.reserve(keys.size_hint().0);
    for (i, k) in keys.enumerate() {
        if let Some(k) = seen.replace(k) {
            let k = k.as_ref();
            warn(w, format!("{at}.{list}[{i}]"), format!("{k:?} appears twice; comparisons use the first"));
        }
    }
}

/// Checks one transaction; `at` builds its path, only when there is something to say (a bundle
/// holds up to hundreds of thousands of transactions, nearly all of them fine).
fn check_transaction(at: impl Fn() -> String, t: &Transaction, w: &mut Warnings) {
    let order = [
        ("min_ms", t.min_ms),
        ("median_ms", t.median_ms),
        ("p90_ms", t.p90_ms),
        ("p95_ms", t.p95_ms),
        ("p99_ms", t.p99_ms),
        ("max_ms", t.max_ms),
    ];
    let mut previous: Option<(&str, f64)> = None;
    for (b, vb) in order.iter().filter_map(|(n, v)| v.map(|v| (*n, v))) {
        if let Some((a, va)) = previous.filter(|(_, va)| *va > vb) {
            warn(w, format!("{}.{b}", at()), format!("percentiles out of order: {a} = {va} > {b} = {vb}"));
        }
        previous = Some((b, vb));
    }
    for (name, v) in order.iter().chain([("mean_ms", t.mean_ms)].iter()) {
        if v.is_some_and(|v| v < 0.0) {
            warn(w, format!("{}.{name}", at()), "negative latency");
        }
    }
    if let (Some(s), Some(e)) = (t.samples, t.errors) {
        if e > s {
            warn(w, format!("{}.errors", at()), format!("{e} errors but only {s} samples"));
        }
    }
    if let Some(h) = &t.histogram {
        if h.upper_bounds_ms.len() != h.counts.len() {
            warn(w, format!("{}.histogram", at()), "bounds and counts differ in length");
        }
        if h.upper_bounds_ms.windows(2).any(|p| p[0] >= p[1]) {
            warn(w, format!("{}.histogram.upper_bounds_ms", at()), "bounds must increase");
        }
    }
}
