//! Label rules applied to a well-formed timeline: its transactions renamed, left out or merged
//! bucket by bucket (distributions added cell by cell over the union of their values), its
//! error causes renamed, left out or added.

use super::merge::{from_ordered, group_by_name, ordered};
use super::Rules;
use crate::bundle::{CauseTimeline, Timeline, TransactionTimeline};
use std::collections::BTreeMap;

pub(super) fn apply(tl: &mut Timeline, rules: &Rules) {
    tl.transactions = group_by_name(std::mem::take(&mut tl.transactions), rules, |t| &mut t.name)
        .into_iter()
        .filter_map(|(_, parts)| merge(parts))
        .collect();
    let mut causes: Vec<CauseTimeline> = Vec::new();
    for mut c in std::mem::take(&mut tl.causes) {
        if !c.transaction.is_empty() {
            match rules.map(&c.transaction) {
                Some(n) => c.transaction = n,
                None => continue,
            }
        }
        match causes.iter_mut().find(|x| (&x.transaction, &x.code, &x.message) == (&c.transaction, &c.code, &c.message))
        {
            Some(x) => x.counts = add_pairs([&x.counts, &c.counts]),
            None => causes.push(c),
        }
    }
    tl.causes = causes;
}

/// `[key, count, …]` lists added: keys ascending, counts of one key summed.
fn add_pairs<'a>(lists: impl IntoIterator<Item = &'a Vec<u64>>) -> Vec<u64> {
    let mut m: BTreeMap<u64, u64> = BTreeMap::new();
    for l in lists {
        for p in l.chunks_exact(2) {
            *m.entry(p[0]).or_default() += p[1];
        }
    }
    m.into_iter().flat_map(|(k, c)| [k, c]).collect()
}

fn add_buckets<T: Copy + std::ops::Add<Output = T>>(
    parts: &[TransactionTimeline],
    f: fn(&TransactionTimeline) -> &Vec<T>,
) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for p in parts {
        let v = f(p);
        if out.is_empty() {
            out.clone_from(v);
        } else {
            out.iter_mut().zip(v).for_each(|(a, b)| *a = *a + *b);
        }
    }
    out
}

/// Timelines of one name (in one well-formed timeline, so of one bucket count) as one.
fn merge(mut parts: Vec<TransactionTimeline>) -> Option<TransactionTimeline> {
    if parts.len() < 2 {
        return parts.pop();
    }
    let first = parts.first()?;
    let has = |f: fn(&TransactionTimeline) -> bool| parts.iter().all(f);
    let mut out = TransactionTimeline {
        name: first.name.clone(),
        controller: has(|t| t.controller),
        samples: add_buckets(&parts, |t| &t.samples),
        errors: add_buckets(&parts, |t| &t.errors),
        sum_ms: if has(|t| !t.sum_ms.is_empty()) { add_buckets(&parts, |t| &t.sum_ms) } else { vec![] },
        exact: has(|t| t.exact),
        relative_error: parts.iter().filter_map(|t| t.relative_error).reduce(f64::max),
        ..Default::default()
    };
    if has(|t| !t.cells.is_empty()) {
        // The union of the values, ascending, each with its index in the merged list.
        // (Inserted one by one: `collect` into a map would bring a sort of its own to the page.)
        let mut index: BTreeMap<u64, u64> = BTreeMap::new();
        for v in parts.iter().flat_map(|t| &t.values_ms) {
            index.insert(ordered(*v), 0);
        }
        for (i, slot) in index.values_mut().enumerate() {
            *slot = i as u64;
        }
        let values: Vec<f64> = index.keys().map(|k| from_ordered(*k)).collect();
        // Each part's value index → the merged list's.
        let remap: Vec<Vec<u64>> = parts
            .iter()
            .map(|t| t.values_ms.iter().map(|v| index.get(&ordered(*v)).copied().unwrap_or_default()).collect())
            .collect();
        let buckets = out.samples.len();
        out.cells = (0..buckets)
            .map(|b| {
                let moved: Vec<Vec<u64>> = parts
                    .iter()
                    .zip(&remap)
                    .map(|(t, m)| t.cell(b).filter_map(|(i, _, n)| Some([*m.get(i)?, n])).flatten().collect())
                    .collect();
                add_pairs(&moved)
            })
            .collect();
        out.values_ms = values;
    } else {
        out.exact = false;
    }
    Some(out)
}
