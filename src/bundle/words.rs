//! borsh's own bytes for lists of 64-bit words and of pairs of them (a `u32` count, then each
//! word little-endian), written and read a block at a time. borsh's `Vec<u64>` goes through its
//! reader one word at a time (about 9 ns a word natively), and the big lists travel several
//! times: a 1M-row run's timeline cells are about 690,000 words, encoded by the ingest worker,
//! decoded by the page, encoded again for the writer and decoded there; a range's samples (8
//! bytes each) go from one ingest worker to another. Words and pairs are borsh's own bytes, so
//! either side may be either (tests below); a timeline's cells (`write_lists`) are not: when every
//! word fits 32 bits, as value indices and counts do, they travel in 4 bytes each.

use borsh::io::{Error, ErrorKind, Read, Write};

/// Bytes per write or read.
const BLOCK: usize = 4096;

/// A word from its eight little-endian bytes.
#[inline(always)]
fn word(b: &[u8]) -> u64 {
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// A list's `u32` count, as borsh writes it.
#[inline(always)]
fn write_count<W: Write>(n: usize, w: &mut W) -> Result<(), Error> {
    let n = u32::try_from(n).map_err(|_| Error::new(ErrorKind::InvalidData, "a list longer than 2^32"))?;
    w.write_all(&n.to_le_bytes())
}

/// What `write_count` wrote.
#[inline(always)]
fn read_count<R: Read>(r: &mut R) -> Result<usize, Error> {
    let mut n = [0u8; 4];
    r.read_exact(&mut n)?;
    Ok(u32::from_le_bytes(n) as usize)
}

/// A `u32` count, then each item's `size` bytes as `put` writes them, a block at a time.
#[inline(always)]
fn write_items<W: Write, T>(items: &[T], size: usize, put: impl Fn(&T, &mut [u8]), w: &mut W) -> Result<(), Error> {
    write_count(items.len(), w)?;
    let mut buf = [0u8; BLOCK];
    for chunk in items.chunks(BLOCK / size) {
        for (b, x) in buf.chunks_exact_mut(size).zip(chunk) {
            put(x, b);
        }
        w.write_all(&buf[..chunk.len() * size])?;
    }
    Ok(())
}

/// What `write_items` wrote. A damaged count gets no more room than the items that actually come
/// (the list grows a block at a time) and fails where the data ends.
#[inline(always)]
fn read_items<R: Read, T>(r: &mut R, size: usize, item: impl Fn(&[u8]) -> T) -> Result<Vec<T>, Error> {
    let mut left = read_count(r)?;
    let mut out = Vec::with_capacity(left.min(BLOCK * 64 / size));
    let mut buf = [0u8; BLOCK];
    while left > 0 {
        let n = left.min(BLOCK / size);
        r.read_exact(&mut buf[..n * size])?;
        out.extend(buf[..n * size].chunks_exact(size).map(&item));
        left -= n;
    }
    Ok(out)
}

/// `serialize_with` for a `Vec<u64>`: what borsh writes for it.
pub(crate) fn write_words<W: Write>(words: &[u64], w: &mut W) -> Result<(), Error> {
    write_items(words, 8, |x, b| b.copy_from_slice(&x.to_le_bytes()), w)
}

/// `deserialize_with` for a `Vec<u64>`: what borsh reads for it.
pub(crate) fn read_words<R: Read>(r: &mut R) -> Result<Vec<u64>, Error> {
    read_items(r, 8, word)
}

/// `serialize_with` for a `Vec<(u64, u64)>`: what borsh writes for it (each pair's two words).
pub(crate) fn write_pairs<W: Write>(pairs: &[(u64, u64)], w: &mut W) -> Result<(), Error> {
    let put = |(x, y): &(u64, u64), b: &mut [u8]| {
        b[..8].copy_from_slice(&x.to_le_bytes());
        b[8..].copy_from_slice(&y.to_le_bytes());
    };
    write_items(pairs, 16, put, w)
}

/// `deserialize_with` for a `Vec<(u64, u64)>`.
pub(crate) fn read_pairs<R: Read>(r: &mut R) -> Result<Vec<(u64, u64)>, Error> {
    read_items(r, 16, |b| (word(&b[..8]), word(&b[8..])))
}

/// How many bytes each word of `lists` takes in `write_lists`: 4 when every word fits 32 bits.
pub(crate) fn lists_width(lists: &[Vec<u64>]) -> usize {
    if lists.iter().flatten().all(|w| *w <= u64::from(u32::MAX)) {
        4
    } else {
        8
    }
}

/// `serialize_with` for a `Vec<Vec<u64>>` (a timeline's cells per bucket): a `u32` count, the
/// words' width (`lists_width`, one byte), then each list as `write_words` writes it but with
/// words of that width.
pub(crate) fn write_lists<W: Write>(lists: &[Vec<u64>], w: &mut W) -> Result<(), Error> {
    write_count(lists.len(), w)?;
    if lists.is_empty() {
        return Ok(());
    }
    let width = lists_width(lists);
    w.write_all(&[width as u8])?;
    lists.iter().try_for_each(|l| write_items(l, width, |x, b| b.copy_from_slice(&x.to_le_bytes()[..width]), w))
}

/// What `write_lists` wrote.
pub(crate) fn read_lists<R: Read>(r: &mut R) -> Result<Vec<Vec<u64>>, Error> {
    let len = read_count(r)?;
    let mut width = [0u8];
    if len > 0 {
        r.read_exact(&mut width)?;
    }
    let width = usize::from(width[0]);
    if len > 0 && width != 4 && width != 8 {
        return Err(Error::new(ErrorKind::InvalidData, "a list of words of an unknown width"));
    }
    let word = |b: &[u8]| {
        let mut w = [0u8; 8];
        w[..b.len()].copy_from_slice(b);
        u64::from_le_bytes(w)
    };
    let mut out = Vec::with_capacity(len.min(4096));
    for _ in 0..len {
        out.push(read_items(r, width, word)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists() -> Vec<Vec<u64>> {
        let long: Vec<u64> = (0..3 * (BLOCK / 8) as u64 + 7).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        vec![vec![], vec![0, u64::MAX, 1 << 63], long, (0..(BLOCK / 8) as u64).collect()]
    }

    #[test]
    fn the_bytes_are_borshs_own_both_ways() {
        for l in lists() {
            let mut mine = Vec::new();
            write_words(&l, &mut mine).unwrap();
            assert_eq!(mine, borsh::to_vec(&l).unwrap(), "{} words", l.len());
            assert_eq!(read_words(&mut mine.as_slice()).unwrap(), l);
        }
        for n in [0, 1, BLOCK / 16, BLOCK / 8 + 3] {
            let pairs: Vec<(u64, u64)> = (0..n as u64).map(|i| (i << 40 | 7, u64::MAX - i)).collect();
            let mut mine = Vec::new();
            write_pairs(&pairs, &mut mine).unwrap();
            assert_eq!(mine, borsh::to_vec(&pairs).unwrap(), "{n} pairs");
            assert_eq!(read_pairs(&mut mine.as_slice()).unwrap(), pairs);
        }
    }

    #[test]
    fn cells_that_fit_32_bits_travel_in_4_bytes_a_word_and_read_back() {
        let narrow: Vec<Vec<u64>> =
            vec![vec![], vec![0, 1, u64::from(u32::MAX)], (0..3 * (BLOCK / 4) as u64 + 5).collect()];
        let mut wide = narrow.clone();
        wide[1].push(u64::from(u32::MAX) + 1);
        for (all, width) in [(narrow, 4), (wide, 8), (lists(), 8), (vec![], 0)] {
            let mut mine = Vec::new();
            write_lists(&all, &mut mine).unwrap();
            let words: usize = all.iter().map(Vec::len).sum();
            let header = if all.is_empty() { 4 } else { 5 };
            assert_eq!(mine.len(), header + 4 * all.len() + width * words, "{width}-byte words");
            let mut rest = mine.as_slice();
            assert_eq!(read_lists(&mut rest).unwrap(), all);
            assert!(rest.is_empty(), "every byte read");
        }
    }

    #[test]
    fn short_or_damaged_input_is_an_error_not_a_huge_allocation() {
        let mut bytes = borsh::to_vec(&lists()[2]).unwrap();
        for cut in [0, 3, 4, 11, bytes.len() - 1] {
            assert!(read_words(&mut &bytes[..cut]).is_err(), "cut at {cut}");
        }
        // A count of 4 billion words with 16 bytes behind it.
        bytes.truncate(20);
        bytes[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_words(&mut bytes.as_slice()).is_err());
        assert!(read_lists(&mut &u32::MAX.to_le_bytes()[..]).is_err());
        let mut cells = Vec::new();
        write_lists(&[vec![1, 2], vec![3]], &mut cells).unwrap();
        for cut in [4, 5, 8, 12, cells.len() - 1] {
            assert!(read_lists(&mut &cells[..cut]).is_err(), "cells cut at {cut}");
        }
        cells[4] = 3;
        assert!(read_lists(&mut cells.as_slice()).is_err(), "an unknown width");
        assert!(read_pairs(&mut bytes.as_slice()).is_err());
        assert!(read_pairs(&mut &borsh::to_vec(&vec![(1u64, 2u64)]).unwrap()[..19]).is_err());
    }
}
