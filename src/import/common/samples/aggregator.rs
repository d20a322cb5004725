//! `Aggregator`: the per-label aggregation of a whole file, or of a byte range of it merged later
//! with the others (labels keep the order they first appeared in).

use super::{LabelStats, Users};
use crate::bundle::Transaction;
use borsh::{BorshDeserialize, BorshSerialize};
use rustc_hash::FxHashMap;

/// Per-label aggregation of a whole file (or of a byte range of it, merged later).
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
pub struct Aggregator {
    index: FxHashMap<Box<[u8]>, u32>,
    pub labels: Vec<LabelStats>,
    /// Active users (threads) per second, as the samples report them.
    pub users: Users,
    /// In front of `index` for `label_id` (not sent between workers).
    #[borsh(skip)]
    cache: crate::import::common::label_cache::LabelCache,
}

impl Aggregator {
    /// The id of a label given as raw bytes; `first_seen` orders labels; `name` makes the display
    /// name the first time the label is seen (decoding, warnings).
    #[inline]
    pub fn label_id(&mut self, raw: &[u8], first_seen: u64, name: impl FnOnce() -> String) -> usize {
        let hash = crate::import::common::label_cache::hash(raw);
        if let Some(i) = self.cache.get(hash, raw) {
            return i as usize;
        }
        if let Some(i) = self.index.get(raw) {
            self.cache.put(hash, raw, *i);
            return *i as usize;
        }
        let i = self.labels.len();
        self.index.insert(raw.into(), i as u32);
        self.cache.put(hash, raw, i as u32);
        self.labels.push(LabelStats { name: name(), first_seen, ..Default::default() });
        i
    }

    /// Adds every label of `other` (another range of the same file).
    pub fn merge(&mut self, other: Aggregator) {
        self.users.merge(&other.users);
        let mut by_index: Vec<(Box<[u8]>, u32)> = other.index.into_iter().collect();
        by_index.sort_by_key(|(_, i)| *i);
        for ((raw, _), stats) in by_index.into_iter().zip(other.labels) {
            match self.index.get(&raw) {
                Some(i) => self.labels[*i as usize].merge(&stats),
                None => {
                    self.index.insert(raw, self.labels.len() as u32);
                    self.labels.push(stats);
                }
            }
        }
    }

    /// First start and last end over every label.
    pub fn run_window(&self) -> (Option<i64>, Option<i64>) {
        let start = self.labels.iter().filter_map(|l| l.first_start_ms).min();
        let end = self.labels.iter().filter_map(|l| l.last_end_ms).max();
        (start, end)
    }

    /// All samples as one label: every label's samples, except Transaction Controller parents
    /// when the file also has ordinary samples (their children are already counted).
    pub fn total(&self) -> LabelStats {
        let has_plain = self.labels.iter().any(|l| !l.is_controller);
        let mut t = LabelStats { name: "All samples".into(), ..Default::default() };
        for l in self.labels.iter().filter(|l| !(has_plain && l.is_controller)) {
            t.merge_counts(l);
        }
        t
    }

    /// Transactions in order of first appearance.
    pub fn transactions(&self) -> Vec<Transaction> {
        let window = self.run_window();
        let mut order: Vec<&LabelStats> = self.labels.iter().collect();
        order.sort_by_key(|l| l.first_seen);
        order.into_iter().map(|l| l.to_transaction(window)).collect()
    }
}
