//! Numbers written as decimal text where the page writes them: with a fixed number of places
//! (`fixed`, what Rust's `{:.N}` writes) and the shortest text that reads back (`shortest`, what
//! Rust's `{}` writes: thresholds in links).
//!
//! Rust's float formatting links the standard library's Grisu and Dragon4 (a big-number type,
//! its tables and two strategies) into the page (docs/decisions/0006-decimal-formatting.md). `fixed` needs none of it: a
//! double is an integer times a power of two, so rounding it to N places is integer arithmetic
//! on a `u128`, exact, with ties to even as Rust rounds (property-tested against Rust's own
//! formatting). `shortest` is Rust's formatting natively; in the browser its digits come from
//! the function the page and the worker register at start (`js_platform`: JavaScript's
//! `Number.prototype.toString`, which also picks the shortest digits that read back, and the
//! nearest of those), written out without an exponent as Rust writes them. A number exactly
//! halfway between two shortest texts (1690060720831323.25) gets the even digit there, as
//! JavaScript writes it, where Rust writes the other; both read back as the same number. Until a
//! function is registered, `shortest` writes 17 places without their trailing zeros.

/// The most places `fixed` writes (10^19 times a 53-bit significand fits a `u128`).
pub const MAX_PLACES: usize = 19;

/// `v` rounded to `places` decimal places (at most `MAX_PLACES`), exactly as `format!("{:.*}",
/// places, v)` writes it: ties to even, a minus sign for negative values and negative zero,
/// `NaN`, `inf` and `-inf`.
pub fn fixed(v: f64, places: usize) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.into();
    }
    let places = places.min(MAX_PLACES);
    let bits = v.to_bits();
    let (biased, fraction) = (((bits >> 52) & 0x7ff) as i32, bits & ((1 << 52) - 1));
    // |v| = m * 2^e exactly.
    let (m, e) = if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
    let digits = if e >= 0 {
        let mut int = integer_digits(m, e as u32);
        int.extend(std::iter::repeat_n('0', places));
        int
    } else if places <= 3 {
        // The common case, in 64 bits: m < 2^53 and 10^3 < 2^10, so m * 10^places < 2^63.
        round_shifted(m * 10u64.pow(places as u32), e.unsigned_abs()).to_string()
    } else {
        // Up to 2^117: above, the quotient is 0 and the remainder is under half of 2^k.
        let k = e.unsigned_abs();
        let n = u128::from(m) * 10u128.pow(places as u32);
        let q = if k >= 118 {
            0
        } else {
            let (q, r, half) = (n >> k, n & ((1u128 << k) - 1), 1u128 << (k - 1));
            q + u128::from(r > half || (r == half && q & 1 == 1))
        };
        q.to_string()
    };
    let mut out = String::with_capacity(digits.len() + places + 3);
    if v.is_sign_negative() {
        out.push('-');
    }
    if places == 0 {
        out.push_str(&digits);
    } else if digits.len() > places {
        let (int, frac) = digits.split_at(digits.len() - places);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', places - digits.len()));
        out.push_str(&digits);
    }
    out
}

/// round(n / 2^k), ties to even, for n < 2^63.
fn round_shifted(n: u64, k: u32) -> u64 {
    if k >= 64 {
        return 0; // n < 2^63 <= half of 2^k
    }
    let (q, r, half) = (n >> k, n & ((1u64 << k) - 1), 1u64 << (k - 1));
    q + u64::from(r > half || (r == half && q & 1 == 1))
}

/// The decimal digits of `m * 2^e`.
fn integer_digits(m: u64, e: u32) -> String {
    if e <= 74 {
        return (u128::from(m) << e).to_string();
    }
    // Base 10^9 limbs, least significant first, doubled `e` times.
    const LIMB: u64 = 1_000_000_000;
    let mut limbs = vec![m % LIMB, m / LIMB % LIMB, m / LIMB / LIMB];
    for _ in 0..e {
        let mut carry = 0;
        for l in limbs.iter_mut() {
            let x = *l * 2 + carry;
            (*l, carry) = (x % LIMB, x / LIMB);
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut out = limbs.last().map_or(String::new(), u64::to_string);
    for l in limbs.iter().rev().skip(1) {
        let s = l.to_string();
        out.push_str(&"0".repeat(9 - s.len()));
        out.push_str(&s);
    }
    out
}

/// The shortest decimal text that reads back as `v`, as `format!("{v}")` writes it (no exponent;
/// `NaN`, `inf`, `-inf`; `-0` for negative zero; in the browser, the even digit of a tie).
pub fn shortest(v: f64) -> String {
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{v}")
    }
    #[cfg(target_arch = "wasm32")]
    {
        if !v.is_finite() {
            return fixed(v, 0);
        }
        match PLATFORM.with(std::cell::Cell::get) {
            Some(f) => plain(&f(v), v.is_sign_negative()),
            None => {
                let s = fixed(v, 17);
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        }
    }
}

/// The platform's writer of a number's shortest digits.
#[cfg(target_arch = "wasm32")]
type Shortest = fn(f64) -> String;

#[cfg(target_arch = "wasm32")]
thread_local! {
    static PLATFORM: std::cell::Cell<Option<Shortest>> = const { std::cell::Cell::new(None) };
}

/// Registers the function that writes a finite number's shortest digits (wasm32 only: the
/// browser's `Number.prototype.toString`).
#[cfg(target_arch = "wasm32")]
pub fn set_platform(f: Shortest) {
    PLATFORM.with(|p| p.set(Some(f)));
}

/// JavaScript's text of a finite number (`"1.5"`, `"-2e-7"`, `"1.2e+21"`, `"0"` for negative
/// zero) as Rust writes it: no exponent, and `-0` for negative zero.
pub fn plain(js: &str, negative: bool) -> String {
    let body = js.strip_prefix('-').unwrap_or(js);
    let (mantissa, exp) = match body.split_once('e') {
        Some((m, x)) => (m, x.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    // The point sits after `point` digits of `digits`.
    let point = int.len() as i32 + exp;
    let mut out = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    };
    if negative {
        out.insert(0, '-');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fixed_writes_what_rust_writes_at_the_edges() {
        let values = [
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.125,
            0.375,
            -0.04,
            1.005,
            9.995,
            99.95,
            0.05,
            1e-7,
            5e-324,
            -5e-324,
            f64::MIN_POSITIVE,
            2f64.powi(53),
            2f64.powi(53) + 2.0,
            1e21,
            2f64.powi(70),
            1e300,
            f64::MAX,
            -f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            131962870170.0 / 1024.0 / 1024.0 / 1024.0,
            0.1 + 0.2,
        ];
        for v in values {
            for places in 0..=MAX_PLACES {
                assert_eq!(fixed(v, places), format!("{v:.places$}"), "{v:e} to {places} places");
            }
        }
        assert_eq!(fixed(1.0, 40), format!("{:.19}", 1.0), "more places than the most are the most");
    }

    #[test]
    fn plain_writes_javascript_text_as_rust_does() {
        for (js, neg, rust) in [
            ("1.5", false, "1.5"),
            ("0", true, "-0"),
            ("1e+21", false, "1000000000000000000000"),
            ("1.2e+21", false, "1200000000000000000000"),
            ("-1.5e-7", true, "-0.00000015"),
            ("1e-7", false, "0.0000001"),
            ("123.456", false, "123.456"),
            ("5e-324", false, &format!("{}", 5e-324)),
            ("1.7976931348623157e+308", false, &format!("{}", f64::MAX)),
        ] {
            assert_eq!(plain(js, neg), rust, "{js}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn fixed_is_rusts_formatting_for_any_double(bits in any::<u64>(), places in 0..=MAX_PLACES) {
            let v = f64::from_bits(bits);
            prop_assert_eq!(fixed(v, places), format!("{v:.places$}"));
        }

        #[test]
        fn fixed_is_rusts_formatting_for_values_people_see(v in -1e7..1e7f64, places in 0..4usize) {
            prop_assert_eq!(fixed(v, places), format!("{v:.places$}"));
        }

        #[test]
        fn ties_round_to_even_as_rust_does(n in -100_000i64..100_000, places in 0..4usize) {
            // n + 0.5 units of the last place, exact in binary when it is a multiple of 2^-k.
            let v = (n as f64 + 0.5) / 10f64.powi(places as i32);
            prop_assert_eq!(fixed(v, places), format!("{v:.places$}"));
            let w = (2 * n + 1) as f64 / 8.0;
            prop_assert_eq!(fixed(w, 2), format!("{w:.2}"));
        }
    }
}
