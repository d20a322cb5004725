//! `--history BUNDLE`: the persistent shifts (change points, `runlens::analysis::changepoint`) of
//! every metric over a history's runs, as the Trends view finds them. They inform; they never
//! change the exit code (a shift at the newest night shows only once nights after it confirm it).

use super::escape::{line, markdown as md};
use super::{inputs, Stop};
use runlens::analysis::changepoint::history::{history_shifts, Shift, ShiftKind};
use runlens::model::Thresholds;
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::Path;

/// The shifts of one history bundle.
pub struct History {
    /// The file's name.
    pub source: String,
    pub runs: usize,
    pub shifts: Vec<Shift>,
}

/// Reads the history at `path` and finds its shifts, under its own thresholds.
pub fn read(path: &Path, quiet: bool) -> Result<History, Stop> {
    let (bundle, _) = inputs::load(path, quiet)?;
    let th = bundle.thresholds.as_ref().map_or_else(Thresholds::default, |t| Thresholds::default().with_bundle(t));
    let runs: Vec<&runlens::bundle::Run> = bundle.runs.iter().collect();
    let shifts = history_shifts(&runs, None, &th);
    Ok(History { source: crate::import::name(path), runs: runs.len(), shifts })
}

fn kind(k: ShiftKind) -> &'static str {
    match k {
        ShiftKind::Regression => "regression",
        ShiftKind::Improvement => "improvement",
        ShiftKind::Change => "change",
        ShiftKind::Expected => "expected",
    }
}

impl History {
    fn heading(&self) -> String {
        format!("Persistent shifts over the {} runs of {}", self.runs, self.source)
    }

    pub fn text(&self, out: &mut String) {
        let _ = writeln!(out, "\n{}:", line(&self.heading()));
        if self.shifts.is_empty() {
            out.push_str("  none (no change point)\n");
        }
        for s in &self.shifts {
            let _ = writeln!(out, "  {}", line(&s.sentence()));
        }
    }

    pub fn markdown(&self, out: &mut String) {
        let _ = write!(out, "\n**{}**\n\n", md(&self.heading()));
        if self.shifts.is_empty() {
            out.push_str("None: no change point.\n");
        }
        for s in &self.shifts {
            let _ = writeln!(out, "- {}", md(&s.sentence()));
        }
    }

    pub fn json(&self) -> Value {
        let shifts: Vec<Value> = self
            .shifts
            .iter()
            .map(|s| {
                json!({
                    "metric": s.metric, "run_id": s.run_id, "at": s.at, "change": s.change_text(),
                    "mean_before": s.mean_before, "mean_after": s.mean_after, "p_value": s.p_value,
                    "kind": kind(s.kind), "note": s.note, "sentence": s.sentence(),
                })
            })
            .collect();
        json!({"source": self.source, "runs": self.runs, "shifts": shifts})
    }
}
