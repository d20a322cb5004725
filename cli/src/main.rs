//! `runlens` on the command line: result files into a runlens bundle (`runlens import`), and what
//! a file is (`runlens detect`). The importers are the library's, the same code the viewer runs in
//! the browser. Arguments are parsed by clap (https://docs.rs/clap/4); the order of `--run`,
//! `--label`, `--dim`, `--format` and the files matters, and is read from clap's argument indices
//! (`ArgMatches::indices_of`, as clap's `find` cookbook example does).

mod detect;
mod import;
mod order;
mod output;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code when an input was refused (clap exits with 2 on a usage error).
const REFUSED: u8 = 1;

#[derive(Parser, Debug)]
#[command(name = "runlens", version, about = "Performance-test results into runlens bundles", long_about = None)]
#[command(
    after_help = "Exit codes: 0 done, 1 an input was refused (the message names the file and the place), 2 usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Import result files into one bundle
    Import(ImportArgs),
    /// Print the format runlens detects for each file
    Detect(DetectArgs),
}

const IMPORT_HELP: &str = "\
Grouping:
  Without --run, each file gives its own run(s) as imported: a JTL one run, a history file one
  run per night. All files after a --run ID (up to the next --run) are one test seen through
  several tools (a JTL, docker stats, _cat/indices): their runs merge into one run with that id.
  --label and --dim describe the --run before them; --format applies to the files after it.

Examples:
  runlens import results.jtl -o bundle.json
  runlens import --run orchid --dim release=Orchid orchid.jtl indices-orchid.txt \\
                 --run poppy --dim release=Poppy poppy.jtl indices-poppy.txt \\
                 --baseline orchid --title 'mod-search, Orchid vs Poppy' -o report.json.gz
  runlens import --append site/history.json --run nightly-2024-05-01 --dim date=2024-05-01 \\
                 results.jtl -o site/history.json";

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

    /// Add the runs to this bundle (e.g. last night's history); ids stay unique
    #[arg(long, value_name = "BUNDLE")]
    pub append: Option<PathBuf>,

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
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let ok = match cli.command {
        Command::Import(args) => {
            let sub = matches.subcommand_matches("import");
            let items = sub.map(order::items).unwrap_or_default();
            let plan = order::plan(items).unwrap_or_else(|message| usage_error("import", &message));
            import::run(&args, plan)
        }
        Command::Detect(args) => detect::run(&args.files),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(REFUSED)
    }
}

/// Exits as clap does on a usage error (code 2), with the subcommand's usage line.
fn usage_error(sub: &str, message: &str) -> ! {
    let mut cmd = Cli::command();
    cmd.build();
    let err = match cmd.find_subcommand_mut(sub) {
        Some(s) => s.error(clap::error::ErrorKind::ArgumentConflict, message),
        None => cmd.error(clap::error::ErrorKind::ArgumentConflict, message),
    };
    err.exit()
}
