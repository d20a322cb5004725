//! A transaction's timeline in one pass over its packed samples, for the common big one (integer
//! values, more than `EXACT_VALUES` distinct values and more than `EXACT_CELLS` cells): bucket
//! sums and logarithmic cells are added up at once, and exact cells are only counted (a bit per
//! distinct value and bucket) until the transaction is known not to be exact. Any other
//! transaction (exact, float-valued, small) is left to `buckets.rs`.

use super::buckets::{log_centre, log_key, Lookup, EXACT_CELLS, EXACT_VALUES};
use super::seconds::{unpack, Seconds, NO_VALUE};

/// Values below this have their slot in a table, one `u32` per value; larger ones in a map.
const MAX_DENSE_VALUE: u64 = 1 << 16;
/// Logarithmic columns of integer values below 2^31: zero, then ⌊24·log2 v⌋ + 1 ≤ 744.
const KEYS: usize = 1 << COL_BITS;
/// A slot holds (distinct value id + 1) << `COL_BITS` | its column.
const COL_BITS: u32 = 10;
const COL_MASK: u32 = (1 << COL_BITS) - 1;
/// Grids with more buckets are left to `buckets.rs` (the table is buckets × columns).
const MAX_BUCKETS: usize = 4096;

/// Work space reused from one transaction to the next.
#[derive(Default)]
pub(super) struct FoldScratch {
    /// Per value below `MAX_DENSE_VALUE`: 0 when unseen, else its slot (id and column).
    slots: Vec<u32>,
    /// The slots of larger values.
    big: rustc_hash::FxHashMap<u64, u32>,
    /// The distinct values seen (to clear their slots).
    values: Vec<u32>,
    /// Per key index: its column + 1, 0 when unseen.
    key_col: Vec<u16>,
    /// Per column: its key index.
    keys: Vec<u16>,
    /// Column-major counts: `table[column · buckets + bucket]`.
    table: Vec<u64>,
    /// Per distinct value id, a bit per bucket: the exact cells seen (while counting).
    bits: Vec<u64>,
}

/// Per bucket: samples, errors, sum of elapsed ms.
#[derive(Clone, Copy, Default)]
pub(super) struct Sums {
    pub samples: u64,
    pub errors: u64,
    pub sum_ms: f64,
}

/// A transaction folded: per-bucket sums and logarithmic cells (never exact).
pub(super) struct Folded {
    pub sums: Vec<Sums>,
    pub timed: u64,
    pub values_ms: Vec<f64>,
    pub cells: Vec<Vec<u64>>,
}

/// The key index of a value (its column before columns are numbered): 0 for zero, else
/// `log_key` from 1 on.
fn key_index(v: u64) -> usize {
    match log_key(v as f64) {
        0 => 0,
        k => (k - (1 << 40) + 1) as usize,
    }
}

fn key_of_index(i: u16) -> u64 {
    match i {
        0 => 0,
        i => u64::from(i) - 1 + (1 << 40),
    }
}

/// What the pass counts besides the tables.
#[derive(Clone, Copy)]
struct Counts {
    timed: u64,
    /// Exact cells seen, while counting them can still decide exactness.
    cells: usize,
    counting: bool,
}

impl FoldScratch {
    /// Adds the samples `entries` (packed sample, count) of a grid of `n` buckets (`at`).
    #[inline(always)]
    fn add(
        &mut self,
        n: usize,
        at: &Lookup,
        sums: &mut [Sums],
        k: &mut Counts,
        entries: impl Iterator<Item = (u64, u64)>,
    ) {
        let (lookup, first) = at.table();
        let words = n.div_ceil(64);
        let mut c2 = *k;
        for (p, c) in entries {
            let (off, failed, v) = unpack(p);
            let b = match lookup.get(off.wrapping_sub(first) as usize) {
                Some(&b) => (b as usize).wrapping_sub(1),
                None => at.far(off).unwrap_or(usize::MAX),
            };
            let Some(s) = sums.get_mut(b) else { continue };
            s.samples += c;
            s.errors += u64::from(failed) * c;
            if v == NO_VALUE {
                continue;
            }
            // Packed values are below 2^31.
            s.sum_ms += f64::from(v as u32) * c as f64;
            c2.timed += c;
            let slot = match self.slots.get(v as usize) {
                Some(&slot) if slot != 0 => slot,
                _ => self.new_value(v, n, words, c2.counting),
            };
            if c2.counting && self.mark(slot, b, words) {
                c2.cells += 1;
                c2.counting = !(c2.cells > EXACT_CELLS && self.values.len() > EXACT_VALUES);
            }
            if let Some(t) = self.table.get_mut((slot & COL_MASK) as usize * n + b) {
                *t += c;
            }
        }
        *k = c2;
    }

    /// Marks the cell (value of `slot`, bucket `b`) seen; whether it is new.
    #[inline(always)]
    fn mark(&mut self, slot: u32, b: usize, words: usize) -> bool {
        let id = ((slot >> COL_BITS) as usize).wrapping_sub(1);
        let bit = 1u64 << (b % 64);
        match self.bits.get_mut(id.wrapping_mul(words).wrapping_add(b / 64)) {
            Some(w) if *w & bit == 0 => {
                *w |= bit;
                true
            }
            _ => false,
        }
    }

    /// The slot of a value seen for the first time, or of a value past `MAX_DENSE_VALUE`, over a
    /// grid of `n` buckets (`words` words of bits per value while `counting`).
    #[cold]
    #[inline(never)]
    fn new_value(&mut self, v: u64, n: usize, words: usize, counting: bool) -> u32 {
        if v >= MAX_DENSE_VALUE {
            if let Some(slot) = self.big.get(&v) {
                return *slot;
            }
        } else if self.slots.len() <= v as usize {
            self.slots.resize((v as usize + 1).next_power_of_two(), 0);
        }
        let key = key_index(v);
        let col = match self.key_col.get(key) {
            Some(&c) if c > 0 => c - 1,
            _ => {
                let c = self.keys.len() as u16;
                self.keys.push(key as u16);
                if let Some(k) = self.key_col.get_mut(key) {
                    *k = c + 1;
                }
                self.table.resize(self.table.len() + n, 0);
                c
            }
        };
        self.values.push(v as u32);
        // Ids are read only while cells are counted (ids up to 4,097); past 2^22 values the id
        // bits wrap, the column stays right.
        let slot = ((self.values.len() as u32) << COL_BITS) | u32::from(col);
        match self.slots.get_mut(v as usize) {
            Some(s) => *s = slot,
            None => {
                self.big.insert(v, slot);
            }
        }
        if counting {
            self.bits.resize(self.bits.len() + words, 0);
        }
        slot
    }

    fn clear(&mut self) {
        for v in self.values.drain(..) {
            if let Some(s) = self.slots.get_mut(v as usize) {
                *s = 0;
            }
        }
        for k in self.keys.drain(..) {
            if let Some(c) = self.key_col.get_mut(usize::from(k)) {
                *c = 0;
            }
        }
        self.key_col.resize(KEYS, 0);
        self.big.clear();
        self.table.clear();
        self.bits.clear();
    }
}

/// The timeline of `s` over `n` buckets (`at` finds a sample's bucket) in one pass; `None` when
/// the transaction is exact, small, float-valued or too wide for this way (`buckets.rs` then).
pub(super) fn fold(n: usize, at: &Lookup, s: &Seconds, sc: &mut FoldScratch) -> Option<Folded> {
    let entries = s.packed.len() as u64 + s.runs.iter().map(|r| r.1).sum::<u64>();
    if n > MAX_BUCKETS || entries <= EXACT_CELLS as u64 || s.wide.iter().any(|w| w.value.is_some()) {
        return None;
    }
    sc.clear();
    let mut sums = vec![Sums::default(); n];
    let mut k = Counts { timed: 0, cells: 0, counting: true };
    sc.add(n, at, &mut sums, &mut k, s.runs.iter().copied());
    sc.add(n, at, &mut sums, &mut k, s.packed.iter().map(|p| (*p, 1)));
    if k.cells <= EXACT_CELLS || sc.values.len() <= EXACT_VALUES {
        return None;
    }
    for w in &s.wide {
        if let Some(b) = at.grid.of_second(w.second).and_then(|b| sums.get_mut(b)) {
            b.samples = b.samples.saturating_add(w.samples);
            b.errors = b.errors.saturating_add(w.errors);
        }
    }
    // Columns in the order of their keys (the values' order).
    let mut order: Vec<(u16, usize)> = sc.keys.iter().enumerate().map(|(col, k)| (*k, col)).collect();
    order.sort_unstable();
    let values_ms = order.iter().map(|(k, _)| log_centre(key_of_index(*k))).collect();
    let (mut cells, mut row) = (Vec::with_capacity(n), Vec::new());
    for b in 0..n {
        row.clear();
        for (rank, (_, col)) in order.iter().enumerate() {
            match sc.table.get(col * n + b) {
                Some(&c) if c > 0 => row.extend([rank as u64, c]),
                _ => {}
            }
        }
        cells.push(row.clone());
    }
    Some(Folded { sums, timed: k.timed, values_ms, cells })
}

#[cfg(test)]
mod tests {
    use super::super::{timeline_of, Seconds, Users};
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// One label's timeline against a recount of its samples (start ms, elapsed ms, failed):
    /// exactness by counting distinct values and (bucket, value) pairs, and the log cells.
    fn check(samples: &[(i64, u64, bool)]) -> bool {
        let mut s = Seconds::default();
        for (t, e, f) in samples {
            s.add(*t, Some(*e), 1, u64::from(*f));
        }
        let tl = timeline_of(std::iter::once(("x", false, &s)), &Users::default()).unwrap();
        let t = &tl.transactions[0];
        let bucket = |ms: i64| ((ms - tl.start_ms) / (i64::from(tl.interval_s) * 1000)) as usize;
        let distinct: BTreeSet<u64> = samples.iter().map(|x| x.1).collect();
        let pairs: BTreeSet<(usize, u64)> = samples.iter().map(|x| (bucket(x.0), x.1)).collect();
        assert_eq!(t.exact, distinct.len() <= EXACT_VALUES || pairs.len() <= EXACT_CELLS);
        let mut want: Vec<BTreeMap<u64, u64>> = vec![BTreeMap::new(); tl.buckets as usize];
        let (mut errors, mut sums) = (vec![0u64; want.len()], vec![0f64; want.len()]);
        for (ms, e, f) in samples {
            let k = if t.exact { *e as f64 } else { log_centre(log_key(*e as f64)) };
            *want[bucket(*ms)].entry(k.to_bits()).or_default() += 1;
            errors[bucket(*ms)] += u64::from(*f);
            sums[bucket(*ms)] += *e as f64;
        }
        for (b, w) in want.iter().enumerate() {
            let got: BTreeMap<u64, u64> =
                t.cells[b].chunks(2).map(|p| (t.values_ms[p[0] as usize].to_bits(), p[1])).collect();
            assert_eq!(&got, w, "bucket {b}");
            assert_eq!(t.samples[b], w.values().sum::<u64>());
        }
        assert_eq!((&t.errors, &t.sum_ms), (&errors, &sums));
        t.exact
    }

    #[test]
    fn log_cells_equal_a_recount_with_huge_values_and_compacted_samples() {
        // 200,000 samples (compacted while added) over ten minutes, out of time order, values
        // from 0 to past 2^20 (those have no slot of their own).
        let samples: Vec<(i64, u64, bool)> = (0..200_000u64)
            .map(|i| {
                let e = match i % 1000 {
                    0 => (1 << 20) + i % 7,
                    1 => 0,
                    _ => 5 + (i * 7919) % 3000,
                };
                (1_700_000_000_000 + ((i * 104_729) % 600_000) as i64, e, i % 31 == 0)
            })
            .collect();
        assert!(!check(&samples));
    }

    #[test]
    fn exactness_turns_at_the_stated_cells() {
        // 100 values in buckets of one second: 4,096 distinct (bucket, value) pairs, then 4,097.
        let base = 1_700_000_000_000i64;
        let at = |i: u64| (base + (i / 100) as i64 * 1000 + 3, 10 + i % 100, false);
        let mut samples: Vec<(i64, u64, bool)> = (0..4096u64).map(at).collect();
        samples.extend(samples.clone());
        assert!(check(&samples), "4,096 cells");
        samples.push(at(4096));
        assert!(!check(&samples), "4,097 cells");
    }
}
