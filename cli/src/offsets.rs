//! `runlens import --clock-offset FILE=SECONDS`: which input each offset names (by the path as
//! typed, else by its file name, which must then name one input), and the offset applied to the
//! file's bundle (`runlens::assemble::clock::shift`) with a note on each of its runs.

use crate::order::PlannedGroup;
use runlens::bundle::Bundle;
use std::path::{Path, PathBuf};

/// The offsets of the command line by input path, each taken once.
pub struct Offsets {
    by_path: Vec<(PathBuf, i64)>,
}

impl Offsets {
    /// Matches each `--clock-offset` to one input of `plan`; an error in words when one names no
    /// input, several inputs, or an input another offset names too.
    pub fn of(given: &[(PathBuf, i64)], plan: &[PlannedGroup]) -> Result<Offsets, String> {
        let inputs: Vec<&Path> = plan.iter().flat_map(|g| g.inputs.iter().map(|i| i.path.as_path())).collect();
        let mut by_path: Vec<(PathBuf, i64)> = Vec::new();
        for (file, ms) in given {
            let exact: Vec<&Path> = inputs.iter().copied().filter(|p| *p == file.as_path()).collect();
            let matched = if exact.is_empty() {
                inputs.iter().copied().filter(|p| p.file_name().is_some_and(|n| n == file.as_os_str())).collect()
            } else {
                exact
            };
            let shown = file.display();
            let path = match matched.as_slice() {
                [] => return Err(format!("--clock-offset {shown}=… names no input file")),
                [one] => one.to_path_buf(),
                _ => return Err(format!("--clock-offset {shown}=… names several input files; give its path as typed")),
            };
            if by_path.iter().any(|(p, _)| *p == path) {
                return Err(format!("--clock-offset is given twice for {}", path.display()));
            }
            by_path.push((path, *ms));
        }
        Ok(Offsets { by_path })
    }

    /// The offset of the input at `path`, in milliseconds, if one names it.
    pub fn take(&mut self, path: &Path) -> Option<i64> {
        let i = self.by_path.iter().position(|(p, _)| p == path)?;
        Some(self.by_path.swap_remove(i).1)
    }
}

/// Moves `bundle`'s times by `ms` and notes it on each run; the places of times left as they were.
pub fn apply(bundle: &mut Bundle, ms: i64, file: &str) -> Vec<String> {
    let unmoved = runlens::assemble::clock::shift(bundle, ms);
    let seconds = ms as f64 / 1000.0;
    let file = runlens::import::common::names::file_name(file);
    for run in &mut bundle.runs {
        run.notes.push(format!("Times of {file} moved by {seconds:+} s (runlens import --clock-offset)."));
    }
    unmoved
}
