//! `runlens merge`: bundles of the same test run on several machines (each load generator's
//! partial results, imported apart) merged after the fact, run by run. Runs match by id (or
//! label, `--by label`); matched runs merge as one test's files do in `runlens import --run`
//! (`runlens::assemble::group::merge_runs`): samples add up exactly where the bundles carry every
//! distinct value (histograms of few values, exact timelines), else with a warning that states the
//! error. The output keeps the first bundle's report, comparisons and thresholds.

use crate::import::{import_one, name};
use crate::output;
use runlens::assemble::group::{merge_runs, Part, RunSpec};
use runlens::bundle::{Bundle, Run};
use runlens::import::Format;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Bundles to merge (runlens JSON, optionally gzip-compressed)
    #[arg(required = true, num_args = 2.., value_name = "BUNDLES")]
    pub bundles: Vec<PathBuf>,

    /// Write the merged bundle to FILE instead of standard output ('.gz': gzip-compressed)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// How runs of different bundles are matched
    #[arg(long, value_enum, default_value_t = By::Id)]
    pub by: By,

    /// Print no warnings, only errors
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
pub enum By {
    Id,
    Label,
}

/// Runs the command; `false` when a bundle was refused or the result could not be written.
pub fn run(args: &MergeArgs) -> bool {
    let mut inputs: Vec<(String, Bundle)> = Vec::new();
    for path in &args.bundles {
        match import_one(path, Some(Format::Bundle), 1) {
            Ok(i) => inputs.push((name(path), i.bundle)),
            Err(e) => {
                eprintln!("error: {e}");
                return false;
            }
        }
    }
    let (bundle, warnings) = merge(inputs, args.by);
    if !args.quiet {
        warnings.iter().for_each(|w| eprintln!("warning: {w}"));
    }
    match output::write(&bundle, args.output.as_deref()) {
        Ok(()) => true,
        Err(message) => {
            eprintln!("error: {message}");
            false
        }
    }
}

/// The runs of `inputs` matched by id or label and merged, in the order they first appear.
pub fn merge(inputs: Vec<(String, Bundle)>, by: By) -> (Bundle, Vec<runlens::bundle::Warning>) {
    let key = |r: &Run| if by == By::Id { r.id.clone() } else { r.label.clone() };
    let mut order: Vec<(String, Vec<Part>)> = Vec::new();
    let mut head: Option<Bundle> = None;
    for (source, mut b) in inputs {
        for run in std::mem::take(&mut b.runs) {
            let k = key(&run);
            let part = Part { source: source.clone(), run };
            match order.iter_mut().find(|(o, _)| *o == k) {
                Some((_, parts)) => parts.push(part),
                None => order.push((k, vec![part])),
            }
        }
        head.get_or_insert(b);
    }
    let mut warnings = Vec::new();
    let mut out = head.unwrap_or_else(|| Bundle {
        format: runlens::bundle::FORMAT_NAME.into(),
        version: runlens::bundle::FORMAT_VERSION,
        report: Default::default(),
        runs: vec![],
        comparisons: vec![],
        thresholds: None,
        label_rules: vec![],
    });
    for (_, mut parts) in order {
        if parts.len() == 1 {
            out.runs.extend(parts.pop().map(|p| p.run));
            continue;
        }
        let Some(first) = parts.first().map(|p| &p.run) else { continue };
        let spec = RunSpec { id: first.id.clone(), label: Some(first.label.clone()), dimensions: Default::default() };
        let (run, w) = merge_runs(&spec, parts);
        warnings.extend(w);
        out.runs.push(run);
    }
    (out, warnings)
}
