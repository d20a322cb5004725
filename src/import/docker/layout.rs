//! Where the columns of a `docker stats` capture are: the table's header names
//! (`CONTAINER ID   NAME   CPU %   MEM USAGE / LIMIT …`, cells apart by three or more spaces), a CSV
//! header (docker's names or the template's: `Name`, `CPUPerc`, `MemUsage`), or, for a CSV without
//! one, the shapes of the first row's values.

use super::{percent, size, time_ms, usage};
use crate::import::Ctx;
use serde_json::Value;

/// Column positions of the values runlens reads, and how many cells a table row has.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cols {
    pub name: Option<usize>,
    pub id: Option<usize>,
    pub time: Option<usize>,
    pub cpu: Option<usize>,
    pub mem: Option<usize>,
    pub mem_pct: Option<usize>,
    pub width: usize,
}

impl Cols {
    /// "name in column 1, CPU % in column 2, …" for the warning about a CSV without a header.
    pub fn describe(&self) -> String {
        let parts = [
            ("time", self.time),
            ("name", self.name),
            ("container id", self.id),
            ("CPU %", self.cpu),
            ("memory usage", self.mem),
            ("memory %", self.mem_pct),
        ];
        parts.iter().filter_map(|(n, i)| i.map(|i| format!("{n} in column {}", i + 1))).collect::<Vec<_>>().join(", ")
    }

    fn usable(&self) -> bool {
        (self.name.is_some() || self.id.is_some()) && (self.cpu.is_some() || self.mem.is_some())
    }
}

/// Whether a CSV's first line is its header or the columns were inferred from values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Header,
    Inferred,
}

/// A table line's cells: split on tabs, or on runs of two or more spaces (values such as
/// `107.6MiB / 7.549GiB` hold single spaces).
pub fn table_cells(line: &str) -> Vec<&str> {
    let line = line.trim();
    if line.contains('\t') {
        return line.split('\t').map(str::trim).filter(|c| !c.is_empty()).collect();
    }
    let mut out = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let end = rest.find("  ").unwrap_or(rest.len());
        out.push(rest[..end].trim());
        rest = rest[end..].trim_start();
    }
    out
}

/// A table header: every cell one of docker's column titles, with a name or id and CPU or memory.
pub fn table_header(line: &str) -> Option<Cols> {
    let cells = table_cells(line);
    let mut c = Cols { width: cells.len(), ..Default::default() };
    for (i, cell) in cells.iter().enumerate() {
        let slot = match cell.to_ascii_uppercase().as_str() {
            "CONTAINER ID" | "CONTAINER" | "ID" => &mut c.id,
            "NAME" => &mut c.name,
            "CPU %" => &mut c.cpu,
            "MEM USAGE / LIMIT" | "PRIV WORKING SET" => &mut c.mem,
            "MEM %" => &mut c.mem_pct,
            "NET I/O" | "BLOCK I/O" | "PIDS" => continue,
            _ => return None,
        };
        slot.get_or_insert(i);
    }
    c.usable().then_some(c)
}

/// The column of a CSV header name (docker's titles, template field names, or plain words).
fn header_slot<'a>(c: &'a mut Cols, name: &str) -> Option<&'a mut Option<usize>> {
    let n: String = name.to_ascii_lowercase().chars().filter(|ch| ch.is_ascii_alphanumeric() || *ch == '%').collect();
    Some(match n.as_str() {
        "time" | "timestamp" | "date" | "datetime" | "ts" => &mut c.time,
        "name" | "container" | "containername" => &mut c.name,
        "id" | "containerid" => &mut c.id,
        _ if n.contains("cpu") => &mut c.cpu,
        _ if n.contains("mem") && (n.contains('%') || n.contains("perc")) => &mut c.mem_pct,
        _ if n.contains("mem") || n.contains("privworkingset") => &mut c.mem,
        _ => return None,
    })
}

/// The delimiter of a CSV line: the most frequent of `,` `;` tab `|`.
fn delimiter(line: &str) -> u8 {
    let counts = [b',', b';', b'\t', b'|'].map(|d| (line.bytes().filter(|b| *b == d).count(), d));
    counts.iter().max_by_key(|(n, d)| (*n, *d == b',')).map_or(b',', |x| x.1)
}

fn is_hex_id(v: &str) -> bool {
    (v.len() == 12 || v.len() == 64) && v.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The layout of a CSV from its first line: a header, or values whose shapes say what they are
/// (memory usage in binary units, percentages: CPU first, memory second, as in docker's default
/// order; a 12- or 64-digit hex value is a container id, other text the name).
pub fn csv_layout(first: &str) -> Option<(u8, Cols, Shape)> {
    let delim = delimiter(first);
    let mut r =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).delimiter(delim).from_reader(first.as_bytes());
    let fields: Vec<String> = r.records().next()?.ok()?.iter().map(|f| f.trim().to_string()).collect();
    if fields.len() < 2 {
        return None;
    }
    let mut c = Cols { width: fields.len(), ..Default::default() };
    let looks_like_values = fields.iter().any(|f| percent(f).is_some() || f.contains(" / "));
    if !looks_like_values {
        for (i, f) in fields.iter().enumerate() {
            if let Some(slot) = header_slot(&mut c, f) {
                slot.get_or_insert(i);
            }
        }
        return (c.usable() && c.cpu.is_some() && (c.mem.is_some() || c.mem_pct.is_some())).then_some((
            delim,
            c,
            Shape::Header,
        ));
    }
    let binary = |f: &str| f.contains("iB") && usage(f).is_some();
    c.mem = fields.iter().position(|f| binary(f));
    for (i, f) in fields.iter().enumerate() {
        if Some(i) == c.mem {
            continue;
        }
        if time_ms(f).is_some() {
            c.time.get_or_insert(i);
        } else if percent(f).is_some() {
            if c.cpu.is_none() {
                c.cpu = Some(i);
            } else {
                c.mem_pct.get_or_insert(i);
            }
        } else if is_hex_id(f) {
            c.id.get_or_insert(i);
        } else if !f.is_empty() && !f.contains(" / ") && size(f).is_none() && f.parse::<f64>().is_err() && f != "--" {
            c.name.get_or_insert(i);
        }
    }
    (c.usable() && c.mem.is_some()).then_some((delim, c, Shape::Inferred))
}

/// JSON lines (`docker stats --format json`): each line's fields as cells of fixed columns.
pub fn json_lines(ctx: &mut Ctx, lines: &[String]) -> (Cols, Vec<(usize, Vec<String>)>) {
    const KEYS: [&[&str]; 6] = [
        &["Name"],
        &["ID", "Container"],
        &["time", "Time", "timestamp", "Timestamp"],
        &["CPUPerc"],
        &["MemUsage"],
        &["MemPerc"],
    ];
    let cols =
        Cols { name: Some(0), id: Some(1), time: Some(2), cpu: Some(3), mem: Some(4), mem_pct: Some(5), width: 6 };
    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line.trim()) {
            Ok(Value::Object(o)) => {
                let cells = KEYS
                    .iter()
                    .map(|keys| {
                        keys.iter()
                            .find_map(|k| crate::import::common::json_docs::text_of(o.get(*k)))
                            .unwrap_or_default()
                    })
                    .collect();
                rows.push((i + 1, cells));
            }
            _ => ctx.warn(format!("line {}", i + 1), "not a JSON object of docker stats; skipped"),
        }
    }
    (cols, rows)
}
