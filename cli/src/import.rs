//! `runlens import`: imports every file (files from disk streamed, a large JMeter CSV in byte
//! ranges on several threads; standard input streamed), reports each refused file with its
//! place and each warning with its file, groups files outside `--run` as the tools name them
//! (`runlens::assemble::sets`; not with `--no-group`), merges each group's runs
//! (`runlens::assemble::group`) and writes
//! the bundle, checked to load back as the viewer loads it.

use crate::offsets::{self, Offsets};
use crate::order::{Input, PlannedGroup};
use crate::{history, output, ImportArgs};
use runlens::assemble::group::{self, File, Group, Options, RunSpec};
use runlens::assemble::sets;
use runlens::bundle::{LoadError, Warning};
use runlens::import::{self as imp, common::parallel, Format, Imported};
use std::path::Path;

/// Runs the command (`offsets`: `--clock-offset`, matched to the inputs); `false` when an input was refused or the bundle could not be written.
pub fn run(args: &ImportArgs, plan: Vec<PlannedGroup>, mut offsets: Offsets) -> bool {
    let threads = args.threads.map_or_else(cores, usize::from);
    let say = Say { quiet: args.quiet };
    let mut ok = true;
    let append = match &args.append {
        None => None,
        Some(path) => match import_one(path, Some(Format::Bundle), 1) {
            Ok(i) => {
                say.warnings(&name(path), &i.warnings);
                Some(File { name: name(path), bundle: i.bundle })
            }
            Err(e) => {
                say.error(&e.to_string());
                ok = false;
                None
            }
        },
    };
    let mut groups = Vec::new();
    for g in plan {
        let mut files = Vec::new();
        for input in g.inputs {
            match import_input(&input, threads) {
                Ok(mut i) => {
                    say.imported(&name(&input.path), &i);
                    if let Some(ms) = offsets.take(&input.path) {
                        for at in offsets::apply(&mut i.bundle, ms, &name(&input.path)) {
                            let message = "left as it was: moved by --clock-offset it is not a time".into();
                            say.warning(&Warning { path: place(&name(&input.path), &at), message });
                        }
                    }
                    files.push(File { name: name(&input.path), bundle: i.bundle });
                }
                Err(e) => {
                    say.error(&e.to_string());
                    ok = false;
                }
            }
        }
        groups.push(Group { run: g.run, files });
    }
    if !ok {
        return false;
    }
    if !args.no_group {
        groups = auto_group(groups);
    }
    let options = Options { title: args.title.clone(), baseline: args.baseline.clone() };
    let (mut bundle, warnings) = match group::bundle_of(append, groups, &options) {
        Ok(x) => x,
        Err(message) => {
            say.error(&message);
            return false;
        }
    };
    for w in &warnings {
        say.warning(w);
    }
    if let Some(bounds) = history_bounds(args) {
        let outcome = history::bound(&mut bundle, &bounds);
        say.note(&outcome.describe(&bounds));
    }
    let written = match (&args.output, args.summary) {
        (None, true) => Ok(()),
        (out, _) => output::write(&bundle, out.as_deref()),
    };
    if let Err(message) = written {
        say.error(&message);
        return false;
    }
    if args.summary {
        print!("{}", imp::common::dump::bundle_summary(&bundle));
    }
    true
}

/// The files given outside `--run` grouped as the tools name them (`assemble::sets`): a group of
/// several files becomes one run, named after its first file's run (a unique id among the runs
/// named on the command line); a file alone keeps its runs as imported.
fn auto_group(groups: Vec<Group>) -> Vec<Group> {
    let mut taken: std::collections::HashSet<String> =
        groups.iter().filter_map(|g| g.run.as_ref().map(|r| r.id.clone())).collect();
    let mut out = Vec::new();
    for g in groups {
        if g.run.is_some() || g.files.len() < 2 {
            out.push(g);
            continue;
        }
        let items: Vec<sets::Item> = g.files.iter().map(|f| sets::Item { name: &f.name, bundle: &f.bundle }).collect();
        let plan = sets::group(&items);
        let mut files: Vec<Option<File>> = g.files.into_iter().map(Some).collect();
        for members in plan {
            let mine: Vec<File> = members.iter().filter_map(|i| files.get_mut(*i).and_then(Option::take)).collect();
            let spec = match mine.as_slice() {
                [_, _, ..] => mine[0].bundle.runs.first().map(|r| {
                    let id = (1..)
                        .map(|n| if n == 1 { r.id.clone() } else { format!("{}-{n}", r.id) })
                        .find(|c| !taken.contains(c))
                        .unwrap_or_default();
                    taken.insert(id.clone());
                    RunSpec { id, label: Some(r.label.clone()), dimensions: Default::default() }
                }),
                _ => None,
            };
            out.push(Group { run: spec, files: mine });
        }
    }
    out
}

/// Threads to read one large JMeter CSV with when none are asked for: the cores.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The bounds `--keep`, `--keep-thinned` and `--sparse-days` set, if `--keep` is given.
fn history_bounds(args: &ImportArgs) -> Option<history::Bounds> {
    let count = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    args.keep.map(|keep| history::Bounds {
        keep: count(keep),
        keep_thinned: count(args.keep_thinned),
        sparse_days: args.sparse_days,
    })
}

/// How a path is named in messages and run ids (`-` is standard input).
pub(crate) fn name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".into()
    } else {
        path.to_string_lossy().into_owned()
    }
}

fn import_input(input: &Input, threads: usize) -> Result<Imported, LoadError> {
    import_one(&input.path, input.format, threads)
}

/// Imports one file from disk (streamed; in ranges when it is a large JMeter CSV) or standard input.
pub(crate) fn import_one(path: &Path, format: Option<Format>, threads: usize) -> Result<Imported, LoadError> {
    if path.as_os_str() == "-" {
        let stdin = std::io::stdin().lock();
        return imp::import("stdin", stdin, format, &mut |_, _| {});
    }
    parallel::import_file_as(path, threads, format)
}

/// What goes to standard error.
struct Say {
    quiet: bool,
}

impl Say {
    fn error(&self, message: &str) {
        eprintln!("error: {message}");
    }

    fn note(&self, message: &str) {
        if !self.quiet {
            eprintln!("{message}");
        }
    }

    fn imported(&self, file: &str, i: &Imported) {
        if self.quiet {
            return;
        }
        let runs = i.bundle.runs.len();
        let records = if i.records > 0 {
            format!(", {} records", runlens::format::number(i.records as f64))
        } else {
            String::new()
        };
        eprintln!("{file}: {}{records}, {runs} run{}", i.format.title(), if runs == 1 { "" } else { "s" });
        self.warnings(file, &i.warnings);
    }

    /// A file's warnings, each with the file and its place (the list is capped per file by the
    /// importer, as the viewer shows it).
    fn warnings(&self, file: &str, warnings: &[Warning]) {
        for w in warnings {
            self.warning(&Warning { path: place(file, &w.path), message: w.message.clone() });
        }
    }

    fn warning(&self, w: &Warning) {
        if !self.quiet {
            eprintln!("warning: {w}");
        }
    }
}

/// "file, line 3" as `LoadError` writes a place; JSON paths as "file, at runs[0].id"; the count
/// of warnings not listed ("…") as the file alone.
fn place(file: &str, at: &str) -> String {
    match at {
        "" | "…" => file.to_string(),
        p if p.contains(['[', '.']) => format!("{file}, at {p}"),
        p => format!("{file}, {p}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn places_read_like_load_errors() {
        assert_eq!(super::place("a.jtl", "line 3"), "a.jtl, line 3");
        assert_eq!(
            super::place("b.json", "runs[0].transactions[1].p99_ms"),
            "b.json, at runs[0].transactions[1].p99_ms"
        );
        assert_eq!(super::place("a.jtl", "…"), "a.jtl");
    }
}
