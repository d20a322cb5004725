//! Judges one value against the baseline's: the change (relative, in percentage points, or as an
//! error rate, as the metric's `Spec` says), and a verdict with its reason. The verdict is taken
//! on the change as it is shown (0.1 % or 0.1 pp), so two cells that read the same never disagree.

use super::noise::{self, Exceedance, Extreme, Interval};
use super::tail::Tail;
use crate::bundle::{Direction, RunStatus, Unit};
use crate::format;
use crate::model::{Family, Measure, Section, Spec, Thresholds};

/// How a value compares with the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The baseline itself.
    Baseline,
    Improved,
    Regressed,
    /// The change is smaller than the threshold, or its interval includes no change.
    WithinNoise,
    /// Too few samples to judge.
    NotEnoughData,
    /// A failed run, or units that differ.
    NotComparable,
    /// Changed beyond the threshold, in a metric with no better direction.
    Changed,
    /// Present here, absent from the baseline.
    Added,
    /// Present in the baseline, absent here.
    Removed,
    /// Absent here and in the baseline, or this run has no figures of this kind.
    Missing,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Baseline => "baseline",
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::WithinNoise => "within noise",
            Verdict::NotEnoughData => "not enough data",
            Verdict::NotComparable => "not comparable",
            Verdict::Changed => "changed",
            Verdict::Added => "added",
            Verdict::Removed => "removed",
            Verdict::Missing => "no data",
        }
    }

    /// Whether the change was judged beyond noise (improved, regressed, or changed).
    pub fn is_beyond_noise(self) -> bool {
        matches!(self, Verdict::Improved | Verdict::Regressed | Verdict::Changed)
    }
}

/// The change a verdict is about, in the measure the metric is compared by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// A fraction of the baseline (0.078 = +7.8 %).
    Rel(f64),
    /// Percentage points.
    Points(f64),
    /// An absolute change in the value's unit, where no ratio exists (baseline zero).
    Abs(f64),
}

impl Change {
    /// The change as shown: relative changes to 0.1 %, points to 0.1 pp (0.01 pp for error rates).
    pub fn shown(self, family: Family) -> f64 {
        match self {
            Change::Rel(r) => format::shown_relative(r),
            Change::Points(p) => format::shown_points(p, points_decimals(family)),
            Change::Abs(a) => a,
        }
    }

    /// Text of the change: "+7.8%", "+0.2 pp", "+12 ms".
    pub fn text(self, family: Family, unit: Unit) -> String {
        match self {
            Change::Rel(r) => format::relative(r),
            Change::Points(p) => format::points(p, points_decimals(family)),
            Change::Abs(a) => format::delta(a, unit),
        }
    }

    /// Size of the change in units of the threshold (for "biggest changes first").
    pub fn severity(self, family: Family, threshold: f64) -> f64 {
        let v = match self {
            Change::Rel(r) => format::shown_relative(r).abs() * 100.0,
            Change::Points(_) => self.shown(family).abs(),
            Change::Abs(_) => return f64::INFINITY,
        };
        v / threshold.max(1e-9)
    }
}

/// Error rates are small: shown to 0.01 pp; other points to 0.1 pp.
pub fn points_decimals(family: Family) -> usize {
    if family == Family::ErrorRate {
        2
    } else {
        1
    }
}

/// Why a cell got its verdict; `Cell::reason` turns it into a sentence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Why {
    None,
    /// Judged against the family's threshold (percent or percentage points, as the change).
    Threshold(f64),
    /// Judged by a 95 % interval of the change (in the change's measure) and the threshold.
    Interval {
        interval: Interval,
        threshold: f64,
        method: Method,
    },
    /// Judged by the exact exceedance test of a maximum or minimum (`noise::exceedance`) and
    /// the threshold.
    Exceedance {
        test: Exceedance,
        extreme: Extreme,
        threshold: f64,
    },
    /// A tail statistic with too few samples beyond it in a run (see `analysis::tail`), or a
    /// maximum or minimum without the histograms its test needs.
    FewInTail {
        tail: Tail,
        base: Option<f64>,
        this: Option<f64>,
    },
    /// Fewer samples than the minimum in a run.
    FewSamples {
        base: Option<f64>,
        this: Option<f64>,
        min: u64,
    },
    /// The baseline (or this run) did not complete.
    Failed {
        baseline: bool,
        status: RunStatus,
    },
    /// The unit differs from the baseline's.
    UnitMismatch {
        base: Unit,
        this: Unit,
    },
    /// Errors with neither samples nor durations to turn them into rates.
    NoRate,
    /// Beyond the threshold, in a metric whose better direction is unknown.
    NoDirection(f64),
    /// This run has no figures of this section at all.
    SectionAbsent(Section),
    /// The key is in the baseline and not in this run (the run has other figures of its kind);
    /// for an error, the cause is gone (an improvement).
    Vanished(Section),
    /// The key is not in the baseline.
    New(Section),
    /// The key is present but this statistic is not stated.
    NotStated,
    /// The run's annotation leaves it out of trends (`runs[].annotation`).
    Excluded,
}

impl Why {
    /// The threshold the change was judged against, when it was.
    pub fn threshold(&self) -> Option<f64> {
        match *self {
            Why::Threshold(t) | Why::NoDirection(t) => Some(t),
            Why::Interval { threshold, .. } | Why::Exceedance { threshold, .. } => Some(threshold),
            _ => None,
        }
    }
}

/// What a change is judged by besides its threshold, when the runs carry distributions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Evidence {
    /// A 95 % interval of the change, and how it was obtained.
    Interval(Interval, Method),
    /// The exceedance test of a maximum or minimum.
    Exceedance(Exceedance, Extreme),
}

/// The two-sided p-value below which an exceedance is beyond noise (as a 95 % interval is).
const ALPHA: f64 = 0.05;

/// How an interval was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    HistogramBootstrap,
    ErrorRateScore,
}

/// One run's value in a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub value: Option<f64>,
    /// Unit of `value` (may differ from the row's: then the cell is not comparable).
    pub unit: Unit,
    /// Value minus the baseline's.
    pub abs: Option<f64>,
    pub change: Option<Change>,
    pub verdict: Verdict,
    pub why: Why,
}

impl Cell {
    pub fn baseline(value: Option<f64>, unit: Unit) -> Cell {
        Cell { value, unit, abs: None, change: None, verdict: Verdict::Baseline, why: Why::None }
    }

    fn bare(value: Option<f64>, unit: Unit, verdict: Verdict, why: Why) -> Cell {
        Cell { value, unit, abs: None, change: None, verdict, why }
    }

    /// Whether this cell counts as a regression for "regressions only" and the summary: a
    /// regression beyond noise, a transaction that vanished, or an error that is new.
    pub fn is_regression(&self) -> bool {
        self.verdict == Verdict::Regressed
            || matches!(self.why, Why::Vanished(Section::Transaction) | Why::New(Section::Error))
    }
}

/// One side of a comparison.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    pub value: Option<f64>,
    pub unit: Unit,
    pub samples: Option<f64>,
    pub seconds: Option<f64>,
    pub status: RunStatus,
    /// The run has this key (e.g. the transaction) with some statistic.
    pub has_key: bool,
    /// The run has any fact of this section.
    pub has_section: bool,
}

fn failed(s: RunStatus) -> bool {
    matches!(s, RunStatus::Failed | RunStatus::Aborted)
}

/// The change from `b` to `v` by the spec's measure, with the interval method's inputs.
fn change_of(
    spec: &Spec,
    base: &Side,
    this: &Side,
    b: f64,
    v: f64,
) -> Result<(Change, Option<(Interval, Method)>), Why> {
    match spec.measure {
        Measure::Points => Ok((Change::Points(v - b), None)),
        Measure::Relative => Ok((relative(b, v), None)),
        Measure::ErrorRate => match (base.samples, this.samples, base.seconds, this.seconds) {
            (Some(nb), Some(nv), _, _) if nb > 0.0 && nv > 0.0 => {
                let ci = noise::error_rate_change(b, nb, v, nv).map(|i| (i, Method::ErrorRateScore));
                Ok((Change::Points(100.0 * (v / nv - b / nb)), ci))
            }
            (_, _, Some(sb), Some(sv)) if sb > 0.0 && sv > 0.0 => Ok((relative(b / sb, v / sv), None)),
            _ if b == v => Ok((Change::Rel(0.0), None)),
            _ => Err(Why::NoRate),
        },
    }
}

fn relative(b: f64, v: f64) -> Change {
    if b != 0.0 {
        Change::Rel((v - b) / b.abs())
    } else if v == 0.0 {
        Change::Rel(0.0)
    } else {
        Change::Abs(v - b)
    }
}

/// What a row's cells are judged with besides the two runs' values.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Judging<'a> {
    pub spec: &'a Spec,
    pub section: Section,
    /// The statistic, when it is a tail statistic of a transaction's latency.
    pub tail: Option<Tail>,
    pub th: &'a Thresholds,
}

/// Judges `this` against `base`. `evidence` is a bootstrap interval of the relative change, or an
/// exceedance test, when the runs carry distributions for this statistic.
pub(crate) fn judge(j: Judging, base: &Side, this: &Side, evidence: Option<Evidence>) -> Cell {
    let Judging { spec, section, tail, th } = j;
    let (b, v) = match both_values(section, base, this) {
        Ok(bv) => bv,
        Err(cell) => return cell,
    };
    if let Some(cell) = not_comparable(base, this, v) {
        return cell;
    }
    let mut cell = Cell {
        value: Some(v),
        unit: this.unit,
        abs: Some(v - b),
        change: None,
        verdict: Verdict::WithinNoise,
        why: Why::None,
    };
    let (change, score) = match change_of(spec, base, this, b, v) {
        Ok(c) => c,
        Err(why) => return Cell { verdict: Verdict::NotComparable, why, ..cell },
    };
    cell.change = Some(change);
    let few = |n: Option<f64>| n.is_some_and(|n| n < th.min_samples as f64);
    if section == Section::Transaction && spec.family != Family::Count && (few(base.samples) || few(this.samples)) {
        cell.verdict = Verdict::NotEnoughData;
        cell.why = Why::FewSamples { base: base.samples, this: this.samples, min: th.min_samples };
        return cell;
    }
    let evidence = evidence.or(score.map(|(i, m)| Evidence::Interval(i, m)));
    if let Some(tail) = tail.filter(|t| change.shown(spec.family) != 0.0 && too_few_in_tail(*t, base, this, evidence)) {
        cell.verdict = Verdict::NotEnoughData;
        cell.why = Why::FewInTail { tail, base: base.samples, this: this.samples };
        return cell;
    }
    (cell.verdict, cell.why) = verdict_of(spec, change, th.of(spec.family), evidence);
    cell
}

/// Whether a tail statistic cannot be told from noise: a quantile with too few samples beyond it
/// in either run; a maximum or minimum without its exceedance test.
fn too_few_in_tail(tail: Tail, base: &Side, this: &Side, evidence: Option<Evidence>) -> bool {
    match tail {
        Tail::Quantile(_) => tail.too_few(base.samples) || tail.too_few(this.samples),
        Tail::Max | Tail::Min => !matches!(evidence, Some(Evidence::Exceedance(..))),
    }
}

/// Both runs' values, or the cell that says which one is missing and why.
fn both_values(section: Section, base: &Side, this: &Side) -> Result<(f64, f64), Cell> {
    match (base.value, this.value) {
        (Some(b), Some(v)) => Ok((b, v)),
        (None, None) => {
            let why = if this.has_section { Why::NotStated } else { Why::SectionAbsent(section) };
            Err(Cell::bare(None, this.unit, Verdict::Missing, why))
        }
        (None, Some(v)) => {
            let why = if base.has_key { Why::NotStated } else { Why::New(section) };
            Err(Cell::bare(Some(v), this.unit, Verdict::Added, why))
        }
        (Some(_), None) => Err(match () {
            _ if failed(this.status) => Cell::bare(
                None,
                this.unit,
                Verdict::NotComparable,
                Why::Failed { baseline: false, status: this.status },
            ),
            _ if !this.has_section => Cell::bare(None, this.unit, Verdict::Missing, Why::SectionAbsent(section)),
            // An error cause of the baseline that a run counting errors no longer has: gone.
            _ if !this.has_key && section == Section::Error => {
                Cell::bare(None, this.unit, Verdict::Improved, Why::Vanished(section))
            }
            _ if !this.has_key => Cell::bare(None, this.unit, Verdict::Removed, Why::Vanished(section)),
            _ => Cell::bare(None, this.unit, Verdict::Missing, Why::NotStated),
        }),
    }
}

/// The cell of a value that cannot be compared with the baseline's: a failed run, or units
/// that differ.
fn not_comparable(base: &Side, this: &Side, v: f64) -> Option<Cell> {
    if failed(base.status) || failed(this.status) {
        let (baseline, status) = if failed(base.status) { (true, base.status) } else { (false, this.status) };
        return Some(Cell::bare(Some(v), this.unit, Verdict::NotComparable, Why::Failed { baseline, status }));
    }
    (base.unit != this.unit).then(|| {
        Cell::bare(Some(v), this.unit, Verdict::NotComparable, Why::UnitMismatch { base: base.unit, this: this.unit })
    })
}

/// The verdict on `change` against the threshold `t` (in % or pp); with an interval, beyond
/// noise only if the interval excludes no change on the side the change is on; with an
/// exceedance test, only if its p-value is below `ALPHA`.
fn verdict_of(spec: &Spec, change: Change, t: f64, evidence: Option<Evidence>) -> (Verdict, Why) {
    let shown = change.shown(spec.family);
    let beyond = match change {
        Change::Abs(a) => a != 0.0,
        Change::Rel(_) => shown != 0.0 && shown.abs() * 100.0 >= t,
        Change::Points(_) => shown != 0.0 && shown.abs() >= t,
    };
    let rising = shown > 0.0;
    let (beyond, why) = match evidence {
        Some(Evidence::Interval(i, method)) => (
            beyond && if rising { i.lo > 0.0 } else { i.hi < 0.0 },
            Why::Interval { interval: i, threshold: t, method },
        ),
        Some(Evidence::Exceedance(test, extreme)) => {
            (beyond && test.p < ALPHA, Why::Exceedance { test, extreme, threshold: t })
        }
        None => (beyond, Why::Threshold(t)),
    };
    match (beyond, spec.direction) {
        (false, _) => (Verdict::WithinNoise, why),
        (true, Direction::Neutral) => (Verdict::Changed, Why::NoDirection(t)),
        (true, Direction::LowerIsBetter) if !rising => (Verdict::Improved, why),
        (true, Direction::HigherIsBetter) if rising => (Verdict::Improved, why),
        (true, _) => (Verdict::Regressed, why),
    }
}

mod reason;
pub use reason::unit_name;
