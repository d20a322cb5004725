//! One byte range of a JMeter CSV results file aggregated into a `Part` (the hot loop of every
//! JTL import; several workers each aggregate a range and the parts merge exactly).

use super::Layout;
use crate::import::common::causes::{normalise::is_controller_message, Causes};
use crate::import::common::csv_fast::{Pos, Record, SplitError, Splitter};
use crate::import::common::digits::uint;
use crate::import::common::samples::{Aggregator, Sample};
use crate::import::{common::civil, common::text};
use std::io::Read;

/// What one byte range of a file adds up to (serializable: workers hand parts to each other).
#[derive(Debug, Clone, Default, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Part {
    pub agg: Aggregator,
    /// Failed samples by cause (label, code, normalised message).
    pub causes: Causes,
    /// (line within this part, message).
    pub warnings: Vec<(u64, String)>,
    pub records: u64,
    /// Lines this part consumed (to number the lines of the parts after it).
    pub lines: u64,
    /// Absolute offsets of its first record and of the byte after its last.
    pub start: u64,
    pub stop: u64,
    pub times_assumed_utc: bool,
    pub dropped_warnings: u64,
}

const MAX_PART_WARNINGS: usize = crate::import::MAX_WARNINGS + 1;

impl Part {
    /// The part of a range that holds no record start (it lies inside a record of the range before).
    pub fn empty_at(at: u64) -> Part {
        Part { start: at, stop: at, ..Default::default() }
    }

    /// A warning at `line`; past the cap only counted.
    pub fn warn(&mut self, line: u64, msg: impl FnOnce() -> String) {
        if self.warnings.len() < MAX_PART_WARNINGS {
            self.warnings.push((line, msg()));
        } else {
            self.dropped_warnings += 1;
        }
    }

    /// Counts `n` failed samples of label `label_id` at `time_ms` by cause: the response code and
    /// message, or the failure message of an assertion (JMeter's dashboard does the same: a
    /// success code, or no code, with a failure message).
    pub fn count_error(
        &mut self,
        label_id: usize,
        code: &[u8],
        message: &[u8],
        failure: &[u8],
        time_ms: Option<i64>,
        n: u64,
    ) {
        let assertion = !failure.is_empty() && (code.is_empty() || matches!(code.first(), Some(b'2' | b'3')));
        let message = if assertion && !is_controller_message(message) { failure } else { message };
        let label = self.agg.labels.get(label_id).map_or("", |l| l.name.as_str());
        self.causes.add(label, code, message, time_ms, n);
    }
}

/// Records read per call of `Range::block`. V8 never moves a running wasm call to optimized code
/// (no on-stack replacement), so one call over a whole file stays in its baseline code: measured
/// in Node with the worker's build, a 200 MB JTL took 664 ms in one call and 407 ms after a 1 MB
/// warm-up call. Calls of a few thousand records each switch to the optimized code once it is
/// ready, and cost nothing natively.
const BLOCK_RECORDS: u32 = 4096;

/// Aggregates the records of `input`, which starts at absolute offset `start` at a record
/// boundary, up to the first record that starts at or after `limit` (absolute; `None`: to the
/// end). `skip_header` skips the first record (the range that starts the file). `on_records` is
/// called with the count so far every 65,536 records.
pub fn aggregate_range(
    layout: &Layout,
    input: impl Read,
    start: u64,
    limit: Option<u64>,
    skip_header: bool,
    on_records: &mut dyn FnMut(u64),
) -> Result<Part, (u64, String)> {
    let mut range = RangeReader::new(layout.clone(), input, start, limit, skip_header);
    loop {
        match range.step(on_records)? {
            Step::More => {}
            Step::Done => return Ok(range.finish()),
            Step::Starved => {
                return Err((range.rdr.position().line, "the file could not be read further (no data came)".into()))
            }
        }
    }
}

/// What a call of `RangeReader::step` left to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Records remain: call again.
    More,
    /// The range is read: `finish` gives its part.
    Done,
    /// The input said `WouldBlock` (its next bytes are still on their way): call again once they
    /// are there. Nothing was lost; the record in progress starts over.
    Starved,
}

/// A range being read, a block of records per `step` (`aggregate_range` in one go; the browser's
/// ingest worker steps it between asynchronous reads of the file, so reading overlaps parsing).
pub struct RangeReader<R> {
    layout: Layout,
    needed: usize,
    rdr: Splitter<R>,
    part: Part,
    start: u64,
    limit: Option<u64>,
    skip: bool,
    first: bool,
    /// Where the first record past the limit starts.
    stop: Option<Pos>,
}

impl<R: Read> RangeReader<R> {
    /// A reader of the range of `input` that starts at absolute offset `start` (see `aggregate_range`).
    pub fn new(layout: Layout, input: R, start: u64, limit: Option<u64>, skip_header: bool) -> Self {
        let c = &layout.cols;
        // Fields a record must have to reach every column the layout reads (a ragged row is
        // skipped); the splitter need not split a row further than that.
        let needed = [
            c.timestamp,
            c.elapsed,
            c.label,
            c.response_code,
            c.response_message,
            c.failure_message,
            c.success,
            c.bytes,
            c.sent_bytes,
            c.sample_count,
            c.error_count,
        ]
        .into_iter()
        .flatten()
        .max()
        .map_or(0, |m| m + 1);
        // The threads column is read past these (`Record::get_far`): a row without it is not
        // ragged, and the splitter need not split every row further.
        let rdr = Splitter::new(input, layout.delimiter).with_max_fields(needed.max(1));
        RangeReader {
            layout,
            needed,
            rdr,
            part: Part { start, ..Default::default() },
            start,
            limit,
            skip: skip_header,
            first: true,
            stop: None,
        }
    }

    /// Reads up to `BLOCK_RECORDS` records.
    #[inline(never)]
    pub fn step(&mut self, on_records: &mut dyn FnMut(u64)) -> Result<Step, (u64, String)> {
        for _ in 0..BLOCK_RECORDS {
            let (rec, pos) = match self.rdr.next_record() {
                Ok(Some(r)) => r,
                Ok(None) => return Ok(Step::Done),
                Err(SplitError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(Step::Starved),
                Err(e) => return Err((self.rdr.position().line, format!("the CSV cannot be read further: {e}"))),
            };
            // A record that starts at or after the limit belongs to the next range.
            if self.limit.is_some_and(|l| self.start + pos.byte >= l) {
                self.stop = Some(pos);
                return Ok(Step::Done);
            }
            if std::mem::take(&mut self.first) && self.start > 0 {
                self.part.start = self.start + pos.byte;
            }
            if std::mem::take(&mut self.skip) {
                continue;
            }
            let before = self.part.records;
            add_record(&mut self.part, &self.layout, self.needed, &rec, pos, self.start + pos.byte);
            if self.part.records != before && self.part.records & 0xFFFF == 0 {
                on_records(self.part.records);
            }
        }
        Ok(Step::More)
    }

    /// The part of the range (once `step` said `Done`).
    pub fn finish(self) -> Part {
        let end = self.stop.unwrap_or(self.rdr.position());
        let mut part = self.part;
        part.stop = self.start + end.byte;
        part.lines = end.line.saturating_sub(1);
        part
    }
}

/// Adds one record, which starts at absolute offset `at`, to `part` (or warns why it cannot).
#[inline(always)]
fn add_record(part: &mut Part, layout: &Layout, needed: usize, rec: &Record<'_>, pos: Pos, at: u64) {
    let c = &layout.cols;
    let line = pos.line;
    if rec.len() < needed {
        let n = rec.len();
        part.warn(line, || format!("the row has {n} fields where the columns need {needed}; the sample is skipped"));
        return;
    }
    part.records += 1;
    let field = |i: Option<usize>| i.and_then(|i| rec.get(i));
    let mut s = Sample::default();
    if let Some(raw) = field(c.elapsed) {
        match uint(raw) {
            Some(e) => s.elapsed_ms = Some(e),
            None => {
                let shown = String::from_utf8_lossy(raw).into_owned();
                part.warn(line, || {
                    format!("elapsed {shown:?} is not a whole number of milliseconds; the sample is skipped")
                });
                return;
            }
        }
    }
    if let Some(raw) = field(c.timestamp) {
        s.start_ms = match uint(raw) {
            Some(t) => Some(t as i64),
            None => match std::str::from_utf8(raw).ok().and_then(civil::parse_datetime) {
                Some((t, zone)) => {
                    part.times_assumed_utc |= zone == civil::Zone::AssumedUtc;
                    Some(t)
                }
                None => {
                    let shown = String::from_utf8_lossy(raw).into_owned();
                    part.warn(line, || format!("timeStamp {shown:?} is not a time; the sample counts without one"));
                    None
                }
            },
        };
    }
    let label_raw = field(c.label).unwrap_or(b"");
    let label_id = {
        let warnings = &mut part.warnings;
        part.agg.label_id(label_raw, at, || {
            let (s, replaced) = text::lossy(label_raw);
            if replaced && warnings.len() < MAX_PART_WARNINGS {
                warnings.push((line, format!("label {s:?} has bytes that are not valid text; they show as \u{FFFD}")));
            }
            s.into_owned()
        })
    };
    let ok = match field(c.success) {
        Some(b) if b.eq_ignore_ascii_case(b"true") => true,
        Some(b) if b.eq_ignore_ascii_case(b"false") => false,
        Some(b) => {
            let shown = String::from_utf8_lossy(b).into_owned();
            part.warn(line, || format!("success {shown:?} is neither true nor false; counted as a success"));
            true
        }
        // No success column: a numeric response code below 400 is a success.
        None => field(c.response_code).and_then(uint).is_none_or(|code| code < 400),
    };
    s.count = field(c.sample_count).and_then(uint).unwrap_or(1).max(1);
    s.errors = match field(c.error_count).and_then(uint) {
        Some(e) => e.min(s.count),
        None => u64::from(!ok) * s.count,
    };
    s.bytes_received = field(c.bytes).and_then(uint);
    s.bytes_sent = field(c.sent_bytes).and_then(uint);
    if let (Some(t), Some(i)) = (s.start_ms, c.all_threads.or(c.grp_threads)) {
        if let Some(n) = rec.get_far(i, layout.delimiter).and_then(uint) {
            part.agg.users.add(t, n);
        }
    }
    let stats = &mut part.agg.labels[label_id];
    stats.add(&s);
    if let Some(m) = field(c.response_message) {
        // The first byte first: in wasm `starts_with` is a call to a byte-at-a-time `memcmp`.
        if !stats.is_controller && is_controller_message(m) {
            stats.is_controller = true;
        }
    }
    if s.errors > 0 {
        let (code, message) = (field(c.response_code).unwrap_or(b""), field(c.response_message).unwrap_or(b""));
        part.count_error(label_id, code, message, field(c.failure_message).unwrap_or(b""), s.start_ms, s.errors);
    }
}
