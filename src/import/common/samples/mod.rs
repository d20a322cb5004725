//! Exact statistics from raw samples. Per label, a count per distinct elapsed value: JTL times are
//! integer milliseconds, so this is exact, mergeable across workers, and its memory grows with the
//! number of distinct values, not of samples. Percentiles use one definition everywhere, nearest
//! rank: the smallest value with at least p % of the samples at or below it (`sorted[⌈p·n/100⌉−1]`).
//!
//! A label with more than `MAX_DISTINCT` distinct values (only float-valued inputs get there) falls
//! back to logarithmic buckets with a relative error of at most `APPROX_RELATIVE_ERROR`, and its
//! transaction says so in `note`.
//!
//! Per label, `Seconds` also keeps the samples per second of their start, from which
//! `Aggregator::timeline` makes the run's timeline (`seconds.rs`, `buckets.rs`).
//!
//! Three types: `Values` (a multiset of values and its statistics, `values.rs`), `LabelStats`
//! (everything counted for one label, `label_stats.rs`) and `Aggregator` (all labels of a file,
//! `aggregator.rs`).

mod aggregator;
mod buckets;
mod cells;
mod fold;
mod label_stats;
mod seconds;
mod values;

pub use aggregator::Aggregator;
pub use buckets::{log_relative_error, timeline_of, Grid, EXACT_CELLS, EXACT_VALUES, LOG_BUCKETS_PER_OCTAVE};
pub use label_stats::{run_kpis, LabelStats, Sample};
pub use seconds::{Seconds, Users};
pub use values::{compact_histogram, nearest_rank, Summary, Values, APPROX_RELATIVE_ERROR, MAX_DISTINCT};

#[cfg(test)]
mod tests;
