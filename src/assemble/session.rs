//! The raw files imported in this session and how they group into runs, as the import panel shows
//! them: each file, what it was recognised as, and which run it goes into. The defaults make the
//! common case zero clicks: files dropped together form one run (a JTL, a CloudWatch export and
//! `_cat/indices` of one test), except that two files of the same kind (two JTLs) are two runs,
//! because merging them would drop one's transactions; a file of several runs (a nightly history)
//! keeps them. The user can move files between runs, name runs and set their dimensions; the
//! workspace shows `bundle()`, made by `group::bundle_of` like the command line's.

use crate::assemble::group::{self, File, Group, RunSpec};
use crate::bundle::{Bundle, Run, Warning};
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
}

/// What a run holds, to tell whether another file adds to it or is another run of the same kind.
fn kinds(b: &Bundle) -> [bool; 3] {
    let any = |f: fn(&Run) -> bool| b.runs.iter().any(f);
    [any(|r| !r.transactions.is_empty()), any(|r| !r.resources.is_empty()), any(|r| !r.indices.is_empty())]
}

fn overlaps(a: [bool; 3], b: [bool; 3]) -> bool {
    a.iter().zip(b).any(|(x, y)| *x && y)
}

impl Session {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The files of run `i`, in the order they came.
    pub fn files_of(&self, i: usize) -> impl Iterator<Item = (usize, &SessionFile)> {
        self.files.iter().enumerate().filter(move |(_, f)| f.run == i)
    }

    fn kinds_of_run(&self, i: usize) -> [bool; 3] {
        self.files_of(i).fold([false; 3], |acc, (_, f)| {
            let k = kinds(&f.bundle);
            [acc[0] || k[0], acc[1] || k[1], acc[2] || k[2]]
        })
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

    /// Adds an imported file: into a run of its batch that has nothing of its kind yet, else into
    /// a new run. Returns the run it went into.
    pub fn add(&mut self, batch: u32, name: &str, format: &str, records: u64, bundle: Bundle) -> usize {
        let k = kinds(&bundle);
        let first = bundle.runs.first().map(|r| (r.id.clone(), r.label.clone()));
        let run = if bundle.runs.len() != 1 {
            self.new_run(first, name, false)
        } else {
            let fits = (0..self.runs.len()).find(|i| {
                self.runs[*i].merge
                    && self.files_of(*i).next().is_some_and(|(_, f)| f.batch == batch)
                    && !overlaps(self.kinds_of_run(*i), k)
            });
            match fits {
                Some(i) => i,
                None => self.new_run(first, name, true),
            }
        };
        self.files.push(SessionFile {
            name: name.to_string(),
            format: format.to_string(),
            records,
            bundle,
            batch,
            run,
        });
        run
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
        let id = self.unique_id(&names::run_id(label), Some(i));
        let run = &mut self.runs[i];
        let old = std::mem::replace(&mut run.spec.id, id.clone());
        run.spec.label = Some(label.to_string());
        Some((old, id))
    }

    /// Sets (or, with an empty value, removes) a dimension of run `i`.
    pub fn set_dimension(&mut self, i: usize, key: &str, value: &str) {
        let (key, value) = (key.trim(), value.trim());
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

#[cfg(test)]
mod tests;
