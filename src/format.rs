//! Number and unit formatting shared by every view: durations as h/min/s, binary bytes, percent,
//! thousands separators and signed relative deltas with a real minus sign.

use crate::bundle::Unit;

/// Groups the integer part with commas: 4629419 -> "4,629,419"; keeps `decimals` places.
pub fn thousands(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let s = crate::decimal::fixed(v.abs(), decimals);
    let (int, frac) = s.split_once('.').map_or((s.as_str(), None), |(a, b)| (a, Some(b)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    if v < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '−');
    }
    out
}

/// A count with its noun, grouped: (1, "record", "records") -> "1 record", 4629 -> "4,629 records".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n as f64, 0), if n == 1 { one } else { many })
}

/// Few decimals for small numbers, none for large: 0.5 -> "0.5", 39.6 -> "39.6", 1545 -> "1,545".
pub fn number(v: f64) -> String {
    let a = v.abs();
    let decimals = if a == a.trunc() || a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    };
    let s = thousands(v, decimals);
    if decimals > 0 && s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Seconds as "9 h 47 min", "57 min 12 s", "42 s", "1.5 s": to the second below an hour and to
/// the minute above, so two durations that differ by more than 2 % never read the same.
pub fn duration_s(secs: f64) -> String {
    if !secs.is_finite() {
        return "–".into();
    }
    let sign = if secs < 0.0 { "−" } else { "" };
    let s = secs.abs();
    if s < 60.0 {
        return format!("{sign}{} s", number(s));
    }
    if s < 3570.0 {
        let total = s.round() as u64;
        return match (total / 60, total % 60) {
            (m, 0) => format!("{sign}{m} min"),
            (m, sec) => format!("{sign}{m} min {sec} s"),
        };
    }
    let total_min = (s / 60.0).round() as u64;
    let (h, m) = (total_min / 60, total_min % 60);
    match (h, m) {
        (0, m) => format!("{sign}{m} min"),
        (h, 0) => format!("{sign}{h} h"),
        (h, m) => format!("{sign}{h} h {m} min"),
    }
}

/// Bytes in binary units with one decimal: 131962870170 -> "122.9 GiB", 832 -> "832 B".
pub fn bytes(b: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    if !b.is_finite() {
        return "–".into();
    }
    let mut v = b.abs();
    let mut i = 0;
    while v >= 1024.0 && i < UNITS.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    let sign = if b < 0.0 { "−" } else { "" };
    if i == 0 {
        format!("{sign}{} B", crate::decimal::fixed(v.round(), 0))
    } else {
        format!("{sign}{} {}", crate::decimal::fixed(v, 1), UNITS[i])
    }
}

/// A value in its unit, for tables and tooltips.
pub fn value(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Ms => format!("{} ms", number(v)),
        Unit::S => duration_s(v),
        Unit::Percent => format!("{}%", number(v)),
        Unit::Count => number(v),
        Unit::Bytes => bytes(v),
        Unit::PerSecond => format!("{}/s", number(v)),
        Unit::None => number(v),
    }
}

/// A signed absolute delta in the value's unit: "+12 ms", "−1 h 20 min", "+0.6 GiB"; percent
/// changes in percentage points ("+27 pp").
pub fn delta(d: f64, unit: Unit) -> String {
    let body = match unit {
        Unit::Percent => format!("{} pp", number(d.abs())),
        _ => value(d.abs(), unit),
    };
    signed(d, body)
}

/// `body` (a magnitude) with the sign of `v`: "+", a real minus "−", or none for zero.
fn signed(v: f64, body: String) -> String {
    if v > 0.0 {
        format!("+{body}")
    } else if v < 0.0 {
        format!("−{body}")
    } else {
        body
    }
}

/// A relative change as it is shown: rounded to 0.1 % (0.0781 -> 0.078). Verdicts are taken on
/// this value, so that a cell never reads "+5.0%" with two different verdicts.
pub fn shown_relative(r: f64) -> f64 {
    (r * 1000.0).round() / 1000.0
}

/// A change in percentage points as it is shown, to `decimals` places.
pub fn shown_points(p: f64, decimals: usize) -> f64 {
    let k = 10f64.powi(decimals as i32);
    (p * k).round() / k
}

/// A signed change in percentage points: "+0.2 pp", "−1.25 pp".
pub fn points(p: f64, decimals: usize) -> String {
    if !p.is_finite() {
        return "–".into();
    }
    let v = shown_points(p, decimals);
    signed(v, format!("{} pp", crate::decimal::fixed(v.abs(), decimals)))
}

/// A relative change (a fraction) as a signed percentage: -0.1239 -> "−12.4%".
pub fn relative(r: f64) -> String {
    if !r.is_finite() {
        return "–".into();
    }
    let pct = shown_relative(r) * 100.0;
    let pct = (pct * 10.0).round() / 10.0;
    if pct > 0.0 {
        format!("+{}%", crate::decimal::fixed(pct, 1))
    } else if pct < 0.0 {
        format!("−{}%", crate::decimal::fixed(-pct, 1))
    } else {
        "0.0%".into()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_say_one_or_many() {
        assert_eq!(super::count(1, "record", "records"), "1 record");
        assert_eq!(super::count(0, "run", "runs"), "0 runs");
        assert_eq!(super::count(4629, "record", "records"), "4,629 records");
    }

    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(thousands(4629419.0, 0), "4,629,419");
        assert_eq!(thousands(999.0, 0), "999");
        assert_eq!(thousands(-1234.5, 1), "−1,234.5");
        assert_eq!(number(39.6), "39.6");
        assert_eq!(number(1545.0), "1,545");
        assert_eq!(number(0.25), "0.25");
    }

    #[test]
    fn formats_durations() {
        assert_eq!(duration_s(35220.0), "9 h 47 min");
        assert_eq!(duration_s(40200.0), "11 h 10 min");
        assert_eq!(duration_s(3420.0), "57 min");
        assert_eq!(duration_s(89.0), "1 min 29 s", "not \"1 min\": 60 s vs 89 s is +48 %");
        assert_eq!(duration_s(60.0), "1 min");
        assert_eq!(duration_s(3590.0), "1 h");
        assert_eq!(duration_s(3600.0), "1 h");
        assert_eq!(duration_s(42.0), "42 s");
        assert_eq!(duration_s(-4980.0), "−1 h 23 min");
    }

    #[test]
    fn formats_binary_bytes() {
        assert_eq!(bytes(131_962_870_170.0), "122.9 GiB");
        assert_eq!(bytes(832.0), "832 B");
        assert_eq!(bytes(15872.0), "15.5 KiB");
    }

    #[test]
    fn formats_relative_and_deltas() {
        assert_eq!(relative((35220.0 - 40200.0) / 40200.0), "−12.4%");
        assert_eq!(relative(0.078), "+7.8%");
        assert_eq!(relative(0.0), "0.0%");
        assert_eq!(relative(0.04999), "+5.0%");
        assert_eq!(shown_relative(0.04999), 0.05);
        assert_eq!(points(0.2, 1), "+0.2 pp");
        assert_eq!(points(-0.004, 2), "0.00 pp");
        assert_eq!(points(-1.254, 2), "−1.25 pp");
        assert_eq!(delta(-4980.0, Unit::S), "−1 h 23 min");
        assert_eq!(delta(12.0, Unit::Ms), "+12 ms");
        assert_eq!(value(200.0, Unit::Percent), "200%");
        assert_eq!(delta(-24.0, Unit::Percent), "−24 pp");
        assert_eq!(value(55.0, Unit::PerSecond), "55/s");
    }
}
