//! Tail statistics (p99 and beyond, p1 and below, the maximum and the minimum): which latency
//! statistics stand on a handful of samples, and how many, so that a verdict on them is taken by
//! noise or not at all.
//!
//! The q-quantile of n samples has n·(1 − q) samples above it (n·q below, for a low quantile):
//! p99 of 312 samples is the 4th largest, and its change between two runs of the same test moves
//! by whatever the 4th largest sample happened to be. A tail quantile needs `MIN_TAIL_SAMPLES`
//! beyond it in both runs to be judged; then, where both runs carry histograms, by a bootstrap
//! interval as the median and p95 are (tail quantiles with enough samples: p99). A maximum or minimum is a single sample: it is judged only
//! by the exact exceedance test (`noise::exceedance`), which needs both runs' histograms.

use crate::number::parse_f64;

/// Samples a tail quantile must have beyond it in each run to be judged.
pub const MIN_TAIL_SAMPLES: f64 = 5.0;
/// Quantiles at least this far out (p99 and beyond, and p1 and below) are tails.
const TAIL_FROM: f64 = 0.99;

/// A tail statistic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tail {
    /// A quantile, 0 < q < 1.
    Quantile(f64),
    Max,
    Min,
}

impl Tail {
    /// The tail statistic a latency metric's name states, if it is one: "p99", "p99.9", "p1",
    /// "max", "min" ("p100" and "p0" are the maximum and minimum).
    pub fn of(metric: &str) -> Option<Tail> {
        match (metric, quantile(metric)) {
            ("max", _) | (_, Some(1.0)) => Some(Tail::Max),
            ("min", _) | (_, Some(0.0)) => Some(Tail::Min),
            (_, Some(q)) if q >= TAIL_FROM || q <= 1.0 - TAIL_FROM => Some(Tail::Quantile(q)),
            _ => None,
        }
    }

    /// How many of `n` samples lie beyond this statistic (a maximum has none: it is one sample).
    pub fn samples_beyond(self, n: f64) -> f64 {
        match self {
            Tail::Quantile(q) => n * q.min(1.0 - q),
            Tail::Max | Tail::Min => 0.0,
        }
    }

    /// Whether a run of `n` samples (None: unknown) has too few beyond this statistic to judge
    /// it by a quantile's interval.
    pub fn too_few(self, n: Option<f64>) -> bool {
        n.is_none_or(|n| self.samples_beyond(n) < MIN_TAIL_SAMPLES)
    }

    /// Samples a run needs for this statistic to be judged by an interval (None: never).
    pub fn samples_needed(self) -> Option<f64> {
        match self {
            Tail::Quantile(q) => Some((MIN_TAIL_SAMPLES / q.min(1.0 - q)).ceil()),
            Tail::Max | Tail::Min => None,
        }
    }
}

/// The quantile a latency metric's name states: "median" 0.5, "p95" 0.95, "p99.9" 0.999.
pub fn quantile(metric: &str) -> Option<f64> {
    if metric == "median" {
        return Some(0.5);
    }
    let digits =
        metric.strip_prefix('p').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit() || b == b'.'))?;
    parse_f64(digits).map(|p| p / 100.0).filter(|q| (0.0..=1.0).contains(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_tail_statistics() {
        assert_eq!(Tail::of("p99"), Some(Tail::Quantile(0.99)));
        assert_eq!(Tail::of("p99.9").map(|t| t.samples_beyond(10_000.0).round()), Some(10.0));
        assert_eq!(Tail::of("p1"), Some(Tail::Quantile(0.01)));
        assert_eq!(
            (Tail::of("max"), Tail::of("p100"), Tail::of("min")),
            (Some(Tail::Max), Some(Tail::Max), Some(Tail::Min))
        );
        for not_tail in ["median", "p95", "p90", "mean", "throughput", "p", "pxx", "p120"] {
            assert_eq!(Tail::of(not_tail), None, "{not_tail}");
        }
    }

    #[test]
    fn p99_of_312_samples_has_too_few_beyond_it() {
        let p99 = Tail::Quantile(0.99);
        assert!(p99.too_few(Some(312.0)));
        assert!(!p99.too_few(Some(500.0)));
        assert!(p99.too_few(None));
        assert_eq!(p99.samples_needed(), Some(500.0));
        assert!(Tail::Max.too_few(Some(1e9)));
    }
}
