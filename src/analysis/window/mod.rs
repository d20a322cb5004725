//! The steady-state window every view obeys: each selected run cut to the same span of test time
//! (plus its own shift), or to its own suggested steady state, and recomputed from its timeline.

mod apply;
mod spec;
mod suggest;

pub use apply::{buckets_in, resource_offset_s, window_run, Applied};
pub use spec::{Shift, WindowSpec, MAX_WINDOW_S};
pub use suggest::{suggest, Basis, Suggestion};

use crate::bundle::Run;
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
    match spec {
        WindowSpec::Whole => None,
        WindowSpec::Auto => {
            let s = suggest(run.usable_timeline()?)?;
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
    if spec == WindowSpec::Whole {
        return Windowed { runs: runs.to_vec(), outcomes: Vec::new() };
    }
    let mut out = Windowed::default();
    for run in runs {
        let (shared, outcome) = match (run.usable_timeline(), span_of(run, spec, shifts)) {
            (None, _) => (run.clone(), Outcome::NoTimeline),
            (Some(_), None) => (run.clone(), Outcome::NoPlateau),
            (Some(_), Some((from, to, basis))) => match window_run(run, from, to) {
                Some((cut, applied)) => (Arc::new(cut), Outcome::Cut { applied, basis }),
                None => (run.clone(), Outcome::NoTimeline),
            },
        };
        out.runs.push(shared);
        out.outcomes.push(outcome);
    }
    out
}

#[cfg(test)]
mod tests;
