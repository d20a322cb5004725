//! k6 `--out csv` raw metric points (https://grafana.com/docs/k6/latest/results-output/real-time/csv/):
//! a header `metric_name,timestamp,metric_value,<system tags…>,extra_tags[,metadata]` and one row
//! per point. Timestamps follow the `timeFormat` option (Unix seconds by default; milli-, micro-,
//! nanoseconds or RFC 3339). k6 writes values with `%f` (six decimals). Streamed row by row and
//! aggregated by `k6_points`. The CSV does not say a custom metric's type, so custom metrics are
//! listed in a note, not imported.

use crate::bundle::{LoadError, LoadErrorKind, Run};
use crate::import::k6::points::{parse_time, Point, Points};
use crate::import::Ctx;
use crate::import::Head;
use std::io::BufRead;

/// The header k6 writes first.
pub fn detect(h: &Head) -> bool {
    let mut fields = h.first_line().split(',').map(str::trim);
    fields.next() == Some("metric_name") && fields.next() == Some("timestamp") && fields.next() == Some("metric_value")
}

/// Imports the file row by row.
pub fn import(ctx: &mut Ctx, input: Box<dyn BufRead + '_>) -> Result<Run, LoadError> {
    let mut rdr =
        csv::ReaderBuilder::new().has_headers(true).flexible(true).buffer_capacity(256 << 10).from_reader(input);
    let header = rdr
        .byte_headers()
        .map_err(|e| ctx.error(LoadErrorKind::Syntax, Some(1), format!("the header cannot be read: {e}")))?
        .clone();
    let col = |name: &str| header.iter().position(|h| h == name.as_bytes());
    let (Some(c_metric), Some(c_time), Some(c_value)) = (col("metric_name"), col("timestamp"), col("metric_value"))
    else {
        return Err(ctx.error(
            LoadErrorKind::Syntax,
            Some(1),
            "the header lacks metric_name, timestamp or metric_value",
        ));
    };
    let tag_cols = ["name", "url", "status", "expected_response", "error", "error_code", "check", "group"].map(col);
    let mut points = Points::default();
    let mut rec = csv::ByteRecord::new();
    loop {
        let line = rdr.position().line();
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(ctx.error(
                    LoadErrorKind::Syntax,
                    Some(line),
                    format!("the CSV cannot be read further: {e}"),
                ))
            }
        }
        let text = |i: Option<usize>| i.and_then(|i| rec.get(i)).map(String::from_utf8_lossy);
        let (Some(metric), Some(value)) = (text(Some(c_metric)), text(Some(c_value))) else {
            ctx.warn(format!("line {line}"), "the row is shorter than the header; left out");
            continue;
        };
        let Some(value) = value.trim().parse::<f64>().ok().filter(|v| v.is_finite()) else {
            ctx.warn(format!("line {line}"), format!("metric_value {value:?} is not a number; the point is left out"));
            continue;
        };
        let time = text(Some(c_time));
        let time_ms = time.as_deref().and_then(parse_time);
        if time_ms.is_none() {
            ctx.warn(
                format!("line {line}"),
                format!("timestamp {:?} is not a time; the point counts without one", time.as_deref().unwrap_or("")),
            );
        }
        let tags = tag_cols.map(|c| text(c).filter(|t| !t.is_empty()));
        let tag = |i: usize| tags[i].as_deref();
        let p = Point {
            metric: metric.trim(),
            time_ms,
            value,
            name: tag(0),
            url: tag(1),
            status: tag(2),
            expected_response: tag(3),
            error: tag(4),
            error_code: tag(5),
            check: tag(6),
            group: tag(7),
        };
        points.add(ctx, line, &p);
        if points.points & 0xFFFF == 0 {
            ctx.progress.records.set(points.points);
        }
    }
    ctx.progress.records.set(points.points);
    points.finish(ctx, "k6 CSV")
}
