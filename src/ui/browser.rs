//! Thin wrappers over browser APIs (history, clipboard, downloads, media queries, postMessage).

use wasm_bindgen::{JsCast, JsValue};

pub fn window() -> web_sys::Window {
    web_sys::window().expect("runlens runs in a browser window")
}

pub fn location_search() -> String {
    window().location().search().unwrap_or_default()
}

/// The page URL without its query (where links and embeds point).
pub fn page_base() -> String {
    let loc = window().location();
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

/// `src` resolved by the browser's URL parser against the page's address: (href, protocol such
/// as `"https:"`), or `None` when it is not a URL. `urlstate::check_src` judges the protocol.
pub fn resolve_url(src: &str) -> Option<(String, String)> {
    let base = window().location().href().ok()?;
    let url = web_sys::Url::new_with_base(src, &base).ok()?;
    Some((url.href(), url.protocol()))
}

/// The fragment of the page's address (`#…`), empty when there is none.
pub fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Resolves once the browser has painted the next frame (a frame callback, then a task), or after
/// 50 ms when no frame comes (a hidden tab): work that can wait, such as redrawing a chart, then
/// leaves the frame that shows a change to what changed first.
pub async fn after_paint() {
    use wasm_bindgen::closure::Closure;
    let promise = js_sys::Promise::new(&mut |resolve: js_sys::Function, _| {
        let w = window();
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50);
        let then = Closure::once_into_js(move || {
            let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        });
        let _ = w.request_animation_frame(then.unchecked_ref());
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Lets the browser run what is waiting (input, rendering) before going on: a message to
/// ourselves, which unlike a zero timeout is never clamped to 4 ms when repeated.
pub async fn yield_now() {
    use wasm_bindgen::closure::Closure;
    thread_local! {
        // One channel for every yield; each message resolves the oldest waiting promise.
        static CHANNEL: Option<(web_sys::MessageChannel, std::rc::Rc<std::cell::RefCell<std::collections::VecDeque<js_sys::Function>>>)> = {
            let waiting: std::rc::Rc<std::cell::RefCell<std::collections::VecDeque<js_sys::Function>>> = Default::default();
            web_sys::MessageChannel::new().ok().map(|ch| {
                let w = waiting.clone();
                let on = Closure::<dyn Fn()>::new(move || {
                    if let Some(f) = w.borrow_mut().pop_front() {
                        let _ = f.call0(&JsValue::NULL);
                    }
                });
                ch.port1().set_onmessage(Some(on.as_ref().unchecked_ref()));
                on.forget();
                (ch, waiting)
            })
        };
    }
    let promise = js_sys::Promise::new(&mut |resolve: js_sys::Function, _| {
        let posted = CHANNEL.with(|c| match c {
            Some((ch, waiting)) => {
                waiting.borrow_mut().push_back(resolve.clone());
                ch.port2().post_message(&JsValue::NULL).is_ok()
            }
            None => false,
        });
        if !posted {
            let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Replaces the query in the address bar, after the next task (a change's frame is not held up by
/// it; several changes in one task write once), without reloading (the fragment stays: a shared
/// link's data lives there).
pub fn replace_query_soon(query: String) {
    thread_local! {
        static PENDING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    }
    let first = PENDING.with(|p| p.borrow_mut().replace(query).is_none());
    if first {
        gloo::timers::callback::Timeout::new(0, || {
            if let Some(q) = PENDING.with(|p| p.borrow_mut().take()) {
                replace_query(&q);
            }
        })
        .forget();
    }
}

/// Replaces the query in the address bar without reloading (the fragment stays: a shared link's
/// data lives there).
pub fn replace_query(query: &str) {
    let path = window().location().pathname().unwrap_or_default();
    let hash = location_hash();
    let url = if query.is_empty() { format!("{path}{hash}") } else { format!("{path}?{query}{hash}") };
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

pub fn prefers_dark() -> bool {
    window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches())
}

/// Writes text to the clipboard; false when the browser refuses.
pub async fn copy_text(text: &str) -> bool {
    let promise = window().navigator().clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// Offers `content` as a file download.
pub fn download(file_name: &str, mime: &str, content: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    download_blob(file_name, &blob);
}

/// Offers bytes (UTF-8 text) as a download named `file_name`.
pub fn download_bytes(file_name: &str, mime: &str, content: &js_sys::Uint8Array) {
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&js_sys::Array::of1(content), &opts) else {
        return;
    };
    download_blob(file_name, &blob);
}

pub fn download_blob(file_name: &str, blob: &web_sys::Blob) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    download_url(file_name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Offers what `url` points to (a blob: or data: URL) as a file download.
pub fn download_url(file_name: &str, url: &str) {
    let Some(doc) = window().document() else { return };
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", url);
        let _ = a.set_attribute("download", file_name);
        if let Some(a) = a.dyn_ref::<web_sys::HtmlElement>() {
            a.click();
        }
    }
}

pub fn set_root_theme(dark: bool) {
    if let Some(root) = window().document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

/// In an iframe: posts the content height to the parent whenever the body's size changes.
pub fn observe_height_for_parent() {
    use std::cell::Cell;
    use wasm_bindgen::closure::Closure;
    let last = Cell::new(-1);
    let cb = Closure::<dyn FnMut()>::new(move || {
        let h = post_height_to_parent(last.get());
        last.set(h);
    });
    if let (Ok(obs), Some(body)) =
        (web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()), window().document().and_then(|d| d.body()))
    {
        obs.observe(&body);
    }
    cb.forget();
}

/// In an iframe: tells the parent page our content height (`{type: "runlens:height", height}`)
/// unless it equals `last`; returns the height.
fn post_height_to_parent(last: i32) -> i32 {
    let w = window();
    let Ok(Some(parent)) = w.parent() else { return last };
    if parent == w {
        return last;
    }
    let height = w.document().and_then(|d| d.body()).map(|e| e.scroll_height()).unwrap_or(0);
    if height == last {
        return last;
    }
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"runlens:height".into());
    let _ = js_sys::Reflect::set(&msg, &"height".into(), &JsValue::from(height));
    let _ = parent.post_message(&msg, "*");
    height
}

/// The bytes of base64url text (`share::fragment`), decoded by the browser's `atob` (the page
/// links no base64 decoder of its own); `None` when it is not base64.
pub fn base64url_bytes(text: &str) -> Option<Vec<u8>> {
    let mut b64: String = text
        .trim_end_matches('=')
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    // `atob` ignores spaces; a link's data has none.
    if b64.len() % 4 == 1 || b64.contains(|c: char| c.is_ascii_whitespace()) {
        return None;
    }
    b64.push_str(&"=".repeat((4 - b64.len() % 4) % 4));
    let binary = window().atob(&b64).ok()?;
    // Each character of `atob`'s answer is one byte.
    binary.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
}

/// The text fields `keys` of each object of a JSON array, read by the browser's `JSON.parse` (the
/// page links no JSON reader of its own): one entry per element, `None` where an element lacks a
/// key or it is not text. `Err` when the text is not JSON or not an array.
pub fn json_records(text: &str, keys: &[&str]) -> Result<Vec<Option<Vec<String>>>, String> {
    let value = js_sys::JSON::parse(text)
        .map_err(|e| js_sys::Error::from(e).message().as_string().unwrap_or_else(|| "not JSON".into()))?;
    let list = value.dyn_into::<js_sys::Array>().map_err(|_| "not a list".to_string())?;
    Ok(list
        .iter()
        .map(|item| keys.iter().map(|k| js_sys::Reflect::get(&item, &JsValue::from_str(k)).ok()?.as_string()).collect())
        .collect())
}
