//! JMeter CSV results (JTL), as written by `jmeter -n -t plan.jmx -l results.jtl` and the
//! SimpleDataWriter. Format: https://jmeter.apache.org/usermanual/listeners.html#csvlogformat ;
//! columns and delimiter follow the `jmeter.save.saveservice.*` properties
//! (https://jmeter.apache.org/usermanual/properties_reference.html#results_file_config).
//!
//! Any subset and order of columns with a header; without one, JMeter's default order. Labels are
//! kept as written (a numeric-looking label stays a label); quoted fields may hold delimiters,
//! quotes and newlines. A file can be aggregated in byte ranges (`aggregate_range`) that are merged
//! exactly (`finish`), so several workers can share one file.

use crate::bundle::{LoadError, LoadErrorKind, Run, RunStatus};
use crate::import::common::causes::Causes;
use crate::import::common::samples::{run_kpis, Aggregator};
use crate::import::Head;
use crate::import::{common::civil, common::names, common::text, Ctx};

/// Column positions of the fields runlens reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Cols {
    pub timestamp: Option<usize>,
    pub elapsed: Option<usize>,
    pub label: Option<usize>,
    pub response_code: Option<usize>,
    pub response_message: Option<usize>,
    pub failure_message: Option<usize>,
    pub success: Option<usize>,
    pub bytes: Option<usize>,
    pub sent_bytes: Option<usize>,
    pub sample_count: Option<usize>,
    pub error_count: Option<usize>,
    /// Active threads of all thread groups (`allThreads`), else of the sample's group (`grpThreads`).
    pub all_threads: Option<usize>,
    pub grp_threads: Option<usize>,
}

/// How a file is laid out: delimiter, header, columns.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Layout {
    pub delimiter: u8,
    pub header: bool,
    pub cols: Cols,
    /// Set when there is no header and the columns were inferred; says how.
    pub inferred: Option<String>,
}

/// JMeter's default columns (5.x); older defaults are prefixes of similar lists (see `headerless`).
const DEFAULT_5: [&str; 17] = [
    "timeStamp",
    "elapsed",
    "label",
    "responseCode",
    "responseMessage",
    "threadName",
    "dataType",
    "success",
    "failureMessage",
    "bytes",
    "sentBytes",
    "grpThreads",
    "allThreads",
    "URL",
    "Latency",
    "IdleTime",
    "Connect",
];
const DEFAULT_3: [&str; 16] = [
    "timeStamp",
    "elapsed",
    "label",
    "responseCode",
    "responseMessage",
    "threadName",
    "dataType",
    "success",
    "failureMessage",
    "bytes",
    "sentBytes",
    "grpThreads",
    "allThreads",
    "Latency",
    "IdleTime",
    "Connect",
];
const DEFAULT_2: [&str; 10] = [
    "timeStamp",
    "elapsed",
    "label",
    "responseCode",
    "responseMessage",
    "threadName",
    "dataType",
    "success",
    "bytes",
    "Latency",
];
/// Header names that only JMeter writes; two of them (besides `label`) make a header a JTL header.
const JMETER_NAMES: [&str; 12] = [
    "timestamp",
    "elapsed",
    "responsecode",
    "responsemessage",
    "threadname",
    "datatype",
    "success",
    "failuremessage",
    "sentbytes",
    "grpthreads",
    "allthreads",
    "latency",
];

fn cols_from_names<'a>(names: impl Iterator<Item = &'a str>) -> Cols {
    let mut c = Cols::default();
    for (i, n) in names.enumerate() {
        let n = n.trim().trim_matches('"').to_ascii_lowercase();
        let slot = match n.as_str() {
            "timestamp" => &mut c.timestamp,
            "elapsed" => &mut c.elapsed,
            "label" => &mut c.label,
            "responsecode" => &mut c.response_code,
            "responsemessage" => &mut c.response_message,
            "failuremessage" => &mut c.failure_message,
            "success" => &mut c.success,
            "bytes" => &mut c.bytes,
            "sentbytes" => &mut c.sent_bytes,
            "samplecount" => &mut c.sample_count,
            "errorcount" => &mut c.error_count,
            "allthreads" => &mut c.all_threads,
            "grpthreads" => &mut c.grp_threads,
            _ => continue,
        };
        slot.get_or_insert(i);
    }
    c
}

/// The delimiter of the first line: the most frequent of `,` `\t` `;` `|` outside quotes.
fn delimiter(first_line: &str) -> u8 {
    let mut counts = [0usize; 4];
    let mut quoted = false;
    for b in first_line.bytes() {
        match b {
            b'"' => quoted = !quoted,
            _ if quoted => {}
            b',' => counts[0] += 1,
            b'\t' => counts[1] += 1,
            b';' => counts[2] += 1,
            b'|' => counts[3] += 1,
            _ => {}
        }
    }
    let best = (0..4).max_by_key(|i| (counts[*i], usize::from(*i == 0))).unwrap_or(0);
    [b',', b'\t', b';', b'|'][best]
}

fn split_fields(line: &str, delim: u8) -> Vec<String> {
    let mut r =
        csv::ReaderBuilder::new().has_headers(false).delimiter(delim).flexible(true).from_reader(line.as_bytes());
    r.records().next().and_then(Result::ok).map(|rec| rec.iter().map(str::to_string).collect()).unwrap_or_default()
}

fn is_epoch_ms(s: &str) -> bool {
    s.len() >= 12 && s.len() <= 14 && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_bool(s: &str) -> bool {
    s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false")
}

/// A JMeter thread name such as "Thread Group 1-1".
fn is_thread_name(s: &str) -> bool {
    let tail = s.rsplit(' ').next().unwrap_or("");
    s.contains(' ')
        && tail.split_once('-').is_some_and(|(a, b)| {
            !a.is_empty() && !b.is_empty() && (a.to_string() + b).bytes().all(|c| c.is_ascii_digit())
        })
}

/// The layout of a file from its first line(s); `None` if it does not look like a JTL.
pub fn layout(head_text: &str) -> Option<Layout> {
    let first = head_text.trim_start_matches('\u{FEFF}').lines().find(|l| !l.trim().is_empty())?;
    let delim = delimiter(first);
    let fields = split_fields(first, delim);
    let lower: Vec<String> = fields.iter().map(|f| f.trim().trim_matches('"').to_ascii_lowercase()).collect();
    let jmeter_names = lower.iter().filter(|n| JMETER_NAMES.contains(&n.as_str())).count();
    if lower.iter().any(|n| n == "label") && jmeter_names >= 2 {
        return Some(Layout {
            delimiter: delim,
            header: true,
            cols: cols_from_names(fields.iter().map(String::as_str)),
            inferred: None,
        });
    }
    headerless(&fields, delim)
}

/// Columns of a file without a header: JMeter's default order when the first field is a
/// timestamp; else only the label (first field) and success (the true/false field) are known.
fn headerless(fields: &[String], delim: u8) -> Option<Layout> {
    let success_at = fields.iter().position(|f| is_bool(f))?;
    let first_is_time = fields.first().is_some_and(|f| is_epoch_ms(f) || civil::parse_datetime(f).is_some());
    if first_is_time {
        let names: &[&str] = match fields.len() {
            n if n >= 17 => &DEFAULT_5,
            n if n >= 11 => &DEFAULT_3,
            _ => &DEFAULT_2,
        };
        let cols = cols_from_names(names.iter().copied());
        if cols.success != Some(success_at) {
            return None;
        }
        let how = format!("no header: read in JMeter's default column order ({} columns)", names.len());
        return Some(Layout { delimiter: delim, header: false, cols, inferred: Some(how) });
    }
    if fields.len() >= 6 && fields.iter().any(|f| is_thread_name(f)) {
        let cols = Cols { label: Some(0), success: Some(success_at), ..Default::default() };
        let how =
            "no header and not JMeter's default column order: only labels, sample counts and errors are read".into();
        return Some(Layout { delimiter: delim, header: false, cols, inferred: Some(how) });
    }
    None
}

/// Content detection: a JMeter header, or a headerless line in JMeter's shape.
pub fn detect(h: &Head) -> bool {
    !h.trimmed().starts_with(['{', '[', '<']) && layout(&h.text).is_some()
}

/// Where the range starting at `start` (> 0) begins its first record: just after the first line
/// break at or after `start - 1`. `probe` holds the file's bytes from `start - 1` on.
pub fn first_record_start(start: u64, probe: &[u8]) -> Option<u64> {
    memchr::memchr(b'\n', probe).map(|i| start - 1 + i as u64 + 1)
}

/// Splits `[0, size)` into `n` ranges of about equal size (the caller moves each start to a
/// record boundary with `first_record_start`).
pub fn split(size: u64, n: usize) -> Vec<(u64, u64)> {
    split_weighted(size, &vec![1; n.max(1)])
}

/// Splits `[0, size)` into consecutive ranges whose sizes are about proportional to `weights`
/// (empty ranges left out).
pub fn split_weighted(size: u64, weights: &[u64]) -> Vec<(u64, u64)> {
    let total = u128::from(weights.iter().sum::<u64>().max(1));
    let at = |upto: u64| (u128::from(size) * u128::from(upto) / total) as u64;
    let mut upto = 0;
    let mut out = Vec::with_capacity(weights.len());
    for &w in weights {
        let start = at(upto);
        upto += w;
        out.push((start, at(upto)));
    }
    out.retain(|(a, b)| b > a);
    out
}

/// The index of the first part that does not start where the one before it stopped (a quoted
/// line break sat on the boundary): that range must be read again from the previous stop.
pub fn first_misaligned(parts: &[Part]) -> Option<usize> {
    (1..parts.len()).find(|i| parts[*i].start != parts[i - 1].stop)
}

/// The run of a whole file from its parts, in file order (`first_misaligned` must be `None`).
pub fn finish(ctx: &mut Ctx, layout: &Layout, parts: Vec<Part>) -> Result<Run, LoadError> {
    if let Some(how) = &layout.inferred {
        ctx.warn("line 1", how.clone());
    }
    if parts.iter().all(|p| p.agg.labels.is_empty()) {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file has a JMeter header but no samples"));
    }
    finish_parts(ctx, parts)
}

/// The run of the parts of any raw-sample file (CSV or XML JTL), in file order: their warnings
/// by line, labels merged in order of first appearance, errors by cause (label, code, message).
pub fn finish_parts(ctx: &mut Ctx, parts: Vec<Part>) -> Result<Run, LoadError> {
    let mut agg = Aggregator::default();
    let mut causes = Causes::default();
    let (mut line_offset, mut records, mut assumed_utc) = (0u64, 0u64, false);
    for p in parts {
        for (line, msg) in p.warnings {
            ctx.warn(format!("line {}", line + line_offset), msg);
        }
        ctx.count_dropped(p.dropped_warnings);
        line_offset += p.lines;
        records += p.records;
        assumed_utc |= p.times_assumed_utc;
        agg.merge(p.agg);
        causes.merge(p.causes);
    }
    if agg.labels.is_empty() {
        return Err(ctx.error(LoadErrorKind::Empty, None, "the file holds no samples"));
    }
    if assumed_utc {
        ctx.warn("timeStamp", "times carry no time zone; they are read as UTC");
    }
    let window = agg.run_window();
    let total = agg.total();
    if let Some(w) = causes.warning() {
        ctx.warn("errors", w);
    }
    let name = ctx.source;
    let mut run = Run {
        id: names::run_id(name),
        label: names::file_stem(name).to_string(),
        start: window.0.map(civil::iso_utc),
        end: window.1.map(civil::iso_utc),
        duration_s: match window {
            (Some(s), Some(e)) if e >= s => Some((e - s) as f64 / 1000.0),
            _ => None,
        },
        status: RunStatus::Completed,
        transactions: agg.transactions(),
        kpis: run_kpis(&total, window),
        timeline: causes.with_timeline(agg.timeline()),
        errors: causes.entries(window.0.unwrap_or(0)),
        ..Default::default()
    };
    run.notes.push(format!(
        "{records} samples imported from {}; percentiles are exact (nearest rank); throughput is per label over its own first-to-last sample, and over the whole run in the run KPIs.",
        names::file_name(name)
    ));
    run.dimensions.extend(names::suggested_dimensions(name));
    Ok(run)
}

/// Imports a whole file in one pass.
pub fn import(ctx: &mut Ctx, mut input: Box<dyn std::io::BufRead + '_>) -> Result<Run, LoadError> {
    let head = input
        .fill_buf()
        .map_err(|e| ctx.error(LoadErrorKind::Io, None, format!("the file could not be read ({e})")))?;
    let (head_text, _) = text::lossy(head);
    let layout = layout(&head_text)
        .ok_or_else(|| ctx.error(LoadErrorKind::Syntax, Some(1), "the first line is not a JMeter CSV header"))?;
    let progress = ctx.progress;
    let part = aggregate_range(&layout, input, 0, None, layout.header, &mut |n| progress.records.set(n))
        .map_err(|(line, msg)| ctx.error(LoadErrorKind::Syntax, Some(line), msg))?;
    progress.records.set(part.records);
    finish(ctx, &layout, vec![part])
}

mod range;
pub use range::{aggregate_range, Part, RangeReader, Step};

#[cfg(test)]
mod tests;
