//! `runlens compare`: the viewer's comparison of a baseline and candidates (the same rows, verdicts
//! and summary: `runlens::analysis`), judged by criteria (a TOML or YAML file, else the bundle's
//! `thresholds.criteria`, else "no regression beyond noise"), written as text, Markdown, JUnit XML
//! or JSON; the exit code says whether it passed.

mod criteria_file;
mod escape;
mod gate;
mod history;
mod inputs;
mod json;
mod junit;
mod markdown;
mod text;

use crate::exit;
use gate::Gate;
use runlens::analysis::{compare, criteria, Row};
use runlens::bundle::LabelRule;
use runlens::model::labels::with_label_rules;
use runlens::urlstate::{parse_label, UrlState};
use std::path::PathBuf;

const COMPARE_HELP: &str = "\
Arguments:
  Each is a bundle (.json, .json.gz) or a raw result file (imported as `runlens import` would).
  FILE#RUN_ID picks one run of a bundle, FILE#first and FILE#last its first and last (a nightly
  history's newest run is its last). BASE must be one run; a bundle as CAND gives each of its runs.
  BUNDLE alone compares its first declared comparison, else its first run against the others.

Gate:
  With --criteria (or a bundle's thresholds.criteria) it fails when a criterion fails; with none
  it fails when the viewer's summary counts a regression beyond noise. Thresholds are the bundle's
  over runlens' defaults, as in the viewer.

Label rules:
  The bundles' label_rules apply as in the viewer; each --label RULE adds one after them, in the
  text of the viewer's label= (ids, ids:GLOB, rename:GLOB=>NAME, include:GLOB, exclude:GLOB), so
  that transactions whose labels differ by an id still match.

Examples:
  runlens compare site/history.json#last new.json --criteria criteria.toml
  runlens compare base.jtl cand.jtl --label ids --label 'exclude:*/health*'
  runlens compare history.json#last new.json --history history.json   (also its change points)
  runlens compare history.json#last new.json --criteria ci.yaml --format markdown \\
      --viewer https://x.github.io/runlens/ --src https://x.github.io/runlens/history.json -o summary.md

Exit codes: 0 nothing failed, 1 a criterion failed, 2 bad input (a file refused, a criteria file
with an error), 3 usage error.";

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Markdown,
    Junit,
    Json,
}

#[derive(clap::Args, Debug)]
#[command(after_help = COMPARE_HELP, after_long_help = COMPARE_HELP)]
pub struct CompareArgs {
    /// The baseline: a bundle (FILE#RUN_ID, FILE#last, FILE#first for one of its runs) or a result file
    #[arg(value_name = "BASE")]
    pub base: String,

    /// Candidates: bundles (every run, or FILE#RUN_ID) or result files
    #[arg(value_name = "CAND")]
    pub cands: Vec<String>,

    /// Criteria file (.toml, .yaml, .yml) [default: the bundle's thresholds.criteria]
    #[arg(long, value_name = "FILE")]
    pub criteria: Option<PathBuf>,

    /// Output format
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,

    /// Write the report to FILE instead of standard output
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// The viewer's address: the report links to this comparison in it
    #[arg(long, value_name = "URL")]
    pub viewer: Option<String>,

    /// The bundle's address for the viewer's link (its src parameter)
    #[arg(long, value_name = "URL", requires = "viewer")]
    pub src: Option<String>,

    /// A history bundle: also report the persistent shifts (change points) of every metric over
    /// its runs, as the Trends view finds them; they do not change the exit code
    #[arg(long, value_name = "BUNDLE")]
    pub history: Option<PathBuf>,

    /// A label rule, as the viewer's link writes it (label=): ids, ids:GLOB, rename:GLOB=>NAME,
    /// include:GLOB, exclude:GLOB; repeatable, applied in order after the bundles' label_rules
    #[arg(long = "label", value_name = "RULE")]
    pub labels: Vec<String>,

    /// No warnings, and no report on standard output (the exit code alone); -o still writes it
    #[arg(short, long)]
    pub quiet: bool,
}

/// Why the command stopped before a verdict.
pub enum Stop {
    /// A usage error (exit 3).
    Usage(String),
    /// Bad input (exit 2): each message names the file and the place.
    BadInput(Vec<String>),
}

/// The criteria in force: the file's, else the first bundle's that has thresholds; errors placed.
fn criteria_of(args: &CompareArgs, sel: &inputs::Selection, rows: &[Row]) -> Result<Option<gate::Criteria>, Stop> {
    if let Some(path) = &args.criteria {
        let mut file = criteria_file::read(path).map_err(Stop::BadInput)?;
        let unknown = std::mem::take(&mut file.unknown);
        let rules = criteria::check(&file.criteria, unknown, rows)
            .map_err(|errors| Stop::BadInput(errors.iter().map(|e| file.error(e)).collect()))?;
        return Ok(Some(gate::Criteria { source: file.name.clone(), rules }));
    }
    let ws = &sel.workspace;
    let Some(i) = ws.sources.iter().position(|s| s.thresholds.is_some()) else { return Ok(None) };
    let Some(c) = ws.sources[i].thresholds.as_ref().and_then(|t| t.criteria.as_ref()) else { return Ok(None) };
    let name = &ws.sources[i].name;
    // The loader names unknown keys by their JSON path already (`thresholds.criteria.fail[0].x`).
    let unknown = sel.unknown_keys.get(i).map_or(&[][..], Vec::as_slice);
    let mut messages: Vec<String> = unknown.iter().map(|p| format!("{name}: at {p}: unknown key")).collect();
    match criteria::check(c, Vec::new(), rows) {
        Ok(rules) if messages.is_empty() => {
            Ok(Some(gate::Criteria { source: format!("{name} (thresholds.criteria)"), rules }))
        }
        Ok(_) => Err(Stop::BadInput(messages)),
        Err(errors) => {
            messages.extend(errors.iter().map(|e| in_bundle(name, &e.path.to_string(), &e.message)));
            Err(Stop::BadInput(messages))
        }
    }
}

fn in_bundle(file: &str, path: &str, message: &str) -> String {
    let at = if path.is_empty() { "thresholds.criteria".to_string() } else { format!("thresholds.criteria.{path}") };
    format!("{file}: at {at}: {message}")
}

/// The viewer's link to the comparison: VIEWER?src=…&base=…&cand=… (`UrlState::to_query`).
fn link(args: &CompareArgs, ids: &[String], labels: &[LabelRule]) -> Option<String> {
    let viewer = args.viewer.as_ref()?;
    let mut state = UrlState { src: args.src.iter().cloned().collect(), labels: labels.to_vec(), ..Default::default() };
    state.select_runs(ids.to_vec());
    let sep = if viewer.contains('?') { '&' } else { '?' };
    Some(format!("{viewer}{sep}{}", state.to_query()))
}

/// The `--label` rules, read as the viewer reads `label=` (`urlstate::parse_label`).
fn label_rules(args: &CompareArgs) -> Result<Vec<LabelRule>, Stop> {
    args.labels
        .iter()
        .map(|v| {
            parse_label(v).ok_or_else(|| {
                Stop::Usage(format!(
                    "--label {v:?} is not a label rule: write ids, ids:GLOB, rename:GLOB=>NAME, include:GLOB or exclude:GLOB"
                ))
            })
        })
        .collect()
}

/// Runs the command: the exit code (0 passed, 1 failed), or why it stopped.
pub fn run(args: &CompareArgs) -> Result<u8, Stop> {
    let extra = label_rules(args)?;
    let sel = inputs::select(&args.base, &args.cands, args.quiet)?;
    let ws = &sel.workspace;
    // The bundles' label rules, then the option's, applied as the viewer applies them.
    let mut rules = ws.label_rules();
    rules.extend(extra.iter().cloned());
    let ruled = with_label_rules(sel.ids.iter().filter_map(|id| ws.shared(id)), &rules);
    let runs: Vec<&runlens::bundle::Run> = ruled.iter().map(|r| &**r).collect();
    let thresholds = ws.thresholds();
    let rows = compare(&runs, &thresholds);
    let criteria = criteria_of(args, &sel, &rows)?;
    let labels = runs.iter().map(|r| if r.label.is_empty() { r.id.clone() } else { r.label.clone() }).collect();
    let mut gate = Gate::judge(&rows, sel.ids.clone(), labels, criteria, thresholds.min_samples);
    gate.link = link(args, &sel.ids, &extra);
    gate.history = args.history.as_deref().map(|h| history::read(h, args.quiet)).transpose()?;
    let report = match args.format {
        OutputFormat::Text => text::render(&gate),
        OutputFormat::Markdown => markdown::render(&gate),
        OutputFormat::Junit => junit::render(&gate),
        OutputFormat::Json => json::render(&gate),
    };
    match &args.output {
        Some(path) => std::fs::write(path, report.as_bytes())
            .map_err(|e| Stop::BadInput(vec![format!("{}: could not be written ({e})", path.display())]))?,
        // A closed pipe (`| head`) is no reason to change the verdict.
        None if !args.quiet => {
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), report.as_bytes());
        }
        None => {}
    }
    Ok(if gate.failed() { exit::FAILED } else { exit::OK })
}
