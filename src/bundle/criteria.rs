//! Criteria of a CI gate (`runlens compare`): which changes fail a comparison. The same types are
//! read from a bundle's `thresholds.criteria` and from a TOML or YAML file of the command line;
//! `analysis::criteria` reads the `when` texts and judges the rows by them.

use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// The criteria a comparison passes or fails by. A criterion fails when any transaction (or other
/// figure) it covers matches its `when`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Criteria {
    /// A transaction with fewer samples in either run is "not enough data" for every criterion
    /// (skipped, not failed). Default: the thresholds' `min_samples` (30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_samples: Option<u64>,
    /// Name patterns (`*` any text, `?` one character) left out of every criterion. Each must
    /// match something in the compared runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
    /// The criteria, each checked on its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fail: Vec<FailWhen>,
}

/// One criterion: `when` a metric moves past a bound.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BorshSerialize, BorshDeserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct FailWhen {
    /// `METRIC OP BOUND`: a family (`latency`, `throughput`, `error_rate`, `cpu`, `memory`, `size`,
    /// `duration`, `count`), a statistic (`p95`, `median`, `mean`, `max`, …) or `FAMILY.STATISTIC`
    /// (`cpu.peak`); `>`, `>=`, `<` or `<=`; a signed bound is a change against the baseline
    /// (`+10%`, `-5%`, `+2 pp`, `+50 ms`), an unsigned one the candidate's value (`500 ms`, `1%`,
    /// `2 GB`, `100/s`).
    pub when: String,
    /// Name pattern of the transactions (or other figures) it covers. Default: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transactions: Option<String>,
    /// Fail only when the cell's verdict is beyond noise too. Default: true for changes, false
    /// for values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beyond_noise: Option<bool>,
}
