//! Loads Plotly.js from the build output on first use (a script tag with a relative URL), so the
//! landing page does not wait for it. Never from a CDN.

use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    static LOADING: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
}

const SCRIPT: &str = "plotly-cartesian.min.js";

fn plotly_present() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"Plotly".into()).is_ok_and(|v| !v.is_undefined())
}

/// Resolves when `window.Plotly` exists; an error says the script could not be loaded.
pub async fn ensure_plotly() -> Result<(), String> {
    if plotly_present() {
        return Ok(());
    }
    let promise = LOADING.with(|l| {
        l.borrow_mut()
            .get_or_insert_with(|| {
                js_sys::Promise::new(&mut |resolve, reject| {
                    let doc = web_sys::window().and_then(|w| w.document()).expect("document");
                    let script = doc.create_element("script").expect("script element");
                    let _ = script.set_attribute("src", SCRIPT);
                    let onload = Closure::once_into_js(move || {
                        let _ = resolve.call0(&JsValue::NULL);
                    });
                    let onerror = Closure::once_into_js(move || {
                        let _ = reject.call0(&JsValue::NULL);
                    });
                    let _ = script.add_event_listener_with_callback("load", onload.unchecked_ref());
                    let _ = script.add_event_listener_with_callback("error", onerror.unchecked_ref());
                    if let Some(head) = doc.head() {
                        let _ = head.append_child(&script);
                    }
                })
            })
            .clone()
    });
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| format!("the chart library ({SCRIPT}) could not be loaded"))
}
