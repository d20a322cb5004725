//! A workspace: every bundle loaded so far, with their runs in one list. Run ids that collide
//! across bundles are made unique (`id~2`), never dropped.

use crate::bundle::{Bundle, Comparison, Report, Run, Warning};

/// One loaded file.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// File name or URL it came from.
    pub name: String,
    pub report: Report,
    pub warnings: Vec<Warning>,
}

/// A run with the index of the source it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceRun {
    pub source: usize,
    pub run: Run,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Workspace {
    pub sources: Vec<Source>,
    pub runs: Vec<WorkspaceRun>,
    /// Declared comparisons of every source, with run ids already made unique.
    pub comparisons: Vec<Comparison>,
}

impl Workspace {
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Adds a bundle; returns the renames made, as (old id, new id).
    pub fn add(&mut self, name: &str, bundle: Bundle, warnings: Vec<Warning>) -> Vec<(String, String)> {
        let source = self.sources.len();
        let mut renames = Vec::new();
        for mut run in bundle.runs {
            if self.run(&run.id).is_some() {
                let new = (2..).map(|n| format!("{}~{n}", run.id)).find(|c| self.run(c).is_none()).unwrap_or_default();
                renames.push((run.id.clone(), new.clone()));
                run.id = new;
            }
            self.runs.push(WorkspaceRun { source, run });
        }
        let rename = |id: &str| renames.iter().find(|(o, _)| o == id).map_or(id.to_string(), |(_, n)| n.clone());
        for c in bundle.comparisons {
            self.comparisons.push(Comparison {
                baseline: rename(&c.baseline),
                candidates: c.candidates.iter().map(|x| rename(x)).collect(),
                ..c
            });
        }
        self.sources.push(Source { name: name.to_string(), report: bundle.report, warnings });
        renames
    }

    pub fn run(&self, id: &str) -> Option<&Run> {
        self.runs.iter().find(|r| r.run.id == id).map(|r| &r.run)
    }

    /// The runs in order, as plain runs.
    pub fn all_runs(&self) -> impl Iterator<Item = &Run> {
        self.runs.iter().map(|r| &r.run)
    }

    /// The runs shown when the URL names none, baseline first: the first declared comparison,
    /// else the first two runs.
    pub fn default_selection(&self) -> Vec<String> {
        if let Some(c) = self.comparisons.first() {
            let mut ids: Vec<String> = Vec::new();
            for id in std::iter::once(&c.baseline).chain(&c.candidates) {
                if !ids.contains(id) {
                    ids.push(id.clone());
                }
            }
            return ids;
        }
        self.runs.iter().take(2).map(|r| r.run.id.clone()).collect()
    }

    /// Back to one bundle: the first source's report, every run and comparison. Loads back equal.
    pub fn to_bundle(&self) -> Option<Bundle> {
        let mut report = self.sources.first()?.report.clone();
        if self.sources.len() > 1 {
            report.notes.push(format!(
                "Merged by runlens from {}.",
                self.sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
        Some(Bundle {
            format: crate::bundle::FORMAT_NAME.into(),
            version: crate::bundle::FORMAT_VERSION,
            report,
            runs: self.runs.iter().map(|r| r.run.clone()).collect(),
            comparisons: self.comparisons.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(ids: &[&str]) -> Bundle {
        Bundle {
            format: "runlens-bundle".into(),
            version: 1,
            report: Report { title: "t".into(), ..Default::default() },
            runs: ids.iter().map(|i| Run { id: i.to_string(), label: i.to_string(), ..Default::default() }).collect(),
            comparisons: vec![Comparison { baseline: ids[0].into(), candidates: vec![ids[1].into()], ..Default::default() }],
        }
    }

    #[test]
    fn colliding_ids_are_renamed_and_comparisons_follow() {
        let mut w = Workspace::default();
        assert!(w.add("a.json", bundle(&["x", "y"]), vec![]).is_empty());
        let renames = w.add("b.json", bundle(&["x", "z"]), vec![]);
        assert_eq!(renames, vec![("x".to_string(), "x~2".to_string())]);
        assert_eq!(w.runs.len(), 4);
        assert_eq!(w.comparisons[1].baseline, "x~2");
        assert_eq!(w.runs[2].source, 1);
        assert_eq!(w.default_selection(), vec!["x", "y"]);
    }
}
