//! Timeline entries added up bucket by bucket: the one sum of transaction timelines and of error
//! causes that both label rules (labels merged within a run) and the load-generator merge (one
//! test's timelines from several machines) use. Value lists are merged exactly (their union).

use super::{CauseTimeline, TransactionTimeline};
use std::collections::BTreeMap;

/// `v` as a key that sorts as `f64::total_cmp` does (so a `BTreeMap` orders values without a
/// sort of floats of its own in the page).
pub fn ordered(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// The value of an `ordered` key.
pub fn from_ordered(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Where a part's bucket goes in the sum: `at(part, bucket)` is the sum's bucket of bucket
/// `bucket` of the `part`-th part (the identity within one timeline; a shift and a division
/// for timelines of other starts and intervals). Buckets past the sum's `n` are left out.
pub type At<'a> = &'a dyn Fn(usize, usize) -> usize;

/// The transaction timelines `parts` as one named `name` of `n` buckets: samples, errors, sums
/// (when every part has them) and cells (when every part has them) added; the values are the
/// union of the parts' in ascending order, so the sum is exact when every part is; a `total`
/// when every part is one. `controller` is left to the caller.
pub fn add_transactions(name: &str, parts: &[&TransactionTimeline], n: usize, at: At) -> TransactionTimeline {
    let with_sums = parts.iter().all(|t| !t.sum_ms.is_empty());
    let with_cells = parts.iter().all(|t| !t.cells.is_empty());
    let mut out = TransactionTimeline {
        name: name.to_string(),
        samples: vec![0; n],
        errors: vec![0; n],
        sum_ms: if with_sums { vec![0.0; n] } else { vec![] },
        exact: with_cells && parts.iter().all(|t| t.exact),
        relative_error: parts.iter().filter_map(|t| t.relative_error).reduce(f64::max),
        total: !parts.is_empty() && parts.iter().all(|t| t.total),
        ..Default::default()
    };
    // The union of the values, ascending, each with its index in the merged list (values equal
    // but for their sign, 0 and -0, share one). Inserted one by one: `collect` into a map would
    // bring a sort of its own to the page.
    let mut index: BTreeMap<u64, u64> = BTreeMap::new();
    let mut values: Vec<f64> = Vec::new();
    if with_cells {
        for v in parts.iter().flat_map(|t| &t.values_ms) {
            index.insert(ordered(*v), 0);
        }
        for (k, slot) in index.iter_mut() {
            let v = from_ordered(*k);
            if values.last() != Some(&v) {
                values.push(v);
            }
            *slot = values.len() as u64 - 1;
        }
    }
    let mut cells: Vec<BTreeMap<u64, u64>> = if with_cells { vec![BTreeMap::new(); n] } else { vec![] };
    for (p, t) in parts.iter().enumerate() {
        let remap: Vec<Option<u64>> = t.values_ms.iter().map(|v| index.get(&ordered(*v)).copied()).collect();
        for (i, s) in t.samples.iter().enumerate() {
            let j = at(p, i);
            if let Some(x) = out.samples.get_mut(j) {
                *x += s;
            }
            if let (Some(x), Some(e)) = (out.errors.get_mut(j), t.errors.get(i)) {
                *x += e;
            }
            if let (Some(x), Some(s)) = (out.sum_ms.get_mut(j), t.sum_ms.get(i)) {
                *x += s;
            }
            if let Some(c) = cells.get_mut(j) {
                for (v, count) in t.cell(i).filter_map(|(k, _, count)| Some((remap.get(k).copied().flatten()?, count)))
                {
                    *c.entry(v).or_insert(0) += count;
                }
            }
        }
    }
    out.values_ms = values;
    out.cells = cells.into_iter().map(|m| m.into_iter().flat_map(|(v, c)| [v, c]).collect()).collect();
    out
}

/// The causes of `parts` (each with its part's index for `at`) as one list over `n` buckets:
/// causes of one transaction, code and message added, in order of first appearance; buckets
/// without failures left out.
pub fn add_causes<'a>(
    parts: impl IntoIterator<Item = (usize, &'a CauseTimeline)>,
    n: usize,
    at: At,
) -> Vec<CauseTimeline> {
    let mut index: BTreeMap<(&str, Option<&str>, &str), usize> = BTreeMap::new();
    let mut sums: Vec<(&CauseTimeline, Vec<u64>)> = Vec::new();
    for (p, c) in parts {
        let key = (c.transaction.as_str(), c.code.as_deref(), c.message.as_str());
        let i = *index.entry(key).or_insert_with(|| {
            sums.push((c, vec![0; n]));
            sums.len() - 1
        });
        if let Some((_, counts)) = sums.get_mut(i) {
            for pair in c.counts.chunks_exact(2) {
                if let Some(x) = counts.get_mut(at(p, pair[0] as usize)) {
                    *x += pair[1];
                }
            }
        }
    }
    sums.into_iter()
        .map(|(c, counts)| CauseTimeline {
            transaction: c.transaction.clone(),
            code: c.code.clone(),
            message: c.message.clone(),
            counts: counts.iter().enumerate().filter(|(_, c)| **c > 0).flat_map(|(b, c)| [b as u64, *c]).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::Timeline;

    fn part(values: &[f64], cells: Vec<Vec<u64>>) -> TransactionTimeline {
        let samples: Vec<u64> = cells.iter().map(|c| c.chunks(2).map(|p| p[1]).sum()).collect();
        TransactionTimeline {
            name: "a".into(),
            errors: vec![0; samples.len()],
            samples,
            values_ms: values.to_vec(),
            exact: true,
            cells,
            ..Default::default()
        }
    }

    #[test]
    fn zero_and_minus_zero_are_one_value_and_the_sum_stays_well_formed() {
        let a = part(&[-0.0, 4.0], vec![vec![0, 1, 1, 2]]);
        let b = part(&[0.0, 3.0], vec![vec![0, 5, 1, 1]]);
        let t = add_transactions("a", &[&a, &b], 1, &|_, i| i);
        assert_eq!(t.values_ms.len(), 3);
        // 0 ms: 1 + 5; 3 ms: 1; 4 ms: 2.
        assert_eq!(t.cells, [vec![0, 6, 1, 1, 2, 2]]);
        let tl = Timeline { interval_s: 1, buckets: 1, transactions: vec![t], ..Default::default() };
        assert!(tl.is_well_formed());
    }

    #[test]
    fn causes_of_one_key_add_in_the_buckets_at_names() {
        let c = |code: &str, counts: Vec<u64>| CauseTimeline {
            code: Some(code.into()),
            message: "m".into(),
            counts,
            ..Default::default()
        };
        let (x, y, z) = (c("500", vec![0, 2, 1, 1]), c("404", vec![1, 3]), c("500", vec![0, 4]));
        // Part 1's bucket 0 is the sum's bucket 1.
        let out = add_causes([(0, &x), (0, &y), (1, &z)], 2, &|p, i| i + p);
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].code.as_deref(), out[0].counts.clone()), (Some("500"), vec![0, 2, 1, 5]));
        assert_eq!((out[1].code.as_deref(), out[1].counts.clone()), (Some("404"), vec![1, 3]));
    }
}
