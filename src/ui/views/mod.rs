//! One file per page. Each view reads the app state and renders tables and charts built by the
//! pure `tables` module.

pub mod compare;
pub mod config;
pub mod controls;
pub mod grid;
pub mod indices;
pub mod landing;
pub mod latency;
pub mod overview;
pub mod report;
pub mod resources;
pub mod trends;
