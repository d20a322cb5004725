//! JMeter Aggregate Report and Summary Report tables saved as CSV ("Save Table Data" in the
//! listener: https://jmeter.apache.org/usermanual/component_reference.html#Aggregate_Report and
//! #Summary_Report; or JMeterPluginsCMD `--generate-csv`, whose header uses JMeter's resource keys
//! such as `aggregate_report_count`), and histories of them: rows appended run after run, often
//! with extra columns such as `Date` (epoch seconds), `Payload` or `Users`.
//!
//! Every column that is not one of the report's is part of the run key: a history gives one run
//! per distinct key, in file order, with the key's columns as dimensions (and a date column as the
//! run's start). Without such columns, rows repeat labels only in a history: `TOTAL` rows close
//! each run, and a file without them is read as one run per row (as CI jobs that append one row
//! per night write it), with a warning. A label repeated within one run is a duplicate row: it is
//! reported and the first row kept. `TOTAL` rows become the run's KPIs.
//!
//! The figures are JMeter's, as it rounded them: whole milliseconds, percentiles by its own
//! rank (`round(p·n)`, not runlens' `⌈p·n⌉`), and an error count derived from the rounded
//! `Error %` (exact only below 10,000 samples).

use crate::bundle::{Direction, Kpi, LoadError, LoadErrorKind, Run, Transaction, Unit};
use crate::import::Head;
use crate::import::{common::civil, common::names, Ctx};
use std::collections::BTreeMap;
use std::io::BufRead;

/// JMeter's `aggregate_report_total_label` in its locales.
const TOTAL_LABELS: [&str; 8] = ["total", "gesamt", "合計", "총계", "razem", "toplam", "总体", "總計"];

/// What a column holds.
#[derive(Debug, Clone, PartialEq)]
enum Col {
    Label,
    Samples,
    Mean,
    Median,
    /// "90% Line": the percentile's number.
    Pct(f64),
    Min,
    Max,
    ErrorPct,
    Throughput,
    /// Std. Dev., KB/sec and Avg. Bytes: the bundle has no field for them.
    Unused,
    /// Any other column: part of the run key.
    Key,
}

fn column(name: &str) -> Col {
    let n = name.trim().trim_matches('"').to_ascii_lowercase();
    let n = n.strip_prefix("aggregate_report_").unwrap_or(&n);
    match n {
        "label" | "sampler_label" => Col::Label,
        "# samples" | "samples" | "count" => Col::Samples,
        "average" | "avg" => Col::Mean,
        "median" => Col::Median,
        "min" => Col::Min,
        "max" => Col::Max,
        "error %" | "error%" => Col::ErrorPct,
        "throughput" | "rate" => Col::Throughput,
        "received kb/sec" | "sent kb/sec" | "kb/sec" | "bandwidth" | "sent_bytes_per_sec" | "std. dev." | "stddev"
        | "avg. bytes" | "average_bytes" => Col::Unused,
        _ => match n.strip_suffix("% line").or_else(|| n.strip_suffix("%_line")).and_then(|p| p.trim().parse().ok()) {
            Some(p) => Col::Pct(p),
            None => Col::Key,
        },
    }
}

/// The columns of a header, if it is an Aggregate or Summary Report header.
fn header_cols(names: &[String]) -> Option<Vec<Col>> {
    let cols: Vec<Col> = names.iter().map(|n| column(n)).collect();
    let has = |c: Col| cols.contains(&c);
    let stats = cols.iter().any(|c| matches!(c, Col::Mean | Col::Median | Col::Min | Col::Max | Col::Pct(_)));
    (has(Col::Label) && has(Col::Samples) && stats).then_some(cols)
}

/// Content detection: an Aggregate or Summary Report header line.
pub fn detect(h: &Head) -> bool {
    if h.trimmed().starts_with(['{', '[', '<']) {
        return false;
    }
    let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(h.first_line().as_bytes());
    let names: Option<Vec<String>> =
        r.records().next().and_then(Result::ok).map(|rec| rec.iter().map(str::to_string).collect());
    names.as_deref().and_then(header_cols).is_some()
}

/// One data row.
struct Row {
    line: u64,
    label: String,
    total: bool,
    key: Vec<String>,
    cells: Vec<String>,
}

/// A number as JMeter formats it: `0.00%`, `5.2/sec`, `1,5` (a decimal comma), `6.1E-4`.
fn number(s: &str) -> Option<f64> {
    let s = s.trim().trim_end_matches('%').trim();
    let (s, per) = match s.split_once('/') {
        Some((v, "sec" | "s")) => (v, 1.0),
        Some((v, "min")) => (v, 60.0),
        Some((v, "hour")) => (v, 3600.0),
        Some(_) => return None,
        None => (s, 1.0),
    };
    let s: std::borrow::Cow<str> =
        if s.contains(',') && !s.contains('.') { s.replace(',', ".").into() } else { s.into() };
    s.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| x / per)
}

/// The transaction of a row (its label, JMeter's figures) and its error percentage.
fn transaction(ctx: &mut Ctx, cols: &[Col], names: &[String], row: &Row) -> (Transaction, Option<f64>) {
    let mut t = Transaction { name: row.label.clone(), ..Default::default() };
    let mut error_pct = None;
    for ((col, name), raw) in cols.iter().zip(names).zip(&row.cells) {
        if raw.trim().is_empty() || matches!(col, Col::Label | Col::Key | Col::Unused) {
            continue;
        }
        let Some(v) = number(raw) else {
            ctx.warn(format!("line {}", row.line), format!("{name} {raw:?} is not a number; read as missing"));
            continue;
        };
        match col {
            Col::Samples if v >= 0.0 && v.fract() == 0.0 => t.samples = Some(v as u64),
            Col::Samples => {
                ctx.warn(format!("line {}", row.line), format!("{name} {raw:?} is not a count; read as missing"))
            }
            Col::Mean => t.mean_ms = Some(v),
            Col::Median => t.median_ms = Some(v),
            Col::Pct(p) if *p == 50.0 => t.median_ms = Some(v),
            Col::Pct(p) if *p == 90.0 => t.p90_ms = Some(v),
            Col::Pct(p) if *p == 95.0 => t.p95_ms = Some(v),
            Col::Pct(p) if *p == 99.0 => t.p99_ms = Some(v),
            Col::Pct(p) => {
                t.percentiles.insert(format!("p{p}"), v);
            }
            Col::Min => t.min_ms = Some(v),
            Col::Max => t.max_ms = Some(v),
            // The GUI writes "0.00%"; JMeterPluginsCMD (resource-key header) the fraction 0.0–1.0.
            Col::ErrorPct if !raw.contains('%') && name.to_ascii_lowercase().starts_with("aggregate_report_") => {
                error_pct = Some(v * 100.0)
            }
            Col::ErrorPct => error_pct = Some(v),
            Col::Throughput => t.throughput_per_s = Some(v),
            Col::Label | Col::Key | Col::Unused => {}
        }
    }
    if let (Some(n), Some(p)) = (t.samples, error_pct) {
        t.errors = Some((n as f64 * p / 100.0).round() as u64);
    }
    (t, error_pct)
}

/// KPIs from a TOTAL row, with the names and meaning of `samples::run_kpis`.
fn total_kpis(t: &Transaction, error_pct: Option<f64>) -> Vec<Kpi> {
    let from = "from the report's TOTAL row";
    let kpi = |name: &str, v: Option<f64>, unit, direction, note: String| {
        v.map(|value| Kpi { name: name.into(), value, unit, direction: Some(direction), note: Some(note) })
    };
    [
        kpi("Samples", t.samples.map(|n| n as f64), Unit::Count, Direction::Neutral, from.into()),
        kpi("Error rate", error_pct, Unit::Percent, Direction::LowerIsBetter, from.into()),
        kpi(
            "Throughput",
            t.throughput_per_s,
            Unit::PerSecond,
            Direction::HigherIsBetter,
            format!("all samples over the run's first start to last end, {from}"),
        ),
        kpi(
            "Mean response time",
            t.mean_ms,
            Unit::Ms,
            Direction::LowerIsBetter,
            format!("all samples, {from} (whole ms)"),
        ),
        kpi(
            "p95 response time",
            t.p95_ms,
            Unit::Ms,
            Direction::LowerIsBetter,
            format!("all samples, JMeter's 95% Line, {from}"),
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A run key column's value as shown: a date column's epoch seconds (or milliseconds, or a
/// formatted time) as ISO 8601 UTC, with the time in epoch milliseconds.
fn key_value(name: &str, raw: &str) -> (String, Option<i64>) {
    let raw = raw.trim();
    let is_date = matches!(
        name.to_ascii_lowercase().as_str(),
        "date" | "time" | "timestamp" | "datetime" | "start" | "start time"
    );
    let digits = !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit());
    let ms = match (is_date, digits, raw.len()) {
        (true, true, 9..=11) => raw.parse::<i64>().ok().map(|s| s * 1000),
        (true, true, 12..=14) => raw.parse::<i64>().ok(),
        (true, false, _) => civil::parse_datetime(raw).map(|(t, _)| t),
        _ => None,
    };
    match ms {
        Some(t) => (civil::iso_utc(t), Some(t)),
        None => (raw.to_string(), None),
    }
}

/// The header (what each column holds, and its name) and the data rows.
struct Table {
    cols: Vec<Col>,
    names: Vec<String>,
    rows: Vec<Row>,
}

/// Reads the header and rows.
fn read_rows(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Table, LoadError> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input);
    let mut rec = csv::StringRecord::new();
    let syntax = |ctx: &Ctx, e: csv::Error| {
        let line = e.position().map(|p| p.line());
        ctx.error(LoadErrorKind::Syntax, line, format!("the CSV cannot be read: {e}"))
    };
    if !rdr.read_record(&mut rec).map_err(|e| syntax(ctx, e))? {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file is empty"));
    }
    let names: Vec<String> = rec.iter().map(|s| s.trim_start_matches('\u{FEFF}').trim().to_string()).collect();
    let cols = header_cols(&names).ok_or_else(|| {
        ctx.error(
            LoadErrorKind::Syntax,
            Some(1),
            "the first line is not an Aggregate or Summary Report header (Label, # Samples, …)",
        )
    })?;
    let label_at = cols.iter().position(|c| *c == Col::Label).unwrap_or(0);
    let mut rows = Vec::new();
    loop {
        let line = rdr.position().line();
        if !rdr.read_record(&mut rec).map_err(|e| syntax(ctx, e))? {
            break;
        }
        if rec.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let cells: Vec<String> = rec.iter().map(str::to_string).collect();
        let label = cells.get(label_at).cloned().unwrap_or_default();
        if label.contains('\u{FFFD}') {
            ctx.warn(
                format!("line {line}"),
                format!("label {label:?} has bytes that are not valid text; they show as \u{FFFD}"),
            );
        }
        let total = TOTAL_LABELS.contains(&label.trim().to_lowercase().as_str());
        let key = cols.iter().zip(&cells).filter(|(c, _)| **c == Col::Key).map(|(_, v)| v.trim().to_string()).collect();
        rows.push(Row { line, label, total, key, cells });
        ctx.record(1);
    }
    Ok(Table { cols, names, rows })
}

/// Which run each row belongs to (indices into the returned list of groups, in file order).
fn group(ctx: &mut Ctx, rows: &[Row], keyed: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    if keyed {
        let mut index: BTreeMap<&[String], usize> = BTreeMap::new();
        for (i, r) in rows.iter().enumerate() {
            let g = *index.entry(&r.key).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }
        return groups;
    }
    let mut seen = std::collections::HashSet::new();
    let repeats = rows.iter().filter(|r| !r.total).any(|r| !seen.insert(r.label.as_str()));
    let totals = rows.iter().filter(|r| r.total).count();
    if !repeats && totals <= 1 {
        return vec![(0..rows.len()).collect()];
    }
    if totals > 0 {
        let mut current = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            current.push(i);
            if r.total {
                groups.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            groups.push(current);
        }
        return groups;
    }
    ctx.warn("line 1", "labels repeat but there is no run key column (such as Date) and no TOTAL row: each row is read as a run of its own");
    (0..rows.len()).map(|i| vec![i]).collect()
}

/// Imports a report or a history of reports.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Vec<Run>, LoadError> {
    let Table { cols, names, rows } = read_rows(ctx, input)?;
    if rows.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the report has a header but no rows"));
    }
    let key_names: Vec<&String> = cols.iter().zip(&names).filter(|(c, _)| **c == Col::Key).map(|(_, n)| n).collect();
    let groups = group(ctx, &rows, !key_names.is_empty());
    let stem = names::file_stem(ctx.source).to_string();
    let single = groups.len() == 1;
    let mut ids = std::collections::HashSet::new();
    let mut runs = Vec::new();
    for (n, members) in groups.iter().enumerate() {
        let first = &rows[members[0]];
        let mut run = Run::default();
        let (mut shown, mut values) = (Vec::new(), Vec::new());
        for (name, raw) in key_names.iter().zip(&first.key) {
            let (value, ms) = key_value(name, raw);
            if let Some(t) = ms {
                run.start.get_or_insert(civil::iso_utc(t));
            }
            shown.push(format!("{name} {value}"));
            values.push(value.clone());
            run.dimensions.insert(name.to_lowercase(), value);
        }
        run.label = match (single, shown.is_empty()) {
            (true, _) => stem.clone(),
            (false, false) => shown.join(", "),
            (false, true) => format!("Run {} (line {})", n + 1, first.line),
        };
        let mut id = match (single, values.is_empty()) {
            (true, _) => names::run_id(ctx.source),
            (false, true) => format!("{}-{}", names::run_id(ctx.source), n + 1),
            (false, false) => names::run_id(&format!("{stem} {}", values.join(" "))),
        };
        while !ids.insert(id.clone()) {
            id.push_str("-2");
        }
        run.id = id;
        let (mut kept, mut total_row): (Vec<&Row>, Option<&Row>) = (Vec::new(), None);
        for &i in members {
            let row = &rows[i];
            let earlier = if row.total { total_row } else { kept.iter().find(|r| r.label == row.label).copied() };
            if let Some(e) = earlier {
                let how = if e.cells == row.cells { "repeats" } else { "has other figures than" };
                ctx.warn(
                    format!("line {}", row.line),
                    format!("{how} line {} (same run, same label {:?}); line {} is kept", e.line, row.label, e.line),
                );
                continue;
            }
            let (t, pct) = transaction(ctx, &cols, &names, row);
            if row.total {
                total_row = Some(row);
                run.kpis = total_kpis(&t, pct);
            } else {
                kept.push(row);
                run.transactions.push(t);
            }
        }
        run.notes.push(format!(
            "From a JMeter Aggregate/Summary Report ({}, line {}): figures as JMeter rounded them (whole milliseconds), percentiles by JMeter's rank round(p·n); error counts are derived from the rounded Error %.{}",
            names::file_name(ctx.source),
            first.line,
            if cols.contains(&Col::Unused) { " Std. Dev., KB/sec and Avg. Bytes are not carried (the bundle has no field for them)." } else { "" }
        ));
        for (k, v) in names::suggested_dimensions(&stem) {
            run.dimensions.entry(k).or_insert(v);
        }
        runs.push(run);
    }
    Ok(runs)
}

#[cfg(test)]
mod tests;
