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
    window_checked(runs, &[], spec, shifts, Focus::All)
}

/// Which of `runs` have a usable timeline. `Run::usable_timeline` reads every cell of it, often
/// more than the cut itself: a history cut again on every window move checks its runs once.
pub fn usable(runs: &[Arc<Run>]) -> Vec<bool> {
    runs.iter().map(|r| r.usable_timeline().is_some()).collect()
}

/// `window_runs`, each run cut only as far as `focus` asks (`Focus::Metric` for one trend), and
/// `usable[i]` saying whether `runs[i]` has a usable timeline (as `usable` found it for these
/// very runs); a run past the end of `usable` is checked here.
pub fn window_checked(
    runs: &[Arc<Run>],
    usable: &[bool],
    spec: WindowSpec,
    shifts: &[Shift],
    focus: Focus,
) -> Windowed {
    if spec == WindowSpec::Whole {
        return Windowed { runs: runs.to_vec(), outcomes: Vec::new() };
    }
    let mut out = Windowed::default();
    for (i, run) in runs.iter().enumerate() {
        let tl = match usable.get(i) {
            Some(ok) => run.timeline.as_ref().filter(|_| *ok),
            None => run.usable_timeline(),
        };
        let (shared, outcome) = match tl {
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
