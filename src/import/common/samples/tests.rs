use super::*;

fn naive(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let rank = ((p * v.len() as f64) / 100.0).ceil().max(1.0) as usize;
    v[rank - 1]
}

#[test]
fn nearest_rank_matches_sorting() {
    let data: Vec<u64> = (0..10_007u64).map(|i| (i * 7919) % 9001 + (i % 3) * 5000).collect();
    let mut v = Values::default();
    data.iter().for_each(|x| v.add_int(*x));
    let s = v.summary(&[50.0, 90.0, 95.0, 99.0, 99.9, 100.0, 0.0]).unwrap();
    let f: Vec<f64> = data.iter().map(|x| *x as f64).collect();
    for (i, p) in [50.0, 90.0, 95.0, 99.0, 99.9, 100.0, 0.0].iter().enumerate() {
        assert_eq!(s.percentiles[i], naive(f.clone(), *p), "p{p}");
    }
    assert_eq!(s.count, 10_007);
    assert_eq!(s.mean, f.iter().sum::<f64>() / f.len() as f64);
    assert_eq!((s.min, s.max), (0.0, *f.iter().max_by(|a, b| a.total_cmp(b)).unwrap()));
    assert_eq!(s.histogram.counts.iter().sum::<u64>(), 10_007);
    assert_eq!(*s.histogram.upper_bounds_ms.last().unwrap(), s.max);
}

#[test]
fn small_cases_follow_the_definition() {
    let mut v = Values::default();
    [1u64, 2, 3, 4].iter().for_each(|x| v.add_int(*x));
    // ⌈0.5·4⌉ = 2 → 2; ⌈0.9·4⌉ = 4 → 4.
    assert_eq!(v.summary(&[50.0, 90.0]).unwrap().percentiles, vec![2.0, 4.0]);
    let mut one = Values::default();
    one.add_int(7);
    assert_eq!(one.summary(&[1.0, 99.0]).unwrap().percentiles, vec![7.0, 7.0]);
}

#[test]
fn merging_equals_adding_everything_to_one() {
    let (mut a, mut b, mut all) = (Values::default(), Values::default(), Values::default());
    for i in 0..5000u64 {
        let x = (i * 31) % 7000;
        if i % 2 == 0 {
            a.add_int(x)
        } else {
            b.add_int(x)
        }
        all.add_int(x);
    }
    a.merge(&b);
    assert_eq!(a.sorted(), all.sorted());
    assert_eq!(a.summary(&[95.0]), all.summary(&[95.0]));
}

#[test]
fn floats_and_integers_mix_exactly() {
    let mut v = Values::default();
    for x in [3.0, 1.5, 2.0, 2.25, 4096.0, 5000.0] {
        v.add_f64(x);
    }
    assert_eq!(v.sorted().iter().map(|x| x.0).collect::<Vec<_>>(), vec![1.5, 2.0, 2.25, 3.0, 4096.0, 5000.0]);
    assert!((v.summary(&[50.0]).unwrap().mean - 9104.75 / 6.0).abs() < 1e-9);
}

#[test]
fn many_distinct_floats_fall_back_within_the_stated_error() {
    let mut v = Values::default();
    let data: Vec<f64> = (0..(MAX_DISTINCT + 10)).map(|i| 1.0 + i as f64 * 0.001).collect();
    data.iter().for_each(|x| v.add_f64(*x));
    let s = v.summary(&[50.0, 99.0]).unwrap();
    assert!(!s.exact);
    for (i, p) in [50.0, 99.0].iter().enumerate() {
        let truth = naive(data.clone(), *p);
        assert!(
            (s.percentiles[i] - truth).abs() <= truth * APPROX_RELATIVE_ERROR,
            "p{p}: {} vs {truth}",
            s.percentiles[i]
        );
    }
    assert_eq!(s.count, data.len() as u64);
}

#[test]
fn labels_keep_first_appearance_order_across_merges() {
    let (mut a, mut b) = (Aggregator::default(), Aggregator::default());
    let s = Sample { elapsed_ms: Some(5), start_ms: Some(1000), ..Default::default() };
    let i = a.label_id(b"x", 10, || "x".into());
    a.labels[i].add(&s);
    let j = b.label_id(b"y", 500, || "y".into());
    b.labels[j].add(&Sample { errors: 1, start_ms: Some(3000), ..s });
    let k = b.label_id(b"x", 400, || "x".into());
    b.labels[k].add(&s);
    a.merge(b);
    let t = a.transactions();
    assert_eq!(
        t.iter().map(|t| (t.name.as_str(), t.samples)).collect::<Vec<_>>(),
        vec![("x", Some(2)), ("y", Some(1))]
    );
    assert_eq!(t[1].errors, Some(1));
    assert_eq!(a.run_window(), (Some(1000), Some(3005)));
    let kpis = run_kpis(&a.total(), a.run_window());
    assert_eq!(kpis.iter().find(|k| k.name == "Error rate").unwrap().value, 100.0 / 3.0);
}

/// (second offset, failed, value) → samples, from `Seconds::entries`.
fn entry_counts(s: &Seconds) -> std::collections::BTreeMap<(i64, bool, u64), u64> {
    let mut out = std::collections::BTreeMap::new();
    for (p, c) in s.entries() {
        *out.entry(super::seconds::unpack(p)).or_insert(0) += c;
    }
    out
}

#[test]
fn compaction_keeps_every_sample_and_waits_longer_when_samples_are_distinct() {
    const N: u64 = 300_000;
    let t0 = 1_700_000_000_000i64;
    let (mut distinct, mut repeated) = (Seconds::default(), Seconds::default());
    let (mut want_distinct, mut want_repeated) = (std::collections::BTreeMap::new(), std::collections::BTreeMap::new());
    for i in 0..N {
        // Every sample its own (second, value): compaction folds nothing.
        let (t, e, failed) = (t0 + i as i64 * 10, i % 100_000, i % 7 == 0);
        distinct.add(t, Some(e), 1, u64::from(failed));
        *want_distinct.entry(((t - t0) / 1000, failed, e)).or_insert(0) += 1;
        // Ten values in three seconds: compaction folds nearly everything.
        let (t, e) = (t0 + (i % 3) as i64 * 1000 + 5, 100 + i % 10);
        repeated.add(t, Some(e), 1, 0);
        *want_repeated.entry(((t - t0) / 1000, false, e)).or_insert(0) += 1;
    }
    assert_eq!(entry_counts(&distinct), want_distinct);
    assert_eq!(entry_counts(&repeated), want_repeated);
    // Distinct samples: compacted at 65,536 (folding none), then only at twice that; the rest wait.
    let c = 1usize << 16;
    assert_eq!((distinct.runs.len(), distinct.packed.len()), (3 * c, N as usize - 3 * c));
    assert_eq!(repeated.runs.len(), 30);
    assert!(repeated.packed.len() < c);
}
