//! Files dropped (or named on the command line) together, grouped into runs the way the tools
//! name their output: a Locust `--csv PREFIX` set (`PREFIX_stats.csv`, `_stats_history.csv`,
//! `_failures.csv`, `_exceptions.csv`), a Gatling report (`simulation.log` and `js/stats.json` of
//! one folder, or files sharing a prefix), and the files of one test by name stem (`poppy.jtl`,
//! `indices-poppy.txt`) or by time overlap (a CloudWatch export spanning one JTL's test). When a
//! file could belong to two runs it gets its own: a grouping never moves one run's data into
//! another. Decision 0055.

use crate::bundle::{Bundle, Run};
use crate::import::common::names;

/// One file to group: its name (a path or a file name) and what it was imported as.
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    pub name: &'a str,
    pub bundle: &'a Bundle,
}

/// Words that name a tool's file, not a test: left out of a stem when matching names.
const TOOL_WORDS: [&str; 33] = [
    "stats",
    "history",
    "failures",
    "exceptions",
    "simulation",
    "global",
    "statistics",
    "results",
    "result",
    "jtl",
    "cat",
    "indices",
    "index",
    "cloudwatch",
    "docker",
    "metrics",
    "metric",
    "cpu",
    "memory",
    "mem",
    "report",
    "summary",
    "k6",
    "locust",
    "gatling",
    "jmeter",
    "json",
    "csv",
    "log",
    "txt",
    "out",
    "output",
    "js",
];

/// The groups of `items`: indices into `items`, each group one run (a file of several runs, e.g.
/// a nightly history, is always alone). Groups are in the order of their first file; in a group,
/// files counted from samples come first (their transactions win over a summary's).
pub fn group(items: &[Item]) -> Vec<Vec<usize>> {
    let info: Vec<Info> = items.iter().map(Info::of).collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut pending = Vec::new();
    for (i, f) in info.iter().enumerate() {
        if f.runs != 1 {
            groups.push(vec![i]);
        } else if let Some(g) = f.set.as_ref().and_then(|k| find(&groups, &info, |o| o.set.as_ref() == Some(k))) {
            groups[g].push(i);
        } else if f.set.is_some() {
            groups.push(vec![i]);
        } else {
            pending.push(i);
        }
    }
    // Files counted from samples first: they make the runs the others join.
    pending.sort_by_key(|i| !info[*i].sampled);
    for i in pending {
        let f = &info[i];
        let open = |g: &Vec<usize>| g.iter().all(|j| info[*j].runs == 1) && g.iter().all(|j| !f.clashes(&info[*j]));
        let by_stem: Vec<usize> = (0..groups.len())
            .filter(|g| {
                open(&groups[*g])
                    && f.stem.as_ref().is_some_and(|s| groups[*g].iter().any(|j| info[*j].stem.as_ref() == Some(s)))
            })
            .collect();
        let by_time: Vec<usize> = (0..groups.len())
            .filter(|g| open(&groups[*g]) && groups[*g].iter().any(|j| f.overlaps(&info[*j])))
            .collect();
        let only_one = (groups.len() == 1 && open(&groups[0]) && !f.sampled && f.window.is_none()).then_some(0);
        let target = match (by_stem.as_slice(), by_time.as_slice()) {
            ([g], _) => Some(*g),
            ([], [g]) => Some(*g),
            ([], []) => only_one,
            _ => None,
        };
        match target {
            Some(g) => groups[g].push(i),
            None => groups.push(vec![i]),
        }
    }
    for g in &mut groups {
        g.sort_by_key(|i| (!info[*i].sampled, *i));
    }
    groups.sort_by_key(|g| g.iter().min().copied());
    groups
}

fn find(groups: &[Vec<usize>], info: &[Info], same: impl Fn(&Info) -> bool) -> Option<usize> {
    groups.iter().position(|g| g.iter().any(|j| same(&info[*j])))
}

/// What grouping looks at in one file.
#[derive(Debug)]
struct Info {
    runs: usize,
    /// The tool's set this file belongs to (`locust:dir/PREFIX`, `gatling:dir/report`).
    set: Option<String>,
    /// Folder and the stem's words that are not tool words, when there are any.
    stem: Option<String>,
    window: Option<(i64, i64)>,
    /// Counted from samples (transactions with histograms).
    sampled: bool,
    /// Has transactions (a summary or samples).
    load: bool,
}

impl Info {
    fn of(item: &Item) -> Info {
        let run: Option<&Run> = item.bundle.runs.first();
        let window = run.and_then(|r| match super::merge::window_of(r) {
            (Some(s), Some(e)) if e >= s => Some((s, e)),
            _ => None,
        });
        Info {
            runs: item.bundle.runs.len(),
            set: set_key(item.name),
            stem: stem_key(item.name),
            window,
            sampled: run.is_some_and(super::merge::is_sampled),
            load: run.is_some_and(|r| !r.transactions.is_empty()),
        }
    }

    /// Two load results of different tests, whose transactions would be mixed up: two files
    /// counted from samples join only when their windows overlap by half (generators of one
    /// test); a summary joins a run that has no other summary.
    fn clashes(&self, other: &Info) -> bool {
        match (self.sampled, other.sampled) {
            (true, true) => !self.overlaps_half(other),
            (false, false) => self.load && other.load,
            _ => false,
        }
    }

    fn overlaps(&self, other: &Info) -> bool {
        match (self.window, other.window) {
            (Some(a), Some(b)) => a.0.max(b.0) < a.1.min(b.1) || (a == b),
            _ => false,
        }
    }

    fn overlaps_half(&self, other: &Info) -> bool {
        match (self.window, other.window) {
            (Some(a), Some(b)) => {
                let common = a.1.min(b.1) - a.0.max(b.0);
                let shorter = (a.1 - a.0).min(b.1 - b.0);
                common > 0 && common * 2 >= shorter
            }
            _ => false,
        }
    }
}

/// A path's folder (`/`-separated, lower-cased) and its file name.
fn split(name: &str) -> (String, String) {
    let norm = crate::fold::lower(&name.replace('\\', "/")).into_owned();
    match norm.rsplit_once('/') {
        Some((d, f)) => (d.to_string(), f.to_string()),
        None => (String::new(), norm),
    }
}

/// The tool's output set a file name belongs to, if the name says so.
pub fn set_key(name: &str) -> Option<String> {
    let (dir, file) = split(name);
    let file = file.strip_suffix(".gz").unwrap_or(&file);
    for suffix in ["_stats_history.csv", "_stats.csv", "_failures.csv", "_exceptions.csv"] {
        if let Some(prefix) = file.strip_suffix(suffix).filter(|p| !p.is_empty()) {
            return Some(format!("locust:{dir}/{prefix}"));
        }
    }
    let gatling_dir = |d: &str| format!("gatling:{d}");
    match file {
        "simulation.log" => return Some(gatling_dir(&dir)),
        "stats.json" | "global_stats.json" => {
            return dir.strip_suffix("/js").or((dir == "js").then_some("")).map(gatling_dir);
        }
        _ => {}
    }
    for suffix in ["simulation.log", "global_stats.json", "stats.json"] {
        if let Some(prefix) =
            file.strip_suffix(suffix).and_then(|p| p.strip_suffix(['-', '_'])).filter(|p| !p.is_empty())
        {
            return Some(format!("gatling:{dir}/{prefix}"));
        }
    }
    None
}

/// The folder and the words of the stem that name the test, not the tool (`indices-poppy.txt`
/// and `poppy.jtl` both give `poppy`); `None` when nothing is left in either.
pub fn stem_key(name: &str) -> Option<String> {
    let (dir, _) = split(name);
    let stem = crate::fold::lower(names::file_stem(name)).into_owned();
    let words: Vec<&str> = stem
        .split(|c: char| c.is_ascii_punctuation() || c.is_ascii_whitespace())
        .filter(|w| !w.is_empty() && !TOOL_WORDS.contains(w))
        .collect();
    (!words.is_empty() || !dir.is_empty()).then(|| format!("{dir}/{}", words.join("-")))
}

#[cfg(test)]
mod tests;
