//! 95 % intervals for the change between two runs, so a verdict can tell a change from noise.
//!
//! **Latency quantiles (median, p95, p99) from histograms: a percentile bootstrap.** Each replicate
//! resamples both runs with replacement, multinomially from their histogram counts, as many
//! samples as each run had; every resampled value sits at its bucket's upper bound. The
//! replicate's quantile is the nearest rank (as the importers compute it) and the replicate's
//! change is q_b / q_a − 1. The interval is the 2.5th to 97.5th percentile of `REPLICATES`
//! changes. Rather than drawing n values per replicate, the r-th smallest of n draws is drawn
//! directly: it is F⁻¹(U₍ᵣ₎), where U₍ᵣ₎ ~ Beta(r, n − r + 1) is the r-th order statistic of n
//! uniforms (David & Nagaraja, *Order Statistics*, 3rd ed., §2.2). That is exact for multinomial
//! resampling and costs O(1) per replicate however many samples a run had. When both Beta
//! parameters are at least `APPROX_FROM` the Beta draw is a normal draw corrected for the Beta's
//! skew (first-order Cornish–Fisher expansion; its error there is a few hundredths of a standard
//! deviation); below that, exact gamma draws. The normal draws are shared by all transactions
//! and sorted, so a run's replicate quantiles come out in order: as runs of equal values, each
//! run's end found by a binary search over the normals (the skew-corrected draw rises over their
//! range, checked per call; else one sweep of the histogram, which gives the same runs).
//! Sorted, they are runs of equal values (a bucket each); when both runs' replicates fall in few
//! buckets, the changes are counted per pair of buckets through a prefix-count table of the
//! random pairing instead of being listed and selected from: the same multiset of changes, so
//! the same interval (a test checks), in a fraction of the time.
//! Assumptions: samples are independent within a run (think time and load make consecutive
//! requests correlated, which narrows the interval); the resolution is the bucket width (runlens'
//! importers keep up to 256 distinct values exactly, else buckets about 3 % wide).
//!
//! **Maxima and minima: an exact exceedance test** (`exceedance`): how many samples of one run
//! lie beyond the other's extreme, and the hypergeometric chance of that many if nothing changed.
//!
//! **Error rates: Newcombe's hybrid score interval** for a difference of two proportions
//! (Newcombe 1998, "Interval estimation for the difference between independent proportions",
//! method 10), from errors and samples of each run.
//!
//! The random numbers come from SplitMix64 (Steele, Lea & Flood 2014), seeded by the
//! transaction name and the quantile: the same data always give the same interval. It is written
//! here (ten lines) rather than taken from `rand`, which the browser build does not otherwise need;
//! normal variates use Marsaglia's polar method, gamma variates Marsaglia & Tsang (2000).

use crate::bundle::Histogram;

/// Bootstrap replicates per interval.
pub const REPLICATES: usize = 1000;
/// Beta(a, b) draws use the skew-corrected normal approximation when both a and b are at least
/// this; exact gamma draws below.
const APPROX_FROM: f64 = 30.0;
/// Above this many (baseline run, candidate run) pairs of equal replicate values, counting pairs
/// costs more than selecting from the list of every replicate's change (a p95 in a thin tail of
/// narrow buckets spreads over dozens of values; a median over a handful).
const MAX_PAIRED_RUNS: usize = 200;
/// z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A 95 % interval of a change: relative (a fraction) for quantiles, percentage points for error
/// rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

mod bootstrap;
mod cdf;
mod error_rate;
mod exceedance;
mod random;
#[cfg(test)]
pub(crate) mod tests;

pub use bootstrap::{quantile_change, Bootstrap, SEED};
pub use error_rate::error_rate_change;
pub use exceedance::{extreme_change, Exceedance, Extreme};
pub use random::Rng;

/// Total samples of a histogram (None when it cannot be resampled).
pub fn histogram_samples(h: &Histogram) -> Option<u64> {
    cdf::Cdf::new(h).map(|c| c.n)
}

/// A stable seed from a name and a quantile (FNV-1a; stable across platforms and builds).
pub fn seed(name: &str, q: f64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes().chain(q.to_bits().to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}
