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
//! - a timeline of requests and failures per request name; without per-name rows, of the
//!   `Aggregated` total marked `total` (the run's counts over time, no transaction: the run has
//!   none to match, and the Timeline's picker and the window's per-transaction cut leave it out).

use super::{file_run, for_each_row, is_total, total_kpis, transaction, txn_name, Cols, Row, COARSE_NOTE};
use crate::bundle::{LoadError, LoadErrorKind, Run, Unit};
use crate::import::common::samples::{timeline_of, Seconds, Users};
use crate::import::common::series::{resource, Points};
use crate::import::Head;
use crate::import::{common::civil, Ctx};
use rustc_hash::FxHashMap;
use std::io::BufRead;

/// Content detection: a header with Timestamp, Name and User Count or Requests/s.
pub fn detect(h: &Head) -> bool {
    Cols::from_head(h)
        .is_some_and(|c| c.timestamp.is_some() && c.name.is_some() && (c.users.is_some() || c.rps.is_some()))
}

/// The percentiles charted over time.
const CHARTED: [f64; 4] = [50.0, 90.0, 95.0, 99.0];

/// One request name (or the total) over time.
struct Track {
    name: String,
    rps: Points,
    fps: Points,
    pcts: Vec<(f64, Points)>,
    /// The row with the latest timestamp (its `Total …` columns are the final totals).
    last: (i64, Row),
    /// Requests and failures per row: differences of the cumulative totals, at the row's time.
    seconds: Seconds,
    /// The cumulative totals of the previous row.
    totals: (u64, u64),
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

/// Everything read so far; rows are folded in as they stream by (a full history of a long run
/// has hundreds of thousands of rows, and only the latest row per name is kept).
#[derive(Default)]
struct State {
    tracks: Vec<Track>,
    by_name: FxHashMap<String, usize>,
    users: Points,
    active: Users,
    window: Option<(i64, i64)>,
}

impl State {
    fn add(&mut self, ctx: &mut Ctx, c: &Cols, charted: &[(usize, f64)], row: Row) {
        let Some(t) = time_ms(row.get(c.timestamp)) else {
            ctx.warn(
                format!("line {}", row.line),
                format!("timestamp {:?} is not a time; the row is skipped", row.get(c.timestamp).unwrap_or("")),
            );
            return;
        };
        self.window = Some(self.window.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
        let total = is_total(&row, c);
        let name = if total { "locust".to_string() } else { txn_name(&row, c) };
        if total {
            if let Some(u) = row.num(ctx, c.users, "user count") {
                self.users.push(Some(t), u);
                if let Some(n) = crate::import::k6::metrics::count(u) {
                    self.active.add(t, n);
                }
            }
        }
        let rps = row.num(ctx, c.rps, "requests/s");
        let fps = row.num(ctx, c.fps, "failures/s");
        let pcts: Vec<Option<f64>> =
            charted.iter().map(|(col, p)| row.num(ctx, Some(*col), &format!("{p}%"))).collect();
        let i = match self.by_name.get(&name) {
            Some(i) => *i,
            None => {
                let points = charted.iter().map(|(_, p)| (*p, Points::default())).collect();
                self.by_name.insert(name.clone(), self.tracks.len());
                self.tracks.push(Track {
                    name,
                    rps: Points::default(),
                    fps: Points::default(),
                    pcts: points,
                    last: (t, Row { line: 0, fields: vec![] }),
                    seconds: Seconds::default(),
                    totals: (0, 0),
                });
                self.tracks.len() - 1
            }
        };
        let totals = (row.count(ctx, c.count, "request count"), row.count(ctx, c.failures, "failure count"));
        let track = &mut self.tracks[i];
        if let (Some(n), Some(f)) = totals {
            // Totals count from the start; one that went down was reset (`--reset-stats`).
            let (was_n, was_f) = if n < track.totals.0 || f < track.totals.1 { (0, 0) } else { track.totals };
            track.seconds.add(t, None, n - was_n, f - was_f);
            track.totals = (n, f);
        }
        rps.into_iter().for_each(|v| track.rps.push(Some(t), v));
        fps.into_iter().for_each(|v| track.fps.push(Some(t), v));
        for (v, (_, points)) in pcts.into_iter().zip(track.pcts.iter_mut()) {
            v.into_iter().for_each(|v| points.push(Some(t), v));
        }
        if t >= track.last.0 || track.last.1.fields.is_empty() {
            track.last = (t, row);
        }
    }
}

/// Imports a stats history file.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let check = |c: &Cols| {
        (c.timestamp.is_none() || c.name.is_none())
            .then_some("the first line is not a Locust stats history header (it needs Timestamp and Name)")
    };
    let mut state = State::default();
    let mut charted: Option<Vec<(usize, f64)>> = None;
    let (c, rows) = for_each_row(ctx, input, check, |ctx, c, row| {
        let charted =
            charted.get_or_insert_with(|| c.pcts.iter().copied().filter(|(_, p)| CHARTED.contains(p)).collect());
        state.add(ctx, c, charted, row);
    })?;
    let Some((start, end)) = state.window else {
        return Err(ctx.error(
            LoadErrorKind::Empty,
            None,
            "the file has a Locust history header but no rows with a time",
        ));
    };
    let full_history = state.tracks.iter().any(|t| t.name != "locust");
    let window = if full_history {
        "Locust's current value (its last 10 s), as written with --csv-full-history"
    } else {
        "as Locust wrote it: since the test started (Locust 1.2 and later) or over its last 10 s (older)"
    };
    // Per request name when the file has them, else the total as one entry marked `total`: the
    // run's samples, errors and throughput over time, and no transaction (the run has none).
    let per_name = state.tracks.iter().filter(|t| !full_history || t.name != "locust");
    let mut run_timeline = timeline_of(
        per_name.map(|t| (if t.name == "locust" { "Aggregated" } else { t.name.as_str() }, false, &t.seconds)),
        &state.active,
    );
    if !full_history {
        run_timeline.iter_mut().flat_map(|tl| &mut tl.transactions).for_each(|t| t.total = true);
    }
    let mut run = file_run(ctx);
    run.timeline = run_timeline;
    run.start = Some(civil::iso_utc(start));
    run.end = Some(civil::iso_utc(end));
    run.duration_s = Some((end - start) as f64 / 1000.0);
    if let Some(peak) = state.users.timed.iter().map(|p| p.1).reduce(f64::max) {
        run.dimensions.insert("users".into(), format!("{peak}"));
        run.resources.push(resource("locust", "users", Unit::Count, state.users, Some(start)));
    }
    for track in state.tracks {
        let row = &track.last.1;
        if track.name == "locust" {
            let mut total = transaction(ctx, row, &c, false);
            let span_s = (track.last.0 - track.rps.first_ms().unwrap_or(start)) as f64 / 1000.0;
            total.throughput_per_s = total.samples.filter(|_| span_s > 0.0).map(|n| n as f64 / span_s);
            run.kpis =
                total_kpis(&total, "requests counted in the last history row over the history's first to last row");
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
        "{rows} history rows from Locust's {}: series per {}.",
        crate::import::common::names::file_name(ctx.source),
        if full_history {
            "request name and for the total (service \"locust\")"
        } else {
            "interval for the total (service \"locust\")"
        }
    ));
    Ok(run)
}
