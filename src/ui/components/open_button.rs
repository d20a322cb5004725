//! The "Open files…" button: a label around a hidden file input (several files may be chosen);
//! used by the header and the landing page.

use crate::ui::loader;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A button that opens the file picker (several files may be chosen).
#[component]
pub fn OpenButton() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let on_change = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        if let Some(files) = input.files() {
            let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
            loader::load_files(state, list);
        }
        input.set_value("");
    };
    view! {
        <label class="button file-button">
            "Open files…"
            <input type="file" multiple on:change=on_change class="visually-hidden" data-testid="file-input"/>
        </label>
    }
}
