//! Gatling's outputs (https://docs.gatling.io/reference/stats/reports/): the text
//! `simulation.log` of Gatling 2 to 3.10 (the binary log of 3.11+ is refused with advice) and the
//! HTML report's `js/stats.json`, `js/stats.js` and `js/global_stats.json`.

pub mod log;
pub mod stats;
