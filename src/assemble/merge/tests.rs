//! Distributions read back from transactions, and `Values::add_repeated`.

use super::*;
use crate::import::common::samples::{Sample, Values};

fn stats_of(values: &[u64]) -> LabelStats {
    let mut l = LabelStats { name: "x".into(), ..Default::default() };
    for (i, v) in values.iter().enumerate() {
        l.add(&Sample { elapsed_ms: Some(*v), start_ms: Some(1_000 + i as i64), ..Default::default() });
    }
    l
}

#[test]
fn repeated_values_equal_values_added_one_by_one() {
    let data: Vec<f64> = vec![3.0, 3.0, 5000.0, 1.5, 4095.0, 4096.0, 1.5, 0.0, 7.25];
    let (mut one, mut rep) = (Values::default(), Values::default());
    data.iter().for_each(|v| one.add_f64(*v));
    for (v, c) in one.sorted() {
        rep.add_repeated(v, c);
    }
    assert_eq!(rep.sorted(), one.sorted());
    assert_eq!(rep.summary(&[50.0, 99.0]), one.summary(&[50.0, 99.0]));
    let (mut ints, mut irep) = (Values::default(), Values::default());
    (0..3000u64).for_each(|i| ints.add_int(i % 301 * 17));
    ints.sorted().into_iter().for_each(|(v, c)| irep.add_repeated(v, c));
    assert_eq!(irep.summary(&[95.0]), ints.summary(&[95.0]));
}

#[test]
fn a_histogram_of_every_value_is_exact_and_a_bucketed_one_is_not() {
    let few = stats_of(&(0..2000).map(|i| 100 + i % 200).collect::<Vec<_>>()).to_transaction((None, None));
    let d = dist::of(&few, None).unwrap();
    assert!(d.exact);
    assert_eq!(d.count(), 2000);
    let many = stats_of(&(0..2000).map(|i| 100 + i % 700).collect::<Vec<_>>()).to_transaction((None, None));
    let d = dist::of(&many, None).unwrap();
    assert!(!d.exact, "700 distinct values are bucketed");
    let mut summary = few.clone();
    summary.histogram = None;
    assert_eq!(dist::of(&summary, None), None, "a summary has no distribution");
}

#[test]
fn two_generators_add_up_to_one() {
    let all: Vec<u64> = (0..1000).map(|i| (i * 37) % 180 + 20).collect();
    type Rows = Vec<(usize, u64)>;
    let (a, b): (Rows, Rows) = all.iter().copied().enumerate().partition(|(i, _)| i % 3 == 0);
    let run_of = |v: &[(usize, u64)]| {
        let mut l = LabelStats { name: "x".into(), ..Default::default() };
        for (i, e) in v {
            l.add(&Sample {
                elapsed_ms: Some(*e),
                start_ms: Some(1_000 * *i as i64),
                errors: u64::from(i % 10 == 0),
                ..Default::default()
            });
        }
        let w = (l.first_start_ms, l.last_end_ms);
        Run {
            id: "r".into(),
            start: w.0.map(civil::iso_utc),
            end: w.1.map(civil::iso_utc),
            transactions: vec![l.to_transaction(w)],
            ..Default::default()
        }
    };
    let (ra, rb) = (run_of(&a), run_of(&b));
    let m = samples(&[("a.jtl", &ra), ("b.jtl", &rb)]);
    let want = run_of(&all.iter().copied().enumerate().collect::<Vec<_>>());
    assert_eq!(m.transactions, want.transactions);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
}
