//! Analysis: aligns the facts of several runs by key and judges each change against a threshold,
//! knowing which direction is better. Also the configuration diff.

mod compare;
mod config;

pub use compare::{compare, Cell, Row, Verdict};
pub use config::{config_diff, ConfigRow};
