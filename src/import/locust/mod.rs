//! Locust's CSV files (`locust --csv=example`): `example_stats.csv`, `example_stats_history.csv`,
//! `example_failures.csv` and `example_exceptions.csv`. Format:
//! https://docs.locust.io/en/stable/retrieving-stats.html ; columns as `locust/stats.py`
//! (`StatsCSV`, `StatsCSVFileWriter`) writes them since 1.0, and the names used before the 2020
//! rename (`# requests`, `Requests Failed/s`, `User count`, a `99.999` percentile without `%`).
//!
//! Columns are found by name, in any order and subset; percentile columns are whatever the run
//! configured (`50%` … `100%`, or a custom set): 50/90/95/99 fill the transaction's median/p90/
//! p95/p99, the others go to `percentiles` as `p66`, `p99.9`. `N/A` (no requests yet) is a missing
//! value. `Type` + `Name` make the transaction name (`GET /x`); the `Aggregated` row becomes the
//! run's KPIs. Locust groups response times above 100 ms to two significant digits before it takes
//! percentiles, so its percentiles are that coarse; the transactions say so.

mod errors;
mod history;

pub use errors::{detect_exceptions, detect_failures, import_exceptions, import_failures};
pub use history::{detect as detect_history, import as import_history};

use crate::bundle::{Direction, Kpi, LoadError, LoadErrorKind, Run, Transaction, Unit};
use crate::import::Head;
use crate::import::{common::names, Ctx};
use std::io::BufRead;

/// Column positions, by name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cols {
    pub kind: Option<usize>,
    pub name: Option<usize>,
    pub count: Option<usize>,
    pub failures: Option<usize>,
    pub median: Option<usize>,
    pub mean: Option<usize>,
    pub min: Option<usize>,
    pub max: Option<usize>,
    pub rps: Option<usize>,
    pub fps: Option<usize>,
    pub timestamp: Option<usize>,
    pub users: Option<usize>,
    /// Failures and exceptions files.
    pub error: Option<usize>,
    pub occurrences: Option<usize>,
    pub message: Option<usize>,
    pub traceback: Option<usize>,
    pub nodes: Option<usize>,
    /// (column, percentile) in file order, e.g. (11, 50.0).
    pub pcts: Vec<(usize, f64)>,
}

fn clean(name: &str) -> String {
    name.trim().trim_matches('"').trim().to_ascii_lowercase()
}

/// A percentile column name: `50%`, `99.9%`, or (before 2020) `99.999` without the sign.
fn percentile_of(name: &str) -> Option<f64> {
    let p: f64 = name.strip_suffix('%').unwrap_or(name).trim().parse().ok()?;
    (p > 0.0 && p <= 100.0).then_some(p)
}

impl Cols {
    pub(crate) fn from_header<'a>(names: impl Iterator<Item = &'a str>) -> Cols {
        let mut c = Cols::default();
        for (i, raw) in names.enumerate() {
            let n = clean(raw);
            let slot = match n.as_str() {
                "type" | "method" => &mut c.kind,
                "name" => &mut c.name,
                "request count" | "# requests" | "total request count" => &mut c.count,
                "failure count" | "# failures" | "total failure count" => &mut c.failures,
                "median response time" | "total median response time" => &mut c.median,
                "average response time" | "total average response time" => &mut c.mean,
                "min response time" | "total min response time" => &mut c.min,
                "max response time" | "total max response time" => &mut c.max,
                "requests/s" => &mut c.rps,
                "failures/s" | "requests failed/s" => &mut c.fps,
                "timestamp" => &mut c.timestamp,
                "user count" => &mut c.users,
                "error" => &mut c.error,
                "occurrences" => &mut c.occurrences,
                "count" => &mut c.count,
                "message" => &mut c.message,
                "traceback" => &mut c.traceback,
                "nodes" => &mut c.nodes,
                _ => {
                    if let Some(p) = percentile_of(&n) {
                        c.pcts.push((i, p));
                    }
                    continue;
                }
            };
            slot.get_or_insert(i);
        }
        c
    }

    fn from_head(h: &Head) -> Option<Cols> {
        let first = h.trimmed().lines().next()?;
        let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(first.as_bytes());
        let rec = r.records().next()?.ok()?;
        Some(Cols::from_header(rec.iter()))
    }
}

/// Content detection of `_stats.csv`: a name, a request count and statistics, but no time column.
pub fn detect(h: &Head) -> bool {
    Cols::from_head(h).is_some_and(|c| {
        c.name.is_some()
            && c.count.is_some()
            && c.timestamp.is_none()
            && c.message.is_none()
            && (c.median.is_some() || c.rps.is_some() || !c.pcts.is_empty())
    })
}

/// A number of a Locust cell: empty and `N/A` are missing; anything else that is not a finite
/// number is an error message.
pub(crate) fn number(cell: Option<&str>) -> Result<Option<f64>, String> {
    let s = cell.unwrap_or("").trim();
    if s.is_empty() || s.eq_ignore_ascii_case("n/a") || s == "None" {
        return Ok(None);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(format!("{s:?} is not a number")),
    }
}

/// A count: a non-negative whole number that fits exactly in a float (2^53).
pub(crate) fn count(cell: Option<&str>) -> Result<Option<u64>, String> {
    match number(cell)? {
        None => Ok(None),
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v < 9.0e15 => Ok(Some(v as u64)),
        Some(v) => Err(format!("{v} is not a count")),
    }
}

/// One CSV row as text fields (invalid UTF-8 shows as U+FFFD), with its line number.
pub(crate) struct Row {
    pub line: u64,
    pub fields: Vec<String>,
}

impl Row {
    pub fn get(&self, i: Option<usize>) -> Option<&str> {
        i.and_then(|i| self.fields.get(i)).map(String::as_str)
    }

    /// A number field; a bad value warns (naming the column) and counts as missing.
    pub fn num(&self, ctx: &mut Ctx, i: Option<usize>, what: &str) -> Option<f64> {
        number(self.get(i)).unwrap_or_else(|m| {
            ctx.warn(format!("line {}", self.line), format!("{what}: {m}; left out"));
            None
        })
    }

    pub fn count(&self, ctx: &mut Ctx, i: Option<usize>, what: &str) -> Option<u64> {
        count(self.get(i)).unwrap_or_else(|m| {
            ctx.warn(format!("line {}", self.line), format!("{what}: {m}; left out"));
            None
        })
    }
}

/// Reads a Locust CSV row by row: the header first, refused with `check`'s message when it lacks
/// a column the importer needs, then `each` row. Blank lines (some Locust versions wrote one
/// after every row) are skipped. Returns the header and the number of rows.
pub(crate) fn for_each_row(
    ctx: &mut Ctx,
    input: Box<dyn BufRead + '_>,
    check: impl Fn(&Cols) -> Option<&'static str>,
    mut each: impl FnMut(&mut Ctx, &Cols, Row),
) -> Result<(Cols, u64), LoadError> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input);
    let mut header: Option<Cols> = None;
    let mut rec = csv::ByteRecord::new();
    let mut n = 0u64;
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map(|p| p.line());
                return Err(ctx.error(LoadErrorKind::Syntax, line, format!("the CSV cannot be read further: {e}")));
            }
        }
        let line = rec.position().map_or(0, |p| p.line());
        let fields: Vec<String> = rec.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
        if fields.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        match &header {
            None => {
                let c = Cols::from_header(fields.iter().map(String::as_str));
                if let Some(msg) = check(&c) {
                    return Err(ctx.error(LoadErrorKind::Syntax, Some(line), msg));
                }
                header = Some(c);
            }
            Some(c) => {
                n += 1;
                ctx.record(1);
                each(ctx, c, Row { line, fields });
            }
        }
    }
    let cols = header.ok_or_else(|| ctx.error(LoadErrorKind::Empty, None, "the file is empty"))?;
    Ok((cols, n))
}

/// Reads all rows of a small Locust CSV (stats, failures, exceptions).
pub(crate) fn read_rows(
    ctx: &mut Ctx,
    input: Box<dyn BufRead + '_>,
    check: impl Fn(&Cols) -> Option<&'static str>,
) -> Result<(Cols, Vec<Row>), LoadError> {
    let mut rows = Vec::new();
    let (cols, _) = for_each_row(ctx, input, check, |_, _, row| rows.push(row))?;
    Ok((cols, rows))
}

/// The transaction name: `Type Name` (`GET /x`), or the name alone when there is no type.
pub(crate) fn txn_name(row: &Row, c: &Cols) -> String {
    let kind = row.get(c.kind).unwrap_or("").trim();
    let name = row.get(c.name).unwrap_or("").trim();
    if kind.is_empty() || kind == "None" {
        name.to_string()
    } else {
        format!("{kind} {name}")
    }
}

/// Whether a row is Locust's total (`Aggregated`; `Total` in versions before 1.0).
pub(crate) fn is_total(row: &Row, c: &Cols) -> bool {
    let kind = row.get(c.kind).unwrap_or("").trim();
    let name = row.get(c.name).unwrap_or("").trim();
    (kind.is_empty() || kind == "None") && (name == "Aggregated" || name == "Total")
}

/// The percentile key of a bundle transaction: 50 → median, 90/95/99 → their fields, others
/// `p66`, `p99.9`.
pub(crate) fn set_percentile(t: &mut Transaction, p: f64, v: f64) {
    let slot = if p == 50.0 && t.median_ms.is_none_or(|m| m == v) {
        &mut t.median_ms
    } else if p == 90.0 {
        &mut t.p90_ms
    } else if p == 95.0 {
        &mut t.p95_ms
    } else if p == 99.0 {
        &mut t.p99_ms
    } else {
        // Other percentiles, and a 50% that differs from Locust's own median column.
        t.percentiles.insert(format!("p{p}"), v);
        return;
    };
    *slot = Some(v);
}

pub(crate) const COARSE_NOTE: &str =
    "Figures as Locust reports them: response times above 100 ms are grouped to two significant digits before percentiles are taken.";

/// A transaction from a `_stats.csv` row (or a history row's totals).
pub(crate) fn transaction(ctx: &mut Ctx, row: &Row, c: &Cols, with_percentiles: bool) -> Transaction {
    let mut t = Transaction {
        name: txn_name(row, c),
        samples: row.count(ctx, c.count, "request count"),
        errors: row.count(ctx, c.failures, "failure count"),
        mean_ms: row.num(ctx, c.mean, "average response time"),
        median_ms: row.num(ctx, c.median, "median response time"),
        min_ms: row.num(ctx, c.min, "min response time"),
        max_ms: row.num(ctx, c.max, "max response time"),
        note: Some(COARSE_NOTE.into()),
        ..Default::default()
    };
    if with_percentiles {
        t.throughput_per_s = row.num(ctx, c.rps, "requests/s");
        for (i, p) in &c.pcts {
            if let Some(v) = row.num(ctx, Some(*i), &format!("{p}%")) {
                set_percentile(&mut t, *p, v);
            }
        }
    }
    t
}

/// Run KPIs from Locust's total: the same names the raw-sample importers use, so runs of
/// different tools compare.
pub(crate) fn total_kpis(t: &Transaction, throughput_note: &str) -> Vec<Kpi> {
    let kpi = |name: &str, value: f64, unit: Unit, direction: Direction, note: Option<&str>| Kpi {
        name: name.into(),
        value,
        unit,
        direction: Some(direction),
        note: note.map(str::to_string),
    };
    let mut out = Vec::new();
    if let Some(n) = t.samples {
        out.push(kpi("Samples", n as f64, Unit::Count, Direction::Neutral, None));
        if let (Some(e), true) = (t.errors, n > 0) {
            out.push(kpi("Error rate", e as f64 * 100.0 / n as f64, Unit::Percent, Direction::LowerIsBetter, None));
        }
    }
    if let Some(v) = t.throughput_per_s {
        out.push(kpi("Throughput", v, Unit::PerSecond, Direction::HigherIsBetter, Some(throughput_note)));
    }
    if let Some(v) = t.mean_ms {
        out.push(kpi("Mean response time", v, Unit::Ms, Direction::LowerIsBetter, Some("all requests")));
    }
    if let Some(v) = t.p95_ms {
        out.push(kpi(
            "p95 response time",
            v,
            Unit::Ms,
            Direction::LowerIsBetter,
            Some("all requests, as Locust reports it"),
        ));
    }
    out
}

/// A run named after the file.
pub(crate) fn file_run(ctx: &Ctx) -> Run {
    let mut run =
        Run { id: names::run_id(ctx.source), label: names::file_stem(ctx.source).to_string(), ..Default::default() };
    run.dimensions.extend(names::suggested_dimensions(ctx.source));
    run
}

/// Imports `_stats.csv`: one transaction per row, the `Aggregated` row as run KPIs.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let check = |c: &Cols| {
        (c.name.is_none() || c.count.is_none())
            .then_some("the first line is not a Locust stats header (it needs Name and Request Count)")
    };
    let (c, rows) = read_rows(ctx, input, check)?;
    let mut run = file_run(ctx);
    let mut total = None;
    for row in &rows {
        let t = transaction(ctx, row, &c, true);
        if is_total(row, &c) {
            total = Some(t);
        } else {
            if run.transactions.iter().any(|x| x.name == t.name) {
                ctx.warn(
                    format!("line {}", row.line),
                    format!("{:?} appears twice; comparisons use the first", t.name),
                );
            }
            run.transactions.push(t);
        }
    }
    match &total {
        Some(t) => run.kpis = total_kpis(t, "Locust's Requests/s of all requests over the test"),
        None => ctx.warn("Aggregated", "the file has no Aggregated row, so the run has no totals"),
    }
    if run.transactions.is_empty() && total.is_none() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file has a Locust stats header but no rows"));
    }
    run.notes.push(format!(
        "{} request rows imported from Locust's {}.",
        run.transactions.len(),
        names::file_name(ctx.source)
    ));
    Ok(run)
}

#[cfg(test)]
mod tests;
