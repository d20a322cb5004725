//! Unsigned decimal integers, eight digits of a long one read at once (one word: all eight
//! checked to be digits, then combined in three multiplications): every JTL row starts with a
//! 13-digit timestamp. The same answers as a digit-by-digit loop, in fewer instructions
//! (docs/decisions/0052-timeline-buckets.md).

/// Every byte of `x` is an ASCII digit.
#[inline(always)]
fn all_digits(x: u64) -> bool {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    // High nibble 3 (0x30..=0x3F), and still 3 once 6 is added (no byte above 0x39; no carry,
    // as every byte is at most 0x3F).
    x & HIGH == ZEROS && x.wrapping_add(0x0606_0606_0606_0606) & HIGH == ZEROS
}

/// The number written by the eight ASCII digits of `x`, the first in its lowest byte.
#[inline(always)]
fn combine(x: u64) -> u64 {
    let x = (x & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(10 << 8 | 1) >> 8;
    let x = (x & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1) >> 16;
    (x & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1) >> 32
}

/// Up to seven digits (or any count, slower), one at a time.
#[inline(always)]
fn few(b: &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u64::from(d);
    }
    Some(v)
}

/// Exactly eight digits, as one word.
#[inline(always)]
fn eight(b: [u8; 8]) -> Option<u64> {
    let x = u64::from_le_bytes(b);
    all_digits(x).then(|| combine(x))
}

/// Powers of ten up to 10^8.
const POW10: [u64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/// The value of 1 to 19 ASCII digits (no sign, no space); `None` for anything else. Fewer than
/// eight are read one at a time (a word costs more for them); 8 to 16 as two words, the first
/// eight and the last eight (overlapping: every digit is checked), the first cut to the digits
/// before the last eight; more, the digits before the last eight one at a time.
#[inline(always)]
pub fn uint(b: &[u8]) -> Option<u64> {
    let n = b.len();
    match n {
        1..=7 => few(b),
        8..=16 => {
            let first = eight(b.get(..8)?.try_into().ok()?)?;
            let last = eight(b.get(n - 8..)?.try_into().ok()?)?;
            // A 13-digit epoch-ms timestamp (every JTL row) divides by a constant.
            let high = if n == 13 { first / 1000 } else { first / POW10.get(16 - n)? };
            Some(high * 100_000_000 + last)
        }
        17..=19 => {
            let (high, low) = b.split_at(n - 8);
            // At most 11 digits before the last eight: below 10^11 · 10^8 + 10^8, no overflow.
            Some(few(high)? * 100_000_000 + eight(low.try_into().ok()?)?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::uint;

    /// The digit-by-digit definition.
    fn slow(b: &[u8]) -> Option<u64> {
        if b.is_empty() || b.len() > 19 || !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(b.iter().fold(0u64, |v, c| v * 10 + u64::from(c - b'0')))
    }

    #[test]
    fn every_length_and_every_byte_gives_the_digit_by_digit_answer() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for len in 0..=21usize {
            for _ in 0..2000 {
                let mut b: Vec<u8> = (0..len).map(|_| b'0' + (next() % 10) as u8).collect();
                assert_eq!(uint(&b), slow(&b), "{:?}", String::from_utf8_lossy(&b));
                if len > 0 {
                    // Any byte at any place: a digit or not.
                    let at = (next() % len as u64) as usize;
                    b[at] = next() as u8;
                    assert_eq!(uint(&b), slow(&b), "{b:?}");
                }
            }
            for c in 0..=255u8 {
                let b = vec![c; len];
                assert_eq!(uint(&b), slow(&b), "{b:?}");
            }
        }
        assert_eq!(uint(b"9999999999999999999"), Some(9_999_999_999_999_999_999));
        assert_eq!(uint(b"1700000000123"), Some(1_700_000_000_123));
        assert_eq!(uint(b"00000000000000000007"), None);
    }
}
