//! Gatling `simulation.log`, the tab-separated text log of Gatling 2 to 3.10
//! (https://docs.gatling.io/reference/stats/reports/ ; its records as Gatling writes and reads
//! them: gatling-core `LogFileDataWriter`/`RawRecords`, gatling-charts `LogFileReader`/`Records`).
//! Record layouts by version:
//!
//! | version  | REQUEST                                                    | GROUP                                     | USER                                   |
//! |----------|------------------------------------------------------------|-------------------------------------------|----------------------------------------|
//! | 2.0–2.1  | scenario, user, REQUEST, groups, name, 4 timestamps, status | scenario, user, GROUP, groups, start, end, cumulated, oks, kos, status | scenario, user, USER, event, start, end |
//! | 2.2–2.3  | REQUEST, scenario, user, groups, name, start, end, status, msg | GROUP, scenario, user, groups, start, end, cumulated, status | USER, scenario, user, event, start, end |
//! | 3.0–3.3  | REQUEST, user, groups, name, start, end, status, msg        | GROUP, user, groups, start, end, cumulated, status | USER, scenario, user, event, start, end |
//! | 3.4–3.10 | REQUEST, groups, name, start, end, status, msg              | GROUP, groups, start, end, cumulated, status | USER, scenario, event, timestamp |
//!
//! Rather than trusting the version in the RUN record (test tools rewrite it), each record is read
//! by its shape: the status (OK/KO) preceded by its timestamps, the name before them, the group
//! path (comma-separated) before that. Gatling 2.2 wrote error records with a GROUP header
//! (`GROUP, message, date`); they are read as errors. KO messages are errors by cause of their
//! request (`common::causes`), ERROR records errors of the run as a whole. Requests are aggregated exactly with
//! `samples::Aggregator` (response time = end − start in ms, Gatling's definition; 2.0–2.1:
//! last byte received − first byte sent), named `group / request` as Gatling's reports name them;
//! groups are transactions of their cumulated response time (Gatling's default group metric)
//! and, like JMeter transaction controllers, are left out of the run totals.
//!
//! Gatling 3.11 and later write a binary `simulation.log`; it is recognised and refused with
//! advice (`detect_binary`, `refuse_binary`).

use crate::bundle::{Direction, Kpi, LoadError, LoadErrorKind, Run, Unit};
use crate::import::common::causes::Causes;
use crate::import::common::samples::{run_kpis, Aggregator, Sample};
use crate::import::Head;
use crate::import::{common::civil, common::names, Ctx, Lines};
use std::io::BufRead;

const HEADERS: [&str; 6] = ["RUN", "REQUEST", "USER", "GROUP", "ERROR", "ASSERTION"];

/// A text log: its first record is tab-separated with a record type first (Gatling 2.2+) or
/// third (2.0–2.1).
pub fn detect(h: &Head) -> bool {
    let f: Vec<&str> = h.first_line().split('\t').collect();
    f.len() >= 2 && (HEADERS.contains(&f[0]) || header_at_2(&f))
}

/// Gatling 2.0–2.1: scenario (or simulation), user (or id), record type. A headerless
/// tab-separated JTL has an epoch timestamp first and could carry such a label third.
fn header_at_2(f: &[&str]) -> bool {
    f.len() >= 5 && HEADERS[..4].contains(&f[2]) && !f[0].bytes().all(|b| b.is_ascii_digit())
}

/// The binary log of Gatling 3.11+: a run record (type 0) starting with the Gatling version as a
/// length-prefixed string (taurus bzt/modules/gatling.py `BinaryLogReader` reads it so).
pub fn detect_binary(h: &Head) -> bool {
    binary_version(h.bytes).is_some()
}

fn binary_version(b: &[u8]) -> Option<&str> {
    let len = u32::from_be_bytes([*b.get(1)?, *b.get(2)?, *b.get(3)?, *b.get(4)?]) as usize;
    let v = b.get(5..5 + len).filter(|_| b[0] == 0 && (3..=32).contains(&len))?;
    let ok = v[0].is_ascii_digit()
        && v.contains(&b'.')
        && v.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'));
    ok.then(|| std::str::from_utf8(v).ok()).flatten()
}

/// The refusal of a binary log, with what to drop instead.
pub fn refuse_binary(ctx: &Ctx, head: &[u8]) -> LoadError {
    let version = binary_version(head).map_or(String::new(), |v| format!(" (written by Gatling {v})"));
    ctx.error(
        LoadErrorKind::Unsupported,
        None,
        format!(
            "this is Gatling's binary simulation.log{version}, the format of Gatling 3.11 and later, which runlens cannot read. \
             Drop the HTML report's js/stats.json or js/global_stats.json instead (Gatling 3.11–3.13 still write them; 3.14 \
             and later no longer do), or run the simulation with Gatling 3.10 or older to get a text simulation.log."
        ),
    )
}

fn int(s: &str) -> Option<i64> {
    let s = s.trim();
    (!s.is_empty() && s.len() <= 20).then(|| s.parse().ok()).flatten()
}

/// A timestamp: an integer of epoch milliseconds in years 1–9999.
fn stamp(s: &str) -> Option<i64> {
    int(s).filter(|t| civil::plausible(*t))
}

fn is_status(s: &str) -> bool {
    s == "OK" || s == "KO"
}

/// Gatling's group path (`g1,g2`) as its reports show it (`g1 / g2`).
fn group_path(groups: &str) -> String {
    groups.split(',').collect::<Vec<_>>().join(" / ")
}

#[derive(Default)]
struct RunRecord {
    simulation: String,
    id: String,
    start: Option<i64>,
    description: String,
    version: String,
}

#[derive(Default)]
struct Log {
    agg: Aggregator,
    causes: Causes,
    run: Option<RunRecord>,
    users: u64,
    /// Users started and not yet ended.
    active: u64,
    window: (Option<i64>, Option<i64>),
    requests: u64,
    assertions: u64,
    /// The label key of the current record (reused: no allocation per request).
    key: Vec<u8>,
}

impl Log {
    fn widen(&mut self, start: Option<i64>, end: Option<i64>) {
        if let Some(s) = start {
            self.window.0 = Some(self.window.0.map_or(s, |w| w.min(s)));
        }
        if let Some(e) = end {
            self.window.1 = Some(self.window.1.map_or(e, |w| w.max(e)));
        }
    }

    /// An error of the run as a whole (an ERROR record), at `time` (epoch ms) when it has one.
    fn error(&mut self, message: &str, time: Option<&str>) {
        self.causes.add("", b"", message.as_bytes(), time.and_then(stamp), 1);
    }

    fn request(&mut self, ctx: &mut Ctx, line: u64, f: &[&str], h: usize) {
        let stamps = if h == 2 { 4 } else { 2 };
        let status_at =
            (h + stamps + 2..f.len()).find(|&i| is_status(f[i]) && (1..=stamps).all(|k| int(f[i - k]).is_some()));
        let Some(s) = status_at else {
            return ctx.warn(format!("line {line}"), "a REQUEST record without timestamps followed by OK/KO; left out");
        };
        // Gatling 3 logs an unmatched incoming message with end = Long.MinValue and counts it as 0 ms.
        let end_raw = int(f[s - 1]).unwrap_or(0);
        let (Some(start), Some(end)) =
            (stamp(f[s - stamps]), if end_raw == i64::MIN { Some(i64::MIN) } else { stamp(f[s - 1]) })
        else {
            return ctx.warn(format!("line {line}"), "a REQUEST record whose timestamps are not times; left out");
        };
        let elapsed = if end == i64::MIN { 0 } else { end - start };
        if elapsed < 0 {
            return ctx.warn(
                format!("line {line}"),
                format!("a request that ends ({end}) before it starts ({start}); left out"),
            );
        }
        let name = f[s - stamps - 1];
        let groups = if s - stamps - 2 > h { f[s - stamps - 2] } else { "" };
        let ok = f[s] == "OK";
        self.key.clear();
        for part in [&b"R"[..], groups.as_bytes(), b"\x1f", name.as_bytes()] {
            self.key.extend_from_slice(part);
        }
        let i = self.agg.label_id(&self.key, line, || {
            if groups.is_empty() {
                name.to_string()
            } else {
                format!("{} / {name}", group_path(groups))
            }
        });
        self.agg.labels[i].add(&Sample {
            elapsed_ms: Some(elapsed as u64),
            errors: u64::from(!ok),
            start_ms: Some(start),
            ..Default::default()
        });
        self.widen(Some(start), (end != i64::MIN).then_some(end));
        // Users are recorded where they start and end; each request also says how many were
        // active when it was written, so buckets between those records are not left at zero.
        self.agg.users.add(start, self.active);
        self.requests += 1;
        if !ok {
            let message = f.get(s + 1).copied().unwrap_or("");
            self.causes.add(&self.agg.labels[i].name, b"", message.as_bytes(), Some(start), 1);
        }
    }

    fn group(&mut self, ctx: &mut Ctx, line: u64, f: &[&str], h: usize) {
        if h == 0 && f.len() == 3 && int(f[2]).is_some() {
            // Gatling 2.2 wrote its error records with a GROUP header.
            return self.error(f[1], Some(f[2]));
        }
        // 2.0–2.1 count oks and kos after the cumulated time.
        let want = if h == 2 { 5 } else { 3 };
        let s = f.iter().rposition(|x| is_status(x)).unwrap_or(0);
        if s < want + h + 2 || !(1..=want).all(|k| int(f[s - k]).is_some()) {
            return ctx
                .warn(format!("line {line}"), "a GROUP record without start, end, cumulated time and OK/KO; left out");
        }
        let (start, end, cumulated) =
            (stamp(f[s - want]), stamp(f[s - want + 1]), int(f[s - want + 2]).unwrap_or(0).max(0));
        let groups = f[s - want - 1];
        let key = format!("G{groups}");
        let i = self.agg.label_id(key.as_bytes(), line, || group_path(groups));
        let stats = &mut self.agg.labels[i];
        stats.is_controller = true;
        stats.elapsed.add_int(cumulated as u64);
        stats.errors += u64::from(f[s] == "KO");
        if let Some(a) = start {
            stats.seconds.add(a, Some(cumulated as u64), 1, u64::from(f[s] == "KO"));
        }
        if let (Some(a), Some(b)) = (start, end) {
            stats.first_start_ms = Some(stats.first_start_ms.map_or(a, |x| x.min(a)));
            stats.last_end_ms = Some(stats.last_end_ms.map_or(b, |x| x.max(b)));
        }
        self.widen(start, end);
    }

    fn user(&mut self, ctx: &mut Ctx, line: u64, f: &[&str], h: usize) {
        let Some(e) = (h + 1..f.len()).find(|&i| f[i] == "START" || f[i] == "END") else {
            return ctx.warn(format!("line {line}"), "a USER record without START or END; left out");
        };
        let stamps: Vec<i64> = f[e + 1..].iter().filter_map(|x| stamp(x)).collect();
        let at = if f[e] == "START" {
            self.users += 1;
            self.active += 1;
            self.widen(stamps.first().copied(), None);
            stamps.first()
        } else {
            self.active = self.active.saturating_sub(1);
            self.widen(None, stamps.last().copied());
            stamps.last()
        };
        if let Some(t) = at {
            self.agg.users.add(*t, self.active);
        }
    }

    fn run_record(&mut self, f: &[&str], h: usize) {
        let field = |i: usize| f.get(i).map_or("", |x| x.trim()).to_string();
        self.run = Some(if h == 2 {
            // 2.0–2.1: simulation, id, RUN, start, description, "2.0".
            RunRecord {
                simulation: field(0),
                id: field(1),
                start: f.get(3).and_then(|x| stamp(x)),
                description: field(4),
                version: field(5),
            }
        } else {
            // RUN, simulation, [user-defined id,] id, start, description, version.
            let start_at = (2..f.len()).find(|&i| f[i].trim().len() >= 12 && stamp(f[i]).is_some());
            RunRecord {
                simulation: field(1),
                id: start_at.filter(|i| *i >= 3).map_or_else(String::new, |i| field(i - 1)),
                start: start_at.and_then(|i| stamp(f[i])),
                description: start_at.filter(|i| i + 2 < f.len()).map_or_else(String::new, |i| field(i + 1)),
                version: field(f.len() - 1),
            }
        });
    }
}

/// Imports a text simulation.log line by line.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let mut log = Log::default();
    let mut lines = Lines::new(input);
    while let Some((line_no, bytes)) = lines.next_line(ctx)? {
        let text = String::from_utf8_lossy(bytes);
        if text.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = text.split('\t').collect();
        let h = if HEADERS.contains(&f[0]) {
            0
        } else if header_at_2(&f) {
            2
        } else {
            usize::MAX
        };
        match f.get(h).copied() {
            Some("REQUEST") => log.request(ctx, line_no, &f, h),
            Some("GROUP") => log.group(ctx, line_no, &f, h),
            Some("USER") => log.user(ctx, line_no, &f, h),
            Some("RUN") => log.run_record(&f, h),
            Some("ERROR") => log.error(f.get(1).copied().unwrap_or(""), f.get(2).copied()),
            Some("ASSERTION") => log.assertions += 1,
            _ => ctx.warn(format!("line {line_no}"), "not a Gatling simulation.log record; left out"),
        }
    }
    finish(ctx, log)
}

fn finish(ctx: &mut Ctx, log: Log) -> Result<Run, LoadError> {
    if log.requests == 0 {
        return Err(ctx.error(
            LoadErrorKind::Empty,
            None,
            "the simulation.log has no REQUEST records (no requests were logged)",
        ));
    }
    let window = log.window;
    let request_names: rustc_hash::FxHashSet<&str> =
        log.agg.labels.iter().filter(|l| !l.is_controller).map(|l| l.name.as_str()).collect();
    let mut labels: Vec<_> = log.agg.labels.iter().collect();
    labels.sort_by_key(|l| l.first_seen);
    let mut timeline = log.agg.timeline();
    let transactions: Vec<_> = labels
        .into_iter()
        .map(|l| {
            let mut t = l.to_transaction(window);
            if let Some(p75) = l.elapsed.summary(&[75.0]).and_then(|s| s.percentiles.first().copied()) {
                t.percentiles.insert("p75".into(), p75);
            }
            if l.is_controller {
                if request_names.contains(t.name.as_str()) {
                    t.name.push_str(" (group)");
                }
                t.note = Some(
                    "Gatling group: cumulated response time of its requests (Gatling's default group metric)".into(),
                );
            }
            t
        })
        .collect();
    if let Some(tl) = &mut timeline {
        // Groups named like a request are renamed in the transactions: the same here.
        for (tt, t) in tl.transactions.iter_mut().zip(&transactions) {
            tt.name.clone_from(&t.name);
        }
    }
    let mut kpis = run_kpis(&log.agg.total(), window);
    if log.users > 0 {
        kpis.push(Kpi {
            name: "Users started".into(),
            value: log.users as f64,
            unit: Unit::Count,
            direction: Some(Direction::Neutral),
            note: None,
        });
    }
    if let Some(w) = log.causes.warning() {
        ctx.warn("errors", w);
    }
    let name = ctx.source;
    let run_info = log.run.unwrap_or_default();
    let short = run_info.simulation.rsplit('.').next().unwrap_or("").to_string();
    let start = window.0.or(run_info.start);
    let when = start.map(|s| civil::iso_utc(s - s.rem_euclid(60_000)).replace('T', " ").replace(":00Z", " UTC"));
    let label = match (short.is_empty(), &when) {
        (false, Some(w)) => format!("{short} {w}"),
        (false, None) => short.clone(),
        _ => names::file_stem(name).to_string(),
    };
    let id = if names::file_stem(name).eq_ignore_ascii_case("simulation") && !run_info.id.is_empty() {
        names::run_id(&format!(
            "{}-{}",
            run_info.id,
            when.as_deref().unwrap_or("").replace([' ', ':', '-'], "").trim_end_matches("UTC")
        ))
    } else {
        names::run_id(name)
    };
    let mut run = Run {
        id,
        label,
        start: start.map(civil::iso_utc),
        end: window.1.map(civil::iso_utc),
        duration_s: match (start, window.1) {
            (Some(s), Some(e)) if e >= s => Some((e - s) as f64 / 1000.0),
            _ => None,
        },
        transactions,
        kpis,
        timeline: log.causes.with_timeline(timeline),
        errors: log.causes.entries(window.0.unwrap_or(0)),
        ..Default::default()
    };
    if !run_info.description.is_empty() {
        run.conditions.push(run_info.description.clone());
    }
    run.notes.push(format!(
        "{} requests imported from {} (Gatling simulation.log{}{}); response time = end − start; percentiles are exact (nearest rank); throughput is over the run's first to last record, as Gatling's reports count it.",
        log.requests,
        names::file_name(name),
        if run_info.simulation.is_empty() { String::new() } else { format!(", simulation {}", run_info.simulation) },
        if run_info.version.is_empty() { String::new() } else { format!(", version {}", run_info.version) },
    ));
    if log.assertions > 0 {
        run.notes
            .push(format!("{} Gatling assertions are recorded in the log (serialized; not shown).", log.assertions));
    }
    run.dimensions.extend(names::suggested_dimensions(name));
    Ok(run)
}

#[cfg(test)]
mod tests;
