//! The session's bundle when no run joins several files, made without the merging code: what the
//! page shows as soon as a file is read, before the writer worker's merged bundle comes (the writer
//! checks that the two are equal, and the page takes the writer's when they are not).

use super::Session;
use crate::assemble::group::{bundle_around_runs, RunSpec};
use crate::bundle::{Bundle, Report};

impl Session {
    /// `bundle()` without its warnings, when every run is one file's only run (the common case:
    /// files dropped one test each); `None` when a run merges files or keeps a file's several
    /// runs, which only the writer makes.
    pub fn unmerged(&self) -> Option<Bundle> {
        let runs = self.runs.iter().enumerate().map(|(i, r)| {
            let files: Vec<&Bundle> = self.files_of(i).map(|(_, f)| &f.bundle).collect();
            (r.merge.then_some(&r.spec), files)
        });
        unmerged(runs, super::TITLE)
    }
}

/// The bundle of runs given as (the run's spec, its files), each run one file's only run under the
/// spec's id, label and dimensions, as `group::bundle_of` makes it from groups of one file; `None`
/// when a run is not that.
pub fn unmerged<'a>(runs: impl Iterator<Item = (Option<&'a RunSpec>, Vec<&'a Bundle>)>, title: &str) -> Option<Bundle> {
    // Each run's spec, file and the file's run; runs are cloned only once all of them qualify.
    let mut parts = Vec::new();
    for (spec, files) in runs {
        let (Some(spec), [file]) = (spec, files.as_slice()) else { return None };
        let [run] = file.runs.as_slice() else { return None };
        parts.push((spec, *file, run));
    }
    let mut out = bundle_around_runs();
    let mut inputs: Vec<&Bundle> = Vec::new();
    for (spec, file, run) in parts {
        let mut run = run.clone();
        run.id.clone_from(&spec.id);
        run.label = spec.label.clone().unwrap_or_else(|| spec.id.clone());
        run.dimensions.extend(spec.dimensions.iter().map(|(k, v)| (k.clone(), v.clone())));
        out.runs.push(run);
        inputs.push(file);
    }
    out.report = match inputs.as_slice() {
        [] => return None,
        [only] => only.report.clone(),
        _ => {
            let mut notes: Vec<String> = Vec::new();
            for n in inputs.iter().flat_map(|b| &b.report.notes) {
                if !notes.contains(n) {
                    notes.push(n.clone());
                }
            }
            Report { notes, ..Default::default() }
        }
    };
    out.report.title = title.to_string();
    out.thresholds = inputs.iter().find_map(|b| b.thresholds.clone());
    for r in inputs.iter().flat_map(|b| &b.label_rules) {
        if !out.label_rules.contains(r) {
            out.label_rules.push(r.clone());
        }
    }
    Some(out)
}
