//! Timestamps of imported files: epoch milliseconds to ISO 8601 and back, for the few layouts the
//! tools write (`2014-02-24 07:42:21.256`, `2021-10-05T10:58:14.123+02:00`, `…Z`). Days from civil
//! dates use Howard Hinnant's algorithm (http://howardhinnant.github.io/date_algorithms.html);
//! a date crate would add far more code to the worker than these two functions.

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { yoe + era * 400 + 1 } else { yoe + era * 400 }, m, d)
}

/// Epoch milliseconds as ISO 8601 in UTC: `2023-10-01T10:18:00Z` (milliseconds only when not 0).
pub fn iso_utc(ms: i64) -> String {
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let (h, min, s, milli) = (rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000);
    if milli == 0 {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}Z")
    } else {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
    }
}

/// Whether epoch milliseconds fall in the years 1 to 9999 (what ISO 8601 writes plainly).
/// Importers treat other values as "not a time", so that the difference of two times never
/// overflows.
pub fn plausible(ms: i64) -> bool {
    (-62_135_596_800_000..=253_402_300_799_999).contains(&ms)
}

/// Whether a parsed time carried its own offset or was read as UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Given,
    AssumedUtc,
}

fn num(s: &[u8]) -> Option<u32> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u32, |a, b| a.checked_mul(10)?.checked_add(u32::from(b - b'0')))
}

/// Parses `YYYY-MM-DD[T ]HH:MM[:SS[.fff…]][Z|±HH[:]MM]` (also `/` between date parts) into epoch
/// milliseconds. Fractions beyond milliseconds are truncated. Without an offset the time is read
/// as UTC and `Zone::AssumedUtc` says so.
pub fn parse_datetime(text: &str) -> Option<(i64, Zone)> {
    let b = text.trim().as_bytes();
    if b.len() < 16 {
        return None;
    }
    let sep = b[4];
    if !(sep == b'-' || sep == b'/') || b[7] != sep || !(b[10] == b'T' || b[10] == b' ') || b[13] != b':' {
        return None;
    }
    let (y, mo, d) = (num(&b[0..4])?, num(&b[5..7])?, num(&b[8..10])?);
    let (h, mi) = (num(&b[11..13])?, num(&b[14..16])?);
    let mut i = 16;
    let mut sec = 0;
    let mut milli = 0;
    if b.get(i) == Some(&b':') {
        sec = num(b.get(i + 1..i + 3)?)?;
        i += 3;
        if matches!(b.get(i), Some(b'.') | Some(b',')) {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let frac = &b[start..j];
            if frac.is_empty() {
                return None;
            }
            let mut m = [b'0'; 3];
            for (k, c) in frac.iter().take(3).enumerate() {
                m[k] = *c;
            }
            milli = num(&m)?;
            i = j;
        }
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let rest = &b[i..];
    let (offset_min, zone) = match rest {
        [] => (0i64, Zone::AssumedUtc),
        [b'Z'] | [b'z'] => (0, Zone::Given),
        [s @ (b'+' | b'-'), hh @ ..] if !hh.is_empty() => {
            let digits: Vec<u8> = hh.iter().copied().filter(|c| *c != b':').collect();
            if digits.len() != 4 && digits.len() != 2 {
                return None;
            }
            let oh = i64::from(num(&digits[..2])?);
            let om = if digits.len() == 4 { i64::from(num(&digits[2..])?) } else { 0 };
            let sign = if *s == b'-' { -1 } else { 1 };
            (sign * (oh * 60 + om), Zone::Given)
        }
        _ => return None,
    };
    let days = days_from_civil(i64::from(y), mo, d);
    let ms = ((days * 24 + i64::from(h)) * 60 + i64::from(mi) - offset_min) * 60_000
        + i64::from(sec) * 1000
        + i64::from(milli);
    Some((ms, zone))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_known_instants() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(1_652_430_231_438), "2022-05-13T08:23:51.438Z");
        assert_eq!(parse_datetime("2022-05-13T08:23:51.438Z"), Some((1_652_430_231_438, Zone::Given)));
        assert_eq!(parse_datetime("2014-02-24 07:42:21.256"), Some((1_393_227_741_256, Zone::AssumedUtc)));
        assert_eq!(
            parse_datetime("2021-10-05T10:58:14+02:00").map(|x| x.0),
            parse_datetime("2021-10-05T08:58:14Z").map(|x| x.0)
        );
        assert_eq!(parse_datetime("2024/02/29 23:59:59").map(|x| iso_utc(x.0)), Some("2024-02-29T23:59:59Z".into()));
        assert_eq!(
            parse_datetime("2021-10-05T10:58:14.123456789-0530").map(|x| iso_utc(x.0)),
            Some("2021-10-05T16:28:14.123Z".into())
        );
        for ms in [-86_400_001i64, 951_782_400_000, 4_102_444_800_000] {
            assert_eq!(parse_datetime(&iso_utc(ms)).map(|x| x.0), Some(ms));
        }
    }

    #[test]
    fn refuses_what_is_not_a_time() {
        for bad in [
            "",
            "1393227741256",
            "2014-13-01 00:00",
            "2014-02-24 07:42:21.",
            "2014-02-24X07:42",
            "2014-02-24 07:42 garbage",
        ] {
            assert_eq!(parse_datetime(bad), None, "{bad}");
        }
    }
}
