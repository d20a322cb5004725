//! What runlens knows about each metric: its family (latency, throughput, error rate, CPU, memory,
//! size, duration, count), which direction is better, how two values of it are compared (relative
//! change, percentage points, or as an error rate), the default threshold of each family and the
//! minimum data a verdict needs. The one place these rules live: `facts` tags every fact with a
//! `Spec`, `analysis` judges by it.

use crate::bundle::{Direction, Unit};

/// A family of metrics sharing a threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Latency,
    Throughput,
    ErrorRate,
    Cpu,
    Memory,
    Size,
    Duration,
    /// Counts and any other figure (connections, documents, unit-less KPIs).
    Count,
}

impl Family {
    pub const ALL: [Family; 8] = [
        Family::Latency,
        Family::Throughput,
        Family::ErrorRate,
        Family::Cpu,
        Family::Memory,
        Family::Size,
        Family::Duration,
        Family::Count,
    ];

    /// Name in URLs (`threshold.latency=`) and in the bundle's `thresholds` object.
    pub fn slug(self) -> &'static str {
        match self {
            Family::Latency => "latency",
            Family::Throughput => "throughput",
            Family::ErrorRate => "error_rate",
            Family::Cpu => "cpu",
            Family::Memory => "memory",
            Family::Size => "size",
            Family::Duration => "duration",
            Family::Count => "count",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Family::Latency => "latency",
            Family::Throughput => "throughput",
            Family::ErrorRate => "error rate",
            Family::Cpu => "CPU",
            Family::Memory => "memory",
            Family::Size => "size",
            Family::Duration => "duration",
            Family::Count => "count",
        }
    }

    pub fn from_slug(s: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.slug() == s)
    }

    /// Changes smaller than this are within noise: percent for relative changes, percentage
    /// points for values in percent and for error rates.
    pub fn default_threshold(self) -> f64 {
        match self {
            Family::ErrorRate => 0.5,
            _ => 5.0,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// How two values of a metric are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    /// Relative change, (b − a) / |a|, shown as a signed percentage.
    Relative,
    /// Difference in percentage points, for values that are percentages already: CPU 2 % → 2.2 %
    /// is +0.2 pp, not +10 %.
    Points,
    /// A count of failures turned into a rate first (errors ÷ samples, compared in percentage
    /// points; errors per hour where only durations are known): twice the samples at the same
    /// error rate is no change.
    ErrorRate,
}

/// Everything the comparison needs to know about a fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    pub family: Family,
    pub direction: Direction,
    pub measure: Measure,
}

impl Spec {
    fn new(family: Family, direction: Direction, unit: Unit) -> Spec {
        let measure = if unit == Unit::Percent { Measure::Points } else { Measure::Relative };
        Spec { family, direction, measure }
    }

    /// The run's wall-clock duration.
    pub fn duration() -> Spec {
        Spec::new(Family::Duration, Direction::LowerIsBetter, Unit::S)
    }

    /// A statistic of a transaction: "samples", "errors", "throughput" or a latency statistic.
    pub fn transaction(metric: &str) -> Spec {
        match metric {
            "samples" => Spec::new(Family::Count, Direction::Neutral, Unit::Count),
            "errors" => {
                Spec { family: Family::ErrorRate, direction: Direction::LowerIsBetter, measure: Measure::ErrorRate }
            }
            "throughput" => Spec::new(Family::Throughput, Direction::HigherIsBetter, Unit::PerSecond),
            _ => Spec::new(Family::Latency, Direction::LowerIsBetter, Unit::Ms),
        }
    }

    /// A resource statistic of metric `name` ("cpu", "memory", "db_connections", "free heap", …).
    /// Utilization is lower-is-better; rates and free capacity are higher-is-better.
    pub fn resource(name: &str, unit: Unit) -> Spec {
        let n = crate::fold::lower(name);
        let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
        let family = if has(&["cpu"]) {
            Family::Cpu
        } else if has(&["mem", "heap", "rss"]) {
            Family::Memory
        } else if has(&["disk", "storage", "size"]) {
            Family::Size
        } else {
            match unit {
                Unit::Bytes => Family::Memory,
                Unit::PerSecond => Family::Throughput,
                Unit::Ms => Family::Latency,
                Unit::S => Family::Duration,
                _ => Family::Count,
            }
        };
        let direction = if unit == Unit::PerSecond || has(&["free", "available", "idle", "headroom"]) {
            Direction::HigherIsBetter
        } else {
            Direction::LowerIsBetter
        };
        Spec::new(family, direction, unit)
    }

    /// A `_cat/indices` statistic: "docs", "deleted docs", "store size", "primary store size".
    pub fn index(stat: &str) -> Spec {
        match stat {
            "docs" => Spec::new(Family::Count, Direction::Neutral, Unit::Count),
            "deleted docs" => Spec::new(Family::Count, Direction::LowerIsBetter, Unit::Count),
            _ => Spec::new(Family::Size, Direction::LowerIsBetter, Unit::Bytes),
        }
    }

    /// An entry of the run's error list, compared as a rate.
    pub fn error_entry() -> Spec {
        Spec { family: Family::ErrorRate, direction: Direction::LowerIsBetter, measure: Measure::ErrorRate }
    }

    /// A KPI: the stated direction wins; without one it is inferred (see `infer_direction`).
    pub fn kpi(name: &str, unit: Unit, stated: Option<Direction>) -> Spec {
        let n = crate::fold::lower(name);
        let family = match unit {
            Unit::Ms => Family::Latency,
            Unit::S => Family::Duration,
            Unit::PerSecond => Family::Throughput,
            Unit::Bytes if n.contains("mem") || n.contains("heap") => Family::Memory,
            Unit::Bytes => Family::Size,
            Unit::Percent if n.contains("error") || n.contains("fail") => Family::ErrorRate,
            Unit::Percent if n.contains("cpu") => Family::Cpu,
            Unit::Percent if n.contains("mem") => Family::Memory,
            _ => Family::Count,
        };
        Spec::new(family, stated.unwrap_or_else(|| infer_direction(name, unit)), unit)
    }
}

/// The direction of a KPI whose bundle does not state one: from words in its name ("error",
/// "duration", "slower" → lower is better; "throughput", "improvement", "success" → higher is
/// better), else from its unit (times lower, rates per second higher); anything else is neutral
/// rather than a guess.
pub fn infer_direction(name: &str, unit: Unit) -> Direction {
    const LOWER: [&str; 13] = [
        "error",
        "fail",
        "latency",
        "duration",
        "response time",
        "time",
        "degradation",
        "slower",
        "lag",
        "wait",
        "timeout",
        "reject",
        "drop",
    ];
    const HIGHER: [&str; 10] = [
        "throughput",
        "improvement",
        "faster",
        "speedup",
        "success",
        "availability",
        "hit ratio",
        "apdex",
        "uptime",
        "ops",
    ];
    let n = crate::fold::lower(name);
    if LOWER.iter().any(|w| n.contains(w)) {
        Direction::LowerIsBetter
    } else if HIGHER.iter().any(|w| n.contains(w)) {
        Direction::HigherIsBetter
    } else {
        match unit {
            Unit::Ms | Unit::S => Direction::LowerIsBetter,
            Unit::PerSecond => Direction::HigherIsBetter,
            _ => Direction::Neutral,
        }
    }
}

/// Transactions with fewer samples than this in either run get "not enough data".
pub const DEFAULT_MIN_SAMPLES: u64 = 30;

/// The thresholds in force: one per family, and the minimum sample count of a transaction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    values: [f64; 8],
    pub min_samples: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { values: Family::ALL.map(Family::default_threshold), min_samples: DEFAULT_MIN_SAMPLES }
    }
}

impl Thresholds {
    /// The threshold of `family`, in percent (relative changes) or percentage points.
    pub fn of(&self, family: Family) -> f64 {
        self.values[family.index()]
    }

    /// Sets one family's threshold; negative or non-finite values are ignored.
    pub fn set(&mut self, family: Family, value: f64) {
        if value.is_finite() && value >= 0.0 {
            self.values[family.index()] = value;
        }
    }

    /// Every family at `value` (the single `threshold` of older links).
    pub fn all(value: f64) -> Thresholds {
        let mut t = Thresholds::default();
        Family::ALL.into_iter().for_each(|f| t.set(f, value));
        t
    }

    /// The thresholds a bundle's `thresholds` object states, over the defaults.
    pub fn with_bundle(mut self, b: &crate::bundle::Thresholds) -> Thresholds {
        for f in Family::ALL {
            if let Some(v) = b.get(f.slug()) {
                self.set(f, v);
            }
        }
        if let Some(n) = b.min_samples {
            self.min_samples = n;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_know_their_direction_and_measure() {
        let cpu = Spec::resource("cpu", Unit::Percent);
        assert_eq!((cpu.family, cpu.direction, cpu.measure), (Family::Cpu, Direction::LowerIsBetter, Measure::Points));
        let rate = Spec::resource("indexing rate", Unit::PerSecond);
        assert_eq!((rate.family, rate.direction), (Family::Throughput, Direction::HigherIsBetter));
        let free = Spec::resource("free memory", Unit::Bytes);
        assert_eq!(
            (free.family, free.direction, free.measure),
            (Family::Memory, Direction::HigherIsBetter, Measure::Relative)
        );
        assert_eq!(Spec::resource("db_connections", Unit::Count).family, Family::Count);
    }

    #[test]
    fn kpis_without_direction_follow_name_then_unit() {
        let thr = Spec::kpi("Indexing", Unit::PerSecond, None);
        assert_eq!(thr.direction, Direction::HigherIsBetter, "a rate per second that rises is better");
        assert_eq!(Spec::kpi("Reindex", Unit::S, None).direction, Direction::LowerIsBetter);
        assert_eq!(Spec::kpi("DI Create improvement", Unit::Percent, None).direction, Direction::HigherIsBetter);
        assert_eq!(Spec::kpi("Error rate", Unit::Percent, None).family, Family::ErrorRate);
        assert_eq!(Spec::kpi("Documents", Unit::Count, None).direction, Direction::Neutral, "no guess");
        assert_eq!(
            Spec::kpi("Throughput", Unit::PerSecond, Some(Direction::Neutral)).direction,
            Direction::Neutral,
            "stated wins"
        );
    }

    #[test]
    fn thresholds_from_bundle_over_defaults() {
        let b = crate::bundle::Thresholds {
            latency: Some(7.5),
            min_samples: Some(100),
            cpu: Some(-1.0),
            ..Default::default()
        };
        let t = Thresholds::default().with_bundle(&b);
        assert_eq!(
            (t.of(Family::Latency), t.of(Family::Cpu), t.of(Family::ErrorRate), t.min_samples),
            (7.5, 5.0, 0.5, 100)
        );
        assert_eq!(Thresholds::all(2.0).of(Family::ErrorRate), 2.0);
    }
}
