//! Change points of a trend as shifts a release manager reads: which metric moved, by how much,
//! at which run, how sure (p), and whether it is a regression, an improvement or a change the
//! runs' annotations expected. `history_shifts` gives them for every trend metric of a history.

use super::{change_points, Settings};
use crate::analysis::trend::{default_order, ordered, trend, trend_metrics};
use crate::analysis::{Row, Why};
use crate::bundle::{Direction, Run, Unit};
use crate::format;
use crate::model::Thresholds;

/// What a shift means for the metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShiftKind {
    Regression,
    Improvement,
    /// The metric has no better direction.
    Change,
    /// The run it starts at carries an `expected_change` annotation.
    Expected,
}

/// A persistent shift of one metric at one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Shift {
    /// "p95 of search", or the key alone ("Run duration").
    pub metric: String,
    /// The position of the first run after the shift among the trend's runs.
    pub index: usize,
    pub run_id: String,
    /// That run's label.
    pub at: String,
    pub mean_before: f64,
    pub mean_after: f64,
    pub unit: Unit,
    /// (after − before) / |before|, when the mean before is not 0.
    pub relative: Option<f64>,
    pub p_value: f64,
    pub kind: ShiftKind,
    /// The annotation's note of an expected change (else empty).
    pub note: String,
}

impl Shift {
    /// The size of the shift: "+12.3%", or the difference in the unit when the mean before is 0.
    pub fn change_text(&self) -> String {
        self.relative.map_or_else(|| format::delta(self.mean_after - self.mean_before, self.unit), format::relative)
    }

    /// "p = 0.010".
    pub fn p_text(&self) -> String {
        format!("p = {}", crate::decimal::fixed(self.p_value, 3))
    }

    /// "a regression", "an improvement", "a change", "expected: new index mapping".
    pub fn kind_text(&self) -> String {
        match self.kind {
            ShiftKind::Regression => "a regression".into(),
            ShiftKind::Improvement => "an improvement".into(),
            ShiftKind::Change => "a change".into(),
            ShiftKind::Expected if self.note.is_empty() => "expected".into(),
            ShiftKind::Expected => format!("expected: {}", self.note),
        }
    }

    /// "p95 of search · shifted +12.3% at nightly-34 (p = 0.010), 120 ms → 135 ms: a regression".
    pub fn sentence(&self) -> String {
        format!(
            "{} · shifted {} at {} ({}), {} → {}: {}",
            self.metric,
            self.change_text(),
            self.at,
            self.p_text(),
            format::value(self.mean_before, self.unit),
            format::value(self.mean_after, self.unit),
            self.kind_text()
        )
    }
}

/// Whether a cell's value belongs in the change-point series: not an excluded run, not a failed
/// one, not one in another unit.
fn in_series(why: Why) -> bool {
    !matches!(why, Why::Excluded | Why::Failed { baseline: false, .. } | Why::UnitMismatch { .. })
}

/// The change-point series of `row`: the positions of the cells it takes, and their values.
pub fn series_of(row: &Row) -> (Vec<usize>, Vec<f64>) {
    row.cells
        .iter()
        .enumerate()
        .filter(|(_, c)| in_series(c.why))
        .filter_map(|(i, c)| c.value.filter(|v| v.is_finite()).map(|v| (i, v)))
        .unzip()
}

/// The shifts of `row`, the trend of one metric over `runs` (in order, `row.cells[i]` being
/// `runs[i]`'s).
pub fn row_shifts(runs: &[&Run], row: &Row, s: &Settings) -> Vec<Shift> {
    let (positions, series) = series_of(row);
    let metric = if row.metric.is_empty() { row.key.to_string() } else { format!("{} of {}", row.metric, row.key) };
    change_points(&series, s)
        .into_iter()
        .map(|cp| {
            let run = runs[positions[cp.index]];
            let worse = match row.spec.direction {
                Direction::LowerIsBetter => Some(cp.mean_after > cp.mean_before),
                Direction::HigherIsBetter => Some(cp.mean_after < cp.mean_before),
                Direction::Neutral => None,
            };
            let kind = match (run.expected_change(), worse) {
                (Some(_), _) => ShiftKind::Expected,
                (None, Some(true)) => ShiftKind::Regression,
                (None, Some(false)) => ShiftKind::Improvement,
                (None, None) => ShiftKind::Change,
            };
            Shift {
                metric: metric.clone(),
                index: positions[cp.index],
                run_id: run.id.clone(),
                at: run.label.clone(),
                mean_before: cp.mean_before,
                mean_after: cp.mean_after,
                unit: row.unit,
                relative: cp.relative_shift(),
                p_value: cp.p_value,
                kind,
                note: run.expected_change().unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// Every shift in a history: each trend metric of `runs`, ordered by `by` (else the trend's
/// default order), against the first run in that order that is not excluded. Metrics in the
/// order of `trend::trend_metrics`, shifts in run order within each.
pub fn history_shifts(runs: &[&Run], by: Option<&str>, th: &Thresholds) -> Vec<Shift> {
    let by = by.map_or_else(|| default_order(runs), str::to_string);
    let sorted = ordered(runs, &by);
    let Some(baseline) = sorted.iter().find(|r| !r.is_excluded()).or(sorted.first()) else {
        return Vec::new();
    };
    trend_metrics(runs).iter().filter_map(|m| trend(&sorted, &baseline.id, m, &by, th)).flat_map(|t| t.shifts).collect()
}
