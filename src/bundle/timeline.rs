//! Timelines (bundle format v1, additive): a run over test time in fixed buckets, per transaction
//! the samples, errors and a latency distribution from which any window's statistics are computed.

use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// Bucket widths a timeline may use, in seconds; the shortest that gives at most `MAX_BUCKETS`
/// buckets over the run is chosen (`interval_for`).
pub const INTERVALS_S: [u32; 10] = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 21600];
/// The most buckets a timeline is made with.
pub const MAX_BUCKETS: u32 = 240;

/// The bucket width for a run whose samples start from `first_ms` to `last_ms` (epoch ms), and
/// the aligned start of its first bucket: the shortest width of `INTERVALS_S` that covers the run
/// in at most `MAX_BUCKETS` epoch-aligned buckets (the longest width for longer runs).
pub fn interval_for(first_ms: i64, last_ms: i64) -> (u32, i64, u32) {
    let last_ms = last_ms.max(first_ms);
    let mut chosen = None;
    for &i in &INTERVALS_S {
        let w = i as i64 * 1000;
        let n = last_ms.div_euclid(w) - first_ms.div_euclid(w) + 1;
        chosen = Some((i, first_ms.div_euclid(w) * w, n.clamp(1, u32::MAX as i64) as u32));
        if n <= MAX_BUCKETS as i64 {
            break;
        }
    }
    chosen.unwrap_or((1, first_ms, 1))
}

/// A run over time: bucket `b` holds the samples that started from `start_ms + b·interval_s`
/// (inclusive) to the next bucket's start (exclusive). Every per-bucket list has `buckets` entries.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Timeline {
    /// Epoch milliseconds where bucket 0 starts: a multiple of `interval_s` seconds, so that the
    /// timelines of one test's load generators line up bucket by bucket.
    pub start_ms: i64,
    /// Epoch milliseconds of the run's first sample: test time 0 (elapsed time is counted from it).
    pub origin_ms: i64,
    /// Bucket width in seconds: 1, 5, 10, 30, 60, 300, 600, 1800, 3600 or 21600.
    pub interval_s: u32,
    /// Number of buckets.
    pub buckets: u32,
    /// Active users (threads, virtual users) per bucket, the most seen in it; empty when the tool
    /// does not record them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<u32>,
    /// One entry per transaction, named as in the run's `transactions`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transactions: Vec<TransactionTimeline>,
    /// Failed samples by cause over time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<CauseTimeline>,
}

/// One transaction over time. A bundle gives its distribution per bucket either as `cells` or,
/// more compactly, as `cell_steps` (never both), and its values either as `values_ms` or as
/// `value_steps` (never both); with `cell_steps`, a missing `samples` or `sum_ms` is computed from
/// the cells and values.
// The model holds the plain lists; `timeline_json.rs` reads and writes both forms.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(try_from = "super::timeline_json::TransactionTimelineJson")]
pub struct TransactionTimeline {
    pub name: String,
    /// A JMeter Transaction Controller's parent sample (its children are counted on their own and
    /// it is left out of the run's totals).
    pub controller: bool,
    /// The run's samples as a whole, not a transaction (`TransactionTimelineJson::total`): never
    /// offered or matched as a transaction (`Timeline::transaction`).
    pub total: bool,
    /// Samples per bucket.
    pub samples: Vec<u64>,
    /// Failed samples per bucket.
    pub errors: Vec<u64>,
    /// Sum of the samples' response times per bucket, milliseconds; empty when unknown.
    pub sum_ms: Vec<f64>,
    /// The response times cells point at, milliseconds, ascending.
    pub values_ms: Vec<f64>,
    /// True when `values_ms` are the samples' own values, so window percentiles are exact.
    pub exact: bool,
    /// When not exact: each value stands for samples within this relative error (0.015 = ±1.5 %).
    pub relative_error: Option<f64>,
    /// Per bucket, the distribution as `[value index, count, value index, count, …]`, value
    /// indices ascending; empty lists for buckets without timed samples.
    #[borsh(serialize_with = "super::words::write_lists", deserialize_with = "super::words::read_lists")]
    pub cells: Vec<Vec<u64>>,
}

/// Failed samples of one cause (transaction, response code, normalised message) over time.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct CauseTimeline {
    /// The transaction that failed; empty when the tool does not say.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub transaction: String,
    /// Response code, e.g. "500", "Non HTTP response code: java.net.SocketException".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The message, normalised as the run's `errors` list it (numbers and ids replaced).
    pub message: String,
    /// `[bucket, count, bucket, count, …]`, buckets ascending.
    pub counts: Vec<u64>,
}

impl Timeline {
    /// Whether the lists agree with `buckets` and every cell points at a value: only such a
    /// timeline is used (`Run::timeline`).
    pub fn is_well_formed(&self) -> bool {
        let n = self.buckets as usize;
        let per_bucket = |len: usize| len == n;
        self.interval_s > 0
            && n > 0
            && (self.users.is_empty() || per_bucket(self.users.len()))
            && self.transactions.iter().all(|t| {
                per_bucket(t.samples.len())
                    && per_bucket(t.errors.len())
                    && (t.sum_ms.is_empty() || per_bucket(t.sum_ms.len()))
                    && (t.cells.is_empty() || per_bucket(t.cells.len()))
                    && t.cells.iter().all(|c| cells_ok(c, t.values_ms.len()))
                    && t.values_ms.windows(2).all(|w| w[0] < w[1])
            })
            && self
                .causes
                .iter()
                .all(|c| c.counts.len().is_multiple_of(2) && c.counts.chunks(2).all(|p| p[0] < n as u64))
    }

    /// The entry of transaction `name`: never a `total`.
    pub fn transaction(&self, name: &str) -> Option<&TransactionTimeline> {
        self.transactions.iter().find(|t| t.name == name && !t.total)
    }

    /// Test time (seconds after `origin_ms`) where bucket `b` starts.
    pub fn bucket_start_s(&self, b: u32) -> f64 {
        (self.start_ms - self.origin_ms) as f64 / 1000.0 + b as f64 * self.interval_s as f64
    }
}

impl TransactionTimeline {
    /// Bucket `b`'s distribution as (value index, value in ms, count), in the cell's order. Pairs
    /// that point past `values_ms`, a dangling last entry and buckets past `cells` are skipped,
    /// so malformed data yields less, never a panic.
    pub fn cell(&self, b: usize) -> impl Iterator<Item = (usize, f64, u64)> + '_ {
        let cell = self.cells.get(b).map_or(&[][..], Vec::as_slice);
        cell.chunks_exact(2).filter_map(|p| {
            let i = usize::try_from(p[0]).ok()?;
            self.values_ms.get(i).map(|v| (i, *v, p[1]))
        })
    }
}

/// Whether `cells` are pairs whose value indices all point into `values` values. This reads every
/// cell of a timeline each time a run's timeline is used (`Run::usable_timeline`, on every window
/// move): the largest index in one pass, which compiles to a loop without branches.
fn cells_ok(cells: &[u64], values: usize) -> bool {
    let largest = cells.chunks_exact(2).map(|p| p[0]).max();
    cells.len().is_multiple_of(2) && largest.is_none_or(|i| i < values as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_is_the_shortest_with_at_most_240_buckets() {
        assert_eq!(interval_for(0, 59_999), (1, 0, 60));
        assert_eq!(interval_for(0, 239_999), (1, 0, 240));
        assert_eq!(interval_for(0, 240_000), (5, 0, 49));
        // One hour: 30 s gives 120 buckets, 10 s would give 360.
        assert_eq!(interval_for(1_000_000, 1_000_000 + 3_600_000).0, 30);
        // Aligned on the epoch, not on the first sample.
        assert_eq!(interval_for(12_345, 300_000).1, 10_000);
        // Longer than 240 × 6 h: the longest width.
        assert_eq!(interval_for(0, 21_600_000 * 300).0, 21600);
    }

    #[test]
    fn a_cell_past_the_values_is_not_well_formed() {
        let t = Timeline {
            interval_s: 1,
            buckets: 1,
            transactions: vec![TransactionTimeline {
                name: "a".into(),
                samples: vec![1],
                errors: vec![0],
                values_ms: vec![5.0],
                cells: vec![vec![1, 1]],
                ..Default::default()
            }],
            ..Default::default()
        };
        assert!(!t.is_well_formed());
        let mut ok = t.clone();
        ok.transactions[0].cells = vec![vec![0, 1]];
        assert!(ok.is_well_formed());
    }

    #[test]
    fn cell_skips_what_does_not_point_at_a_value() {
        let t = TransactionTimeline {
            values_ms: vec![5.0, 7.0],
            // An index past the values, an odd length, an empty bucket.
            cells: vec![vec![0, 3, 2, 9, 1, 4], vec![1, 2, 0], vec![]],
            ..Default::default()
        };
        assert_eq!(t.cell(0).collect::<Vec<_>>(), [(0, 5.0, 3), (1, 7.0, 4)]);
        assert_eq!(t.cell(1).collect::<Vec<_>>(), [(1, 7.0, 2)]);
        assert_eq!(t.cell(2).count(), 0);
        // A bucket past the cells, and an index too large for usize on any target.
        assert_eq!(t.cell(9).count(), 0);
        let huge =
            TransactionTimeline { values_ms: vec![1.0], cells: vec![vec![u64::MAX, 1, 0, 1]], ..Default::default() };
        assert_eq!(huge.cell(0).collect::<Vec<_>>(), [(0, 1.0, 1)]);
    }
}
