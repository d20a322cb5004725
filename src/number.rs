//! Numbers on the page without the standard library's float code: `clamp`, and decimal text read
//! as `f64` where the page reads numbers: thresholds typed or carried in a
//! link, sizes such as "122.9gb", setting values and dimensions that sort as numbers.
//!
//! Natively this is `str::parse::<f64>`. In the browser the text is checked here against the
//! same grammar (`is_float_text`), the words `inf`, `infinity` and `nan` are read here, and the
//! digits are converted by the function the page and the worker register at start
//! (`js_platform`: JavaScript's `parseFloat`, which rounds to nearest as Rust does): the standard
//! library's parser brings a 10 KB table of powers of five and its slow path into the page
//! (docs/decisions/0008-number-reading-by-the-browser.md). Until a function is registered, such text reads as not a number.

/// `v` within `lo..=hi`, never a panic: `f64::clamp` asserts `lo <= hi` and its message prints
/// both with `{:?}`, which links the standard library's float formatting (14 KB) into the page.
/// A NaN `v` gives `lo` (`f64::clamp` would give NaN).
pub fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    v.max(lo).min(hi)
}

/// `s` as an `f64`, exactly when `str::parse::<f64>` would accept it.
pub fn parse_f64(s: &str) -> Option<f64> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        s.parse().ok()
    }
    #[cfg(target_arch = "wasm32")]
    {
        if let Some(v) = special(s) {
            return Some(v);
        }
        if !is_float_text(s) {
            return None;
        }
        PLATFORM.with(std::cell::Cell::get).map(|f| f(s))
    }
}

/// The platform's conversion of float text.
#[cfg(target_arch = "wasm32")]
type Parse = fn(&str) -> f64;

#[cfg(target_arch = "wasm32")]
thread_local! {
    static PLATFORM: std::cell::Cell<Option<Parse>> = const { std::cell::Cell::new(None) };
}

/// Registers the function that converts text `is_float_text` accepts (wasm32 only: the browser's).
#[cfg(target_arch = "wasm32")]
pub fn set_platform(f: Parse) {
    PLATFORM.with(|p| p.set(Some(f)));
}

/// The words Rust's parser reads, in any case, with an optional sign: `inf`, `infinity`, `nan`.
pub fn special(s: &str) -> Option<f64> {
    let (neg, word) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let v = if word.eq_ignore_ascii_case("inf") || word.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if word.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// Whether `s` is a decimal number in the grammar of Rust's `f64` parser: an optional sign,
/// digits with an optional point (at least one digit on either side), an optional exponent
/// (`e` or `E`, an optional sign, digits). No spaces, no hexadecimal, no digit separators.
pub fn is_float_text(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(i);
    i += int;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        frac = digits(i + 1);
        i += 1 + frac;
    }
    if int + frac == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn clamp_keeps_within_bounds_and_never_panics() {
        assert_eq!(super::clamp(5.0, 0.0, 1.0), 1.0);
        assert_eq!(super::clamp(-1.0, 0.0, 1.0), 0.0);
        assert_eq!(super::clamp(0.25, 0.0, 1.0), 0.25);
        assert_eq!(super::clamp(f64::NAN, 0.0, 1.0), 0.0);
        assert_eq!(super::clamp(0.5, 1.0, 0.0), 0.0, "bounds the wrong way round: no panic");
    }

    use super::*;
    use proptest::prelude::*;

    fn rust_accepts(s: &str) -> bool {
        s.parse::<f64>().is_ok()
    }

    #[test]
    fn the_grammar_is_rusts() {
        for s in [
            "0",
            "1",
            "-1",
            "+1",
            "1.",
            ".5",
            "-.5",
            "1.5",
            "007",
            "1e5",
            "1E5",
            "1e+5",
            "1e-5",
            "1.5e3",
            ".5e1",
            "5.e1",
            "123456789012345678901234567890",
        ] {
            assert!(is_float_text(s) && rust_accepts(s), "{s}");
        }
        for s in [
            "", ".", "-", "+", "e5", "1e", "1e+", "1.5.2", " 1", "1 ", "0x10", "1_000", "1,5", "--1", "+-1", ".e1", "١",
        ] {
            assert!(!is_float_text(s) && !rust_accepts(s), "{s:?}");
        }
        for s in ["inf", "-INF", "Infinity", "+infinity", "NaN", "nan", "-nan"] {
            assert!(!is_float_text(s) && special(s).is_some() && rust_accepts(s), "{s}");
        }
        assert_eq!(special("-inf"), Some(f64::NEG_INFINITY));
        assert!(special("nan").is_some_and(f64::is_nan));
        assert_eq!(special("infinit"), None);
    }

    proptest! {
        // Short strings over the characters that matter: accepted by this grammar (or read as a
        // word) exactly when Rust's parser accepts them.
        #[test]
        fn accepted_exactly_when_rust_accepts(s in "[0-9.eE+\\-a-z ]{0,8}") {
            prop_assert_eq!(is_float_text(&s) || special(&s).is_some(), rust_accepts(&s), "{:?}", s);
        }

        // Strings shaped like numbers, most of them valid.
        #[test]
        fn number_shapes_accepted_exactly_when_rust_accepts(s in "[+-]?[0-9]{0,3}[.]?[0-9]{0,3}([eE][+-]?[0-9]{0,2})?") {
            prop_assert_eq!(is_float_text(&s), rust_accepts(&s), "{:?}", s);
        }
    }
}
