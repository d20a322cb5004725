//! Resources from values sampled over time (CloudWatch datapoints, `docker stats` snapshots, Locust's
//! history): peak, average and minimum of the values, and the series itself with times in seconds
//! after the run's start.

use crate::bundle::{Resource, TimeSeries, Unit};

/// Values of one metric of one service, each with its time (epoch milliseconds) when known.
#[derive(Debug, Clone, Default)]
pub struct Points {
    pub timed: Vec<(i64, f64)>,
    /// Values without a time (snapshots of a capture that printed none).
    pub untimed: Vec<f64>,
}

impl Points {
    pub fn push(&mut self, t_ms: Option<i64>, v: f64) {
        if !v.is_finite() {
            return;
        }
        match t_ms {
            Some(t) => self.timed.push((t, v)),
            None => self.untimed.push(v),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.timed.is_empty() && self.untimed.is_empty()
    }

    /// Earliest time.
    pub fn first_ms(&self) -> Option<i64> {
        self.timed.iter().map(|p| p.0).min()
    }

    /// Latest time.
    pub fn last_ms(&self) -> Option<i64> {
        self.timed.iter().map(|p| p.0).max()
    }
}

/// (peak, average, min) of finite values; all `None` when there are none.
pub fn summarize(values: impl IntoIterator<Item = f64>) -> (Option<f64>, Option<f64>, Option<f64>) {
    let (mut n, mut sum, mut max, mut min) = (0usize, 0.0f64, f64::NEG_INFINITY, f64::INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        n += 1;
        sum += v;
        max = max.max(v);
        min = min.min(v);
    }
    if n == 0 {
        return (None, None, None);
    }
    (Some(max), Some(sum / n as f64), Some(min))
}

/// Seconds after `start_ms`, rounded to the millisecond.
pub fn seconds_after(t_ms: i64, start_ms: i64) -> f64 {
    t_ms.saturating_sub(start_ms) as f64 / 1000.0
}

/// A resource from its points: peak, average and min over every value; a series (in time order,
/// seconds after `run_start_ms`) when at least two values have times.
pub fn resource(service: &str, metric: &str, unit: Unit, mut points: Points, run_start_ms: Option<i64>) -> Resource {
    points.timed.sort_by_key(|p| p.0);
    let (peak, average, min) = summarize(points.timed.iter().map(|p| p.1).chain(points.untimed.iter().copied()));
    let series = match (run_start_ms, points.timed.len()) {
        (Some(start), n) if n >= 2 => Some(TimeSeries {
            t_s: points.timed.iter().map(|p| seconds_after(p.0, start)).collect(),
            values: points.timed.iter().map(|p| p.1).collect(),
        }),
        _ => None,
    };
    Resource {
        service: service.to_string(),
        metric: metric.to_string(),
        unit,
        peak,
        average,
        min,
        series,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_sort_their_series_and_summarize_all_values() {
        let mut p = Points::default();
        for (t, v) in [(3000, 30.0), (1000, 10.0), (2000, f64::NAN), (2000, 20.0)] {
            p.push(Some(t), v);
        }
        let r = resource("svc", "cpu", Unit::Percent, p, Some(500));
        assert_eq!((r.peak, r.average, r.min), (Some(30.0), Some(20.0), Some(10.0)));
        let s = r.series.unwrap();
        assert_eq!((s.t_s, s.values), (vec![0.5, 1.5, 2.5], vec![10.0, 20.0, 30.0]));
        let mut one = Points::default();
        one.push(None, 4.0);
        let r = resource("svc", "cpu", Unit::Percent, one, None);
        assert_eq!((r.peak, r.series), (Some(4.0), None));
        assert_eq!(summarize([]), (None, None, None));
    }
}
