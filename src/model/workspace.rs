//! A workspace: every bundle loaded so far, with their runs in one list. Run ids that collide
//! across bundles are made unique (`id~2`), never dropped.

use crate::bundle::{Bundle, BundleRef, Comparison, LabelRule, Report, Run, Thresholds, Warning};
use std::borrow::Cow;
use std::sync::Arc;

/// One loaded file.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// File name or URL it came from.
    pub name: String,
    pub report: Report,
    pub warnings: Vec<Warning>,
    /// The thresholds the bundle states, if any.
    pub thresholds: Option<Thresholds>,
    /// The label rules the bundle states (applied before comparison, `model::labels`).
    pub label_rules: Vec<LabelRule>,
}

/// A run with the index of the source it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceRun {
    pub source: usize,
    /// Shared: the views' lists of selected runs hold the same runs, not copies of them.
    pub run: Arc<Run>,
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
        self.sources.push(Source {
            name: name.to_string(),
            report: Report::default(),
            warnings: vec![],
            thresholds: None,
            label_rules: vec![],
        });
        self.fill(source, bundle, warnings)
    }

    /// Puts `bundle`'s runs under source `source` (whose entry exists), renaming ids that collide.
    fn fill(&mut self, source: usize, bundle: Bundle, warnings: Vec<Warning>) -> Vec<(String, String)> {
        let mut renames = Vec::new();
        for mut run in bundle.runs {
            if self.run(&run.id).is_some() {
                let new = (2..).map(|n| format!("{}~{n}", run.id)).find(|c| self.run(c).is_none()).unwrap_or_default();
                renames.push((run.id.clone(), new.clone()));
                run.id = new;
            }
            self.runs.push(WorkspaceRun { source, run: Arc::new(run) });
        }
        let rename = |id: &str| renames.iter().find(|(o, _)| o == id).map_or(id.to_string(), |(_, n)| n.clone());
        for c in bundle.comparisons {
            self.comparisons.push(Comparison {
                baseline: rename(&c.baseline),
                candidates: c.candidates.iter().map(|x| rename(x)).collect(),
                ..c
            });
        }
        if let Some(s) = self.sources.get_mut(source) {
            (s.report, s.warnings, s.thresholds) = (bundle.report, warnings, bundle.thresholds);
            s.label_rules = bundle.label_rules;
        }
        renames
    }

    /// Replaces the runs of the source named `name` (made again from what the user edited, such
    /// as the import panel's runs), or adds it; `None` removes it. Returns the renames made.
    pub fn set_source(&mut self, name: &str, bundle: Option<Bundle>, warnings: Vec<Warning>) -> Vec<(String, String)> {
        let Some(idx) = self.sources.iter().position(|s| s.name == name) else {
            return bundle.map(|b| self.add(name, b, warnings)).unwrap_or_default();
        };
        let old: Vec<String> = self.runs.iter().filter(|r| r.source == idx).map(|r| r.run.id.clone()).collect();
        self.runs.retain(|r| r.source != idx);
        self.comparisons.retain(|c| !old.contains(&c.baseline));
        match bundle {
            Some(b) => self.fill(idx, b, warnings),
            None => {
                self.sources.remove(idx);
                for r in &mut self.runs {
                    if r.source > idx {
                        r.source -= 1;
                    }
                }
                vec![]
            }
        }
    }

    pub fn run(&self, id: &str) -> Option<&Run> {
        self.shared(id).map(|r| &**r)
    }

    /// The run with this id, shared (a copy of the pointer, not of the run).
    pub fn shared(&self, id: &str) -> Option<&Arc<Run>> {
        self.runs.iter().find(|r| r.run.id == id).map(|r| &r.run)
    }

    /// The runs in order, as plain runs.
    pub fn all_runs(&self) -> impl Iterator<Item = &Run> {
        self.runs.iter().map(|r| &*r.run)
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

    /// Selections that show data a view needs (`has`), for a view that would otherwise look
    /// empty: the declared comparisons with a run that has it, else each such run alone. Each
    /// comes with a label to offer it by ("20 users: non-Eureka vs Eureka").
    pub fn selections_with(&self, has: impl Fn(&Run) -> bool) -> Vec<(String, Vec<String>)> {
        let label = |id: &str| self.run(id).map_or(id.to_string(), |r| r.label.clone());
        let mut out: Vec<(String, Vec<String>)> = self
            .comparisons
            .iter()
            .filter(|c| std::iter::once(&c.baseline).chain(&c.candidates).any(|id| self.run(id).is_some_and(&has)))
            .map(|c| {
                let ids: Vec<String> = std::iter::once(&c.baseline).chain(&c.candidates).cloned().collect();
                let name = c.title.clone().unwrap_or_else(|| {
                    format!(
                        "{} vs {}",
                        c.candidates.iter().map(|x| label(x)).collect::<Vec<_>>().join(", "),
                        label(&c.baseline)
                    )
                });
                (name, ids)
            })
            .collect();
        if out.is_empty() {
            out = self.all_runs().filter(|r| has(r)).map(|r| (r.label.clone(), vec![r.id.clone()])).collect();
        }
        out
    }

    /// Back to one bundle: the first source's report, every run and comparison. Loads back equal.
    pub fn to_bundle(&self) -> Option<Bundle> {
        self.to_bundle_ref().map(|b| b.to_bundle())
    }

    /// `to_bundle`, borrowing the runs (what the page hands the writer worker).
    pub fn to_bundle_ref(&self) -> Option<BundleRef<'_>> {
        let mut report = self.sources.first()?.report.clone();
        if self.sources.len() > 1 {
            report.notes.push(format!(
                "Merged by runlens from {}.",
                self.sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
        Some(BundleRef {
            format: crate::bundle::FORMAT_NAME,
            version: crate::bundle::FORMAT_VERSION,
            report: Cow::Owned(report),
            runs: self.runs.iter().map(|r| &*r.run).collect(),
            comparisons: Cow::Borrowed(&self.comparisons),
            thresholds: self.bundle_thresholds(),
            label_rules: Cow::Owned(self.label_rules()),
        })
    }

    /// One bundle of only the runs `ids` (baseline first), for sharing a comparison in a link: the
    /// first source's report, those runs, and the comparison of them (baseline against the rest).
    pub fn subset_bundle(&self, ids: &[String]) -> Option<Bundle> {
        self.subset_bundle_ref(ids).map(|b| b.to_bundle())
    }

    /// `subset_bundle`, borrowing the runs.
    pub fn subset_bundle_ref(&self, ids: &[String]) -> Option<BundleRef<'_>> {
        let mut b = self.to_bundle_ref()?;
        b.runs.retain(|r| ids.contains(&r.id));
        crate::order::sort_by_key(&mut b.runs, |r| ids.iter().position(|i| *i == r.id));
        if b.runs.is_empty() {
            return None;
        }
        let baseline = b.runs[0].id.clone();
        let candidates: Vec<String> = b.runs[1..].iter().map(|r| r.id.clone()).collect();
        b.comparisons = if candidates.is_empty() {
            Cow::Owned(vec![])
        } else {
            Cow::Owned(vec![Comparison { baseline, candidates, ..Default::default() }])
        };
        Some(b)
    }

    /// The first `thresholds` object of the loaded bundles (one workspace is judged by one set).
    pub fn bundle_thresholds(&self) -> Option<&Thresholds> {
        self.sources.iter().find_map(|s| s.thresholds.as_ref())
    }

    /// The label rules of every loaded bundle, in load order, each once (one workspace is judged
    /// by one list; the URL's rules come after these).
    pub fn label_rules(&self) -> Vec<LabelRule> {
        let mut out: Vec<LabelRule> = Vec::new();
        for r in self.sources.iter().flat_map(|s| &s.label_rules) {
            if !out.contains(r) {
                out.push(r.clone());
            }
        }
        out
    }

    /// The thresholds in force before the URL's: the defaults under the bundle's.
    pub fn thresholds(&self) -> super::metric::Thresholds {
        let d = super::metric::Thresholds::default();
        self.bundle_thresholds().map_or(d, |b| d.with_bundle(b))
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
            comparisons: vec![Comparison {
                baseline: ids[0].into(),
                candidates: vec![ids[1].into()],
                ..Default::default()
            }],
            thresholds: None,
            label_rules: vec![],
        }
    }

    #[test]
    fn a_source_is_replaced_in_place_or_removed() {
        let mut w = Workspace::default();
        w.add("a.json", bundle(&["x", "y"]), vec![]);
        w.add("imported", bundle(&["p", "q"]), vec![]);
        w.add("c.json", bundle(&["z", "x"]), vec![]);
        assert_eq!(
            w.set_source("imported", Some(bundle(&["p2", "x"])), vec![]),
            vec![("x".to_string(), "x~3".to_string())]
        );
        let ids: Vec<(&str, usize)> = w.runs.iter().map(|r| (r.run.id.as_str(), r.source)).collect();
        assert_eq!(ids, [("x", 0), ("y", 0), ("z", 2), ("x~2", 2), ("p2", 1), ("x~3", 1)]);
        assert!(w.comparisons.iter().all(|c| c.baseline != "p"), "the old runs' comparison is gone");
        w.set_source("imported", None, vec![]);
        assert_eq!(w.sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["a.json", "c.json"]);
        assert_eq!(w.runs.iter().map(|r| r.source).collect::<Vec<_>>(), [0, 0, 1, 1]);
        w.set_source("new", Some(bundle(&["n", "m"])), vec![]);
        assert_eq!(w.sources.len(), 3);
    }

    #[test]
    fn a_subset_keeps_the_chosen_runs_in_order_and_their_comparison() {
        let mut w = Workspace::default();
        w.add("a.json", bundle(&["x", "y", "z"]), vec![]);
        let b = w.subset_bundle(&["z".into(), "x".into()]).unwrap();
        assert_eq!(b.runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["z", "x"]);
        assert_eq!(
            (b.comparisons[0].baseline.as_str(), b.comparisons[0].candidates.clone()),
            ("z", vec!["x".to_string()])
        );
        let one = w.subset_bundle(&["y".into()]).unwrap();
        assert!(one.comparisons.is_empty());
        assert!(w.subset_bundle(&["nope".into()]).is_none());
        crate::bundle::load_bundle_str("b", &serde_json::to_string(&b).unwrap()).unwrap();
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

    #[test]
    fn offers_selections_that_have_the_data() {
        let mut w = Workspace::default();
        let mut b = bundle(&["a", "b", "c"]);
        b.comparisons.push(Comparison {
            title: Some("second".into()),
            baseline: "c".into(),
            candidates: vec!["b".into()],
            ..Default::default()
        });
        w.add("x.json", b, vec![]);
        let offers = w.selections_with(|r| r.id == "c");
        assert_eq!(offers, vec![("second".to_string(), vec!["c".to_string(), "b".to_string()])]);
        w.comparisons.clear();
        assert_eq!(w.selections_with(|r| r.id == "c"), vec![("c".to_string(), vec!["c".to_string()])], "the run alone");
    }
}
