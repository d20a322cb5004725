//! runlens: load performance-test result bundles and compare runs. The pure core (bundle, model,
//! analysis, url state) builds for any target; `ui` exists only on wasm32.
pub mod analysis;
pub mod assemble;
pub mod bundle;
pub mod chart_text;
pub mod decimal;
pub mod figure;
pub mod fold;
pub mod format;
pub mod heap;
pub mod import;
pub mod limits;
pub mod model;
pub mod number;
pub mod order;
pub mod palette;
pub mod share;
pub mod tables;
pub mod urlstate;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod js_platform;
#[cfg(target_arch = "wasm32")]
pub mod protocol;
#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod worker;
