//! Two timelines of one test (two load generators) merged bucket by bucket: samples, errors, sums
//! and cells add up, the value alphabets are merged exactly, the finer timeline is re-bucketed into
//! the coarser when its interval divides the coarser's; else there is no merged timeline.

use crate::bundle::{timeline_sum, Timeline, TransactionTimeline};

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
    let sides = [a, b];
    let at_side = |p: usize, i: usize| sides.get(p).map_or(usize::MAX, |t| at(t, i));
    let transactions = names
        .iter()
        .map(|name| {
            let found: Vec<(usize, &TransactionTimeline)> = sides
                .iter()
                .enumerate()
                .filter_map(|(p, tl)| tl.transactions.iter().find(|t| t.name == *name).map(|t| (p, t)))
                .collect();
            let parts: Vec<&TransactionTimeline> = found.iter().map(|f| f.1).collect();
            let at_found = |k: usize, i: usize| found.get(k).map_or(usize::MAX, |f| at_side(f.0, i));
            let mut t = timeline_sum::add_transactions(name, &parts, n, &at_found);
            t.controller = parts.iter().any(|t| t.controller);
            t
        })
        .collect();
    let causes = timeline_sum::add_causes(
        sides.iter().enumerate().flat_map(|(p, tl)| tl.causes.iter().map(move |c| (p, c))),
        n,
        &at_side,
    );
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

#[cfg(test)]
mod tests;
