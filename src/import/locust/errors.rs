//! Locust's `_failures.csv` (`Method,Name,Error,Occurrences[,First Seen,Last Seen]`) and
//! `_exceptions.csv` (`Count,Message,Traceback[,Nodes]`): errors of the run. Format:
//! https://docs.locust.io/en/stable/retrieving-stats.html (`StatsCSV` in `locust/stats.py`).
//!
//! Failures are errors by cause (`common::causes`): the request (method and name) is the
//! transaction, the error normalised the message, its occurrences the count (Locust writes no
//! times). Comparisons match them by request and message. An exception's nodes (the
//! workers that raised it) are its `services`, and the last lines of its traceback its note. The
//! total is a KPI (`Failures`, `Exceptions`), so a file without rows still says "none".

use super::{file_run, read_rows, txn_name, Cols};
use crate::bundle::{Direction, ErrorEntry, Kpi, LoadError, Run, Unit};
use crate::import::common::causes::Causes;
use crate::import::Head;
use crate::import::{common::names, Ctx};
use std::io::BufRead;

/// Characters of a traceback kept in an error's note (its end: where it was raised).
const TRACEBACK_CHARS: usize = 1500;

pub fn detect_failures(h: &Head) -> bool {
    Cols::from_head(h).is_some_and(|c| c.error.is_some() && c.occurrences.is_some() && c.name.is_some())
}

pub fn detect_exceptions(h: &Head) -> bool {
    Cols::from_head(h).is_some_and(|c| c.message.is_some() && c.traceback.is_some() && c.count.is_some())
}

fn total_kpi(name: &str, errors: &[ErrorEntry]) -> Kpi {
    Kpi {
        name: name.into(),
        value: errors.iter().filter_map(|e| e.count).sum::<u64>() as f64,
        unit: Unit::Count,
        direction: Some(Direction::LowerIsBetter),
        note: None,
    }
}

fn finish(ctx: &Ctx, mut run: Run, kpi: &str, what: &str) -> Run {
    run.kpis.push(total_kpi(kpi, &run.errors));
    run.notes.push(format!("{} {what} imported from Locust's {}.", run.errors.len(), names::file_name(ctx.source)));
    run
}

/// Imports `_failures.csv`.
pub fn import_failures(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let check = |c: &Cols| {
        (c.error.is_none() || c.occurrences.is_none())
            .then_some("the first line is not a Locust failures header (it needs Error and Occurrences)")
    };
    let (c, rows) = read_rows(ctx, input, check)?;
    let mut run = file_run(ctx);
    let mut causes = Causes::default();
    for row in &rows {
        let error = row.get(c.error).unwrap_or("").trim();
        let count = row.count(ctx, c.occurrences, "occurrences");
        causes.add(&txn_name(row, &c), b"", error.as_bytes(), None, count.unwrap_or(0));
    }
    if let Some(w) = causes.warning() {
        ctx.warn("Error", w);
    }
    run.errors = causes.entries(0);
    Ok(finish(ctx, run, "Failures", "failure kinds"))
}

/// The end of a traceback, on whole lines.
fn traceback_tail(tb: &str) -> Option<String> {
    let tb = tb.trim();
    if tb.is_empty() {
        return None;
    }
    let chars = tb.chars().count();
    if chars <= TRACEBACK_CHARS {
        return Some(tb.to_string());
    }
    let tail: String = tb.chars().skip(chars - TRACEBACK_CHARS).collect();
    let tail = tail.split_once('\n').map_or(tail.as_str(), |(_, rest)| rest);
    Some(format!("…\n{tail}"))
}

/// Imports `_exceptions.csv`.
pub fn import_exceptions(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let check = |c: &Cols| {
        (c.message.is_none() || c.count.is_none())
            .then_some("the first line is not a Locust exceptions header (it needs Count and Message)")
    };
    let (c, rows) = read_rows(ctx, input, check)?;
    let mut run = file_run(ctx);
    for row in &rows {
        let message = row.get(c.message).unwrap_or("").trim();
        let services = row
            .get(c.nodes)
            .map(|n| n.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
            .unwrap_or_default();
        run.errors.push(ErrorEntry {
            message: if message.is_empty() { "(no message)".into() } else { message.to_string() },
            count: row.count(ctx, c.count, "count"),
            services,
            note: row.get(c.traceback).and_then(traceback_tail),
            ..Default::default()
        });
    }
    Ok(finish(ctx, run, "Exceptions", "exceptions"))
}
