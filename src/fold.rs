//! Lower-casing for matching and sorting text (table filters, sort keys, metric words).
//!
//! Natively this is `str::to_lowercase`. In the browser, ASCII text (nearly every label) is
//! lowered in Rust and any other text by the browser's own `String.prototype.toLowerCase`, which
//! the page and the worker register with [`set_unicode`] when they start (`js_platform`): the
//! standard library's Unicode case tables and the final-sigma rule cost the page 15 KB of gzip,
//! and the browser already carries the same Unicode mapping (docs/decisions/0007-case-folding-by-the-browser.md). Until a function is registered, text
//! that is not ASCII keeps its non-ASCII letters as they are (ASCII letters are still lowered).

use std::borrow::Cow;

/// `s` in lower case, borrowed when it already is.
pub fn lower(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(s.to_ascii_lowercase())
        } else {
            Cow::Borrowed(s)
        }
    } else {
        Cow::Owned(unicode_lower(s))
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn unicode_lower(s: &str) -> String {
    s.to_lowercase()
}

/// The platform's lowering of text that is not ASCII.
#[cfg(target_arch = "wasm32")]
type Lower = fn(&str) -> String;

#[cfg(target_arch = "wasm32")]
thread_local! {
    static UNICODE: std::cell::Cell<Option<Lower>> = const { std::cell::Cell::new(None) };
}

/// Registers the function that lowers text that is not ASCII (wasm32 only: the browser's).
#[cfg(target_arch = "wasm32")]
pub fn set_unicode(f: Lower) {
    UNICODE.with(|u| u.set(Some(f)));
}

#[cfg(target_arch = "wasm32")]
fn unicode_lower(s: &str) -> String {
    match UNICODE.with(std::cell::Cell::get) {
        Some(f) => f(s),
        None => s.to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::lower;
    use std::borrow::Cow;

    #[test]
    fn ascii_is_lowered_and_borrowed_when_already_lower() {
        assert_eq!(lower("GET /Users"), "get /users");
        assert!(matches!(lower("get /users"), Cow::Borrowed(_)));
        assert!(matches!(lower("GET"), Cow::Owned(_)));
        assert_eq!(lower(""), "");
    }

    #[test]
    fn other_text_is_lowered_as_unicode_says() {
        assert_eq!(lower("ПОИСК Экземпляров"), "поиск экземпляров");
        assert_eq!(lower("ÉTAT"), "état");
        // The final sigma: a whole-string rule, not a per-letter one.
        assert_eq!(lower("ΟΔΟΣ"), "οδος");
    }
}
