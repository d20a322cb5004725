//! The reason of a verdict in a sentence, for tooltips and exports.

use super::{points_decimals, Cell, Change, Method, Verdict, Why, ALPHA};
use crate::analysis::noise::{Exceedance, Extreme};
use crate::analysis::tail::{Tail, MIN_TAIL_SAMPLES};
use crate::bundle::{RunStatus, Unit};
use crate::format;
use crate::model::{Measure, Section, Spec};

impl Cell {
    /// The reason of the verdict in a sentence, for tooltips and exports.
    pub fn reason(&self, spec: &Spec) -> String {
        let fam = spec.family;
        let unit_of = |m: Measure| if m == Measure::Relative { "%" } else { " pp" };
        let change = self.change.map(|c| c.text(fam, self.unit)).unwrap_or_default();
        let unit_word = match self.change {
            Some(Change::Points(_)) => " pp",
            Some(_) => "%",
            None => unit_of(spec.measure),
        };
        let th = |t: f64| format!("the {}{unit_word} {} threshold", format::number(t), fam.title());
        match self.why {
            Why::None => match self.verdict {
                Verdict::Baseline => "the baseline of the comparison".into(),
                v => v.label().into(),
            },
            Why::Threshold(t) => match self.verdict {
                Verdict::WithinNoise => format!("{change} is within {}; no distribution to judge noise by", th(t)),
                _ => format!("{change} is beyond {}; no distribution to judge noise by", th(t)),
            },
            Why::Interval { interval, threshold, method } => {
                let fmt = |x: f64| match self.change {
                    Some(Change::Points(_)) => format::points(x, points_decimals(fam)),
                    _ => format::relative(x),
                };
                let how = match method {
                    Method::HistogramBootstrap => "bootstrap over both runs' histograms, 1,000 resamples",
                    Method::ErrorRateScore => "Newcombe's score interval for a difference of error rates",
                };
                let span = format!("95% interval {} to {} ({how})", fmt(interval.lo), fmt(interval.hi));
                let excludes = interval.lo > 0.0 || interval.hi < 0.0;
                match self.verdict {
                    Verdict::WithinNoise if !excludes => format!("{change}: {span} includes no change"),
                    Verdict::WithinNoise => format!("{change}: {span}; a real change but within {}", th(threshold)),
                    _ => format!("{change}: {span} excludes no change, and {change} is beyond {}", th(threshold)),
                }
            }
            Why::Exceedance { test, extreme, threshold } => {
                let rising = self.change.is_some_and(|c| c.shown(fam) > 0.0);
                let counted = exceedance_text(test, extreme, rising);
                let p = p_text(test.p);
                match self.verdict {
                    Verdict::WithinNoise if test.p >= ALPHA => {
                        format!("{change}: {counted}, as chance alone often gives ({p}, exact exceedance test)")
                    }
                    Verdict::WithinNoise => {
                        format!(
                            "{change}: {counted} ({p}, exact exceedance test); a real change but within {}",
                            th(threshold)
                        )
                    }
                    _ => format!(
                        "{change}: {counted} ({p}, exact exceedance test), and {change} is beyond {}",
                        th(threshold)
                    ),
                }
            }
            Why::FewInTail { tail, base, this } => few_in_tail_text(tail, base, this),
            Why::FewSamples { base, this, min } => {
                let n = |x: Option<f64>| x.map_or("unknown".to_string(), format::number);
                format!(
                    "too few samples to judge: {} in the baseline, {} here (at least {min} needed)",
                    n(base),
                    n(this)
                )
            }
            Why::Failed { baseline: true, status } => {
                format!("the baseline run {}; its figures are not comparable", status_word(status))
            }
            Why::Failed { baseline: false, status } => {
                format!("this run {}; its figures are not comparable", status_word(status))
            }
            Why::UnitMismatch { base, this } => {
                format!("units differ: {} here, {} in the baseline", unit_name(this), unit_name(base))
            }
            Why::NoRate => "errors need sample counts (or durations) in both runs to become rates".into(),
            Why::NoDirection(t) => format!("{change} is beyond {}; the bundle does not say which way is better", th(t)),
            Why::SectionAbsent(s) => format!("this run has no {}", s.data_name()),
            Why::Vanished(Section::Transaction) => {
                "in the baseline but not in this run: the transaction vanished".into()
            }
            Why::Vanished(Section::Error) => "gone: an error of the baseline that this run does not have".into(),
            Why::Vanished(_) => "in the baseline but not in this run".into(),
            Why::New(Section::Error) => "a new error: not in the baseline".into(),
            Why::New(_) => "not in the baseline".into(),
            Why::NotStated => "not stated in one of the runs".into(),
            Why::Excluded => "left out of trends by the run's annotation".into(),
        }
    }
}

fn status_word(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Failed => "failed",
        RunStatus::Aborted => "was aborted",
        RunStatus::Unknown => "has an unknown outcome",
        RunStatus::Completed => "completed",
    }
}

pub fn unit_name(u: Unit) -> &'static str {
    match u {
        Unit::Ms => "milliseconds",
        Unit::S => "seconds",
        Unit::Percent => "percent",
        Unit::Count => "a count",
        Unit::Bytes => "bytes",
        Unit::PerSecond => "per second",
        Unit::None => "no unit",
    }
}

/// "3 of the 312 samples here lie above the baseline's max", and the like.
fn exceedance_text(test: Exceedance, extreme: Extreme, rising: bool) -> String {
    let (word, side) = match extreme {
        Extreme::Max => ("max", "above"),
        Extreme::Min => ("min", "below"),
    };
    // Outward: this run went beyond the baseline's extreme; else the baseline's samples lie
    // beyond this run's.
    let outward = rising == (extreme == Extreme::Max);
    let (count, of) = (format::number(test.count as f64), format::number(test.of as f64));
    if outward {
        format!("{count} of the {of} samples here lie {side} the baseline's {word}")
    } else {
        format!("{count} of the baseline's {of} samples lie {side} this run's {word}")
    }
}

fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else {
        format!("p = {}", crate::decimal::fixed(p, 3))
    }
}

/// Why a tail statistic got "not enough data".
fn few_in_tail_text(tail: Tail, base: Option<f64>, this: Option<f64>) -> String {
    match tail {
        Tail::Max | Tail::Min => {
            let word = if tail == Tail::Max { "max" } else { "min" };
            format!(
                "the {word} is a single sample: its change can be told from noise only with both runs' histograms \
                 (an exact exceedance test)"
            )
        }
        Tail::Quantile(_) => {
            let beyond = |n: Option<f64>| {
                n.map_or("an unknown number of".to_string(), |n| {
                    format::number((tail.samples_beyond(n) * 10.0).round() / 10.0)
                })
            };
            let needed = tail.samples_needed().map_or(String::new(), |n| format!(", {} in a run", format::number(n)));
            format!(
                "too few samples beyond this percentile to tell its change from noise: {} in the baseline, {} here \
                 (at least {} needed{needed})",
                beyond(base),
                beyond(this),
                format::number(MIN_TAIL_SAMPLES)
            )
        }
    }
}
