//! The browser UI (wasm32 only): app shell, state, loading, URL sync, components and views.

mod app;
pub mod browser;
pub mod components;
mod ingest;
mod ingest_read;
mod loader;
pub mod panic;
mod persist;
mod plotly_loader;
pub(crate) mod show;
mod state;
mod views;
mod writer;

pub use state::{derived, provide_app_state, refs, use_app_state, with_label_rules, AppState};

/// Installs the panic screen and mounts the app on `<body>`.
pub fn mount() {
    panic::install();
    crate::js_platform::install();
    leptos::mount::mount_to_body(app::App);
}
