//! A bounded history (`runlens import --keep N`): a nightly history bundle keeps its newest runs
//! whole, the next ones thinned (latency histograms, time series and timelines left out; every summary a
//! trend reads kept), and beyond that one thinned run per few days. Runs a comparison of the
//! bundle names are kept whole. Newest means last in the bundle, the order `--append` adds runs.
//! Applying the same bounds twice changes nothing.

use runlens::bundle::{Bundle, Run, Transaction};
use runlens::import::common::civil;
use std::collections::HashSet;

/// The note a thinned run carries, so that the viewer says why it has no histograms.
pub const THINNED_NOTE: &str = "Thinned by runlens import --keep: latency histograms, time series and the timeline were left out to keep the history small; every summary (means, percentiles, throughput, errors, KPIs) is kept, and the run is judged whole under a window.";
/// How every version of `THINNED_NOTE` starts: a run thinned by an older runlens gets the current
/// note in place of its own.
const THINNED_PREFIX: &str = "Thinned by runlens import --keep:";

const DAY_MS: i64 = 86_400_000;

/// How much of a history is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The newest runs, kept whole.
    pub keep: usize,
    /// The runs after those, kept thinned.
    pub keep_thinned: usize,
    /// Older runs: one (thinned) per this many days by start time; 0 drops them all.
    pub sparse_days: u32,
}

/// What bounding left of a history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    pub whole: usize,
    pub thinned: usize,
    pub dropped: usize,
}

impl Outcome {
    /// One line for standard error.
    pub fn describe(&self, bounds: &Bounds) -> String {
        format!(
            "history bounded: {} runs whole, {} thinned, {} dropped (--keep {}, --keep-thinned {}, --sparse-days {})",
            self.whole, self.thinned, self.dropped, bounds.keep, bounds.keep_thinned, bounds.sparse_days
        )
    }
}

/// What becomes of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Whole,
    Thinned,
    Dropped,
}

/// Bounds the bundle's runs in place.
pub fn bound(bundle: &mut Bundle, bounds: &Bounds) -> Outcome {
    let protected = protected_ids(bundle);
    let fates = fates(&bundle.runs, bounds, &protected);
    let mut outcome = Outcome::default();
    let runs = std::mem::take(&mut bundle.runs);
    for (mut run, fate) in runs.into_iter().zip(fates) {
        match fate {
            Fate::Whole => outcome.whole += 1,
            Fate::Thinned => {
                thin(&mut run);
                outcome.thinned += 1;
            }
            Fate::Dropped => {
                outcome.dropped += 1;
                continue;
            }
        }
        bundle.runs.push(run);
    }
    outcome
}

/// Ids of runs that are never thinned or dropped: those the bundle's comparisons name, and runs
/// with an annotation (an excluded night or an expected change is what a trend is read by).
fn protected_ids(bundle: &Bundle) -> HashSet<String> {
    let compared = bundle.comparisons.iter().flat_map(|c| std::iter::once(&c.baseline).chain(&c.candidates));
    let annotated = bundle.runs.iter().filter(|r| r.annotation.is_some()).map(|r| &r.id);
    compared.chain(annotated).cloned().collect()
}

/// Each run's fate, in the bundle's order. Past the two horizons the oldest run is kept, then
/// each run at least `sparse_days` after the last one kept: a choice that reads from the oldest
/// end, so new nights never change it, and that keeps all it kept when applied again.
fn fates(runs: &[Run], bounds: &Bounds, protected: &HashSet<String>) -> Vec<Fate> {
    let n = runs.len();
    let sparse_from_age = bounds.keep.saturating_add(bounds.keep_thinned);
    let mut last_kept: Option<i64> = None;
    runs.iter()
        .enumerate()
        .map(|(i, run)| {
            let age = n - 1 - i;
            if age < bounds.keep || protected.contains(&run.id) {
                return Fate::Whole;
            }
            if age < sparse_from_age {
                return Fate::Thinned;
            }
            let Some(t) = start_ms(run) else { return Fate::Dropped };
            let gap = i64::from(bounds.sparse_days) * DAY_MS;
            if bounds.sparse_days > 0 && last_kept.is_none_or(|last| t - last >= gap) {
                last_kept = Some(t);
                Fate::Thinned
            } else {
                Fate::Dropped
            }
        })
        .collect()
}

/// When the run started: its `start`, else its `date` dimension (`YYYY-MM-DD`) at midnight UTC.
fn start_ms(run: &Run) -> Option<i64> {
    let from_start = run.start.as_deref().and_then(civil::parse_datetime);
    let from_date = || run.dimensions.get("date").and_then(|d| civil::parse_datetime(&format!("{}T00:00", d.trim())));
    from_start.or_else(from_date).map(|(ms, _)| ms)
}

/// Leaves out what only a comparison of this very run needs (histograms, time series, the
/// timeline: a 1-hour run's is about as big as the rest of it) and notes it once.
fn thin(run: &mut Run) {
    let drop_histograms = |ts: &mut Vec<Transaction>| ts.iter_mut().for_each(|t| t.histogram = None);
    drop_histograms(&mut run.transactions);
    run.tenants.iter_mut().for_each(|t| drop_histograms(&mut t.transactions));
    run.resources.iter_mut().for_each(|r| r.series = None);
    run.timeline = None;
    if !run.notes.iter().any(|n| n == THINNED_NOTE) {
        run.notes.retain(|n| !n.starts_with(THINNED_PREFIX));
        run.notes.push(THINNED_NOTE.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use runlens::bundle::{Annotation, AnnotationKind, Comparison, Histogram, Resource, TimeSeries, Timeline};

    fn night(i: usize) -> Run {
        let day = civil::iso_utc(1_700_000_000_000 + i as i64 * DAY_MS);
        let txn = Transaction {
            name: "Search".into(),
            samples: Some(100),
            p95_ms: Some(200.0 + i as f64),
            histogram: Some(Histogram { upper_bounds_ms: vec![100.0, 300.0], counts: vec![60, 40] }),
            ..Default::default()
        };
        let series = TimeSeries { t_s: vec![0.0, 1.0], values: vec![3.0, 4.0] };
        Run {
            id: format!("n{i}"),
            label: format!("night {i}"),
            start: Some(day),
            transactions: vec![txn],
            timeline: Some(Timeline { interval_s: 1, buckets: 1, ..Default::default() }),
            resources: vec![Resource {
                service: "db".into(),
                metric: "cpu".into(),
                series: Some(series),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn history(nights: usize) -> Bundle {
        Bundle {
            format: "runlens-bundle".into(),
            version: 1,
            report: Default::default(),
            runs: (0..nights).map(night).collect(),
            comparisons: vec![],
            thresholds: None,
            label_rules: vec![],
        }
    }

    const BOUNDS: Bounds = Bounds { keep: 5, keep_thinned: 10, sparse_days: 7 };

    #[test]
    fn newest_whole_then_thinned_then_one_a_week() {
        let mut b = history(100);
        let outcome = bound(&mut b, &BOUNDS);
        // 85 nights past the horizons, one kept a week from the oldest: nights 0, 7, …, 84.
        assert_eq!(outcome, Outcome { whole: 5, thinned: 10 + 13, dropped: 72 });
        let ids: Vec<&str> = b.runs.iter().map(|r| r.id.as_str()).take(3).collect();
        assert_eq!(ids, ["n0", "n7", "n14"]);
        assert_eq!(b.runs[..b.runs.len() - 5].iter().filter(|r| r.transactions[0].histogram.is_none()).count(), 23);
        assert!(b.runs[b.runs.len() - 5..].iter().all(|r| *r == night(r.id[1..].parse().unwrap())));
        let thinned = &b.runs[0];
        assert_eq!((thinned.transactions[0].p95_ms, thinned.resources[0].series.as_ref()), (Some(200.0), None));
        assert_eq!(thinned.notes, [THINNED_NOTE]);
        assert_eq!(
            b.runs.iter().filter(|r| r.timeline.is_some()).count(),
            5,
            "only the whole runs keep their timelines"
        );
    }

    #[test]
    fn a_run_thinned_by_an_older_runlens_gets_the_current_note_once() {
        let mut b = history(20);
        let old = "Thinned by runlens import --keep: latency histograms and time series were left out.";
        b.runs[0].notes = vec!["kept".into(), old.into()];
        bound(&mut b, &BOUNDS);
        assert_eq!(b.runs[0].notes, ["kept", THINNED_NOTE]);
        assert!(b.runs[0].timeline.is_none());
    }

    #[test]
    fn bounding_twice_or_night_after_night_agrees() {
        let mut once = history(60);
        bound(&mut once, &BOUNDS);
        let mut twice = once.clone();
        assert_eq!(bound(&mut twice, &BOUNDS).dropped, 0);
        assert_eq!(once, twice);
        let mut nightly = history(0);
        for i in 0..60 {
            nightly.runs.push(night(i));
            bound(&mut nightly, &BOUNDS);
        }
        assert_eq!(nightly, once, "bounding each night keeps what bounding once keeps");
    }

    #[test]
    fn compared_runs_stay_whole_and_timeless_old_runs_go() {
        let mut b = history(40);
        b.comparisons =
            vec![Comparison { baseline: "n1".into(), candidates: vec!["n39".into()], ..Default::default() }];
        b.runs[2].start = None;
        let mut thinless = BOUNDS;
        thinless.sparse_days = 0;
        bound(&mut b, &thinless);
        let ids: Vec<&str> = b.runs.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), 1 + 15);
        assert_eq!(b.runs[0], night(1), "the baseline is kept whole");
        let mut dated = night(3);
        dated.start = None;
        dated.dimensions.insert("date".into(), "2023-11-17".into());
        assert_eq!(start_ms(&dated), Some(1_700_179_200_000));
    }

    #[test]
    fn annotated_runs_stay_whole() {
        let mut b = history(40);
        let note = |kind| Some(Annotation { kind, note: "load generator restarted".into() });
        b.runs[3].annotation = note(AnnotationKind::Excluded);
        b.runs[20].annotation = note(AnnotationKind::ExpectedChange);
        let (excluded, expected) = (b.runs[3].clone(), b.runs[20].clone());
        bound(&mut b, &BOUNDS);
        assert!(b.runs.contains(&excluded), "an excluded night older than every horizon is kept whole");
        assert!(b.runs.contains(&expected), "an expected change in the thinned horizon is kept whole");
        assert!(b.runs.iter().filter(|r| r.annotation.is_none()).count() < 38, "the others are still bounded");
    }
}
