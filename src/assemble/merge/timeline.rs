//! Two timelines of one test (two load generators) merged bucket by bucket: samples, errors, sums
//! and cells add up, the value alphabets are merged exactly, the finer timeline is re-bucketed into
//! the coarser when its interval divides the coarser's; else there is no merged timeline.

use crate::bundle::{CauseTimeline, Timeline, TransactionTimeline};
use std::collections::BTreeMap;

/// The timeline of both `a`'s and `b`'s samples, or `None` with the reason pushed to `warnings`.
/// Both must start on a multiple of their interval (epoch-aligned, as importers make them). Users
/// are the sum of the two generators' (each bucket's most, re-bucketed by the most), since each
/// generator runs its own; a timeline without users gives the merge none.
pub fn merge_timelines(a: &Timeline, b: &Timeline, warnings: &mut Vec<String>) -> Option<Timeline> {
    if !a.is_well_formed() || !b.is_well_formed() {
        warnings.push("a timeline is not well formed; the merged run has none".into());
        return None;
    }
    let interval = a.interval_s.max(b.interval_s);
    let w = i64::from(interval) * 1000;
    let aligned = |t: &Timeline| t.start_ms.rem_euclid(i64::from(t.interval_s) * 1000) == 0;
    if !aligned(a) || !aligned(b) || !interval.is_multiple_of(a.interval_s) || !interval.is_multiple_of(b.interval_s) {
        warnings.push(format!(
            "the timelines' buckets do not line up ({} s and {} s, from {} and {} ms); the merged run has no timeline",
            a.interval_s, b.interval_s, a.start_ms, b.start_ms
        ));
        return None;
    }
    let end = |t: &Timeline| t.start_ms + i64::from(t.buckets) * i64::from(t.interval_s) * 1000;
    let start = a.start_ms.min(b.start_ms).div_euclid(w) * w;
    let buckets = u32::try_from((end(a).max(end(b)) - start + w - 1) / w).ok()?;
    let n = buckets as usize;
    // Bucket `i` of `t` in the merged timeline.
    let at = |t: &Timeline, i: usize| ((t.start_ms + i as i64 * i64::from(t.interval_s) * 1000 - start) / w) as usize;
    let users = match (a.users.is_empty(), b.users.is_empty()) {
        (false, false) => {
            let mut u = vec![0u32; n];
            for t in [a, b] {
                let mut mine = vec![0u32; n];
                for (i, x) in t.users.iter().enumerate() {
                    mine[at(t, i)] = mine[at(t, i)].max(*x);
                }
                u.iter_mut().zip(mine).for_each(|(s, m)| *s = s.saturating_add(m));
            }
            u
        }
        (true, true) => vec![],
        _ => {
            warnings.push("only one load generator's timeline has active users; the merged timeline has none".into());
            vec![]
        }
    };
    let mut names: Vec<&str> = a.transactions.iter().map(|t| t.name.as_str()).collect();
    names.extend(
        b.transactions.iter().map(|t| t.name.as_str()).filter(|n| !a.transactions.iter().any(|t| t.name == *n)),
    );
    let find = |tl: &'_ Timeline, name: &str| tl.transactions.iter().find(|t| t.name == name).cloned();
    let transactions = names
        .iter()
        .map(|name| {
            let mut acc = TransactionTimeline { name: name.to_string(), ..Default::default() };
            let sides: Vec<(&Timeline, TransactionTimeline)> =
                [a, b].into_iter().filter_map(|tl| find(tl, name).map(|t| (tl, t))).collect();
            add_transactions(&mut acc, &sides, n, &at);
            acc
        })
        .collect();
    let mut causes: BTreeMap<(String, Option<String>, String), Vec<u64>> = BTreeMap::new();
    let mut cause_order = Vec::new();
    for tl in [a, b] {
        for c in &tl.causes {
            let key = (c.transaction.clone(), c.code.clone(), c.message.clone());
            let counts = causes.entry(key.clone()).or_insert_with(|| {
                cause_order.push(key);
                vec![0; n]
            });
            for p in c.counts.chunks_exact(2) {
                counts[at(tl, p[0] as usize)] += p[1];
            }
        }
    }
    let causes = cause_order
        .into_iter()
        .filter_map(|key| {
            let counts = causes.remove(&key)?;
            let pairs = counts.iter().enumerate().filter(|(_, c)| **c > 0).flat_map(|(b, c)| [b as u64, *c]).collect();
            Some(CauseTimeline { transaction: key.0, code: key.1, message: key.2, counts: pairs })
        })
        .collect();
    Some(Timeline {
        start_ms: start,
        origin_ms: a.origin_ms.min(b.origin_ms),
        interval_s: interval,
        buckets,
        users,
        transactions,
        causes,
    })
}

/// Adds each side's samples, errors, sums and cells into `acc`, with the values of both sides as
/// one ascending alphabet.
fn add_transactions(
    acc: &mut TransactionTimeline,
    sides: &[(&Timeline, TransactionTimeline)],
    n: usize,
    at: &dyn Fn(&Timeline, usize) -> usize,
) {
    let mut values: Vec<f64> = sides.iter().flat_map(|(_, t)| t.values_ms.iter().copied()).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let index = |v: f64| values.binary_search_by(|x| x.total_cmp(&v)).unwrap_or(0) as u64;
    acc.samples = vec![0; n];
    acc.errors = vec![0; n];
    let with_sums = sides.iter().all(|(_, t)| !t.sum_ms.is_empty());
    let with_cells = sides.iter().all(|(_, t)| !t.cells.is_empty());
    acc.sum_ms = if with_sums { vec![0.0; n] } else { vec![] };
    let mut cells: Vec<BTreeMap<u64, u64>> = if with_cells { vec![BTreeMap::new(); n] } else { vec![] };
    acc.exact = with_cells && sides.iter().all(|(_, t)| t.exact);
    acc.relative_error = sides.iter().filter_map(|(_, t)| t.relative_error).reduce(f64::max);
    acc.controller = sides.iter().any(|(_, t)| t.controller);
    for (tl, t) in sides {
        for i in 0..t.samples.len() {
            let j = at(tl, i);
            acc.samples[j] += t.samples[i];
            acc.errors[j] += t.errors.get(i).copied().unwrap_or(0);
            if let (Some(s), Some(x)) = (acc.sum_ms.get_mut(j), t.sum_ms.get(i)) {
                *s += x;
            }
            if let (Some(c), Some(cell)) = (cells.get_mut(j), t.cells.get(i)) {
                for p in cell.chunks_exact(2) {
                    if let Some(v) = t.values_ms.get(p[0] as usize) {
                        *c.entry(index(*v)).or_insert(0) += p[1];
                    }
                }
            }
        }
    }
    acc.values_ms = if with_cells { values } else { vec![] };
    acc.cells = cells.into_iter().map(|m| m.into_iter().flat_map(|(v, c)| [v, c]).collect()).collect();
}

#[cfg(test)]
mod tests;
