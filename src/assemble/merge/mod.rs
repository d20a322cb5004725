//! One test's samples from several load generators (two JTLs, k6 points, Gatling logs, JMeter XML
//! of one test) merged into one run's transactions and KPIs, equal to importing the concatenated
//! file where the parts carry every distinct value (`dist`), else within a histogram bucket, said
//! in a warning and the transaction's note. Decision 0056.

mod kpis;
pub mod timeline;

use super::group::Part;
use crate::bundle::{ErrorEntry, Kpi, Run, Transaction, Warning};
use crate::import::common::{civil, samples::LabelStats};
use std::collections::HashMap;

pub use crate::model::dist;
pub use timeline::merge_timelines;

/// When two or more parts were counted from samples (several load generators of one test), their
/// transactions and KPIs merged (`merge::samples`) and their timelines merged into `run`.
pub fn load(parts: &mut [Part], run: &mut Run, warnings: &mut Vec<Warning>) -> Option<Load> {
    let mut text = Vec::new();
    let with_timeline = parts.iter().filter(|p| p.run.timeline.is_some()).count();
    let path = parts.iter().find(|p| p.run.timeline.is_some()).map_or(String::new(), |p| p.source.clone());
    run.timeline = if with_timeline == 1 {
        // One timeline is the run's as it is: taken, not copied (it can be megabytes, decision
        // 0062); the parts' timelines are not read after this.
        parts.iter_mut().find_map(|p| p.run.timeline.take())
    } else {
        let timelines: Vec<&crate::bundle::Timeline> = parts.iter().filter_map(|p| p.run.timeline.as_ref()).collect();
        match timelines.split_first() {
            None => None,
            Some((first, rest)) => rest.iter().try_fold((*first).clone(), |acc, t| merge_timelines(&acc, t, &mut text)),
        }
    };
    warnings.extend(text.into_iter().map(|message| Warning { path: path.clone(), message }));
    let sampled: Vec<(&str, &Run)> =
        parts.iter().filter(|p| is_sampled(&p.run)).map(|p| (p.source.as_str(), &p.run)).collect();
    if sampled.len() < 2 {
        return None;
    }
    let m = samples(&sampled);
    warnings.extend(m.warnings);
    Some((m.transactions, m.kpis, m.errors))
}

/// What the load generators' parts give the merged run: transactions, KPIs, errors.
pub type Load = (Vec<Transaction>, Vec<Kpi>, Vec<ErrorEntry>);

/// Whether a run's transactions were counted from samples (they carry histograms): only such runs'
/// transactions add up; a summary (statistics.json, Locust's stats) describes samples another file
/// of the same test already has.
pub fn is_sampled(run: &Run) -> bool {
    run.transactions.iter().any(|t| t.histogram.is_some())
}

/// A run's first start and last end, epoch milliseconds, from its `start` and `end`.
pub fn window_of(run: &Run) -> (Option<i64>, Option<i64>) {
    let ms = |t: &Option<String>| t.as_deref().and_then(civil::parse_datetime).map(|(ms, _)| ms);
    (ms(&run.start), ms(&run.end))
}

/// What merging the sampled parts gives.
#[derive(Debug, Default)]
pub struct Merged {
    pub transactions: Vec<Transaction>,
    pub kpis: Vec<Kpi>,
    pub errors: Vec<ErrorEntry>,
    pub warnings: Vec<Warning>,
}

/// One label over the parts.
struct Acc {
    stats: LabelStats,
    /// The first part's transaction: its note and extra percentile names.
    first: Transaction,
    parts: usize,
    exact: bool,
    /// Whether every part's window of the label is known (it spans its part's run).
    window_known: bool,
}

/// Merges the transactions and KPIs of `parts` (name of the file, its run), all sampled. Labels
/// keep the order of first appearance over the parts in order, as in the concatenated file.
pub fn samples(parts: &[(&str, &Run)]) -> Merged {
    let mut out = Merged::default();
    let placed: Vec<(Option<(i64, i64)>, bool)> = parts.iter().map(|(_, r)| sample_window(r)).collect();
    let windows: Vec<(Option<i64>, Option<i64>)> =
        placed.iter().map(|(w, _)| (w.map(|w| w.0), w.map(|w| w.1))).collect();
    let union = (windows.iter().filter_map(|w| w.0).min(), windows.iter().filter_map(|w| w.1).max());
    let mut order: Vec<Acc> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut unmergeable: Vec<Transaction> = Vec::new();
    for (p, ((source, run), window)) in parts.iter().zip(&windows).enumerate() {
        for t in &run.transactions {
            let Some((stats, exact, known)) = label_stats(t, run, *window, p as u64) else {
                if index.contains_key(&t.name) || unmergeable.iter().any(|u| u.name == t.name) {
                    out.warnings.push(Warning {
                        path: source.to_string(),
                        message: format!(
                            "transaction {:?} carries no latency distribution here, so its samples cannot be added to the other files'; the run keeps the first file's",
                            t.name
                        ),
                    });
                } else {
                    unmergeable.push(t.clone());
                }
                continue;
            };
            let known = known && placed.get(p).is_some_and(|w| w.1);
            match index.get(&t.name) {
                Some(i) => {
                    let a = &mut order[*i];
                    a.stats.merge(&stats);
                    a.parts += 1;
                    a.exact &= exact;
                    a.window_known &= known;
                }
                None => {
                    index.insert(t.name.clone(), order.len());
                    order.push(Acc { stats, first: t.clone(), parts: 1, exact, window_known: known });
                }
            }
        }
    }
    let mut approx = Vec::new();
    let mut estimated = Vec::new();
    for a in &order {
        out.transactions.push(finish(a, union, &mut approx, &mut estimated));
    }
    out.transactions.extend(unmergeable);
    let list = |v: &[String]| {
        let shown: Vec<String> = v.iter().take(5).map(|n| format!("{n:?}")).collect();
        let more = crate::limits::more_note(v.len(), 5).map_or(String::new(), |m| format!(" {m}"));
        format!("{}{more}", shown.join(", "))
    };
    let first = parts.first().map_or(String::new(), |p| p.0.to_string());
    if placed.iter().any(|(w, known)| w.is_some() && !known) {
        out.warnings.push(Warning {
            path: first.clone(),
            message: "a load generator's samples do not span its run (other metrics do), and a bundle does not say where they lie in it: the run throughput is over an estimated window".into(),
        });
    }
    if !approx.is_empty() {
        out.warnings.push(Warning {
            path: first.clone(),
            message: format!(
                "percentiles of {} are merged from histograms that do not carry every distinct value: each is within one histogram bucket (about ±3 %) of the concatenated file's",
                list(&approx)
            ),
        });
    }
    if !estimated.is_empty() {
        out.warnings.push(Warning {
            path: first,
            message: format!(
                "throughput per label of {} is over an estimated window: a bundle gives a label's window length but not where it lies in the run (the run throughput is exact)",
                list(&estimated)
            ),
        });
    }
    out.errors = errors(parts);
    let (kpis, w) = kpis::merge(parts, &order.iter().map(|a| &a.stats).collect::<Vec<_>>(), union);
    out.kpis = kpis;
    out.warnings.extend(w);
    out
}

/// The merged transaction of one label.
fn finish(
    a: &Acc,
    union: (Option<i64>, Option<i64>),
    approx: &mut Vec<String>,
    estimated: &mut Vec<String>,
) -> Transaction {
    if a.parts == 1 {
        // One generator's label: as imported, but its share of the longer run.
        let mut t = a.first.clone();
        t.throughput_run_per_s = a.stats.to_transaction(union).throughput_run_per_s;
        return t;
    }
    let mut t = a.stats.to_transaction(union);
    if !a.window_known {
        estimated.push(t.name.clone());
    }
    for key in a.first.percentiles.keys() {
        if let Some(v) = dist::percent_of(key)
            .and_then(|p| a.stats.elapsed.summary(&[p]))
            .and_then(|s| s.percentiles.first().copied())
        {
            t.percentiles.insert(key.clone(), v);
        }
    }
    t.note = a.first.note.clone();
    if !a.exact {
        approx.push(t.name.clone());
        t.note = Some(
            "Merged from several load generators; percentiles within one histogram bucket (about ±3 %): a part's histogram does not carry every distinct value."
                .into(),
        );
    }
    t
}

/// The parts' errors with the counts of one cause (`ErrorEntry::key`) added up, ordered as the
/// importers order them: most frequent first, then by transaction, code and message; k6's failed
/// checks (`check failed: …`) after, in the order they came. First and last occurrences are the
/// earliest and latest of the parts', in test time of the merged run (from its parts' first
/// start); the example is the first part's, as in the concatenated file.
fn errors(parts: &[(&str, &Run)]) -> Vec<ErrorEntry> {
    let origins: Vec<Option<i64>> = parts.iter().map(|(_, r)| window_of(r).0).collect();
    let origin = origins.iter().flatten().min().copied();
    // A part's test time as the merged run's: through epoch ms, as the importers compute it.
    let shift = |s: Option<f64>, o: Option<i64>| match (s, o, origin) {
        (Some(s), Some(o), Some(m)) => Some(((s * 1000.0).round() as i64 + o - m) as f64 / 1000.0),
        _ => None,
    };
    let mut out: Vec<(String, ErrorEntry)> = Vec::new();
    for ((_, r), o) in parts.iter().zip(&origins) {
        for e in &r.errors {
            let key = e.key();
            let (first, last) = (shift(e.first_s, *o), shift(e.last_s, *o));
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, m)) => {
                    m.count = m.count.zip(e.count).map(|(a, b)| a + b).or(m.count).or(e.count);
                    m.first_s = [m.first_s, first].into_iter().flatten().min_by(f64::total_cmp);
                    m.last_s = [m.last_s, last].into_iter().flatten().max_by(f64::total_cmp);
                }
                None => out.push((key, ErrorEntry { first_s: first, last_s: last, ..e.clone() })),
            }
        }
    }
    let mut out: Vec<ErrorEntry> = out.into_iter().map(|(_, e)| e).collect();
    let checks = |e: &ErrorEntry| e.message.starts_with("check failed: ");
    let cause = |e: &ErrorEntry| (e.transaction.clone().unwrap_or_default(), e.code.clone().unwrap_or_default());
    out.sort_by(|a, b| {
        checks(a).cmp(&checks(b)).then_with(|| {
            if checks(a) {
                std::cmp::Ordering::Equal
            } else {
                b.count.cmp(&a.count).then_with(|| cause(a).cmp(&cause(b))).then_with(|| a.message.cmp(&b.message))
            }
        })
    });
    out
}

/// Where a run's samples lie: the window its transactions' run throughput is over (samples ×
/// 1000 / throughput), which is the run's start to end when the lengths agree (JMeter, Gatling);
/// else (k6, whose run also spans its other metrics) that length placed in the middle of the run,
/// and `false`.
fn sample_window(run: &Run) -> (Option<(i64, i64)>, bool) {
    let (Some(s), Some(e)) = window_of(run) else { return (None, false) };
    let len = run.transactions.iter().find_map(|t| {
        let (n, tp) = (t.samples?, t.throughput_run_per_s.filter(|x| *x > 0.0)?);
        Some((n as f64 * 1000.0 / tp).round() as i64)
    });
    match len {
        Some(len) if len != e - s => {
            let slack = (e - s - len).max(0) / 2;
            (Some((s + slack, s + slack + len)), false)
        }
        _ => (Some((s, e)), true),
    }
}

/// A transaction read back into the importer's per-label state: its distribution, samples,
/// errors, bytes, and its window (first start to last end). The window is known when the label
/// spans its run (its throughput over its own window equals the run's); else it is placed in the
/// middle of the run, and said. `None` when it carries no distribution.
fn label_stats(
    t: &Transaction,
    run: &Run,
    window: (Option<i64>, Option<i64>),
    first_seen: u64,
) -> Option<(LabelStats, bool, bool)> {
    let d = dist::of(t, run.timeline.as_ref())?;
    let mut stats = LabelStats { name: t.name.clone(), first_seen, ..Default::default() };
    for (v, c) in &d.pairs {
        stats.elapsed.add_repeated(*v, *c);
    }
    if !d.exact {
        // The bounds stand for their buckets; the sum is the transaction's own.
        if let Some(mean) = t.mean_ms {
            stats.elapsed.set_sum(mean * d.count() as f64);
        }
    }
    let timed = stats.elapsed.len();
    stats.untimed = t.samples.unwrap_or(timed).saturating_sub(timed);
    stats.errors = t.errors.unwrap_or(0);
    stats.bytes_received = t.bytes_received;
    stats.bytes_sent = t.bytes_sent;
    let n = stats.samples();
    let own = t.throughput_per_s.filter(|x| *x > 0.0).map(|tp| (n as f64 * 1000.0 / tp).round() as i64);
    let known = match (window, own) {
        ((Some(s), Some(e)), Some(len)) => {
            let slack = (e - s - len).max(0);
            stats.first_start_ms = Some(s + slack / 2);
            stats.last_end_ms = Some(s + slack / 2 + len);
            slack == 0
        }
        ((Some(s), Some(e)), None) => {
            (stats.first_start_ms, stats.last_end_ms) = (Some(s), Some(e));
            false
        }
        _ => false,
    };
    Some((stats, d.exact, known))
}

#[cfg(test)]
mod tests;
