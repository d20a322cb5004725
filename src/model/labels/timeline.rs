//! Label rules applied to a well-formed timeline: its transactions renamed, left out or merged
//! bucket by bucket (`bundle::timeline_sum`), its error causes renamed, left out or added.

use super::merge::group_by_name;
use super::Rules;
use crate::bundle::timeline_sum::{add_causes, add_transactions};
use crate::bundle::{CauseTimeline, Timeline, TransactionTimeline};

pub(super) fn apply(tl: &mut Timeline, rules: &Rules) {
    let n = tl.buckets as usize;
    // A run's `total` entry is no label: it stays as it is.
    let (totals, named): (Vec<_>, Vec<_>) = std::mem::take(&mut tl.transactions).into_iter().partition(|t| t.total);
    tl.transactions =
        group_by_name(named, rules, |t| &mut t.name).into_iter().filter_map(|(_, parts)| merge(parts, n)).collect();
    tl.transactions.extend(totals);
    let mut renamed: Vec<CauseTimeline> = Vec::new();
    for mut c in std::mem::take(&mut tl.causes) {
        if !c.transaction.is_empty() {
            match rules.map(&c.transaction) {
                Some(n) => c.transaction = n,
                None => continue,
            }
        }
        renamed.push(c);
    }
    tl.causes = add_causes(renamed.iter().map(|c| (0, c)), n, &|_, i| i);
}

/// Timelines of one name (in one well-formed timeline, so of `n` buckets) as one: a controller
/// when all of them are.
fn merge(mut parts: Vec<TransactionTimeline>, n: usize) -> Option<TransactionTimeline> {
    if parts.len() < 2 {
        return parts.pop();
    }
    let refs: Vec<&TransactionTimeline> = parts.iter().collect();
    let mut out = add_transactions(&parts.first()?.name, &refs, n, &|_, i| i);
    out.controller = parts.iter().all(|t| t.controller);
    Some(out)
}
