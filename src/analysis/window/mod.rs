//! The steady-state window every view obeys: each selected run cut to the same span of test time
//! (plus its own shift), or to its own suggested steady state, and recomputed from its timeline.

mod apply;
mod spec;
mod suggest;

pub use apply::{buckets_in, resource_offset_s, window_run, Applied, Focus};
pub use spec::{Shift, WindowSpec, MAX_WINDOW_S};
pub use suggest::{suggest, Basis, Suggestion};

use crate::bundle::{Run, Timeline};
use std::sync::Arc;

/// How the window fell on one run.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Cut to `applied`; `basis` says how an automatic window was found.
    Cut { applied: Applied, basis: Option<Basis> },
    /// The run has no timeline: judged on its whole-run figures.
    NoTimeline,
    /// `window=auto` found no plateau: judged whole.
    NoPlateau,
}

/// The selected runs as every view sees them, and what the window did to each.
#[derive(Debug, Clone, Default)]
pub struct Windowed {
    pub runs: Vec<Arc<Run>>,
    /// One per run, in the same order; empty for the whole run.
    pub outcomes: Vec<Outcome>,
}

/// The test-time span `spec` asks of `run` (its shift added), if any.
pub fn span_of(run: &Run, spec: WindowSpec, shifts: &[Shift]) -> Option<(f64, f64, Option<Basis>)> {
    span_in(run, run.usable_timeline()?, spec, shifts)
}

/// `span_of` for a run whose usable timeline is `tl` (checked once: the check reads every cell).
fn span_in(run: &Run, tl: &Timeline, spec: WindowSpec, shifts: &[Shift]) -> Option<(f64, f64, Option<Basis>)> {
    match spec {
        WindowSpec::Whole => None,
        WindowSpec::Auto => {
            let s = suggest(tl)?;
            Some((s.from_s, s.to_s, Some(s.basis)))
        }
        WindowSpec::Range { from_s, to_s } => {
            let shift = shifts.iter().rev().find(|s| s.run == run.id).map_or(0, |s| s.seconds) as f64;
            Some((from_s as f64 + shift, to_s as f64 + shift, None))
        }
    }
}

/// Cuts every run to the window (shared, not copied, when it is the whole run or the run has no
/// timeline).
pub fn window_runs(runs: &[Arc<Run>], spec: WindowSpec, shifts: &[Shift]) -> Windowed {
    window_runs_for(runs, spec, shifts, Focus::All)
}

/// `window_runs`, each run cut only as far as `focus` asks (`Focus::Metric` for one trend).
pub fn window_runs_for(runs: &[Arc<Run>], spec: WindowSpec, shifts: &[Shift], focus: Focus) -> Windowed {
    if spec == WindowSpec::Whole {
        return Windowed { runs: runs.to_vec(), outcomes: Vec::new() };
    }
    let mut out = Windowed::default();
    for run in runs {
        let (shared, outcome) = match run.usable_timeline() {
            None => (run.clone(), Outcome::NoTimeline),
            Some(tl) => match span_in(run, tl, spec, shifts) {
                None => (run.clone(), Outcome::NoPlateau),
                Some((from, to, basis)) => {
                    let (cut, applied) = apply::cut(run, tl, from, to, focus);
                    (Arc::new(cut), Outcome::Cut { applied, basis })
                }
            },
        };
        out.runs.push(shared);
        out.outcomes.push(outcome);
    }
    out
}

#[cfg(test)]
mod tests;
