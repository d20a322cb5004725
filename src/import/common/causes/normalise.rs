//! The normalisation of error messages, so that the failures of one cause group under one message
//! whatever ids, numbers and times each occurrence carried.
//!
//! Rules, applied left to right in one scan (a "word" is a run of ASCII letters and digits; `_`,
//! `-`, `.`, `/` and every other character separate words):
//!
//! | What | Becomes | Example |
//! |---|---|---|
//! | A JMeter Transaction Controller's parent ("Number of samples in transaction : 2, number of failing samples : 1") | [`CONTROLLER_CAUSE`] | whatever the numbers |
//! | Runs of white space (line breaks included) | one space, ends trimmed | `"a \n  b"` → `"a b"` |
//! | A date and time (`2024-05-01T10:20:30.123Z`, `2024-05-01 10:20:30`, `10:20:30`) | `{time}` | `at 2024-05-01T10:20:30Z` → `at {time}` |
//! | A UUID (8-4-4-4-12 hexadecimal digits) | `{uuid}` | `order 0b6e…-…` → `order {uuid}` |
//! | An IPv4 address, with its port | `{ip}`, `{ip}:{port}` | `connect to 10.0.0.7:8080` → `connect to {ip}:{port}` |
//! | A quoted value without white space (`'…'` or `"…"`, quotes not inside a word) with a digit or of 24 characters or more | `'{q}'` (its quotes kept) | `user 'u-42' unknown` → `user '{q}' unknown`; `HTTPError('500 Server Error')` is read word by word |
//! | A number (digits, with a decimal part) | `{n}` | `timeout after 30000 ms` → `timeout after {n} ms` |
//! | … except a lone three-digit number from 100 to 599 (an HTTP status) and the version after `HTTP/` | kept | `found 404`, `HTTP/1.1` |
//! | A word of letters and digits with a run of 5 digits or more, of 16 characters or more, or of 8 or more hexadecimal digits | `{id}` | `session a81f9c20d1` → `session {id}` |
//! | A URL's percent-encoded byte (`%20`) | kept | `title%20all%20%22x%22` |
//! | Everything else (words, host names, short mixed words such as `tls1`, `mosaic02`, `Cp1255`) | kept | `j.n.UnknownHostException: api.example.com` |
//!
//! The result is cut to `MAX_CHARS` characters (with `…`). Short messages without numbers or ids
//! come out as they went in, so that "Bad Request" stays "Bad Request".
//!
//! Written by hand, not with `regex`: one pass over bytes, no dependency in the worker's wasm,
//! and rules that read as a table (docs/decisions/0053-error-causes.md).

/// The message of every Transaction Controller parent that failed because children failed.
pub const CONTROLLER_CAUSE: &str = "failing child samples (Transaction Controller)";

/// The most characters a normalised message keeps.
pub const MAX_CHARS: usize = 300;

/// What a JMeter Transaction Controller writes as its parent sample's message.
pub fn is_controller_message(m: &[u8]) -> bool {
    m.first() == Some(&b'N') && m.starts_with(b"Number of samples in transaction")
}

/// `message` normalised by the rules above.
pub fn normalise(message: &str) -> String {
    if is_controller_message(message.trim_start().as_bytes()) {
        return CONTROLLER_CAUSE.to_string();
    }
    let b = message.trim().as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let boundary = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if c.is_ascii_whitespace() {
            let end = i + b[i..].iter().take_while(|x| x.is_ascii_whitespace()).count();
            out.push(b' ');
            i = end;
            continue;
        }
        if (c == b'\'' || c == b'"') && boundary {
            if let Some(len) = quoted_len(&b[i..]) {
                out.push(c);
                out.extend_from_slice(b"{q}");
                out.push(c);
                i += len;
                continue;
            }
        }
        if c.is_ascii_alphanumeric() && boundary {
            if let Some((len, what)) = pattern_at(&b[i..]) {
                out.extend_from_slice(what.as_bytes());
                i += len;
                continue;
            }
            let len = b[i..].iter().take_while(|x| x.is_ascii_alphanumeric()).count();
            let http_version = out.ends_with(b"HTTP/");
            i += word(&b[i..], len, http_version, &mut out);
            continue;
        }
        if c == b'%' && b.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
            out.extend_from_slice(&b[i..i + 3]);
            i += 3;
            continue;
        }
        out.push(c);
        i += 1;
    }
    let mut s = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    s.truncate(s.trim_end().len());
    if let Some((at, _)) = s.char_indices().nth(MAX_CHARS) {
        s.truncate(at);
        s.push('…');
    }
    s
}

/// `s` cut to `max` characters, with `…` when cut.
pub fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// The length of a quoted value to replace at the start of `b` (a quote): closed by the same
/// quote within 200 bytes without white space, not followed by a letter or digit, and holding a
/// digit or 24 characters or more.
fn quoted_len(b: &[u8]) -> Option<usize> {
    let q = *b.first()?;
    let close = b.iter().skip(1).take(200).position(|x| *x == q || x.is_ascii_whitespace())? + 1;
    let inner = b.get(1..close)?;
    let after_ok = b.get(close + 1).is_none_or(|x| !x.is_ascii_alphanumeric());
    let wanted = inner.iter().any(u8::is_ascii_digit) || inner.len() >= 24;
    (b.get(close) == Some(&q) && after_ok && wanted && !inner.is_empty()).then_some(close + 1)
}

/// A time, UUID or IP address at the start of `b`: its length and placeholder.
fn pattern_at(b: &[u8]) -> Option<(usize, &'static str)> {
    if let Some(n) = datetime(b) {
        return Some((n, "{time}"));
    }
    if let Some(n) = uuid(b) {
        return Some((n, "{uuid}"));
    }
    ipv4(b)
}

fn digits(b: &[u8], at: usize) -> usize {
    b.get(at..).map_or(0, |s| s.iter().take_while(|x| x.is_ascii_digit()).count())
}

/// `b[at..]` holds exactly `n` digits followed by `sep` (or the end when `sep` is 0).
fn field(b: &[u8], at: usize, n: usize, sep: u8) -> bool {
    digits(b, at) == n && (sep == 0 || b.get(at + n) == Some(&sep))
}

/// `HH:MM:SS[.frac]` at `at`: its end.
fn clock(b: &[u8], at: usize) -> Option<usize> {
    if !(field(b, at, 2, b':') && field(b, at + 3, 2, 0)) {
        return None;
    }
    let mut end = at + 5;
    if b.get(end) == Some(&b':') && digits(b, end + 1) == 2 {
        end += 3;
        if matches!(b.get(end), Some(b'.' | b',')) && digits(b, end + 1) > 0 {
            end += 1 + digits(b, end + 1);
        }
    } else {
        return None;
    }
    Some(end)
}

/// A date and time (or a time of day) at the start of `b`: its length.
fn datetime(b: &[u8]) -> Option<usize> {
    if !(field(b, 0, 4, b'-') && field(b, 5, 2, b'-') && digits(b, 8) == 2) {
        return clock(b, 0).filter(|e| b.get(*e).is_none_or(|x| !x.is_ascii_alphanumeric()));
    }
    let mut end = 10;
    if matches!(b.get(10), Some(b'T' | b' ')) {
        if let Some(e) = clock(b, 11) {
            end = e;
            match b.get(end) {
                Some(b'Z') => end += 1,
                Some(b'+' | b'-') if digits(b, end + 1) >= 2 => {
                    end += 1 + digits(b, end + 1);
                    if b.get(end) == Some(&b':') && digits(b, end + 1) == 2 {
                        end += 3;
                    }
                }
                _ => {}
            }
        }
    }
    Some(end)
}

/// A UUID at the start of `b`: its length.
fn uuid(b: &[u8]) -> Option<usize> {
    let mut at = 0;
    for (k, n) in [8usize, 4, 4, 4, 12].into_iter().enumerate() {
        let hex = b.get(at..)?.iter().take_while(|x| x.is_ascii_hexdigit()).count();
        if hex != n {
            return None;
        }
        at += n;
        if k < 4 {
            if b.get(at) != Some(&b'-') {
                return None;
            }
            at += 1;
        }
    }
    b.get(at).is_none_or(|x| !x.is_ascii_alphanumeric()).then_some(at)
}

/// An IPv4 address, with its port, at the start of `b`.
fn ipv4(b: &[u8]) -> Option<(usize, &'static str)> {
    let mut at = 0;
    for k in 0..4 {
        let n = digits(b, at);
        if !(1..=3).contains(&n) {
            return None;
        }
        at += n;
        if k < 3 {
            if b.get(at) != Some(&b'.') {
                return None;
            }
            at += 1;
        }
    }
    if b.get(at)
        .is_some_and(|x| x.is_ascii_alphanumeric() || *x == b'.' && b.get(at + 1).is_some_and(u8::is_ascii_digit))
    {
        return None;
    }
    let port = if b.get(at) == Some(&b':') { digits(b, at + 1) } else { 0 };
    Some(if port > 0 { (at + 1 + port, "{ip}:{port}") } else { (at, "{ip}") })
}

/// Writes the word of `len` bytes at the start of `b` (with a number's decimal part) to `out`,
/// replaced as the rules say; returns the bytes consumed.
fn word(b: &[u8], len: usize, http_version: bool, out: &mut Vec<u8>) -> usize {
    let w = &b[..len];
    let digit_count = w.iter().filter(|x| x.is_ascii_digit()).count();
    if digit_count == len {
        let mut end = len;
        if b.get(end) == Some(&b'.')
            && digits(b, end + 1) > 0
            && b.get(end + 1 + digits(b, end + 1)).is_none_or(|x| !x.is_ascii_alphabetic())
        {
            end += 1 + digits(b, end + 1);
        }
        let status = end == len && len == 3 && (b"100".as_slice()..=b"599".as_slice()).contains(&w);
        if http_version || status {
            out.extend_from_slice(&b[..end]);
        } else {
            out.extend_from_slice(b"{n}");
        }
        return end;
    }
    let hex = w.iter().all(u8::is_ascii_hexdigit);
    let longest_digits = w.split(|x| !x.is_ascii_digit()).map(<[u8]>::len).max().unwrap_or(0);
    if digit_count > 0 && (longest_digits >= 5 || len >= 16 || hex && len >= 8) {
        out.extend_from_slice(b"{id}");
    } else {
        out.extend_from_slice(w);
    }
    len
}
