//! `runlens` on the command line: result files into a runlens bundle (`runlens import`), what a
//! file is (`runlens detect`), bundles of several machines merged (`runlens merge`), and a CI gate on a comparison (`runlens compare`). The importers and
//! the comparison are the library's, the same code the viewer runs in the browser. Arguments are parsed by clap (https://docs.rs/clap/4); the order of `--run`,
//! `--label`, `--dim`, `--format` and the files matters, and is read from clap's argument indices
//! (`ArgMatches::indices_of`, as clap's `find` cookbook example does).

mod compare;
mod detect;
mod history;
mod import;
mod merge;
mod offsets;
mod order;
mod output;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit codes of every subcommand.
pub mod exit {
    /// Nothing failed.
    pub const OK: u8 = 0;
    /// A criterion failed (`compare`).
    pub const FAILED: u8 = 1;
    /// Bad input: a file refused, a criteria file with an error.
    pub const BAD_INPUT: u8 = 2;
    /// Usage error (clap's own usage errors included).
    pub const USAGE: u8 = 3;
}

const EXIT_CODES: &str = "Exit codes: 0 nothing failed, 1 a criterion failed (compare), 2 bad input (a file \
refused, a criteria file with an error; the message names the file and the place), 3 usage error.";

#[derive(Parser, Debug)]
#[command(name = "runlens", version, about = "Performance-test results into runlens bundles, and a CI gate on their comparison", long_about = None)]
#[command(after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Import result files into one bundle
    Import(Box<ImportArgs>),
    /// Print the format runlens detects for each file
    Detect(DetectArgs),
    /// Compare runs as the viewer does and fail when a criterion fails (a CI gate)
    Compare(compare::CompareArgs),
    /// Merge bundles of one test run on several machines, run by run (by id or label)
    Merge(merge::MergeArgs),
}

const IMPORT_HELP: &str = "\
Grouping:
  Files before any --run are grouped as the tools name them: a Locust --csv PREFIX set, a Gatling
  report folder, a JTL with the statistics.json, _cat/indices, CloudWatch and docker stats files
  of its test (by name stem, or by time overlap); each group is one run, each other file keeps
  its run(s) as imported (a history file one run per night). --no-group keeps one run per file.
  All files after a --run ID (up to the next --run) are one test seen through several tools: their
  runs merge into one run with that id; two load generators' results (two JTLs, k6 outputs,
  Gatling logs) add up exactly where they carry every distinct value, else with a warning.
  --label and --dim describe the --run before them; --format applies to the files after it.

Examples:
  runlens import results.jtl -o bundle.json
  runlens import --run orchid --dim release=Orchid orchid.jtl indices-orchid.txt \\
                 --run poppy --dim release=Poppy poppy.jtl indices-poppy.txt \\
                 --baseline orchid --title 'mod-search, Orchid vs Poppy' -o report.json.gz
  runlens import --append site/history.json --run nightly-2024-05-01 --dim date=2024-05-01 \\
                 results.jtl -o site/history.json

Clocks:
  --clock-offset FILE=SECONDS moves every time of FILE (named as on the command line, or by its
  file name) by SECONDS, before files are grouped by time and merged: a monitored host whose clock
  is 90 s fast is --clock-offset host-cpu.json=-90; one that wrote local time (UTC+2) as UTC is
  --clock-offset host-cpu.json=-7200. Its resource series move with it on the run's time axis.
  A JTL moved by a part of its timeline's bucket width no longer merges bucket by bucket with
  another generator's timeline.

History:
  --keep N bounds a history (last in the file is newest): the newest N runs stay whole; the next
  --keep-thinned M (default 365) lose their latency histograms and time series but keep every
  summary a trend reads; older ones are kept one per --sparse-days D (default 7) by start time
  (or their date dimension), oldest first, and the rest dropped. Runs named by the bundle's
  comparisons stay whole. Bounding again changes nothing.
  runlens import --append site/history.json --keep 30 --run nightly-412 results.jtl -o site/history.json";

#[derive(clap::Args, Debug)]
#[command(after_help = IMPORT_HELP, after_long_help = IMPORT_HELP)]
pub struct ImportArgs {
    /// Result files ('-' reads standard input); see "Grouping" below
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,

    /// Write the bundle to FILE instead of standard output ('.gz': gzip-compressed)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Title of the report (default: the appended bundle's, else the files' names)
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,

    /// Start a run: the files after it merge into one run with this id
    #[arg(long = "run", value_name = "ID")]
    pub runs: Vec<String>,

    /// Label of the --run before it (default: its id)
    #[arg(long = "label", value_name = "TEXT")]
    pub labels: Vec<String>,

    /// A dimension of the --run before it, e.g. release=Poppy or users=20 (repeatable)
    #[arg(long = "dim", value_name = "KEY=VALUE", value_parser = order::parse_dim)]
    pub dims: Vec<(String, String)>,

    /// Declare a comparison: this run against the runs imported now (the viewer opens on it)
    #[arg(long, value_name = "RUN_ID")]
    pub baseline: Option<String>,

    /// Read the files after it as this format instead of detecting it (slugs in --help)
    #[arg(long = "format", value_name = "SLUG", value_parser = order::format_values(), hide_possible_values = true, long_help = order::format_help())]
    pub formats: Vec<String>,

    /// Move FILE's times by SECONDS before grouping, e.g. cpu.json=-3600 (repeatable): for a host
    /// whose clock or time zone differs from the load generator's (see "Clocks" below)
    #[arg(long = "clock-offset", value_name = "FILE=SECONDS", value_parser = order::parse_offset)]
    pub clock_offsets: Vec<(PathBuf, i64)>,

    /// Keep one run per file outside --run: do not group files as the tools name them
    #[arg(long)]
    pub no_group: bool,

    /// Add the runs to this bundle (e.g. last night's history); ids stay unique
    #[arg(long, value_name = "BUNDLE")]
    pub append: Option<PathBuf>,

    /// Bound the bundle's history: keep the newest N runs whole, thin and space out older ones
    /// (see "History" below)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub keep: Option<u32>,

    /// With --keep: how many runs after the newest N keep their summaries without histograms
    #[arg(long, value_name = "M", default_value_t = 365, requires = "keep")]
    pub keep_thinned: u32,

    /// With --keep: older runs are kept one per D days by start time (0 drops them)
    #[arg(long, value_name = "D", default_value_t = 7, requires = "keep")]
    pub sparse_days: u32,

    /// Threads reading one large JMeter CSV in parallel [default: the number of cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,

    /// Print no progress and no warnings, only errors
    #[arg(short, long)]
    pub quiet: bool,

    /// Print a text summary of the bundle to standard output (instead of the bundle unless -o is given)
    #[arg(long)]
    pub summary: bool,
}

#[derive(clap::Args, Debug)]
pub struct DetectArgs {
    /// Files to look at ('-' reads standard input)
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let matches = match Cli::command().try_get_matches() {
        Ok(m) => m,
        Err(e) => return clap_exit(&e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return clap_exit(&e),
    };
    let code = match cli.command {
        Command::Import(args) => {
            let sub = matches.subcommand_matches("import");
            let items = sub.map(order::items).unwrap_or_default();
            let plan = order::plan(items).unwrap_or_else(|message| usage_error("import", &message));
            let offsets = offsets::Offsets::of(&args.clock_offsets, &plan)
                .unwrap_or_else(|message| usage_error("import", &message));
            if import::run(&args, plan, offsets) {
                exit::OK
            } else {
                exit::BAD_INPUT
            }
        }
        Command::Detect(args) => {
            if detect::run(&args.files) {
                exit::OK
            } else {
                exit::BAD_INPUT
            }
        }
        Command::Merge(args) => {
            if merge::run(&args) {
                exit::OK
            } else {
                exit::BAD_INPUT
            }
        }
        Command::Compare(args) => compare::run(&args).unwrap_or_else(|e| match e {
            compare::Stop::Usage(message) => usage_error("compare", &message),
            compare::Stop::BadInput(messages) => {
                messages.iter().for_each(|m| eprintln!("error: {m}"));
                exit::BAD_INPUT
            }
        }),
    };
    ExitCode::from(code)
}

/// Prints clap's message; help and version exit 0, every usage error `exit::USAGE`.
fn clap_exit(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = e.print();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => ExitCode::from(exit::OK),
        _ => ExitCode::from(exit::USAGE),
    }
}

/// Exits as clap does on a usage error, with the subcommand's usage line, and `exit::USAGE`.
fn usage_error(sub: &str, message: &str) -> ! {
    let mut cmd = Cli::command();
    cmd.build();
    let err = match cmd.find_subcommand_mut(sub) {
        Some(s) => s.error(clap::error::ErrorKind::ArgumentConflict, message),
        None => cmd.error(clap::error::ErrorKind::ArgumentConflict, message),
    };
    let _ = err.print();
    std::process::exit(i32::from(exit::USAGE))
}
