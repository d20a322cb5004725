//! Locust's `_stats_history.csv`: a row per interval (5 s) for the `Aggregated` total and, with
//! `--csv-full-history`, for every request name. Columns:
//! https://docs.locust.io/en/stable/retrieving-stats.html (`StatsCSVFileWriter` in `locust/stats.py`).
//!
//! What it becomes (a choice; the bundle has no "load generator" section):
//! - resources over time, service `locust` for the total and the transaction name for each request
//!   row: `users` (count), `requests/s` and `failures/s` (per second, Locust's current rate), and
//!   `response time p50/p90/p95/p99` (ms) for those of the four percentiles the file has;
//! - transactions from each request name's last row, whose `Total …` columns are cumulative
//!   (samples, errors, mean, median, min, max; no percentiles: the history's are windowed);
//! - run KPIs from the last `Aggregated` row (samples, error rate, mean) and the throughput over the
//!   history's first to last row; the run's start, end and duration from the timestamps, and the
//!   peak user count as the `users` dimension.

use super::{file_run, is_total, read_rows, total_kpis, transaction, txn_name, Cols, Row, COARSE_NOTE};
use crate::bundle::{LoadError, LoadErrorKind, Run, Unit};
use crate::import::detect::Head;
use crate::import::series::{resource, Points};
use crate::import::{civil, Ctx};
use std::io::BufRead;

/// Content detection: a header with Timestamp, Name and User Count or Requests/s.
pub fn detect(h: &Head) -> bool {
    Cols::from_head(h).is_some_and(|c| c.timestamp.is_some() && c.name.is_some() && (c.users.is_some() || c.rps.is_some()))
}

/// The percentiles charted over time.
const CHARTED: [f64; 4] = [50.0, 90.0, 95.0, 99.0];

/// One request name (or the total) over time.
struct Track {
    name: String,
    rps: Points,
    fps: Points,
    pcts: Vec<(f64, Points)>,
    /// Row with the latest timestamp: (time, index into the rows).
    last: (i64, usize),
}

/// Epoch seconds (Locust) or a date-time.
fn time_ms(cell: Option<&str>) -> Option<i64> {
    let s = cell?.trim();
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v.abs() < 1.0e13 => Some((v * 1000.0).round() as i64),
        Ok(_) => None,
        Err(_) => civil::parse_datetime(s).map(|x| x.0),
    }
}

/// Imports a stats history file.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let (c, rows) = read_rows(ctx, input)?;
    if c.timestamp.is_none() || c.name.is_none() {
        return Err(ctx.error(LoadErrorKind::Syntax, Some(1), "the first line is not a Locust stats history header (it needs Timestamp and Name)"));
    }
    let charted: Vec<(usize, f64)> = c.pcts.iter().copied().filter(|(_, p)| CHARTED.contains(p)).collect();
    let mut tracks: Vec<Track> = Vec::new();
    let mut users = Points::default();
    let (mut start, mut end) = (i64::MAX, i64::MIN);
    for (k, row) in rows.iter().enumerate() {
        let Some(t) = time_ms(row.get(c.timestamp)) else {
            ctx.warn(format!("line {}", row.line), format!("timestamp {:?} is not a time; the row is skipped", row.get(c.timestamp).unwrap_or("")));
            continue;
        };
        (start, end) = (start.min(t), end.max(t));
        let total = is_total(row, &c);
        let name = if total { "locust".to_string() } else { txn_name(row, &c) };
        if total {
            if let Some(u) = row.num(ctx, c.users, "user count") {
                users.push(Some(t), u);
            }
        }
        let i = match tracks.iter().position(|x| x.name == name) {
            Some(i) => i,
            None => {
                let pcts = charted.iter().map(|(_, p)| (*p, Points::default())).collect();
                tracks.push(Track { name, rps: Points::default(), fps: Points::default(), pcts, last: (t, k) });
                tracks.len() - 1
            }
        };
        let track = &mut tracks[i];
        if t >= track.last.0 {
            track.last = (t, k);
        }
        for (points, col, what) in [(&mut track.rps, c.rps, "requests/s"), (&mut track.fps, c.fps, "failures/s")] {
            if let Some(v) = row.num(ctx, col, what) {
                points.push(Some(t), v);
            }
        }
        for ((col, p), (_, points)) in charted.iter().zip(track.pcts.iter_mut()) {
            if let Some(v) = row.num(ctx, Some(*col), &format!("{p}%")) {
                points.push(Some(t), v);
            }
        }
    }
    if tracks.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file has a Locust history header but no rows with a time"));
    }
    let full_history = tracks.iter().any(|t| t.name != "locust");
    let window = if full_history {
        "Locust's current value (its last 10 s), as written with --csv-full-history"
    } else {
        "as Locust wrote it: since the test started (Locust 1.2 and later) or over its last 10 s (older)"
    };
    let mut run = file_run(ctx);
    run.start = Some(civil::iso_utc(start));
    run.end = Some(civil::iso_utc(end));
    run.duration_s = Some((end - start) as f64 / 1000.0);
    if let Some(peak) = users.timed.iter().map(|p| p.1).reduce(f64::max) {
        run.dimensions.insert("users".into(), format!("{peak}"));
        run.resources.push(resource("locust", "users", Unit::Count, users, Some(start)));
    }
    let last_row = |t: &Track| -> &Row { &rows[t.last.1] };
    for track in tracks {
        let row = last_row(&track);
        if track.name == "locust" {
            let mut total = transaction(ctx, row, &c, false);
            let span_s = (track.last.0 - track.rps.first_ms().unwrap_or(start)) as f64 / 1000.0;
            total.throughput_per_s = total.samples.filter(|_| span_s > 0.0).map(|n| n as f64 / span_s);
            run.kpis = total_kpis(&total, "requests counted in the last history row over the history's first to last row");
        } else {
            let mut t = transaction(ctx, row, &c, false);
            t.note = Some(format!("Totals from the last history row. {COARSE_NOTE}"));
            run.transactions.push(t);
        }
        let svc = track.name.as_str();
        run.resources.push(resource(svc, "requests/s", Unit::PerSecond, track.rps, Some(start)));
        run.resources.push(resource(svc, "failures/s", Unit::PerSecond, track.fps, Some(start)));
        for (p, points) in track.pcts {
            let mut r = resource(svc, &format!("response time p{p}"), Unit::Ms, points, Some(start));
            r.note = Some(window.to_string());
            run.resources.push(r);
        }
    }
    run.resources.retain(|r| r.peak.is_some());
    run.notes.push(format!(
        "{} history rows from Locust's {}: series per {}.",
        rows.len(),
        crate::import::names::file_name(ctx.source),
        if full_history { "request name and for the total (service \"locust\")" } else { "interval for the total (service \"locust\")" }
    ));
    Ok(run)
}
