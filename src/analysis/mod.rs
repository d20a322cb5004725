//! Analysis: aligns the facts of several runs by key and judges each change against noise
//! (thresholds per metric family, bootstrap intervals where runs carry distributions), knowing
//! which direction is better. Also the summary of a comparison, trends over many runs, grids over
//! two dimensions, the configuration diff, the criteria of a CI gate and change points in a history.

pub mod changepoint;
mod compare;
mod config;
pub mod criteria;
mod grid;
mod judge;
pub mod noise;
mod summary;
pub mod tail;
pub mod trend;
pub mod window;

pub use compare::{
    compare, compare_one, compare_with, intervals, Cell, Change, Evidence, Intervals, Method, Row, Verdict, Why,
    INTERVAL_METRICS,
};
pub use config::{config_diff, ConfigRow};
pub use grid::{grid, grid_dims, Grid, GridCell};
pub use judge::{points_decimals, unit_name};
pub use summary::{summarize, Counts, Summary, Worst};
