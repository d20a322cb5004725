//! The splitter's fast path: one pass over a record, sixteen bytes at a time, that finds its
//! delimiters and its end together (SSE2 on x86-64, SIMD128 in wasm, a byte loop elsewhere).
//! Quoted fields without a doubled quote or a line break inside are taken in place, with no copy;
//! anything else (`""`, a quoted line break, a quote inside an unquoted field, text after a closing
//! quote, a lone `\r`) is left to the full RFC 4180 path (`super::quoted`), which the caller takes
//! on `Fast::Slow`.
//!
//! Before this, a record took three passes: `memchr` for its line end, `memchr2` for a quote or a
//! carriage return, and an eight-bytes-at-a-time split up to its last needed field; and a record
//! with a quoted label took the copying path, which looks for line breaks in every quoted field.

/// What the fast path made of the record at the start of the bytes it was given.
#[derive(Debug, PartialEq, Eq)]
pub enum Fast {
    /// Split: `consumed` bytes with the line break (if `has_nl`); the fields are in `bounds`.
    Done { consumed: usize, has_nl: bool },
    /// The record runs past the bytes given (and more will come).
    More,
    /// The record needs the full RFC 4180 path.
    Slow,
}

const QUOTE: u8 = b'"';

/// The positions of the bytes of `chunk` that are `delim`, `"`, `\n` or `\r`, as bits.
#[inline(always)]
pub(super) fn mask16(chunk: &[u8; 16], delim: u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline; the load is unaligned and reads 16 bytes.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let m = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, _mm_set1_epi8(delim as i8)),
                    _mm_cmpeq_epi8(v, _mm_set1_epi8(QUOTE as i8)),
                ),
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8)),
                    _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\r' as i8)),
                ),
            );
            _mm_movemask_epi8(m) as u32
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        // SAFETY: reads the 16 bytes of `chunk` (an unaligned load is allowed).
        let v = unsafe { v128_load(chunk.as_ptr().cast()) };
        let m = v128_or(
            v128_or(u8x16_eq(v, u8x16_splat(delim)), u8x16_eq(v, u8x16_splat(QUOTE))),
            v128_or(u8x16_eq(v, u8x16_splat(b'\n')), u8x16_eq(v, u8x16_splat(b'\r'))),
        );
        u32::from(u8x16_bitmask(m))
    }
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    {
        mask_bytes(chunk, delim)
    }
}

/// `mask16` a byte at a time, for the last bytes of the input (and targets without SIMD).
#[inline(always)]
fn mask_bytes(bytes: &[u8], delim: u8) -> u32 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |m, (i, &c)| m | (u32::from(c == delim || c == QUOTE || c == b'\n' || c == b'\r') << i))
}

/// The special bytes of `b` from a position on, in order.
struct Specials<'a> {
    b: &'a [u8],
    delim: u8,
    /// Start of the block `bits` describes.
    at: usize,
    bits: u32,
}

impl<'a> Specials<'a> {
    fn new(b: &'a [u8], delim: u8, from: usize) -> Self {
        let mut s = Specials { b, delim, at: from, bits: 0 };
        s.load();
        s
    }

    #[inline(always)]
    fn load(&mut self) {
        self.bits = match self.b.get(self.at..self.at + 16) {
            Some(chunk) => mask16(chunk.try_into().unwrap_or(&[0; 16]), self.delim),
            None => self.b.get(self.at..).map_or(0, |rest| mask_bytes(rest, self.delim)),
        };
    }

    /// The position of the next special byte, or `None` at the end of the bytes.
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.at += 16;
            if self.at >= self.b.len() {
                return None;
            }
            self.load();
        }
        let i = self.at + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(i)
    }

    /// Goes on from `pos` (after a quoted field).
    fn jump(&mut self, pos: usize) {
        self.at = pos;
        self.load();
    }
}

/// Splits the record at the start of `b` into at most `max_fields` fields, as offsets plus `base`
/// in `bounds`. `eof`: no bytes follow `b`.
#[inline(always)]
pub fn record(b: &[u8], eof: bool, delim: u8, max_fields: usize, base: usize, bounds: &mut Vec<(u32, u32)>) -> Fast {
    bounds.clear();
    if max_fields == 0 {
        return tail(b, eof, delim, 0);
    }
    // Every push is followed by a return once `max_fields` are in, so none overflows it.
    let push = |bounds: &mut Vec<(u32, u32)>, a: usize, z: usize| bounds.push(((base + a) as u32, (base + z) as u32));
    let mut specials = Specials::new(b, delim, 0);
    let mut field_start = 0usize;
    // The current field's content, when it was quoted.
    let mut quoted: Option<(usize, usize)> = None;
    loop {
        let Some(k) = specials.next() else {
            if !eof {
                return Fast::More;
            }
            let (a, z) = quoted.unwrap_or((field_start, b.len()));
            push(bounds, a, z);
            return Fast::Done { consumed: b.len(), has_nl: false };
        };
        let c = b[k];
        if c == delim {
            let (a, z) = quoted.take().unwrap_or((field_start, k));
            push(bounds, a, z);
            field_start = k + 1;
            if bounds.len() == max_fields {
                return tail(b, eof, delim, k + 1);
            }
        } else if c == b'\n' || c == b'\r' {
            if c == b'\r' {
                match b.get(k + 1) {
                    Some(b'\n') => {}
                    None if !eof => return Fast::More,
                    // A lone `\r` ends a record too (as in the csv crate): the full path knows how.
                    _ => return Fast::Slow,
                }
            }
            let (a, z) = quoted.unwrap_or((field_start, k));
            push(bounds, a, z);
            return Fast::Done { consumed: k + 1 + usize::from(c == b'\r'), has_nl: true };
        } else {
            // A quote: only a field that starts with one is quoted.
            if k != field_start || quoted.is_some() {
                return Fast::Slow;
            }
            let Some(close) = memchr::memchr2(QUOTE, b'\n', &b[k + 1..]).map(|q| k + 1 + q) else {
                return if eof { Fast::Slow } else { Fast::More };
            };
            match (b[close], b.get(close + 1)) {
                (QUOTE, Some(&n)) if n == delim || n == b'\n' || n == b'\r' => {}
                (QUOTE, None) if eof => {}
                (QUOTE, None) => return Fast::More,
                // `""`, a line break inside the quotes, or text after the closing quote.
                _ => return Fast::Slow,
            }
            quoted = Some((k + 1, close));
            specials.jump(close + 1);
        }
    }
}

/// The first line break, carriage return or quote of `b` from `from` on, sixteen bytes at a time:
/// `mask16` with the line break as the delimiter. A record's tail is about a hundred bytes, where
/// `memchr3` spent more on choosing and entering its loop than on the bytes (about 180
/// instructions a row natively; decision 0052).
#[inline(always)]
fn line_end_or_quote(b: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    // Two blocks a turn: one test and one branch for 32 bytes.
    while let Some(pair) = b.get(at..at + 32) {
        let (lo, hi) = pair.split_at(16);
        let bits = mask16(lo.try_into().ok()?, b'\n') | mask16(hi.try_into().ok()?, b'\n') << 16;
        if bits != 0 {
            return Some(at + bits.trailing_zeros() as usize);
        }
        at += 32;
    }
    while let Some(chunk) = b.get(at..at + 16) {
        let bits = mask16(chunk.try_into().ok()?, b'\n');
        if bits != 0 {
            return Some(at + bits.trailing_zeros() as usize);
        }
        at += 16;
    }
    let bits = mask_bytes(b.get(at..)?, b'\n');
    (bits != 0).then(|| at + bits.trailing_zeros() as usize)
}

/// The rest of a record whose needed fields are split, from `from` (a field start): only its end
/// is wanted (`line_end_or_quote`); a quoted field is skipped whole, so a line break inside it
/// does not end the record.
#[inline(always)]
fn tail(b: &[u8], eof: bool, delim: u8, mut from: usize) -> Fast {
    loop {
        let Some(k) = line_end_or_quote(b, from) else {
            return if eof { Fast::Done { consumed: b.len(), has_nl: false } } else { Fast::More };
        };
        match b[k] {
            b'\n' => return Fast::Done { consumed: k + 1, has_nl: true },
            b'\r' => {
                return match b.get(k + 1) {
                    Some(b'\n') => Fast::Done { consumed: k + 2, has_nl: true },
                    None if !eof => Fast::More,
                    _ => Fast::Slow,
                }
            }
            _ => {
                // A quote that starts a field opens a quoted field; any other is the full path's.
                if k != from && b[k - 1] != delim {
                    return Fast::Slow;
                }
                let Some(close) = memchr::memchr2(QUOTE, b'\n', &b[k + 1..]).map(|q| k + 1 + q) else {
                    return if eof { Fast::Slow } else { Fast::More };
                };
                match (b[close], b.get(close + 1)) {
                    (QUOTE, Some(&n)) if n == delim || n == b'\n' || n == b'\r' => from = close + 1,
                    (QUOTE, None) if eof => return Fast::Done { consumed: b.len(), has_nl: false },
                    (QUOTE, None) => return Fast::More,
                    _ => return Fast::Slow,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &[u8], eof: bool, max: usize) -> (Fast, Vec<String>) {
        let mut bounds = Vec::new();
        let r = record(text, eof, b',', max, 0, &mut bounds);
        (r, bounds.iter().map(|(a, z)| String::from_utf8_lossy(&text[*a as usize..*z as usize]).into_owned()).collect())
    }

    #[test]
    fn splits_plain_and_in_place_quoted_fields_across_blocks() {
        let row = b"1700000000000,123,\"GET /search?q=a,b\",200,OK,Thread Group 1-1,text,true,,1024,300\r\nnext";
        let (r, f) = fields(row, false, usize::MAX);
        assert_eq!(r, Fast::Done { consumed: row.len() - 4, has_nl: true });
        assert_eq!(
            f,
            [
                "1700000000000",
                "123",
                "GET /search?q=a,b",
                "200",
                "OK",
                "Thread Group 1-1",
                "text",
                "true",
                "",
                "1024",
                "300"
            ]
        );
        let (_, f) = fields(row, false, 3);
        assert_eq!(f, ["1700000000000", "123", "GET /search?q=a,b"]);
    }

    #[test]
    fn a_field_limit_keeps_the_first_fields_and_still_finds_the_record_end() {
        let row = b"\"q,1\",2,,\"x\",5,6,7,8,9,\"a,b\",11\r\nnext";
        let (all, every) = fields(row, false, usize::MAX);
        assert_eq!(all, Fast::Done { consumed: row.len() - 4, has_nl: true });
        assert_eq!(every.len(), 11);
        for max in 0..=12 {
            let (r, f) = fields(row, false, max);
            assert_eq!(r, all, "max {max}");
            assert_eq!(f, every[..max.min(11)], "max {max}");
        }
    }

    #[test]
    fn leaves_the_awkward_cases_to_the_full_path() {
        for text in [&b"a,\"x\"\"y\",b\n"[..], b"a,\"x\ny\",b\n", b"a,x\"y,b\n", b"a,\"x\"tail,b\n", b"a,b\rc\n"] {
            assert_eq!(fields(text, true, usize::MAX).0, Fast::Slow, "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn asks_for_more_until_the_record_ends_or_the_input_does() {
        assert_eq!(fields(b"a,b,c", false, usize::MAX).0, Fast::More);
        assert_eq!(fields(b"a,\"b,c", false, usize::MAX).0, Fast::More);
        assert_eq!(fields(b"a,b\r", false, usize::MAX).0, Fast::More);
        assert_eq!(
            fields(b"a,b,c", true, usize::MAX),
            (Fast::Done { consumed: 5, has_nl: false }, vec!["a".into(), "b".into(), "c".into()])
        );
        assert_eq!(
            fields(b"a,\"b\"", true, usize::MAX),
            (Fast::Done { consumed: 5, has_nl: false }, vec!["a".into(), "b".into()])
        );
    }

    #[test]
    fn the_line_end_or_quote_is_memchr3s_from_every_start_in_every_length() {
        // Sparse special bytes, so that the search crosses several 16-byte blocks and the end.
        let bytes: Vec<u8> = (0..90usize)
            .map(|i| match i % 37 {
                5 => b'"',
                17 => b'\r',
                30 => b'\n',
                _ => b'a' + (i % 7) as u8,
            })
            .collect();
        for len in 0..=bytes.len() {
            let b = &bytes[..len];
            for from in 0..=len {
                let want = memchr::memchr3(b'\n', b'\r', QUOTE, &b[from..]).map(|k| from + k);
                assert_eq!(line_end_or_quote(b, from), want, "len {len}, from {from}");
            }
        }
        // Delimiters and other bytes are not special here.
        assert_eq!(line_end_or_quote(b"1,2,3,4,5,6,7,8,9,10,11,12", 0), None);
    }

    #[test]
    fn the_block_mask_agrees_with_the_byte_loop() {
        let bytes: Vec<u8> = (0..64u8)
            .map(|i| [b'a', b',', b'"', b'\n', b'\r', b'\t', 0x80, b'x'][(i as usize * 7 + i as usize / 3) % 8])
            .collect();
        for at in 0..48 {
            let chunk: &[u8; 16] = bytes[at..at + 16].try_into().unwrap();
            for delim in [b',', b'\t'] {
                assert_eq!(mask16(chunk, delim), mask_bytes(chunk, delim), "at {at}");
            }
        }
    }
}
