//! One file per page (a page with parts has a folder of them beside its file). Each view reads the
//! app state and renders tables and charts built by the pure `tables` module.

pub mod compare;
pub mod config;
pub mod indices;
pub mod landing;
pub mod latency;
pub mod overview;
pub mod resources;
pub mod timeline;
pub mod trends;
