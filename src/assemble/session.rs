//! The raw files imported in this session and how they group into runs, as the import panel shows
//! them: each file, what it was recognised as, and which run it goes into. The defaults make the
//! common case zero clicks: files dropped together are grouped as the tools name them
//! (`assemble::sets`: a Locust prefix, a Gatling report, a JTL with the CloudWatch export and
//! `_cat/indices` of its test), each test its own run; a file of several runs (a nightly history)
//! keeps them. The user can move files between runs, name runs and set their dimensions; the
//! workspace shows `bundle()`, made by `group::bundle_of` like the command line's.

use crate::assemble::group::{self, File, Group, RunSpec};
use crate::assemble::sets;
use crate::bundle::{Bundle, Warning};
use crate::import::common::names;
use std::collections::BTreeMap;

/// One imported file.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFile {
    pub name: String,
    /// What it was recognised as ("JMeter CSV results (JTL)").
    pub format: String,
    pub records: u64,
    pub bundle: Bundle,
    /// Files dropped (or picked) together share a batch.
    pub batch: u32,
    /// The run it goes into (an index into `Session::runs`).
    pub run: usize,
}

/// A run made of files: merged into one run (`merge`), or, for a file of several runs, kept as
/// they are.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRun {
    pub spec: RunSpec,
    pub merge: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Session {
    pub files: Vec<SessionFile>,
    pub runs: Vec<SessionRun>,
    /// Batches whose runs the user changed (moved a file, renamed, set a dimension): files that
    /// arrive later join them without regrouping what the user made.
    pub edited: std::collections::BTreeSet<u32>,
}

impl Session {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The files of run `i`, in the order they came.
    pub fn files_of(&self, i: usize) -> impl Iterator<Item = (usize, &SessionFile)> {
        self.files.iter().enumerate().filter(move |(_, f)| f.run == i)
    }

    /// An id no other run of the session has (`id`, else `id-2`, …).
    fn unique_id(&self, id: &str, except: Option<usize>) -> String {
        let taken = |c: &str| self.runs.iter().enumerate().any(|(i, r)| Some(i) != except && r.spec.id == c);
        if !taken(id) {
            return id.to_string();
        }
        (2..).map(|n| format!("{id}-{n}")).find(|c| !taken(c)).unwrap_or_default()
    }

    /// A new run for a file named `name` whose first run has `first`'s id and label.
    fn new_run(&mut self, first: Option<(String, String)>, name: &str, merge: bool) -> usize {
        let (id, label) = first.unwrap_or_else(|| (names::run_id(name), names::file_stem(name).to_string()));
        let id = self.unique_id(&id, None);
        let dimensions: BTreeMap<String, String> = names::suggested_dimensions(name).into_iter().collect();
        self.runs.push(SessionRun { spec: RunSpec { id, label: Some(label), dimensions }, merge });
        self.runs.len() - 1
    }

    /// Adds an imported file and groups its batch again (`sets::group`): a tool's output set, the
    /// files of one test by name or time, and the rest one run each. In a batch the user has
    /// edited, the file joins the run its group already has there, else a new run. Returns the
    /// run it went into.
    pub fn add(&mut self, batch: u32, name: &str, format: &str, records: u64, bundle: Bundle) -> usize {
        self.files.push(SessionFile {
            name: name.to_string(),
            format: format.to_string(),
            records,
            bundle,
            batch,
            run: usize::MAX,
        });
        let f = self.files.len() - 1;
        let members: Vec<usize> = (0..self.files.len()).filter(|i| self.files[*i].batch == batch).collect();
        let items: Vec<sets::Item> =
            members.iter().map(|i| sets::Item { name: &self.files[*i].name, bundle: &self.files[*i].bundle }).collect();
        let groups: Vec<Vec<usize>> =
            sets::group(&items).into_iter().map(|g| g.into_iter().map(|k| members[k]).collect()).collect();
        if self.edited.contains(&batch) {
            let mine = groups.iter().find(|g| g.contains(&f)).cloned().unwrap_or_default();
            let joined = mine
                .iter()
                .filter(|j| **j != f)
                .map(|j| self.files[*j].run)
                .find(|r| self.runs.get(*r).is_some_and(|r| r.merge) && self.files[f].bundle.runs.len() == 1);
            let run = joined.unwrap_or_else(|| self.run_for(f));
            self.files[f].run = run;
            return run;
        }
        let old: std::collections::BTreeSet<usize> =
            members.iter().map(|i| self.files[*i].run).filter(|r| *r != usize::MAX).collect();
        self.remove_runs(&old);
        for g in groups {
            let run = self.run_for(g[0]);
            g.iter().for_each(|i| self.files[*i].run = run);
        }
        self.files[f].run
    }

    /// A new run named after file `f` (its first run's id and label), merging unless the file
    /// holds several runs.
    fn run_for(&mut self, f: usize) -> usize {
        let file = &self.files[f];
        let first = file.bundle.runs.first().map(|r| (r.id.clone(), r.label.clone()));
        let (name, merge) = (file.name.clone(), file.bundle.runs.len() == 1);
        self.new_run(first, &name, merge)
    }

    /// Removes runs `old` (their files are about to be placed again).
    fn remove_runs(&mut self, old: &std::collections::BTreeSet<usize>) {
        for r in old.iter().rev() {
            if *r < self.runs.len() {
                self.runs.remove(*r);
            }
            for f in &mut self.files {
                if f.run != usize::MAX && f.run > *r {
                    f.run -= 1;
                }
            }
        }
    }

    /// Marks the batches of run `i`'s files as edited by the user.
    fn edited_run(&mut self, i: usize) {
        let batches: Vec<u32> = self.files_of(i).map(|(_, f)| f.batch).collect();
        self.edited.extend(batches);
    }

    /// Moves file `f` into run `to`, or into a new run of its own (`None`). A file of several runs
    /// cannot join another run's files.
    pub fn move_file(&mut self, f: usize, to: Option<usize>) -> Result<(), String> {
        let Some(file) = self.files.get(f) else { return Err("no such file".into()) };
        if file.bundle.runs.len() != 1 {
            return Err(format!("{} holds {} runs; it stays a run set of its own", file.name, file.bundle.runs.len()));
        }
        let target = match to {
            Some(t) if t < self.runs.len() && self.runs[t].merge => t,
            Some(_) => return Err("that run cannot take files".into()),
            None => {
                let first = file.bundle.runs.first().map(|r| (r.id.clone(), r.label.clone()));
                let name = file.name.clone();
                self.new_run(first, &name, true)
            }
        };
        self.edited.insert(self.files[f].batch);
        self.edited_run(target);
        self.files[f].run = target;
        self.drop_empty_runs();
        Ok(())
    }

    /// Forgets file `f` (and its run, if it was the run's only file).
    pub fn remove_file(&mut self, f: usize) {
        if f < self.files.len() {
            self.files.remove(f);
            self.drop_empty_runs();
        }
    }

    fn drop_empty_runs(&mut self) {
        let mut i = 0;
        while i < self.runs.len() {
            if self.files.iter().any(|f| f.run == i) {
                i += 1;
                continue;
            }
            self.runs.remove(i);
            for f in &mut self.files {
                if f.run > i {
                    f.run -= 1;
                }
            }
        }
    }

    /// Renames run `i` (its id follows the label: ids go into links). Returns the old and new id.
    pub fn rename(&mut self, i: usize, label: &str) -> Option<(String, String)> {
        let label = label.trim();
        if label.is_empty() || i >= self.runs.len() {
            return None;
        }
        self.edited_run(i);
        let id = self.unique_id(&names::run_id(label), Some(i));
        let run = &mut self.runs[i];
        let old = std::mem::replace(&mut run.spec.id, id.clone());
        run.spec.label = Some(label.to_string());
        Some((old, id))
    }

    /// Sets (or, with an empty value, removes) a dimension of run `i`.
    pub fn set_dimension(&mut self, i: usize, key: &str, value: &str) {
        let (key, value) = (key.trim(), value.trim());
        self.edited_run(i);
        if let (Some(run), false) = (self.runs.get_mut(i), key.is_empty()) {
            if value.is_empty() {
                run.spec.dimensions.remove(key);
            } else {
                run.spec.dimensions.insert(key.to_string(), value.to_string());
            }
        }
    }

    /// The runs of the session as one bundle, with the warnings of merging (the page has the
    /// writer worker make it from `groups`: `wire::write`).
    pub fn bundle(&self) -> Option<(Bundle, Vec<Warning>)> {
        if self.files.is_empty() {
            return None;
        }
        let (groups, title) = self.groups();
        let options = group::Options { title: Some(title), baseline: None };
        group::bundle_of(None, groups, &options).ok()
    }

    /// What `bundle` is made of: the files of each run, and the bundle's title.
    pub fn groups(&self) -> (Vec<Group>, String) {
        let groups = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| Group {
                run: r.merge.then(|| r.spec.clone()),
                files: self.files_of(i).map(|(_, f)| File { name: f.name.clone(), bundle: f.bundle.clone() }).collect(),
            })
            .collect();
        (groups, TITLE.to_string())
    }
}

impl Session {
    /// `groups`, borrowed: what the page hands the writer worker to make `bundle`.
    pub fn groups_ref(&self) -> Vec<group::GroupRef<'_>> {
        self.runs
            .iter()
            .enumerate()
            .map(|(i, r)| group::GroupRef {
                run: r.merge.then_some(&r.spec),
                files: self
                    .files_of(i)
                    .map(|(_, f)| group::FileRef { name: &f.name, bundle: crate::bundle::BundleRef::of(&f.bundle) })
                    .collect(),
            })
            .collect()
    }
}

/// The title of the bundle of imported runs.
pub const TITLE: &str = "Imported results";

/// A dimension typed as `key=value` (spaces around either are dropped).
pub fn parse_dimension(text: &str) -> Option<(String, String)> {
    let (k, v) = text.split_once('=')?;
    let (k, v) = (k.trim(), v.trim());
    (!k.is_empty() && !v.is_empty()).then(|| (k.to_string(), v.to_string()))
}

mod unmerged;
pub use unmerged::unmerged;

#[cfg(test)]
mod tests;
