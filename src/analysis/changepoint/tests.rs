//! Known answers of the change-point detector and of the shifts of a history.

use super::history::{history_shifts, ShiftKind};
use super::*;
use crate::bundle::{Annotation, AnnotationKind, Run, Transaction};
use crate::model::Thresholds;

/// `n` values of N(0, 1) noise around `level(i)`, from `seed`.
fn series(n: usize, seed: u64, level: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..n).map(|i| level(i) + rng.normal()).collect()
}

fn indices(cps: &[ChangePoint]) -> Vec<usize> {
    cps.iter().map(|c| c.index).collect()
}

#[test]
fn a_clear_step_is_found_where_it_is_with_p_at_most_alpha() {
    let s = series(40, 1, |i| if i < 22 { 100.0 } else { 105.0 });
    let cps = change_points(&s, &DEFAULT);
    assert_eq!(indices(&cps), [22]);
    let cp = cps[0];
    assert!(cp.p_value <= DEFAULT.alpha, "{cp:?}");
    assert!((cp.mean_before - 100.0).abs() < 0.6 && (cp.mean_after - 105.0).abs() < 0.6, "{cp:?}");
    let rel = cp.relative_shift().unwrap();
    assert!((rel - 0.05).abs() < 0.01, "{rel}");
}

#[test]
fn two_shifts_are_both_found() {
    let s = series(60, 2, |i| match i {
        0..20 => 10.0,
        20..40 => 16.0,
        _ => 12.0,
    });
    assert_eq!(indices(&change_points(&s, &DEFAULT)), [20, 40]);
}

#[test]
fn iid_noise_gives_change_points_about_as_often_as_alpha() {
    let runs = 600;
    let with_any =
        (0..runs).filter(|&seed| !change_points(&series(40, 1000 + seed, |_| 50.0), &DEFAULT).is_empty()).count();
    let rate = with_any as f64 / runs as f64;
    // α = 0.01: about 6 of 600 expected; 15 or more has a probability under 0.1 %.
    assert!(rate < 2.5 * DEFAULT.alpha, "false positives in {with_any} of {runs} noise series");
}

#[test]
fn a_single_spike_is_no_change_point() {
    for at in [0, 1, 17, 38, 39] {
        let s = series(40, 3, |i| if i == at { 130.0 } else { 100.0 });
        assert!(change_points(&s, &DEFAULT).is_empty(), "a spike at {at}");
    }
    // A shift of the minimum segment's length at the end is one.
    let s = series(40, 4, |i| if i >= 37 { 130.0 } else { 100.0 });
    assert_eq!(indices(&change_points(&s, &DEFAULT)), [37]);
}

#[test]
fn the_same_series_gives_the_same_answer_and_bad_input_none() {
    let s = series(80, 5, |i| if i < 50 { 1.0 } else { 3.0 });
    let once = change_points(&s, &DEFAULT);
    assert_eq!(once, change_points(&s, &DEFAULT));
    let other_seed = change_points(&s, &Settings { seed: 99, ..DEFAULT });
    assert_eq!(indices(&once), indices(&other_seed), "a clear step does not hang on the seed");
    let mut bad = s.clone();
    bad[10] = f64::NAN;
    assert!(change_points(&bad, &DEFAULT).is_empty());
    assert!(change_points(&[], &DEFAULT).is_empty());
    assert!(change_points(&[1.0; 5], &DEFAULT).is_empty());
    assert!(change_points(&[3.0; 50], &DEFAULT).is_empty(), "a constant series has no change point");
}

/// A nightly run with a p95 of `p95` ms for "search".
fn night(i: usize, p95: f64) -> Run {
    Run {
        id: format!("n{i}"),
        label: format!("nightly-{i}"),
        start: Some(format!("2026-01-{:02}T02:00:00Z", i + 1)),
        transactions: vec![Transaction { name: "search".into(), p95_ms: Some(p95), ..Default::default() }],
        ..Default::default()
    }
}

fn annotate(r: &mut Run, kind: AnnotationKind, note: &str) {
    r.annotation = Some(Annotation { kind, note: note.into() });
}

/// 30 nights of p95 around 200 ms, 240 ms from night 18 on; bundle order reversed.
fn history() -> Vec<Run> {
    let noise = series(30, 6, |_| 0.0);
    let mut runs: Vec<Run> = (0..30).map(|i| night(i, if i < 18 { 200.0 } else { 240.0 } + 3.0 * noise[i])).collect();
    runs.reverse();
    runs
}

#[test]
fn a_history_s_shift_is_at_the_right_run_after_ordering() {
    let runs = history();
    let refs: Vec<&Run> = runs.iter().collect();
    let shifts = history_shifts(&refs, None, &Thresholds::default());
    assert_eq!(shifts.len(), 1, "{shifts:?}");
    let s = &shifts[0];
    assert_eq!((s.run_id.as_str(), s.index, s.kind), ("n18", 18, ShiftKind::Regression));
    assert_eq!(s.metric, "p95 of search");
    let sentence = s.sentence();
    assert!((s.relative.unwrap() - 0.2).abs() < 0.02, "{s:?}");
    assert!(sentence.starts_with("p95 of search · shifted +"), "{sentence}");
    assert!(sentence.contains(" at nightly-18 (p = 0.005), ") && sentence.ends_with(": a regression"), "{sentence}");
}

#[test]
fn excluded_runs_are_left_out_and_expected_changes_labelled() {
    let mut runs = history();
    // Night 8 (position 21 reversed) ran on a broken environment: 900 ms, a spike of three.
    for i in [7, 8, 9] {
        let r = &mut runs[29 - i];
        r.transactions[0].p95_ms = Some(900.0);
        annotate(r, AnnotationKind::Excluded, "disk full");
    }
    annotate(&mut runs[29 - 18], AnnotationKind::ExpectedChange, "new index mapping");
    let refs: Vec<&Run> = runs.iter().collect();
    let shifts = history_shifts(&refs, None, &Thresholds::default());
    assert_eq!(shifts.len(), 1, "the excluded nights make no shift of their own: {shifts:?}");
    let s = &shifts[0];
    assert_eq!((s.run_id.as_str(), s.kind), ("n18", ShiftKind::Expected));
    assert!(s.sentence().ends_with(": expected: new index mapping"), "{}", s.sentence());
    // Without the annotations the three bad nights swamp the series: shuffles that scatter them
    // split as well as the real step, which is no longer found.
    let plain: Vec<Run> = runs.iter().cloned().map(|r| Run { annotation: None, ..r }).collect();
    let refs: Vec<&Run> = plain.iter().collect();
    assert_eq!(history_shifts(&refs, None, &Thresholds::default()), []);
}
