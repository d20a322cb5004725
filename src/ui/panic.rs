//! A panic never leaves a blank page: the hook logs to the console and shows the panic text (as
//! text, not HTML) with a reload link, before the release build's `panic = "abort"` stops the
//! wasm. A trap no hook sees (out of memory, `unreachable`) gets the same box from `public/boot.js`.

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

/// Puts the error box at the top of the page: `message` as text, and a reload link.
pub fn show(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = doc.body() else { return };
    let Ok(box_) = doc.create_element("div") else { return };
    box_.set_id("panic");
    let _ = box_.set_attribute("role", "alert");
    let title = doc.create_element("strong").ok();
    if let Some(t) = &title {
        t.set_text_content(Some("runlens stopped because of an internal error. "));
        let _ = box_.append_child(t);
    }
    if let Ok(msg) = doc.create_element("pre") {
        msg.set_text_content(Some(message));
        let _ = box_.append_child(&msg);
    }
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", "");
        a.set_text_content(Some("Reload the page"));
        let _ = box_.append_child(&a);
    }
    let _ = body.prepend_with_node_1(&box_);
}
