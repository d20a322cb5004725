//! `merge_timelines` against timelines built straight from the raw samples of both generators.

use super::*;
use crate::bundle::CauseTimeline;
use std::collections::BTreeMap;

/// One sample: start (epoch ms), response time, failed, transaction, cause code.
type S = (i64, f64, bool, &'static str);

/// A timeline made directly from samples (the brute force the merge is checked against).
fn build(samples: &[S], start_ms: i64, interval_s: u32, buckets: u32) -> Timeline {
    let w = i64::from(interval_s) * 1000;
    let n = buckets as usize;
    let mut names: Vec<&str> = vec![];
    for s in samples {
        if !names.contains(&s.3) {
            names.push(s.3);
        }
    }
    let transactions = names
        .iter()
        .map(|name| {
            let mine: Vec<&S> = samples.iter().filter(|s| s.3 == *name).collect();
            let mut values: Vec<f64> = mine.iter().map(|s| s.1).collect();
            values.sort_by(f64::total_cmp);
            values.dedup();
            let mut t = TransactionTimeline {
                name: name.to_string(),
                samples: vec![0; n],
                errors: vec![0; n],
                sum_ms: vec![0.0; n],
                exact: true,
                cells: vec![vec![]; n],
                ..Default::default()
            };
            let mut cells = vec![BTreeMap::<u64, u64>::new(); n];
            for s in mine {
                let b = ((s.0 - start_ms) / w) as usize;
                t.samples[b] += 1;
                t.errors[b] += u64::from(s.2);
                t.sum_ms[b] += s.1;
                let v = values.iter().position(|x| *x == s.1).unwrap() as u64;
                *cells[b].entry(v).or_insert(0) += 1;
            }
            t.cells = cells.into_iter().map(|m| m.into_iter().flat_map(|(v, c)| [v, c]).collect()).collect();
            t.values_ms = values;
            t
        })
        .collect();
    let mut causes = vec![];
    for name in &names {
        let mut counts = vec![0u64; n];
        samples.iter().filter(|s| s.3 == *name && s.2).for_each(|s| counts[((s.0 - start_ms) / w) as usize] += 1);
        if counts.iter().any(|c| *c > 0) {
            let pairs = counts.iter().enumerate().filter(|(_, c)| **c > 0).flat_map(|(b, c)| [b as u64, *c]).collect();
            causes.push(CauseTimeline {
                transaction: name.to_string(),
                code: Some("500".into()),
                message: "boom".into(),
                counts: pairs,
            });
        }
    }
    Timeline {
        start_ms,
        origin_ms: samples.iter().map(|s| s.0).min().unwrap(),
        interval_s,
        buckets,
        users: vec![],
        transactions,
        causes,
    }
}

fn gen_a() -> Vec<S> {
    vec![
        (10_100, 5.0, false, "login"),
        (10_900, 7.0, true, "login"),
        (11_200, 5.0, false, "search"),
        (12_500, 9.0, false, "login"),
    ]
}

fn gen_b() -> Vec<S> {
    vec![
        (11_050, 6.0, false, "login"),
        (11_999, 5.0, true, "search"),
        (13_000, 2.5, false, "login"),
        (13_700, 7.0, false, "cart"),
    ]
}

#[test]
fn same_interval_merges_bucket_by_bucket_exactly() {
    let (a, b) = (gen_a(), gen_b());
    let ta = build(&a, 10_000, 1, 3);
    let tb = build(&b, 11_000, 1, 3);
    let mut w = vec![];
    let merged = merge_timelines(&ta, &tb, &mut w).expect("aligned timelines merge");
    let all: Vec<S> = a.iter().chain(&b).copied().collect();
    let want = build(&all, 10_000, 1, 4);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(merged, want);
    assert!(merged.is_well_formed());
}

#[test]
fn a_finer_timeline_is_rebucketed_into_the_coarser() {
    let (a, b) = (gen_a(), gen_b());
    let ta = build(&a, 10_000, 1, 3);
    let tb = build(&b, 10_000, 5, 1);
    let merged = merge_timelines(&ta, &tb, &mut vec![]).unwrap();
    let all: Vec<S> = a.iter().chain(&b).copied().collect();
    assert_eq!(merged, build(&all, 10_000, 5, 1));
    // Either order gives the same timeline.
    let swapped = merge_timelines(&tb, &ta, &mut vec![]).unwrap();
    assert_eq!(swapped.transactions.len(), merged.transactions.len());
    for t in &merged.transactions {
        let s = swapped.transactions.iter().find(|x| x.name == t.name).unwrap();
        assert_eq!((&s.samples, &s.errors, &s.values_ms, &s.cells), (&t.samples, &t.errors, &t.values_ms, &t.cells));
    }
}

#[test]
fn unaligned_or_indivisible_intervals_give_none_with_a_warning() {
    let two = build(&gen_a(), 10_000, 2, 2);
    let five = build(&gen_b(), 10_000, 5, 1);
    let mut w = vec![];
    assert_eq!(merge_timelines(&two, &five, &mut w), None, "2 s does not divide 5 s");
    assert!(w[0].contains("do not line up"), "{w:?}");
    let ta = build(&gen_a(), 10_000, 1, 3);
    let mut odd = five.clone();
    odd.start_ms = 10_500;
    let mut w2 = vec![];
    assert_eq!(merge_timelines(&ta, &odd, &mut w2), None, "a start off the 5 s grid");
    assert_eq!(w2.len(), 1);
}

#[test]
fn users_add_up_and_an_inexact_side_makes_the_merge_inexact() {
    let mut ta = build(&gen_a(), 10_000, 1, 3);
    let mut tb = build(&gen_b(), 10_000, 1, 4);
    ta.users = vec![2, 3, 3];
    tb.users = vec![0, 1, 4, 4];
    tb.transactions[0].exact = false;
    tb.transactions[0].relative_error = Some(0.015);
    let m = merge_timelines(&ta, &tb, &mut vec![]).unwrap();
    assert_eq!(m.users, vec![2, 4, 7, 4]);
    let login = m.transactions.iter().find(|t| t.name == "login").unwrap();
    assert!(!login.exact);
    assert_eq!(login.relative_error, Some(0.015));
    assert!(m.transactions.iter().find(|t| t.name == "search").unwrap().exact);
}
