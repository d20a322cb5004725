//! Label rules applied to a run: transactions (the run's, its tenants', its timeline's) renamed
//! or left out, and those that end up with one name merged into one transaction.

use super::Rules;
#[cfg(test)]
pub(super) use crate::bundle::timeline_sum::{from_ordered, ordered};
use crate::bundle::{LabelRule, Run, Transaction};
use crate::model::dist::{self, percent_of, Dist};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `run` with its transaction labels mapped by `rules`. Transactions that end up with one name
/// become one, where the first of them was (`merge_transactions`).
pub fn apply(run: &Run, rules: &Rules) -> Run {
    let mut out = run.clone();
    if rules.is_empty() {
        return out;
    }
    out.transactions = map_transactions(std::mem::take(&mut out.transactions), rules);
    for t in &mut out.tenants {
        t.transactions = map_transactions(std::mem::take(&mut t.transactions), rules);
    }
    if let Some(tl) = out.timeline.as_mut().filter(|t| t.is_well_formed()) {
        super::timeline::apply(tl, rules);
    }
    out
}

/// `runs` with the label rules `rules` applied (the same pointers when there are none): what the
/// viewer judges (`AppState::whole`) and `runlens compare` compares.
pub fn with_label_rules<'a>(runs: impl Iterator<Item = &'a Arc<Run>>, rules: &[LabelRule]) -> Vec<Arc<Run>> {
    let rules = Rules::new(rules);
    runs.map(|r| if rules.is_empty() { r.clone() } else { Arc::new(apply(r, &rules)) }).collect()
}

/// Items renamed by `rules` (or left out), grouped by their new name in order of first appearance.
pub(super) fn group_by_name<T>(items: Vec<T>, rules: &Rules, name: fn(&mut T) -> &mut String) -> Vec<(String, Vec<T>)> {
    let mut groups: Vec<(String, Vec<T>)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<String, usize> = Default::default();
    for mut item in items {
        let Some(new) = rules.map(name(&mut item)) else { continue };
        name(&mut item).clone_from(&new);
        match at.get(&new) {
            Some(&i) => {
                if let Some(g) = groups.get_mut(i) {
                    g.1.push(item);
                }
            }
            None => {
                at.insert(new.clone(), groups.len());
                groups.push((new, vec![item]));
            }
        }
    }
    groups
}

fn map_transactions(ts: Vec<Transaction>, rules: &Rules) -> Vec<Transaction> {
    group_by_name(ts, rules, |t| &mut t.name)
        .into_iter()
        .filter_map(|(name, parts)| merge_transactions(&name, parts))
        .collect()
}

/// A value of every part, or none.
fn all<T: Copy>(parts: &[Transaction], f: impl Fn(&Transaction) -> Option<T>) -> Option<Vec<T>> {
    parts.iter().map(f).collect()
}

fn sum_all<T: Copy + std::iter::Sum<T>>(parts: &[Transaction], f: impl Fn(&Transaction) -> Option<T>) -> Option<T> {
    all(parts, f).map(|v| v.into_iter().sum())
}

/// The sum of the parts' distributions (`model::dist`, from their histograms), when each holds
/// as many samples as its transaction says and they hold some.
fn merged_distribution(parts: &[Transaction]) -> Option<Dist> {
    let each: Option<Vec<Dist>> =
        parts.iter().map(|t| dist::of(t, None).filter(|d| t.samples.is_none_or(|n| n == d.count()))).collect();
    Some(Dist::sum(&each?)).filter(|d| d.count() > 0)
}

/// Transactions of one name merged into one: samples, errors, bytes and throughputs added; mean
/// weighted by samples; min and max of all. Percentiles by nearest rank over the merged
/// histogram when every part carries one (exact when the histograms list every distinct value,
/// as runlens' importers write them), else the samples-weighted mean of the parts' percentiles,
/// which is not exact: the transaction's note says which. A figure some part lacks is left out.
/// One part is returned as it is.
pub fn merge_transactions(name: &str, mut parts: Vec<Transaction>) -> Option<Transaction> {
    if parts.len() < 2 {
        return parts.pop();
    }
    let samples = sum_all(&parts, |t| t.samples);
    let weighted = |f: fn(&Transaction) -> Option<f64>| -> Option<f64> {
        let n = samples.filter(|n| *n > 0)? as f64;
        all(&parts, |t| Some(f(t)? * t.samples? as f64)).map(|v| v.into_iter().sum::<f64>() / n)
    };
    let hist = merged_distribution(&parts);
    let pct = |p: f64, f: fn(&Transaction) -> Option<f64>| match &hist {
        Some(d) => Some(d.percentile(p)),
        None => weighted(f),
    };
    // Maps filled one by one: `collect` into a map would bring a sort of its own to the page.
    let mut percentiles = BTreeMap::new();
    for t in &parts {
        for k in t.percentiles.keys() {
            if percentiles.contains_key(k) {
                continue;
            }
            let v = match (&hist, percent_of(k)) {
                (Some(_), Some(p)) => pct(p, |_| None),
                _ => samples.filter(|n| *n > 0).and_then(|n| {
                    all(&parts, |t| Some(t.percentiles.get(k)? * t.samples? as f64))
                        .map(|v| v.into_iter().sum::<f64>() / n as f64)
                }),
            };
            if let Some(v) = v {
                percentiles.insert(k.clone(), v);
            }
        }
    }
    let how = if hist.is_some() {
        "percentiles by nearest rank over their merged histograms"
    } else {
        "percentiles are the samples-weighted means of theirs, not exact"
    };
    let note = format!("{} labels merged by label rules; {how}.", parts.len());
    let min_max = |f: fn(&Transaction) -> Option<f64>, max: bool| {
        all(&parts, f).and_then(|v| v.into_iter().reduce(if max { f64::max } else { f64::min }))
    };
    Some(Transaction {
        name: name.to_string(),
        samples,
        errors: sum_all(&parts, |t| t.errors),
        mean_ms: weighted(|t| t.mean_ms),
        median_ms: pct(50.0, |t| t.median_ms),
        p90_ms: pct(90.0, |t| t.p90_ms),
        p95_ms: pct(95.0, |t| t.p95_ms),
        p99_ms: pct(99.0, |t| t.p99_ms),
        min_ms: min_max(|t| t.min_ms, false),
        max_ms: min_max(|t| t.max_ms, true),
        throughput_per_s: sum_all(&parts, |t| t.throughput_per_s),
        throughput_run_per_s: sum_all(&parts, |t| t.throughput_run_per_s),
        bytes_received: sum_all(&parts, |t| t.bytes_received),
        bytes_sent: sum_all(&parts, |t| t.bytes_sent),
        percentiles,
        histogram: hist.as_ref().map(Dist::to_histogram),
        note: Some(note),
    })
}
