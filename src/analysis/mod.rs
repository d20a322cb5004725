//! Analysis: aligns the facts of several runs by key and judges each change against a threshold,
//! knowing which direction is better. Also the configuration diff.

mod compare;
mod config;
mod grid;

pub use compare::{compare, Cell, Row, Verdict};
pub use grid::{grid, grid_dims, Grid, GridCell};
pub use config::{config_diff, ConfigRow};
