//! The browser's own text functions, registered with the core's hooks by the page (`ui::mount`)
//! and the ingest worker (`worker::run`) at start: `toLowerCase` for `fold`, `parseFloat` for
//! `number`, `Number.prototype.toString` for `decimal`. The core stays free of browser crates; the
//! page links neither the standard library's Unicode case tables, nor its float parser, nor its
//! float formatting (docs/decisions/0006-decimal-formatting.md). wasm32 only.

/// Registers the browser's functions with `fold` and `number`.
pub fn install() {
    crate::fold::set_unicode(to_lower_case);
    crate::number::set_platform(js_sys::Number::parse_float);
    crate::decimal::set_platform(to_string);
}

/// `Number.prototype.toString()`: the shortest digits that read back, for `decimal::shortest`.
fn to_string(v: f64) -> String {
    js_sys::Number::from(v).to_string_with_radix(10).map(String::from).unwrap_or_default()
}

/// `String.prototype.toLowerCase`: Unicode's default mapping, as `str::to_lowercase`.
fn to_lower_case(s: &str) -> String {
    js_sys::JsString::from(s).to_lower_case().into()
}
