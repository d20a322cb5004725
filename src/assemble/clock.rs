//! Clocks: a file's times moved by an offset (a monitored host whose clock or time zone differs
//! from the load generator's, `runlens import --clock-offset`), and resource series moved onto
//! the start of the run they are merged into.

use crate::bundle::{Bundle, Resource};
use crate::import::common::civil;

/// Moves every absolute time of `bundle`'s runs by `offset_ms`: start and end (written back in
/// UTC) and the timeline's buckets (test time, error causes and every relative time stay as
/// they are). Resource series count from the run's start, so they move with it. A time that does
/// not parse, or would leave the years 1 to 9999, is left as it is and named in the answer.
pub fn shift(bundle: &mut Bundle, offset_ms: i64) -> Vec<String> {
    let mut unmoved = Vec::new();
    for (i, run) in bundle.runs.iter_mut().enumerate() {
        for (field, time) in [("start", &mut run.start), ("end", &mut run.end)] {
            let Some(text) = time.as_ref() else { continue };
            match civil::parse_datetime(text).and_then(|(ms, _)| ms.checked_add(offset_ms)) {
                Some(ms) if civil::plausible(ms) => *time = Some(civil::iso_utc(ms)),
                _ => unmoved.push(format!("runs[{i}].{field}")),
            }
        }
        if let Some(tl) = run.timeline.as_mut() {
            match (tl.start_ms.checked_add(offset_ms), tl.origin_ms.checked_add(offset_ms)) {
                (Some(s), Some(o)) if civil::plausible(s) && civil::plausible(o) => {
                    (tl.start_ms, tl.origin_ms) = (s, o);
                }
                _ => unmoved.push(format!("runs[{i}].timeline")),
            }
        }
    }
    unmoved
}

/// Moves `resources`' series, which count from `from` (the start of the file they came from), to
/// count from `to` (the start of the run they join); unchanged when either time is unknown.
pub fn rebase(resources: &mut [Resource], from: Option<&str>, to: Option<&str>) {
    let at = |t: Option<&str>| t.and_then(civil::parse_datetime).map(|(ms, _)| ms);
    let (Some(from), Some(to)) = (at(from), at(to)) else { return };
    let delta_s = (from - to) as f64 / 1000.0;
    if delta_s == 0.0 {
        return;
    }
    for s in resources.iter_mut().filter_map(|r| r.series.as_mut()) {
        s.t_s.iter_mut().for_each(|t| *t += delta_s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{Run, TimeSeries, Timeline};

    fn cpu(t_s: Vec<f64>) -> Resource {
        let values = vec![1.0; t_s.len()];
        Resource {
            service: "db".into(),
            metric: "cpu".into(),
            series: Some(TimeSeries { t_s, values }),
            ..Default::default()
        }
    }

    #[test]
    fn shift_moves_start_end_and_timeline_and_names_what_it_cannot_move() {
        let run = Run {
            start: Some("2023-10-01T12:00:00+02:00".into()),
            end: Some("not a time".into()),
            timeline: Some(Timeline { start_ms: 1_000_000, origin_ms: 1_000_500, ..Default::default() }),
            resources: vec![cpu(vec![0.0, 10.0])],
            ..Default::default()
        };
        let mut b = Bundle {
            format: crate::bundle::FORMAT_NAME.into(),
            version: crate::bundle::FORMAT_VERSION,
            report: Default::default(),
            runs: vec![],
            comparisons: vec![],
            thresholds: None,
            label_rules: vec![],
        };
        b.runs = vec![run.clone(), Run { start: Some("9999-12-31T23:59:00Z".into()), ..run }];
        let unmoved = shift(&mut b, -3_600_000);
        let r = &b.runs[0];
        // 12:00 at +02:00 is 10:00 UTC; an hour earlier is 09:00 UTC.
        assert_eq!(r.start.as_deref(), Some("2023-10-01T09:00:00Z"));
        assert_eq!(r.end.as_deref(), Some("not a time"));
        let tl = r.timeline.as_ref().unwrap();
        assert_eq!((tl.start_ms, tl.origin_ms), (1_000_000 - 3_600_000, 1_000_500 - 3_600_000));
        assert_eq!(r.resources[0].series.as_ref().unwrap().t_s, [0.0, 10.0], "series count from the start");
        assert_eq!(unmoved, ["runs[0].end", "runs[1].end"]);
        // Forward past the year 9999: left as it was.
        let unmoved = shift(&mut b, 3_600_000 * 2);
        assert_eq!(b.runs[1].start.as_deref(), Some("9999-12-31T22:59:00Z"));
        assert!(unmoved.contains(&"runs[1].start".to_string()), "{unmoved:?}");
    }

    #[test]
    fn rebase_counts_from_the_run_start() {
        let mut r = vec![cpu(vec![0.0, 30.0]), Resource::default()];
        // The file started 90 s after the run: its points are 90 s later in the run's time.
        rebase(&mut r, Some("2023-10-01T10:01:30Z"), Some("2023-10-01T10:00:00Z"));
        assert_eq!(r[0].series.as_ref().unwrap().t_s, [90.0, 120.0]);
        rebase(&mut r, Some("2023-10-01T09:59:00Z"), Some("2023-10-01T10:00:00Z"));
        assert_eq!(r[0].series.as_ref().unwrap().t_s, [30.0, 60.0]);
        rebase(&mut r, None, Some("2023-10-01T10:00:00Z"));
        assert_eq!(r[0].series.as_ref().unwrap().t_s, [30.0, 60.0], "an unknown start moves nothing");
    }
}
