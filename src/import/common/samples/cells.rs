//! A transaction's cells counted without sorting its values, for integer values (JTL, Gatling):
//! one pass marks each value's last bucket (so distinct values and exact cells are counted), a
//! second adds every value to its column (its rank, or its logarithmic bucket) in a dense
//! buckets × columns table. `buckets.rs` sorts instead for small or float-valued transactions.

use super::buckets::{log_centre, log_key, Cells, Timed, EXACT_CELLS, EXACT_VALUES};

/// Values at or above this are counted by sorting (the marks are one `u32` per value).
const MAX_VALUE: u32 = 1 << 20;
/// Tables larger than this (buckets × columns) are left to sorting.
const MAX_TABLE: usize = 1 << 21;

/// Work space reused from one transaction to the next.
#[derive(Default)]
pub(super) struct Scratch {
    /// Per value: 0 when unseen, else (pass 1) its last bucket + 1, (pass 2) its column.
    marks: Vec<u32>,
    distinct: Vec<u32>,
    table: Vec<u64>,
    /// The values grouped by bucket, with their counts.
    grouped: Vec<(u32, u64)>,
    /// For `fold.rs`.
    pub fold: super::fold::FoldScratch,
}

/// The cells of the timed samples `t` (`per_bucket` entries in each bucket, integers up to
/// `max`) over `n` buckets; `None` when a value or the table is too large for this way.
pub(super) fn dense(n: usize, per_bucket: &[usize], max: u64, t: &Timed, sc: &mut Scratch) -> Option<Cells> {
    if max >= u64::from(MAX_VALUE) {
        return None;
    }
    // The values grouped by bucket (samples come in any time order), then marked bucket after
    // bucket: a value's mark is the last bucket it was seen in, so each new mark is a cell.
    let mut at: Vec<usize> = Vec::with_capacity(n + 1);
    let mut total = 0;
    for c in per_bucket {
        at.push(total);
        total += c;
    }
    let ends: Vec<usize> = at.iter().zip(per_bucket).map(|(a, c)| a + c).collect();
    sc.grouped.clear();
    sc.grouped.resize(total, (0, 0));
    let grouped = &mut sc.grouped;
    t.each(|b, v, c| {
        if let Some(slot) = at.get_mut(b).and_then(|i| {
            *i += 1;
            grouped.get_mut(*i - 1)
        }) {
            *slot = (v as u32, c);
        }
    });
    if sc.marks.len() <= max as usize {
        sc.marks.resize(max as usize + 1, 0);
    }
    sc.distinct.clear();
    let mut cells = 0usize;
    let (marks, distinct) = (&mut sc.marks, &mut sc.distinct);
    let mut from = 0;
    for (b, end) in ends.iter().enumerate() {
        for &(v, _) in grouped.get(from..*end).unwrap_or(&[]) {
            if let Some(m) = marks.get_mut(v as usize) {
                if *m != b as u32 + 1 {
                    if *m == 0 {
                        distinct.push(v);
                    }
                    *m = b as u32 + 1;
                    cells += 1;
                }
            }
        }
        from = *end;
    }
    distinct.sort_unstable();
    let exact = distinct.len() <= EXACT_VALUES || cells <= EXACT_CELLS;
    let mut values_ms: Vec<f64> = Vec::new();
    let mut last_key = None;
    for v in distinct.iter() {
        let column = if exact {
            values_ms.push(f64::from(*v));
            values_ms.len() - 1
        } else {
            let k = log_key(f64::from(*v));
            if last_key != Some(k) {
                values_ms.push(log_centre(k));
                last_key = Some(k);
            }
            values_ms.len() - 1
        };
        if let Some(m) = marks.get_mut(*v as usize) {
            *m = column as u32;
        }
    }
    let k = values_ms.len();
    let fits = n.saturating_mul(k) <= MAX_TABLE;
    if fits {
        sc.table.clear();
        sc.table.resize(n * k, 0);
        let table = &mut sc.table;
        let mut from = 0;
        for (b, end) in ends.iter().enumerate() {
            let row = table.get_mut(b * k..(b + 1) * k).unwrap_or(&mut []);
            for &(v, n) in grouped.get(from..*end).unwrap_or(&[]) {
                if let Some(c) = marks.get(v as usize).and_then(|c| row.get_mut(*c as usize)) {
                    *c += n;
                }
            }
            from = *end;
        }
    }
    for v in distinct.iter() {
        if let Some(m) = marks.get_mut(*v as usize) {
            *m = 0;
        }
    }
    if !fits {
        return None;
    }
    let cells = sc
        .table
        .chunks(k.max(1))
        .take(n)
        .map(|row| row.iter().enumerate().filter(|(_, c)| **c > 0).flat_map(|(i, c)| [i as u64, *c]).collect())
        .collect();
    Some(Cells { values_ms, cells, exact })
}
