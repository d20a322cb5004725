//! `docker stats` output captured to a file: the table (`docker stats --no-stream`, or the
//! streaming view with its screen-clearing escapes), a CSV made with `--format
//! "{{.Name}},{{.CPUPerc}},{{.MemUsage}}"` (with or without a header or a time column), or JSON
//! lines from `--format json`. Format: https://docs.docker.com/reference/cli/docker/container/stats/ ;
//! the values are `formatter_stats.go` of docker/cli.
//!
//! CPU and memory per container become resources: `cpu` (percent, may pass 100 on several
//! CPUs), `memory` (bytes used; the limit is in the note) and `memory_percent`. Docker prints the
//! memory in binary units (`107.6MiB / 7.549GiB`, go-units `BytesSize`) and network and block I/O
//! in decimal ones (`1.2kB / 648B`, `HumanSize`); `--` is a missing value. Repeated snapshots
//! with times (a time column, or a line such as `date -u +%FT%TZ` or `date` printed before each
//! table) give series; without times only peak, average and min are known.

mod layout;

use crate::bundle::{LoadError, LoadErrorKind, Run, Unit};
use crate::import::common::series::{resource, Points};
use crate::import::Head;
use crate::import::{common::civil, common::names, Ctx};
use layout::{Cols, Shape};

/// Removes ANSI escape sequences (`ESC [ … letter`) that the streaming view writes.
pub(crate) fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// A size as docker prints it, in whole bytes: binary with `iB` (`107.6MiB`), decimal otherwise
/// (`1.2kB`).
pub(crate) fn size(text: &str) -> Option<f64> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (num, unit) = t.split_at(split);
    let v: f64 = num.parse().ok()?;
    let f = match unit.trim() {
        "B" | "b" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1024f64.powi(2),
        "GiB" => 1024f64.powi(3),
        "TiB" => 1024f64.powi(4),
        "PiB" => 1024f64.powi(5),
        "kB" | "KB" | "kb" => 1e3,
        "MB" | "mb" => 1e6,
        "GB" | "gb" => 1e9,
        "TB" | "tb" => 1e12,
        "PB" | "pb" => 1e15,
        _ => return None,
    };
    Some((v * f).round()).filter(|x| x.is_finite())
}

/// A percentage such as `9.26%`.
pub(crate) fn percent(text: &str) -> Option<f64> {
    text.trim().strip_suffix('%')?.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Memory usage `used / limit` (or the single value Windows prints): (used, limit).
pub(crate) fn usage(text: &str) -> Option<(f64, Option<f64>)> {
    match text.split_once(" / ") {
        Some((u, l)) => Some((size(u)?, size(l))),
        None => Some((size(text)?, None)),
    }
}

/// A time line or cell: ISO 8601, epoch seconds or milliseconds, or `date`'s default
/// `Sun Oct  1 10:18:00 UTC 2023` (UTC/GMT only).
pub(crate) fn time_ms(text: &str) -> Option<i64> {
    let t = text.trim();
    if let Some((ms, _)) = civil::parse_datetime(t) {
        return Some(ms);
    }
    if (t.len() == 10 || t.len() == 13) && t.bytes().all(|b| b.is_ascii_digit()) {
        let v: i64 = t.parse().ok()?;
        return Some(if t.len() == 10 { v * 1000 } else { v });
    }
    let w: Vec<&str> = t.split_whitespace().collect();
    let [_, mon, day, hms, zone, year] = w.as_slice() else { return None };
    if !matches!(*zone, "UTC" | "GMT") {
        return None;
    }
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let m = MONTHS.iter().position(|x| x == mon)? + 1;
    let day: u32 = day.parse().ok()?;
    civil::parse_datetime(&format!("{year}-{m:02}-{day:02}T{hms}Z")).map(|x| x.0)
}

/// Content detection: a `docker stats` table header, JSON lines with `CPUPerc`, or CSV whose
/// header or first row has docker's CPU and memory columns.
pub fn detect(h: &Head) -> bool {
    let lines: Vec<String> = h.trimmed().lines().map(strip_ansi).filter(|l| !l.trim().is_empty()).take(6).collect();
    let Some(first) = lines.first() else { return false };
    if first.trim_start().starts_with('{') {
        return first.contains("\"CPUPerc\"");
    }
    lines.iter().take(4).any(|l| layout::table_header(l).is_some()) || layout::csv_layout(first).is_some()
}

/// One reading of one container.
#[derive(Default)]
struct Reading {
    name: String,
    t_ms: Option<i64>,
    cpu: Option<f64>,
    mem: Option<(f64, Option<f64>)>,
    mem_pct: Option<f64>,
}

/// A row's cells by column, as a reading.
fn reading(c: &Cols, cells: &[&str], t_ms: Option<i64>) -> Option<Reading> {
    let cell = |i: Option<usize>| {
        i.and_then(|i| cells.get(i)).map(|s| s.trim()).filter(|s| !s.is_empty() && *s != "--" && *s != "-- / --")
    };
    let name = cell(c.name).or(cell(c.id))?.to_string();
    Some(Reading {
        name,
        t_ms: cell(c.time).and_then(time_ms).or(t_ms),
        cpu: cell(c.cpu).and_then(percent),
        mem: cell(c.mem).and_then(usage),
        mem_pct: cell(c.mem_pct).and_then(percent),
    })
}

/// Imports a capture of `docker stats`.
pub fn import(ctx: &mut Ctx, text: &str) -> Result<Run, LoadError> {
    let lines: Vec<String> = text.lines().map(strip_ansi).collect();
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .ok_or_else(|| ctx.error(LoadErrorKind::Empty, None, "the file is empty"))?;
    let mut readings: Vec<Reading> = Vec::new();
    let mut snapshots = 0usize;
    if lines[first].trim_start().starts_with('{') {
        let (cols, rows) = layout::json_lines(ctx, &lines);
        for (line, cells) in rows {
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            match reading(&cols, &cells, None) {
                Some(r) => readings.push(r),
                None => ctx.warn(format!("line {line}"), "no container name; skipped"),
            }
        }
    } else if lines.iter().skip(first).take(4).any(|l| layout::table_header(l).is_some()) {
        let (mut cols, mut time): (Option<Cols>, Option<i64>) = (None, None);
        for (i, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            if let Some(h) = layout::table_header(line) {
                cols = Some(h);
                snapshots += 1;
                continue;
            }
            if let Some(t) = time_ms(line) {
                time = Some(t);
                continue;
            }
            let cells = layout::table_cells(line);
            match cols.as_ref().filter(|c| c.width == cells.len()).and_then(|c| reading(c, &cells, time)) {
                Some(r) => readings.push(r),
                None => ctx.warn(format!("line {}", i + 1), "not a row of the docker stats table above; skipped"),
            }
        }
    } else {
        let Some((delim, cols, shape)) = layout::csv_layout(&lines[first]) else {
            return Err(ctx.error(
                LoadErrorKind::Syntax,
                Some(first as u64 + 1),
                "the first line is neither a docker stats header nor a row with CPU % and memory usage",
            ));
        };
        if shape == Shape::Inferred {
            ctx.warn(
                format!("line {}", first + 1),
                format!("no header: columns recognised by their values ({})", cols.describe()),
            );
        }
        let skip = usize::from(shape == Shape::Header);
        let mut rdr =
            csv::ReaderBuilder::new().has_headers(false).flexible(true).delimiter(delim).from_reader(text.as_bytes());
        for (k, rec) in rdr.records().enumerate().skip(skip) {
            let line = k + first + 1;
            match rec {
                Ok(rec) => {
                    let cells: Vec<&str> = rec.iter().collect();
                    match reading(&cols, &cells, None) {
                        Some(r) => readings.push(r),
                        None if cells.iter().all(|c| c.trim().is_empty()) => {}
                        None => ctx.warn(format!("line {line}"), "no container name in this row; skipped"),
                    }
                }
                Err(e) => ctx.warn(format!("line {line}"), format!("not readable as CSV ({e}); skipped")),
            }
        }
    }
    finish(ctx, readings, snapshots)
}

fn finish(ctx: &mut Ctx, readings: Vec<Reading>, snapshots: usize) -> Result<Run, LoadError> {
    if readings.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "no docker stats rows were found"));
    }
    ctx.record(readings.len() as u64);
    let start = readings.iter().filter_map(|r| r.t_ms).min();
    let end = readings.iter().filter_map(|r| r.t_ms).max();
    let untimed = readings.iter().filter(|r| r.t_ms.is_none()).count();
    // Containers in order of appearance, each with its readings.
    let mut order: Vec<&str> = Vec::new();
    for r in &readings {
        if !order.contains(&r.name.as_str()) {
            order.push(&r.name);
        }
    }
    let mut run =
        Run { id: names::run_id(ctx.source), label: names::file_stem(ctx.source).to_string(), ..Default::default() };
    run.start = start.map(civil::iso_utc);
    run.end = end.map(civil::iso_utc);
    run.duration_s = start.zip(end).map(|(s, e)| (e - s) as f64 / 1000.0);
    for name in order {
        let mine = || readings.iter().filter(move |r| r.name == name);
        let points = |f: &dyn Fn(&Reading) -> Option<f64>| {
            let mut p = Points::default();
            mine().for_each(|r| {
                if let Some(v) = f(r) {
                    p.push(r.t_ms, v);
                }
            });
            p
        };
        let cpu = points(&|r| r.cpu);
        let mem = points(&|r| r.mem.map(|m| m.0));
        let pct = points(&|r| r.mem_pct);
        let limit = mine().filter_map(|r| r.mem.and_then(|m| m.1)).next_back();
        for (metric, unit, p) in
            [("cpu", Unit::Percent, cpu), ("memory", Unit::Bytes, mem), ("memory_percent", Unit::Percent, pct)]
        {
            if p.is_empty() {
                continue;
            }
            let mut res = resource(name, metric, unit, p, start);
            if metric == "memory" {
                res.note = limit.map(|l| format!("memory limit {} bytes", l.round() as u64));
            }
            run.resources.push(res);
        }
    }
    if untimed > 0 && snapshots > 1 {
        ctx.warn("times", format!("{snapshots} snapshots without times: only peak, average and min are known (print a time before each, e.g. date -u +%FT%TZ, to get series)"));
    }
    run.notes.push(format!("{} docker stats readings imported from {}.", readings.len(), names::file_name(ctx.source)));
    Ok(run)
}

#[cfg(test)]
mod tests;
