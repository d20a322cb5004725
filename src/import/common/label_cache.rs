//! A small direct-mapped cache in front of an aggregator's label index: the label of every
//! sample is looked up, and in wasm the map's key comparison is compiler-builtins' `memcmp`, a
//! loop over single bytes (about a tenth of a JTL import's time in a wasm profile). The cache
//! compares eight bytes at a time and skips the map's probing; the map stays the truth.

use std::hash::Hasher;

/// Slots, by the hash's low bits: with 256, about five pairs of a run's 50 labels shared a slot and
/// took turns missing (7 % of lookups went to the map); with 2,048, under one pair does.
const SLOTS: usize = 2048;

/// Slots of (hash, label id + 1; 0 = empty) and the raw bytes of the labels it has seen by id.
#[derive(Debug, Clone, Default)]
pub struct LabelCache {
    slots: Vec<(u64, u32)>,
    raws: Vec<Box<[u8]>>,
}

/// The cache's hash of a label.
#[inline]
pub fn hash(raw: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(raw);
    h.finish()
}

/// Whether `a` and `b` hold the same bytes, compared a word at a time; the last word overlaps
/// the one before it rather than copying a remainder (a copy of a variable length is a call to
/// `memcpy`, once per sample).
#[inline]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    if len < 8 {
        return a == b;
    }
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
    // Whole words, then the last eight bytes (overlapping the last whole word, or equal to it).
    a.chunks_exact(8).zip(b.chunks_exact(8)).all(|(x, y)| word(x) == word(y))
        && word(&a[len - 8..]) == word(&b[len - 8..])
}

impl LabelCache {
    /// The id of `raw` if the cache holds it.
    #[inline]
    pub fn get(&self, hash: u64, raw: &[u8]) -> Option<u32> {
        let (h, id1) = *self.slots.get(hash as usize % SLOTS)?;
        let id = id1.checked_sub(1)?;
        (h == hash && self.raws.get(id as usize).is_some_and(|r| same(r, raw))).then_some(id)
    }

    /// Remembers that `raw` (hash `hash`) is label `id`. A new label's bytes are kept when its id
    /// is the next one (labels are numbered in order of first sight); others are not cached.
    pub fn put(&mut self, hash: u64, raw: &[u8], id: u32) {
        if id as usize == self.raws.len() {
            self.raws.push(raw.into());
        }
        if (id as usize) < self.raws.len() {
            if self.slots.is_empty() {
                self.slots = vec![(0, 0); SLOTS];
            }
            self.slots[hash as usize % SLOTS] = (hash, id + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_agrees_with_slice_equality_at_every_length_and_position_of_a_difference() {
        for len in 0..40usize {
            let a: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            assert!(same(&a, &a.clone()));
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x80;
                assert!(!same(&a, &b), "len {len}, byte {at}");
            }
            assert!(!same(&a, &a[..len.saturating_sub(1)]) || len == 0);
        }
        // A shorter slice padded with zeros is not the longer one.
        assert!(!same(b"ab", b"ab\0"));
    }

    #[test]
    fn the_cache_answers_only_for_the_bytes_it_holds() {
        let mut c = LabelCache::default();
        let labels: Vec<Vec<u8>> = (0..1000).map(|i| format!("label number {i}").into_bytes()).collect();
        for (i, l) in labels.iter().enumerate() {
            assert_eq!(c.get(hash(l), l), None);
            c.put(hash(l), l, i as u32);
            assert_eq!(c.get(hash(l), l), Some(i as u32));
        }
        // Slots are shared: a later label may have taken an earlier one's slot, never its answer.
        for (i, l) in labels.iter().enumerate() {
            assert!(c.get(hash(l), l).is_none_or(|id| id == i as u32));
        }
        // The same hash with other bytes is a miss.
        let l = &labels[999];
        assert_eq!(c.get(hash(l), b"label number 998"), None);
        // An id out of order is not cached.
        c.put(hash(b"x"), b"x", 5000);
        assert_eq!(c.get(hash(b"x"), b"x"), None);
    }
}
