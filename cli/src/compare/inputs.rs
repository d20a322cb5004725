//! The runs `runlens compare` compares: each argument a bundle or a raw result file (imported as
//! `runlens import` imports it), `FILE#RUN_ID`, `FILE#first` or `FILE#last` picking one run, all
//! joined in one `Workspace` as the viewer joins the files it opens (colliding ids become `id~2`).

use super::Stop;
use crate::import::{cores, import_one, name};
use runlens::assemble::group::{self, File, Group, Options};
use runlens::bundle::{Bundle, Run};
use runlens::import::Format;
use runlens::model::Workspace;
use std::path::{Path, PathBuf};

/// What the arguments select: the workspace and the compared runs' ids, the baseline first.
pub struct Selection {
    pub workspace: Workspace,
    pub ids: Vec<String>,
    /// Per source of the workspace, the paths of unknown keys in its `thresholds.criteria`.
    pub unknown_keys: Vec<Vec<String>>,
}

/// An argument: a file and, after `#`, which of its runs.
struct Arg {
    path: PathBuf,
    pick: Option<String>,
}

fn parse_arg(text: &str) -> Arg {
    // A file whose name has a '#' is taken whole when it exists.
    match text.rsplit_once('#') {
        Some((file, pick)) if !Path::new(text).exists() && !file.is_empty() => {
            Arg { path: PathBuf::from(file), pick: Some(pick.to_string()) }
        }
        _ => Arg { path: PathBuf::from(text), pick: None },
    }
}

/// The bundle of one file (a bundle as loaded, a raw file as `runlens import FILE` makes it), and
/// the paths of unknown keys under its `thresholds.criteria` (errors once the criteria are used).
pub(super) fn load(path: &Path, quiet: bool) -> Result<(Bundle, Vec<String>), Stop> {
    let imported = import_one(path, None, cores()).map_err(|e| Stop::BadInput(vec![e.to_string()]))?;
    let file = name(path);
    let say = |w: &runlens::bundle::Warning| {
        if !quiet {
            eprintln!("warning: {file}: {w}");
        }
    };
    let in_criteria = |w: &&runlens::bundle::Warning| w.path.starts_with("thresholds.criteria");
    if imported.format == Format::Bundle {
        imported.warnings.iter().filter(|w| !in_criteria(w)).for_each(say);
        let unknown = imported.warnings.iter().filter(in_criteria).map(|w| w.path.clone()).collect();
        return Ok((imported.bundle, unknown));
    }
    imported.warnings.iter().for_each(say);
    let groups = vec![Group { run: None, files: vec![File { name: file.clone(), bundle: imported.bundle }] }];
    let (bundle, warnings) = group::bundle_of(None, groups, &Options::default())
        .map_err(|m| Stop::BadInput(vec![format!("{file}: {m}")]))?;
    warnings.iter().for_each(say);
    Ok((bundle, Vec::new()))
}

fn ids(b: &Bundle) -> String {
    b.runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
}

/// The runs of `b` that `pick` names (all of them without one).
fn picked(b: &Bundle, pick: Option<&str>, file: &str) -> Result<Vec<Run>, Stop> {
    let one = match pick {
        None => return Ok(b.runs.clone()),
        Some("first") => b.runs.first(),
        Some("last") => b.runs.last(),
        Some(id) => b.runs.iter().find(|r| r.id == id),
    };
    one.cloned()
        .map(|r| vec![r])
        .ok_or_else(|| Stop::Usage(format!("{file} has no run “{}”; its runs: {}", pick.unwrap_or_default(), ids(b))))
}

/// Adds `runs` of bundle `b` to the workspace; returns their ids there.
fn add(ws: &mut Workspace, file: &str, b: &Bundle, runs: Vec<Run>) -> Vec<String> {
    let before = ws.runs.len();
    let part = Bundle { runs, comparisons: Vec::new(), ..b.clone() };
    ws.add(file, part, Vec::new());
    ws.runs[before..].iter().map(|r| r.run.id.clone()).collect()
}

/// Loads BASE and the candidates and selects the runs to compare.
pub fn select(base: &str, cands: &[String], quiet: bool) -> Result<Selection, Stop> {
    let base_arg = parse_arg(base);
    let base_file = name(&base_arg.path);
    let (b, unknown) = load(&base_arg.path, quiet)?;
    let mut ws = Workspace::default();
    let mut unknown_keys = vec![unknown];
    if cands.is_empty() {
        let (workspace, ids) = alone(ws, &base_file, &b, base_arg.pick.as_deref())?;
        return Ok(Selection { workspace, ids, unknown_keys });
    }
    let base_runs = picked(&b, base_arg.pick.as_deref(), &base_file)?;
    match base_runs.len() {
        1 => {}
        0 => return Err(Stop::BadInput(vec![format!("{base_file}: the bundle has no run")])),
        _ => {
            return Err(Stop::Usage(format!(
                "the baseline must be one run, and {base_file} has {}: name one as {base_file}#RUN_ID (or #first, #last); its runs: {}",
                base_runs.len(),
                ids(&b)
            )))
        }
    }
    let mut ids = add(&mut ws, &base_file, &b, base_runs);
    for c in cands {
        let arg = parse_arg(c);
        let file = name(&arg.path);
        let (bundle, unknown) = load(&arg.path, quiet)?;
        unknown_keys.push(unknown);
        let runs = picked(&bundle, arg.pick.as_deref(), &file)?;
        if runs.is_empty() {
            return Err(Stop::BadInput(vec![format!("{file}: the bundle has no run")]));
        }
        ids.extend(add(&mut ws, &file, &bundle, runs));
    }
    Ok(Selection { workspace: ws, ids, unknown_keys })
}

/// `runlens compare BUNDLE`: its first declared comparison, else its first run against the rest.
fn alone(mut ws: Workspace, file: &str, b: &Bundle, pick: Option<&str>) -> Result<(Workspace, Vec<String>), Stop> {
    if pick.is_some() {
        return Err(Stop::Usage(format!("{file}: with one run as the baseline, name a candidate too")));
    }
    if b.runs.len() < 2 {
        return Err(Stop::Usage(format!("{file} has {} run(s): nothing to compare; name a candidate", b.runs.len())));
    }
    ws.add(file, b.clone(), Vec::new());
    let ids = match ws.comparisons.first() {
        Some(c) => {
            let mut ids = vec![c.baseline.clone()];
            for x in &c.candidates {
                if !ids.contains(x) {
                    ids.push(x.clone());
                }
            }
            ids
        }
        None => ws.runs.iter().map(|r| r.run.id.clone()).collect(),
    };
    Ok((ws, ids))
}
