//! The Timeline view's data: each run over test time (a latency percentile, throughput, errors,
//! active users, resource series), computed from its timeline. Pure, so it is tested on the host.

use crate::analysis::window::resource_offset_s;
use crate::bundle::{Run, Timeline, TransactionTimeline, Unit};
use crate::import::common::samples::nearest_rank;

/// One run's series; `x` holds each bucket's middle in test time (in units of
/// `SeriesOptions::unit_s` seconds), or in epoch milliseconds on the wall clock.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSeries {
    pub label: String,
    pub x: Vec<f64>,
    /// The percentile of the bucket's samples; `None` where it has no timed sample.
    pub latency_ms: Vec<Option<f64>>,
    /// Samples per second.
    pub throughput: Vec<f64>,
    /// Failed samples per second.
    pub errors: Vec<f64>,
    /// Active users; empty when the run does not record them.
    pub users: Vec<f64>,
    /// Whether every latency value is exact.
    pub exact: bool,
    /// Resource series in percent on the same axis: (service · metric, x, values); only the
    /// points within `span`, and the nearest point on either side of it (so that a line crosses
    /// the edge, however coarse the series: a CloudWatch query usually spans more than the test).
    pub resources: Vec<(String, Vec<f64>, Vec<f64>)>,
    /// Where the buckets begin and end on the x axis.
    pub span: (f64, f64),
}

/// What to draw: the percentile, one transaction or all samples, and the x axis.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesOptions<'a> {
    pub percentile: u8,
    pub transaction: Option<&'a str>,
    pub clock: bool,
    /// Seconds per unit of elapsed test time on the x axis: 60 (minutes), or 1 for short runs
    /// ([`elapsed_unit_s`]).
    pub unit_s: f64,
}

/// The unit of elapsed time for `runs`: seconds when every timeline spans at most ten minutes
/// (a 22 s test in minutes reads "0.35"), else minutes.
pub fn elapsed_unit_s<'a>(runs: impl IntoIterator<Item = &'a Run>) -> f64 {
    let short = runs
        .into_iter()
        .filter_map(Run::usable_timeline)
        .all(|tl| u64::from(tl.buckets) * u64::from(tl.interval_s) <= 600);
    if short {
        1.0
    } else {
        60.0
    }
}

/// Transactions whose samples count in "all samples": Transaction Controller parents are left out
/// when there are plain samples (their children are counted).
fn counted<'a>(tl: &'a Timeline, only: Option<&'a str>) -> impl Iterator<Item = &'a TransactionTimeline> {
    let has_plain = tl.transactions.iter().any(|t| !t.controller);
    tl.transactions.iter().filter(move |t| match only {
        Some(name) => t.name == name && !t.total,
        None => !(has_plain && t.controller),
    })
}

/// The run's series, or `None` when it has no usable timeline.
pub fn run_series(run: &Run, o: &SeriesOptions) -> Option<RunSeries> {
    let tl = run.usable_timeline()?;
    let n = tl.buckets as usize;
    let width = tl.interval_s as f64;
    let x_of = |t_s: f64| if o.clock { tl.origin_ms as f64 + t_s * 1000.0 } else { t_s / o.unit_s.max(1.0) };
    let x = (0..tl.buckets).map(|b| x_of(tl.bucket_start_s(b) + width / 2.0)).collect();
    let parts: Vec<&TransactionTimeline> = counted(tl, o.transaction).collect();
    let per_s = |pick: fn(&TransactionTimeline) -> &Vec<u64>| -> Vec<f64> {
        (0..n).map(|b| parts.iter().map(|t| pick(t).get(b).copied().unwrap_or(0)).sum::<u64>() as f64 / width).collect()
    };
    let latency_ms = (0..n)
        .map(|b| {
            let mut cells: Vec<(f64, u64)> = parts.iter().flat_map(|t| t.cell(b).map(|(_, v, n)| (v, n))).collect();
            crate::order::sort_by(&mut cells, |a, b| a.0.total_cmp(&b.0));
            let count: u64 = cells.iter().map(|c| c.1).sum();
            (count > 0).then(|| nearest_rank(&cells, count, o.percentile as f64))
        })
        .collect();
    let offset = resource_offset_s(run, tl);
    let (lo, hi) = (tl.bucket_start_s(0), tl.bucket_start_s(tl.buckets));
    let resources = run
        .resources
        .iter()
        .filter(|r| r.unit == Unit::Percent)
        .filter_map(|r| {
            let s = r.series.as_ref()?;
            let (ts, values) = around(&s.t_s, &s.values, lo + offset, hi + offset);
            let xs = ts.iter().map(|t| x_of(t - offset)).collect();
            Some((format!("{} · {}", r.service, r.metric), xs, values))
        })
        .collect();
    Some(RunSeries {
        label: run.label.clone(),
        x,
        latency_ms,
        throughput: per_s(|t| &t.samples),
        errors: per_s(|t| &t.errors),
        users: tl.users.iter().map(|u| *u as f64).collect(),
        exact: parts.iter().all(|t| t.exact || t.cells.is_empty()),
        resources,
        span: (x_of(lo), x_of(hi)),
    })
}

/// The points of `(t, v)` with `lo ≤ t ≤ hi`, and the latest before `lo` and the earliest after
/// `hi`, in their order (times need not be sorted; pairs past the shorter list are dropped).
fn around(t: &[f64], v: &[f64], lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let pairs = || t.iter().copied().zip(v.iter().copied()).enumerate();
    let before = pairs().filter(|(_, (x, _))| *x < lo).max_by(|a, b| a.1 .0.total_cmp(&b.1 .0)).map(|p| p.0);
    let after = pairs().filter(|(_, (x, _))| *x > hi).min_by(|a, b| a.1 .0.total_cmp(&b.1 .0)).map(|p| p.0);
    pairs().filter(|(i, (x, _))| (lo..=hi).contains(x) || Some(*i) == before || Some(*i) == after).map(|p| p.1).unzip()
}

/// Every transaction of the runs' timelines, in the order first seen (a run's `total` entry is
/// none).
pub fn timeline_transactions<'a>(runs: impl IntoIterator<Item = &'a Run>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tl in runs.into_iter().filter_map(Run::usable_timeline) {
        for t in tl.transactions.iter().filter(|t| !t.total) {
            if !out.contains(&t.name) {
                out.push(t.name.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> Run {
        let tx = |name: &str, controller: bool, cells: Vec<Vec<u64>>| TransactionTimeline {
            name: name.into(),
            controller,
            samples: cells.iter().map(|c| c.chunks(2).map(|p| p[1]).sum()).collect(),
            errors: vec![0, 2],
            values_ms: vec![10.0, 20.0, 300.0],
            exact: true,
            cells,
            ..Default::default()
        };
        Run {
            label: "r".into(),
            timeline: Some(Timeline {
                start_ms: 60_000,
                origin_ms: 60_000,
                interval_s: 60,
                buckets: 2,
                users: vec![3, 5],
                transactions: vec![
                    tx("a", false, vec![vec![0, 9, 2, 1], vec![]]),
                    tx("b", false, vec![vec![1, 10], vec![1, 4]]),
                    tx("parent", true, vec![vec![2, 100], vec![2, 100]]),
                ],
                causes: vec![],
            }),
            ..Default::default()
        }
    }

    #[test]
    fn all_samples_merge_the_transactions_but_not_controller_parents() {
        let o = SeriesOptions { percentile: 95, transaction: None, clock: false, unit_s: 60.0 };
        let s = run_series(&run(), &o).unwrap();
        assert_eq!(s.x, vec![0.5, 1.5]);
        // Bucket 0: 9 × 10, 10 × 20, 1 × 300 → rank ⌈0.95·20⌉ = 19 is 20 ms; bucket 1: 4 × 20.
        assert_eq!(s.latency_ms, vec![Some(20.0), Some(20.0)]);
        assert_eq!(s.throughput, vec![20.0 / 60.0, 4.0 / 60.0]);
        assert_eq!(s.errors, vec![0.0, 4.0 / 60.0]);
        assert_eq!(s.users, vec![3.0, 5.0]);
        let p99 = run_series(&run(), &SeriesOptions { percentile: 99, ..o.clone() }).unwrap();
        assert_eq!(p99.latency_ms[0], Some(300.0));
    }

    #[test]
    fn short_runs_are_drawn_in_seconds() {
        // run(): 2 buckets of 60 s = 120 s, short; one of 6 × 120 s = 12 min is not.
        assert_eq!(elapsed_unit_s([&run()]), 1.0);
        let mut long = run();
        if let Some(tl) = long.timeline.as_mut() {
            tl.interval_s = 360;
        }
        assert_eq!(elapsed_unit_s([&run(), &long]), 60.0);
        assert_eq!(elapsed_unit_s(std::iter::empty()), 1.0);
        let o = SeriesOptions { percentile: 95, transaction: None, clock: false, unit_s: 1.0 };
        assert_eq!(run_series(&run(), &o).unwrap().x, vec![30.0, 90.0]);
    }

    #[test]
    fn one_transaction_and_the_wall_clock() {
        let o = SeriesOptions { percentile: 50, transaction: Some("a"), clock: true, unit_s: 60.0 };
        let s = run_series(&run(), &o).unwrap();
        assert_eq!(s.x, vec![90_000.0, 150_000.0]);
        assert_eq!(s.latency_ms, vec![Some(10.0), None]);
        assert_eq!(timeline_transactions([&run()]), vec!["a", "b", "parent"]);
    }

    #[test]
    fn resources_are_cut_to_the_buckets_with_one_point_beyond_each_edge() {
        use crate::bundle::{Resource, TimeSeries};
        let mut r = run();
        // The run starts 30 s before its first sample (test time 0 is 90 s after `start`, at
        // 60 000 ms): the buckets span test time 0 to 120 s, i.e. 30 to 150 s of the series.
        r.start = Some("1970-01-01T00:00:30Z".into());
        let t_s = vec![-3000.0, 20.0, 10.0, 30.0, 100.0, 150.0, 151.0, 3000.0];
        let values = (0..t_s.len()).map(|i| i as f64).collect();
        r.resources = vec![Resource {
            service: "db".into(),
            metric: "cpu".into(),
            unit: Unit::Percent,
            series: Some(TimeSeries { t_s, values }),
            ..Default::default()
        }];
        let s =
            run_series(&r, &SeriesOptions { percentile: 95, transaction: None, clock: false, unit_s: 60.0 }).unwrap();
        assert_eq!(s.span, (0.0, 2.0), "minutes");
        let (_, x, v) = &s.resources[0];
        // Kept: 20 s (the latest before 30 s), 30, 100, 150, and 151 (the earliest after 150 s).
        assert_eq!(v, &[1.0, 3.0, 4.0, 5.0, 6.0]);
        let minutes = |t: f64| (t - 30.0) / 60.0;
        assert_eq!(x, &[minutes(20.0), minutes(30.0), minutes(100.0), minutes(150.0), minutes(151.0)]);
    }
}
