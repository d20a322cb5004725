//! Tests of the intervals: coverage, known answers, and the fast paths against the plain ones.

use super::bootstrap::*;
use super::cdf::Cdf;
use super::random::*;
use super::*;

/// A histogram of `n` samples drawn from a log-normal latency (median `median` ms), bucketed
/// to whole milliseconds: an independent sample each call with a different seed.
pub(crate) fn lognormal(n: usize, median: f64, seed: u64) -> Histogram {
    let mut rng = Rng::new(seed);
    let mut values: Vec<f64> = (0..n).map(|_| (median * (0.4 * rng.normal()).exp()).round().max(1.0)).collect();
    values.sort_by(f64::total_cmp);
    let mut h = Histogram::default();
    for v in values {
        if h.upper_bounds_ms.last() == Some(&v) {
            if let Some(c) = h.counts.last_mut() {
                *c += 1;
            }
        } else {
            h.upper_bounds_ms.push(v);
            h.counts.push(1);
        }
    }
    h
}

fn scaled(h: &Histogram, k: f64) -> Histogram {
    Histogram { upper_bounds_ms: h.upper_bounds_ms.iter().map(|b| b * k).collect(), counts: h.counts.clone() }
}

#[test]
fn identical_distributions_give_an_interval_around_zero() {
    let h = lognormal(2000, 300.0, 1);
    for q in [0.5, 0.95] {
        let i = quantile_change(&h, &h, q, 7).unwrap();
        assert!(i.lo < 0.0 && i.hi > 0.0, "{q}: {i:?}");
        assert!(i.hi - i.lo < 0.15, "2,000 samples pin the {q} quantile within a few percent: {i:?}");
    }
}

#[test]
fn a_shifted_distribution_gives_an_interval_with_the_right_sign() {
    let a = lognormal(3000, 300.0, 2);
    let slower = scaled(&lognormal(3000, 300.0, 3), 1.2);
    let i = quantile_change(&a, &slower, 0.5, 9).unwrap();
    assert!(i.lo > 0.1 && i.hi < 0.3, "20 % slower: {i:?}");
    let faster = scaled(&lognormal(3000, 300.0, 4), 0.8);
    let j = quantile_change(&a, &faster, 0.95, 9).unwrap();
    assert!(j.hi < -0.1 && j.lo > -0.3, "20 % faster: {j:?}");
}

#[test]
fn the_interval_covers_no_change_about_95_percent_of_the_time() {
    // Pairs of independent samples of one distribution: the 95 % interval should contain 0
    // in about 95 of 100 pairs (a badly calibrated method would be far off).
    let covered = (0..100u64)
        .filter(|s| {
            let i =
                quantile_change(&lognormal(400, 250.0, 1000 + s), &lognormal(400, 250.0, 5000 + s), 0.5, *s).unwrap();
            i.lo <= 0.0 && i.hi >= 0.0
        })
        .count();
    assert!((88..=100).contains(&covered), "covered {covered} of 100");
}

#[test]
fn several_quantiles_at_once_equal_one_at_a_time() {
    let boot = Bootstrap::shared();
    // Exact draws (few samples) and the sorted path (many), a quantile of each.
    for (n, seed) in [(40, 11), (5000, 12)] {
        let (a, b) = (lognormal(n, 100.0, seed), lognormal(n, 120.0, seed + 100));
        let both = boot.quantile_changes(&a, &b, [(0.5, 1), (0.95, 2)]);
        assert_eq!(both, [boot.quantile_change(&a, &b, 0.5, 1), boot.quantile_change(&a, &b, 0.95, 2)]);
        assert!(both.iter().all(Option::is_some) && both[0] != both[1], "{both:?}");
    }
    let bad = Histogram { upper_bounds_ms: vec![2.0, 1.0], counts: vec![1, 1] };
    assert_eq!(boot.quantile_changes(&lognormal(50, 10.0, 1), &bad, [(0.5, 1), (0.95, 2)]), [None, None]);
}

#[test]
fn same_input_same_interval_and_bad_histograms_give_none() {
    let (a, b) = (lognormal(500, 100.0, 5), lognormal(500, 110.0, 6));
    assert_eq!(quantile_change(&a, &b, 0.95, 3), quantile_change(&a, &b, 0.95, 3));
    let bad = Histogram { upper_bounds_ms: vec![2.0, 1.0], counts: vec![1, 1] };
    assert_eq!(quantile_change(&a, &bad, 0.5, 1), None);
    assert_eq!(quantile_change(&a, &Histogram { upper_bounds_ms: vec![1.0], counts: vec![0] }, 0.5, 1), None);
    assert_eq!(quantile_change(&a, &Histogram { upper_bounds_ms: vec![1.0, 2.0], counts: vec![3] }, 0.5, 1), None);
}

#[test]
fn counting_pairs_of_equal_runs_gives_the_interval_of_every_replicate() {
    // The weighted shortcut against the plain list of 1,000 changes, on histograms from
    // whole-millisecond (many runs of equal values) to 3 %-wide buckets, and a baseline
    // whose replicates can be 0 (those replicates are left out by both).
    let boot = Bootstrap::shared();
    let mut compared = 0;
    for s in 0..60u64 {
        let (n, median) = (600 + 97 * s as usize, 20.0 + 11.0 * s as f64);
        let a = lognormal(n, median, 100 + s);
        let b = if s % 3 == 0 {
            scaled(&lognormal(n / 2 + 300, median, 200 + s), 1.07)
        } else {
            lognormal(n + 50, median * 1.02, 300 + s)
        };
        let a = if s % 7 == 0 {
            Histogram {
                upper_bounds_ms: [0.0].iter().chain(&a.upper_bounds_ms).copied().collect(),
                counts: [n as u64 / 2].iter().chain(&a.counts).copied().collect(),
            }
        } else {
            a
        };
        for q in [0.5, 0.95] {
            let (ca, cb) = (Cdf::new(&a).unwrap(), Cdf::new(&b).unwrap());
            let qa = Bootstrap::replicates(&ca, q, &boot.za, 1);
            let qb = Bootstrap::replicates(&cb, q, &boot.zb, 2);
            let (Replicates::Sorted(ra), Replicates::Sorted(rb)) = (&qa, &qb) else { continue };
            assert_eq!(
                boot.interval_of_runs(ra, rb),
                boot.interval_of_list(&qa.values(), &qb.values()),
                "seed {s}, q {q}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 100, "compared {compared}");
}

#[test]
fn runs_found_by_binary_search_equal_the_sweep() {
    // Every (histogram, quantile) of the pairing test above plus thin and one-bucket ones:
    // the replicate quantiles as runs, by search and by the sweep, bit for bit; and a
    // sequence that bends back (not monotone) takes the sweep.
    let boot = Bootstrap::shared();
    let mut hs: Vec<Histogram> =
        (0..40u64).map(|s| lognormal(600 + 97 * s as usize, 20.0 + 11.0 * s as f64, 100 + s)).collect();
    hs.push(Histogram { upper_bounds_ms: vec![5.0], counts: vec![400] });
    hs.push(Histogram { upper_bounds_ms: vec![1.0, 2.0, 3.0], counts: vec![0, 200, 0] });
    hs.push(Histogram {
        upper_bounds_ms: (1..=300).map(f64::from).collect(),
        counts: (1..=300).map(|i| 1 + (i % 3)).collect(),
    });
    let mut checked = 0;
    for h in &hs {
        let c = Cdf::new(h).unwrap();
        for q in [0.5, 0.9, 0.95, 0.99] {
            let (r, s) = c.order(q);
            if r < APPROX_FROM || s < APPROX_FROM {
                continue;
            }
            let draw = BetaDraw::new(r, s);
            for z in [&boot.za, &boot.zb] {
                let us: Vec<f64> = z.iter().map(|z| draw.at(*z)).collect();
                let sweep = c.inverse_sweep(us.iter().copied());
                assert_eq!(c.inverse_sorted(&us), sweep, "q {q}");
                assert!(draw.rises_over(z[0], z[z.len() - 1]));
                assert_eq!(c.inverse_rising(z.len(), |i| draw.at(z[i])), sweep, "q {q}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 200, "checked {checked}");
    // A skewed draw bends back far out (beyond 3 / skew): then every value is drawn and swept.
    assert!(!BetaDraw::new(30.0, 1e5).rises_over(-20.0, 20.0));
    let c = Cdf::new(&hs[3]).unwrap();
    let bent = [0.1, 0.5, 0.3, 0.9, 0.2];
    assert_eq!(c.inverse_sorted(&bent), c.inverse_sweep(bent.iter().copied()));
}

#[test]
fn beta_draws_have_the_right_mean_and_tails() {
    let mut rng = Rng::new(42);
    for (a, b) in [(2.0, 5.0), (30.0, 3.0), (950.0, 51.0), (5000.0, 5000.0)] {
        let m = (0..20_000).map(|_| rng.beta(a, b)).sum::<f64>() / 20_000.0;
        assert!((m - a / (a + b)).abs() < 0.005, "Beta({a}, {b}) mean {m}");
    }
    // The approximation against exact draws where it is used: the 2.5th and 97.5th
    // percentiles agree within a tenth of a standard deviation.
    for (a, b) in [(30.0, 971.0), (950.0, 51.0), (500.0, 501.0)] {
        let mut exact: Vec<f64> = (0..40_000).map(|_| rng.beta(a, b)).collect();
        let draw = beta_from_normal(a, b);
        let mut approx: Vec<f64> = (0..40_000).map(|_| draw(rng.normal())).collect();
        exact.sort_by(f64::total_cmp);
        approx.sort_by(f64::total_cmp);
        let n = a + b;
        let sd = (a * b / (n * n * (n + 1.0))).sqrt();
        for i in [1000, 39_000] {
            assert!((exact[i] - approx[i]).abs() < 0.1 * sd, "Beta({a}, {b}) at {i}: {} vs {}", exact[i], approx[i]);
        }
    }
}

#[test]
fn error_rate_interval_newcombe_example() {
    // Newcombe (1998), table II, example (a): 56/70 vs 48/80, difference 0.2 with the
    // hybrid score interval 0.0524 to 0.3339 (there a − b; here b − a, so signs flip).
    let i = error_rate_change(48.0, 80.0, 56.0, 70.0).unwrap();
    assert!((i.lo - 5.24).abs() < 0.01 && (i.hi - 33.39).abs() < 0.01, "{i:?}");
    let same = error_rate_change(10.0, 1000.0, 20.0, 2000.0).unwrap();
    assert!(same.lo < 0.0 && same.hi > 0.0, "same rate, twice the samples: {same:?}");
    assert_eq!(error_rate_change(1.0, 0.0, 1.0, 10.0), None);
}
