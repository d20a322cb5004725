//! Grafana k6's outputs (https://grafana.com/docs/k6/latest/results-output/): raw metric points
//! from `--out csv` and `--out json`, the end-of-test summary as `handleSummary` JSON or
//! `--summary-export` JSON, and the summary text printed to the terminal. `metrics` turns k6's
//! metrics into a run, `points` aggregates raw points.

pub mod console;
pub mod csv;
pub mod json;
pub mod metrics;
pub mod points;
pub mod summary;
