//! Imported files grouped into runs, as the import panel and the command line (`runlens import
//! --run ID …`) group them: the files of one group are one test run seen through several tools
//! (a JTL, `docker stats`, `_cat/indices`), so their runs merge into one run; files outside any
//! group keep their runs as imported (a history file keeps one run per night). `bundle_of` puts
//! the runs into one bundle, after the runs of a bundle being appended to (last night's history),
//! keeping every run id unique.

use crate::bundle::{self, Bundle, Comparison, Report, Run, RunStatus, Warning};
use crate::import::common::civil;
use crate::model::Workspace;
use std::collections::hash_map::{Entry, HashMap};
use std::collections::{BTreeMap, HashSet};

/// The runs of one imported file, with the file's name (for messages and notes).
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub source: String,
    pub run: Run,
}

/// What the user says about a group's run: its id, label and dimensions (`release=Poppy`).
#[derive(Debug, Clone, PartialEq, Default, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct RunSpec {
    pub id: String,
    /// The label shown in the viewer; the id when left out.
    pub label: Option<String>,
    pub dimensions: BTreeMap<String, String>,
}

/// One imported file, as a group takes it.
#[derive(Debug, Clone, PartialEq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct File {
    pub name: String,
    pub bundle: Bundle,
}

/// Files that form one run (`run` is set), or files whose runs are kept as imported.
#[derive(Debug, Clone, PartialEq, Default, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Group {
    pub run: Option<RunSpec>,
    pub files: Vec<File>,
}

/// `Group`, borrowed (to hand to the writer worker: borsh writes it as it writes a `Group`).
#[derive(Debug, Clone, borsh::BorshSerialize)]
pub struct GroupRef<'a> {
    pub run: Option<&'a RunSpec>,
    pub files: Vec<FileRef<'a>>,
}

/// `File`, borrowed.
#[derive(Debug, Clone, borsh::BorshSerialize)]
pub struct FileRef<'a> {
    pub name: &'a str,
    pub bundle: crate::bundle::BundleRef<'a>,
}

/// How the bundle is made: its title and, optionally, a declared comparison.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    /// The report's title; else the appended bundle's, else the single input's, else the inputs' names.
    pub title: Option<String>,
    /// Declares the comparison of this run against the runs imported now (it goes first, so the
    /// viewer opens on it, and replaces an earlier comparison of the same baseline).
    pub baseline: Option<String>,
}

/// Items of one kind (transactions, resources, …) gathered from the parts of a run: an item whose
/// key an earlier part already gave is dropped with a warning. The keys are in a map, so merging
/// two files of thousands of transactions takes linear time; only `add` is generic over the item.
struct Unique<T> {
    items: Vec<T>,
    seen: HashMap<String, usize>,
}

impl<T> Unique<T> {
    fn new() -> Self {
        Self { items: Vec::new(), seen: HashMap::new() }
    }

    fn add(
        &mut self,
        from: Vec<T>,
        at: (usize, &[&str]),
        what: &str,
        key: fn(&T) -> String,
        warnings: &mut Vec<Warning>,
    ) {
        for item in from {
            match first_seen(&mut self.seen, key(&item), at, what) {
                Some(w) => warnings.push(w),
                None => self.items.push(item),
            }
        }
    }
}

/// Records `k` as given by part `at.0`; if an earlier part gave it, the warning that says so.
fn first_seen(
    seen: &mut HashMap<String, usize>,
    k: String,
    (part, parts): (usize, &[&str]),
    what: &str,
) -> Option<Warning> {
    let name = |i: usize| parts.get(i).copied().unwrap_or_default();
    match seen.entry(k) {
        Entry::Occupied(first) => Some(Warning {
            path: name(part).to_string(),
            message: format!(
                "{what} {:?} is also in {}; the run keeps that one and drops this one (a summary of samples another file of the run already has)",
                first.key(),
                name(*first.get())
            ),
        }),
        Entry::Vacant(v) => {
            v.insert(part);
            None
        }
    }
}

/// How bad a status is: a run that failed in one file failed.
fn severity(s: RunStatus) -> u8 {
    match s {
        RunStatus::Completed => 0,
        RunStatus::Unknown => 1,
        RunStatus::Aborted => 2,
        RunStatus::Failed => 3,
    }
}

/// The earliest (`later == false`) or latest time among `times`, compared as instants where they
/// parse; the text as written is kept.
fn pick_time<'a>(times: impl Iterator<Item = &'a String>, later: bool) -> Option<String> {
    let mut best: Option<(i64, &String)> = None;
    let mut unparsed: Option<&String> = None;
    for t in times {
        match civil::parse_datetime(t) {
            Some((ms, _)) if best.is_none_or(|(b, _)| if later { ms > b } else { ms < b }) => best = Some((ms, t)),
            Some(_) => {}
            None => unparsed = unparsed.or(Some(t)),
        }
    }
    best.map(|(_, t)| t).or(unparsed).cloned()
}

/// One run from the runs of several files of the same test: transactions, resources, indices,
/// KPIs, errors, tenants, modules and infrastructure concatenated (an item whose key an earlier
/// part has is dropped with a warning naming both files); start the earliest, end the latest, the
/// duration between them (else the longest part's), taken from the parts with transactions when
/// there are any (a CloudWatch query usually spans more than the test: the load tool's samples
/// say when the test ran); the worst status; dimensions of the parts, then `spec`'s, which win.
/// Parts counted from samples go first; when several are (load generators of one test), their
/// transactions, KPIs, errors and timelines add up (`merge`).
pub fn merge_runs(spec: &RunSpec, mut parts: Vec<Part>) -> (Run, Vec<Warning>) {
    // Files counted from samples first: where a summary of the same test (statistics.json,
    // Gatling's stats.json) names the same transaction, the samples' version is kept.
    parts.sort_by_key(|p| !super::merge::is_sampled(&p.run));
    let mut warnings = Vec::new();
    let sources: Vec<String> = parts.iter().map(|p| p.source.clone()).collect();
    let names: Vec<&str> = sources.iter().map(String::as_str).collect();
    let any_load = parts.iter().any(|p| !p.run.transactions.is_empty());
    let timed = || parts.iter().filter(move |p| !any_load || !p.run.transactions.is_empty());
    let mut run = Run {
        id: spec.id.clone(),
        label: spec.label.clone().unwrap_or_else(|| spec.id.clone()),
        start: pick_time(timed().filter_map(|p| p.run.start.as_ref()), false),
        end: pick_time(timed().filter_map(|p| p.run.end.as_ref()), true),
        ..Default::default()
    };
    run.duration_s = match (
        run.start.as_deref().and_then(civil::parse_datetime),
        run.end.as_deref().and_then(civil::parse_datetime),
    ) {
        (Some((s, _)), Some((e, _))) if e >= s => Some((e - s) as f64 / 1000.0),
        _ => timed().filter_map(|p| p.run.duration_s).reduce(f64::max),
    };
    let (mut txns, mut res, mut idx, mut kpis) = (Unique::new(), Unique::new(), Unique::new(), Unique::new());
    let (mut errs, mut tenants, mut modules, mut infra) = (Unique::new(), Unique::new(), Unique::new(), Unique::new());
    let mut status_part: Option<usize> = None;
    let load = super::merge::load(&mut parts, &mut run, &mut warnings);
    let first_load = parts.iter().position(|p| super::merge::is_sampled(&p.run));
    for (i, Part { source, run: mut r }) in parts.into_iter().enumerate() {
        if let Some(merged) = load.as_ref().filter(|_| super::merge::is_sampled(&r)) {
            // The load generators' samples were merged; the first generator's place gives them.
            let (t, k, e) = if Some(i) == first_load { merged.clone() } else { Default::default() };
            (r.transactions, r.kpis, r.errors) = (t, k, e);
        }
        for (key, value) in r.dimensions {
            match run.dimensions.get(&key) {
                Some(v) if *v != value && !spec.dimensions.contains_key(&key) => warnings.push(Warning {
                    path: source.clone(),
                    message: format!(
                        "dimension {key}={value} differs from {key}={v} of an earlier file; the run keeps {key}={v}"
                    ),
                }),
                Some(_) => {}
                None => {
                    run.dimensions.insert(key, value);
                }
            }
        }
        for (field, mine, theirs) in
            [("release", &mut run.release, r.release), ("version", &mut run.version, r.version)]
        {
            match (mine.as_ref(), theirs) {
                (None, t) => *mine = t,
                (Some(m), Some(t)) if *m != t => warnings.push(Warning {
                    path: source.clone(),
                    message: format!("{field} {t:?} differs from {m:?} of an earlier file; the run keeps {m:?}"),
                }),
                _ => {}
            }
        }
        if status_part.is_none_or(|_| severity(r.status) > severity(run.status)) {
            run.status = r.status;
            run.status_reason = r.status_reason;
            status_part = Some(i);
        }
        for text in r.conditions {
            if !run.conditions.contains(&text) {
                run.conditions.push(text);
            }
        }
        for text in r.notes {
            if !run.notes.contains(&text) {
                run.notes.push(text);
            }
        }
        let (at, w) = ((i, names.as_slice()), &mut warnings);
        txns.add(r.transactions, at, "transaction", |t| t.name.clone(), w);
        // Resource series count from their own file's start; in the run, from the run's.
        super::clock::rebase(&mut r.resources, r.start.as_deref(), run.start.as_deref());
        res.add(r.resources, at, "resource", |x| format!("{} {}", x.service, x.metric), w);
        idx.add(r.indices, at, "index", |x| x.index.clone(), w);
        kpis.add(r.kpis, at, "KPI", |k| k.name.clone(), w);
        errs.add(r.errors, at, "error", |e| e.key(), w);
        tenants.add(r.tenants, at, "tenant", |t| t.tenant.clone(), w);
        modules.add(r.modules, at, "module", |m| m.module.clone(), w);
        infra.add(r.infrastructure, at, "infrastructure component", |c| c.component.clone(), w);
    }
    (run.transactions, run.resources, run.indices, run.kpis) = (txns.items, res.items, idx.items, kpis.items);
    (run.errors, run.tenants, run.modules, run.infrastructure) =
        (errs.items, tenants.items, modules.items, infra.items);
    run.dimensions.extend(spec.dimensions.clone());
    if sources.len() > 1 {
        run.notes.push(format!(
            "Merged by runlens from {}.",
            sources.iter().map(|s| crate::import::common::names::file_name(s)).collect::<Vec<_>>().join(", ")
        ));
    }
    (run, warnings)
}

/// Why the groups do not make a bundle.
pub type GroupError = String;

/// One bundle of `groups`, after the runs of `append` (kept first, with its report, comparisons
/// and thresholds). A grouped file must give one run (a history file goes outside groups); ids
/// that collide become `id~2`, with a warning. Warnings name the file (or the run) they are about.
pub fn bundle_of(
    append: Option<File>,
    groups: Vec<Group>,
    options: &Options,
) -> Result<(Bundle, Vec<Warning>), GroupError> {
    let mut warnings = Vec::new();
    let mut ws = Workspace::default();
    let appended = append.is_some();
    if let Some(f) = append {
        ws.add(&f.name, f.bundle, vec![]);
    }
    let before = ws.runs.len();
    let mut inputs: Vec<(String, Input)> = Vec::new();
    let mut grouped_ids = HashSet::new();
    for g in groups {
        match g.run {
            None => {
                for f in g.files {
                    inputs.push((f.name.clone(), Input::of(&f.bundle)));
                    let renames = ws.add(&f.name, f.bundle, vec![]);
                    warn_renames(&mut warnings, &f.name, renames);
                }
            }
            Some(spec) => {
                if !grouped_ids.insert(spec.id.clone()) {
                    return Err(format!("--run {} is given twice; each run needs its own id", spec.id));
                }
                let mut parts = Vec::new();
                for f in g.files {
                    if f.bundle.runs.len() != 1 {
                        return Err(format!(
                            "{} holds {} runs, and run {} merges files of one run each; give a file of several runs outside --run",
                            f.name,
                            f.bundle.runs.len(),
                            spec.id
                        ));
                    }
                    inputs.push((f.name.clone(), Input::of(&f.bundle)));
                    parts.extend(f.bundle.runs.into_iter().map(|run| Part { source: f.name.clone(), run }));
                }
                let (run, w) = merge_runs(&spec, parts);
                warnings.extend(w);
                let b = Bundle { runs: vec![run], ..bundle_around_runs() };
                let renames = ws.add(&spec.id, b, vec![]);
                warn_renames(&mut warnings, &format!("run {}", spec.id), renames);
            }
        }
    }
    let new_ids: Vec<String> = ws.runs[before.min(ws.runs.len())..].iter().map(|r| r.run.id.clone()).collect();
    let mut report = match (ws.sources.first(), inputs.as_slice()) {
        (Some(s), _) if appended => s.report.clone(),
        (_, [(_, only)]) => only.report.clone(),
        _ => merged_report(&inputs),
    };
    if let Some(t) = &options.title {
        report.title = t.clone();
    }
    let mut comparisons = ws.comparisons.clone();
    if let Some(base) = &options.baseline {
        if ws.run(base).is_none() {
            return Err(format!("--baseline {base}: no run has this id (the runs are {})", ids_list(&ws)));
        }
        let candidates: Vec<String> = new_ids.iter().filter(|id| *id != base).cloned().collect();
        if candidates.is_empty() {
            return Err(format!("--baseline {base}: no run imported now is left to compare with it"));
        }
        comparisons.retain(|c| c.baseline != *base);
        comparisons.insert(0, Comparison { baseline: base.clone(), candidates, ..Default::default() });
    }
    let thresholds = ws.bundle_thresholds().cloned().or_else(|| inputs.iter().find_map(|(_, i)| i.thresholds.clone()));
    let label_rules = label_rules(&ws, &inputs);
    // The runs are moved out, not copied: a run's timeline can be megabytes (decision 0062).
    let runs = std::mem::take(&mut ws.runs).into_iter().map(|r| std::sync::Arc::unwrap_or_clone(r.run)).collect();
    let bundle = Bundle { report, runs, comparisons, thresholds, label_rules, ..bundle_around_runs() };
    Ok((bundle, warnings))
}

/// What a bundle keeps of an input besides its runs.
struct Input {
    report: Report,
    thresholds: Option<bundle::Thresholds>,
    label_rules: Vec<bundle::LabelRule>,
}

impl Input {
    fn of(b: &Bundle) -> Input {
        Input { report: b.report.clone(), thresholds: b.thresholds.clone(), label_rules: b.label_rules.clone() }
    }
}

/// The label rules of the workspace's bundles, then those of the grouped inputs, each once.
fn label_rules(ws: &Workspace, inputs: &[(String, Input)]) -> Vec<bundle::LabelRule> {
    let mut out = ws.label_rules();
    for r in inputs.iter().flat_map(|(_, i)| &i.label_rules) {
        if !out.contains(r) {
            out.push(r.clone());
        }
    }
    out
}

/// The report of a new bundle of several inputs: their names as the title (the first
/// `TITLE_NAMES`), their notes.
fn merged_report(inputs: &[(String, Input)]) -> Report {
    const TITLE_NAMES: usize = 5;
    let names: Vec<&str> =
        inputs.iter().map(|(n, _)| crate::import::common::names::file_stem(n)).take(TITLE_NAMES).collect();
    let more = inputs.len().saturating_sub(TITLE_NAMES);
    let mut report = Report {
        title: if more > 0 { format!("{} and {more} more", names.join(", ")) } else { names.join(", ") },
        ..Default::default()
    };
    for n in inputs.iter().flat_map(|(_, i)| &i.report.notes) {
        if !report.notes.contains(n) {
            report.notes.push(n.clone());
        }
    }
    report
}

pub(crate) fn bundle_around_runs() -> Bundle {
    Bundle {
        format: bundle::FORMAT_NAME.into(),
        version: bundle::FORMAT_VERSION,
        report: Report::default(),
        runs: vec![],
        comparisons: vec![],
        thresholds: None,
        label_rules: vec![],
    }
}

fn warn_renames(warnings: &mut Vec<Warning>, source: &str, renames: Vec<(String, String)>) {
    for (old, new) in renames {
        warnings.push(Warning {
            path: source.to_string(),
            message: format!("run id {old:?} is already taken; this run is {new:?}"),
        });
    }
}

fn ids_list(ws: &Workspace) -> String {
    let ids: Vec<&str> = ws.all_runs().map(|r| r.id.as_str()).take(20).collect();
    let more = crate::limits::more_note(ws.runs.len(), 20).map_or(String::new(), |m| format!(" {m}"));
    format!("{}{more}", ids.join(", "))
}

#[cfg(test)]
mod tests;
