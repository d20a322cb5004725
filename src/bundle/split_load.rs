//! Loading a big bundle on several workers (or threads), cut by `split`: each later group of runs
//! is parsed and checked on its own (`load_runs`), the head (the bundle with the first group)
//! alongside (`parse_head`), then the head is finished with the later runs' ids (`finish_head`).
//!
//! The result is `load_bundle`'s, or nothing: a later group must load with no warning at all (its
//! warnings would have to go between the head's), and anything else (a syntax or schema error, an
//! unknown field in a later group, an invalid bundle) returns None, and the caller loads the
//! whole file in one pass, which places every warning and error by its JSON path or line.

use super::load::{finish_with_later, parse_fast};
use super::warnings::Warnings;
use super::{validate, Bundle, Loaded, Run};

/// Below this a bundle is loaded in one pass: the cut and the hand-over cost more than they save.
pub const MIN_SPLIT_BYTES: u64 = 8 << 20;

/// A later group's runs (`first` is the index of the first in the bundle), when they load cleanly:
/// no syntax or schema error, no unknown field, nothing `validate` warns about.
pub fn load_runs(bytes: &[u8], first: usize) -> Option<Vec<Run>> {
    let text = std::str::from_utf8(bytes).ok()?;
    // A skipped (unknown) field is a warning, so the group does not load here: the flag is
    // enough, as the one-pass loader's fast path uses it, which the worker's warm-up has run.
    let mut warnings = Warnings::default();
    let (runs, skipped): (Vec<Run>, bool) = super::skipped::from_str(text)?;
    if skipped {
        return None;
    }
    for (i, run) in runs.iter().enumerate() {
        validate::check_run(&format!("runs[{}]", first + i), run, &mut warnings);
    }
    warnings.finish().is_empty().then_some(runs)
}

/// The head parsed, waiting for the later groups' ids.
pub struct Head {
    bundle: Bundle,
    ignored: Warnings,
}

impl Head {
    /// The head's runs (to be encoded while the later groups load; they stay in the head).
    pub fn runs_mut(&mut self) -> &mut [Run] {
        &mut self.bundle.runs
    }
}

/// Parses the head as `load_bundle` parses a bundle that loads.
pub fn parse_head(head: &[u8]) -> Option<Head> {
    let text = std::str::from_utf8(head).ok()?;
    parse_fast(text).map(|(bundle, ignored)| Head { bundle, ignored })
}

/// Finishes the head (limits, validation) with the ids of the later groups' runs, in order: the
/// bundle with the head's runs, and every warning of the whole bundle.
pub fn finish_head(source: &str, head: Head, later: &[String]) -> Option<Loaded> {
    finish_with_later(source, head.bundle, later, Warnings::default(), head.ignored).ok()
}

/// `load_bundle` of a bundle cut into `groups` groups, each parsed on a thread of its own (the
/// CLI's path, and the reference the tests hold the workers' path to). Small or unusual bundles
/// take the one-pass loader (`split`, `MIN_SPLIT_BYTES` is the caller's choice).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_bundle_threads(source: &str, bytes: &[u8], groups: usize) -> Result<Loaded, super::LoadError> {
    let split_load = || -> Option<Loaded> {
        let split = super::split::split(bytes, groups)?;
        std::thread::scope(|s| {
            let later: Vec<_> =
                split.parts.iter().map(|(first, part)| s.spawn(move || load_runs(part, *first))).collect();
            let head = parse_head(&split.head);
            let later: Vec<Vec<Run>> = later.into_iter().map(|h| h.join().ok().flatten()).collect::<Option<_>>()?;
            let ids: Vec<String> = later.iter().flatten().map(|r| r.id.clone()).collect();
            let mut loaded = finish_head(source, head?, &ids)?;
            loaded.bundle.runs.extend(later.into_iter().flatten());
            Some(loaded)
        })
    };
    match split_load() {
        Some(loaded) => Ok(loaded),
        None => super::load_bundle(source, bytes),
    }
}

#[cfg(test)]
mod tests;
