//! `Causes`: failed samples by (transaction, code, normalised message), mergeable across the byte
//! ranges of a file (borsh), with per-second counts for the run's timeline.

use super::normalise::{cut, normalise};
use crate::bundle::{CauseTimeline, ErrorEntry};
use borsh::{BorshDeserialize, BorshSerialize};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// Causes a run lists; the rest are counted under `OTHER_CAUSES`.
pub const MAX_CAUSES: usize = 1000;
/// Causes an accumulator tracks one by one (more than it lists, so that parts merged from byte
/// ranges list the same causes as one pass); failures of further causes go under `OTHER_CAUSES`.
pub const MAX_TRACKED: usize = 5000;
/// The message of the entry that holds the failures of the causes beyond `MAX_CAUSES`.
pub const OTHER_CAUSES: &str = "other causes";
/// Characters of an original message kept as a cause's example.
const EXAMPLE_CHARS: usize = 500;
/// Raw messages remembered to skip their normalisation (beyond, they are normalised again).
const MAX_RAW: usize = 4096;

/// Failed samples of one cause.
#[derive(Debug, Clone, Default, PartialEq, BorshSerialize, BorshDeserialize)]
pub struct Cause {
    /// The failed transaction; empty for errors of the run as a whole.
    pub transaction: String,
    /// Response code; empty when there is none.
    pub code: String,
    /// The normalised message.
    pub message: String,
    /// The first original message (cut to 500 characters).
    pub example: String,
    pub count: u64,
    /// Epoch milliseconds of the first and last failure that had a time.
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
    /// Failures per epoch second, seconds ascending.
    pub per_second: Vec<(i64, u64)>,
}

/// Adds `n` at second `s` to `v` (ascending): at the end in time order, where samples mostly come.
fn count_at(v: &mut Vec<(i64, u64)>, s: i64, n: u64) {
    match v.last_mut() {
        Some(last) if last.0 == s => last.1 += n,
        Some(last) if last.0 > s => match v.binary_search_by_key(&s, |p| p.0) {
            Ok(i) => {
                if let Some(p) = v.get_mut(i) {
                    p.1 += n;
                }
            }
            Err(i) => v.insert(i, (s, n)),
        },
        _ => v.push((s, n)),
    }
}

/// The hash a cause is indexed by.
fn key_hash(transaction: &str, code: &str, message: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    (transaction, code, message).hash(&mut h);
    h.finish()
}

impl Cause {
    fn merge(&mut self, o: &Cause) {
        self.count += o.count;
        self.first_ms = min_some(self.first_ms, o.first_ms, i64::min);
        self.last_ms = min_some(self.last_ms, o.last_ms, i64::max);
        for (s, n) in &o.per_second {
            count_at(&mut self.per_second, *s, *n);
        }
        if self.example.is_empty() {
            self.example.clone_from(&o.example);
        }
    }

    fn is(&self, transaction: &str, code: &str, message: &str) -> bool {
        self.message == message && self.code == code && self.transaction == transaction
    }

    fn entry(&self, origin_ms: i64) -> ErrorEntry {
        let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
        let secs = |t: Option<i64>| t.map(|t| (t - origin_ms) as f64 / 1000.0);
        ErrorEntry {
            message: self.message.clone(),
            count: Some(self.count),
            code: some(&self.code),
            transaction: some(&self.transaction),
            example: (self.example != self.message).then(|| some(&self.example)).flatten(),
            first_s: secs(self.first_ms),
            last_s: secs(self.last_ms),
            ..Default::default()
        }
    }
}

fn min_some(a: Option<i64>, b: Option<i64>, f: fn(i64, i64) -> i64) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(f(a, b)),
        (a, b) => a.or(b),
    }
}

/// Failed samples by cause (see the module's doc).
#[derive(Debug, Clone, Default, BorshSerialize, BorshDeserialize)]
pub struct Causes {
    /// In order of first occurrence.
    pub causes: Vec<Cause>,
    /// Failures of causes beyond `MAX_TRACKED`.
    pub overflow: Cause,
    /// Hash of (transaction, code, message) → the first cause with it (others, on a collision,
    /// are found by a scan); `indexed` causes are in it.
    #[borsh(skip)]
    index: FxHashMap<u64, u32>,
    #[borsh(skip)]
    indexed: usize,
    /// Raw (transaction, code, message) bytes → index in `causes` (`u32::MAX`: the overflow).
    #[borsh(skip)]
    raw: FxHashMap<Box<[u8]>, u32>,
    #[borsh(skip)]
    scratch: Vec<u8>,
}

impl Causes {
    /// Counts `n` failed samples of `transaction` (empty: the run as a whole) with response
    /// `code` and `message` as written, at `time_ms` (epoch ms) when known.
    pub fn add(&mut self, transaction: &str, code: &[u8], message: &[u8], time_ms: Option<i64>, n: u64) {
        self.scratch.clear();
        for part in [transaction.as_bytes(), code, message] {
            self.scratch.extend_from_slice(part);
            self.scratch.push(0);
        }
        let at = match self.raw.get(self.scratch.as_slice()) {
            Some(i) => *i,
            None => {
                let i = self.slot(transaction, code, message);
                if self.raw.len() < MAX_RAW {
                    self.raw.insert(self.scratch.as_slice().into(), i);
                }
                i
            }
        };
        let c = match self.causes.get_mut(at as usize) {
            Some(c) => c,
            None => &mut self.overflow,
        };
        c.count += n;
        if let Some(t) = time_ms {
            c.first_ms = min_some(c.first_ms, Some(t), i64::min);
            c.last_ms = min_some(c.last_ms, Some(t), i64::max);
            count_at(&mut c.per_second, t.div_euclid(1000), n);
        }
    }

    /// The index of the cause of a raw (transaction, code, message), made if new.
    fn slot(&mut self, transaction: &str, code: &[u8], message: &[u8]) -> u32 {
        let code = String::from_utf8_lossy(code);
        let code = code.trim();
        let raw = String::from_utf8_lossy(message);
        let mut normalised = normalise(&raw);
        if normalised.is_empty() {
            normalised.push_str("(no message)");
        }
        let hash = key_hash(transaction, code, &normalised);
        if let Some(i) = self.find(hash, transaction, code, &normalised) {
            return i;
        }
        let example = cut(raw.trim(), EXAMPLE_CHARS);
        let c = Cause {
            transaction: transaction.into(),
            code: code.into(),
            message: normalised,
            example,
            ..Default::default()
        };
        self.push(hash, c)
    }

    /// The index of the cause of this key, if known.
    fn find(&mut self, hash: u64, transaction: &str, code: &str, message: &str) -> Option<u32> {
        if self.indexed != self.causes.len() {
            self.index.clear();
            for (i, c) in self.causes.iter().enumerate() {
                self.index.entry(key_hash(&c.transaction, &c.code, &c.message)).or_insert(i as u32);
            }
            self.indexed = self.causes.len();
        }
        let hit = self.index.get(&hash).copied()?;
        match self.causes.get(hit as usize) {
            Some(c) if c.is(transaction, code, message) => Some(hit),
            _ => self.causes.iter().position(|c| c.is(transaction, code, message)).map(|i| i as u32),
        }
    }

    /// The index of the cause with `c`'s key, `c` pushed if new (`u32::MAX` past `MAX_TRACKED`).
    fn find_or_push(&mut self, c: Cause) -> u32 {
        let hash = key_hash(&c.transaction, &c.code, &c.message);
        match self.find(hash, &c.transaction, &c.code, &c.message) {
            Some(i) => i,
            None => self.push(hash, c),
        }
    }

    /// Pushes a new cause (`u32::MAX`: past `MAX_TRACKED`, counted in the overflow).
    fn push(&mut self, hash: u64, c: Cause) -> u32 {
        if self.causes.len() >= MAX_TRACKED {
            if self.overflow.message.is_empty() {
                self.overflow.message = OTHER_CAUSES.into();
            }
            return u32::MAX;
        }
        let i = self.causes.len() as u32;
        self.index.entry(hash).or_insert(i);
        self.causes.push(c);
        self.indexed = self.causes.len();
        i
    }

    /// Adds the causes of `other` (a later byte range of the same file).
    pub fn merge(&mut self, other: Causes) {
        for c in other.causes {
            let shell = Cause {
                transaction: c.transaction.clone(),
                code: c.code.clone(),
                message: c.message.clone(),
                example: c.example.clone(),
                ..Default::default()
            };
            let at = self.find_or_push(shell);
            match self.causes.get_mut(at as usize) {
                Some(mine) => mine.merge(&c),
                None => self.overflow.merge(&c),
            }
        }
        if other.overflow.count > 0 {
            self.overflow.message = OTHER_CAUSES.into();
            self.overflow.merge(&other.overflow);
        }
    }

    /// Whether no failure was counted.
    pub fn is_empty(&self) -> bool {
        self.causes.is_empty() && self.overflow.count == 0
    }

    /// The causes listed (most failures first, then by transaction, code and message) and the
    /// one that holds the rest, if any.
    fn listed(&self) -> (Vec<&Cause>, Option<Cause>) {
        let mut order: Vec<&Cause> = self.causes.iter().collect();
        order.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then_with(|| (&a.transaction, &a.code, &a.message).cmp(&(&b.transaction, &b.code, &b.message)))
        });
        let rest = order.split_off(order.len().min(MAX_CAUSES));
        if rest.is_empty() && self.overflow.count == 0 {
            return (order, None);
        }
        let mut other = Cause { message: OTHER_CAUSES.into(), ..Default::default() };
        rest.iter().for_each(|c| other.merge(c));
        other.merge(&self.overflow);
        other.example.clear();
        (order, Some(other))
    }

    /// What a run says when causes were folded into "other causes".
    pub fn warning(&self) -> Option<String> {
        let (_, other) = self.listed();
        other.map(|o| {
            format!(
                "more than {MAX_CAUSES} error causes: the {} failures of the least frequent are counted under \"{OTHER_CAUSES}\"",
                o.count
            )
        })
    }

    /// `timeline` with its `causes` filled from these, bucketed as it is.
    pub fn with_timeline(&self, timeline: Option<crate::bundle::Timeline>) -> Option<crate::bundle::Timeline> {
        timeline.map(|mut t| {
            t.causes = self.cause_timelines(t.start_ms, t.interval_s, t.buckets);
            t
        })
    }

    /// The run's `errors`: one entry per cause, times in seconds after `origin_ms` (epoch ms).
    pub fn entries(&self, origin_ms: i64) -> Vec<ErrorEntry> {
        let (listed, other) = self.listed();
        listed.into_iter().chain(other.as_ref()).map(|c| c.entry(origin_ms)).collect()
    }

    /// The causes over the timeline whose bucket 0 starts at `start_ms` (epoch ms), `interval_s`
    /// seconds wide, `buckets` long: failures at second `s` go to bucket
    /// `(s·1000 − start_ms) div (interval_s·1000)`; those outside are left out.
    pub fn cause_timelines(&self, start_ms: i64, interval_s: u32, buckets: u32) -> Vec<CauseTimeline> {
        let (listed, other) = self.listed();
        let width = i64::from(interval_s.max(1)) * 1000;
        listed
            .into_iter()
            .chain(other.as_ref())
            .filter_map(|c| {
                let mut per_bucket: BTreeMap<u64, u64> = BTreeMap::new();
                for (s, n) in &c.per_second {
                    let b = (s.saturating_mul(1000).saturating_sub(start_ms)).div_euclid(width);
                    if (0..i64::from(buckets)).contains(&b) {
                        *per_bucket.entry(b as u64).or_insert(0) += n;
                    }
                }
                (!per_bucket.is_empty()).then(|| CauseTimeline {
                    transaction: c.transaction.clone(),
                    code: (!c.code.is_empty()).then(|| c.code.clone()),
                    message: c.message.clone(),
                    counts: per_bucket.into_iter().flat_map(|(b, n)| [b, n]).collect(),
                })
            })
            .collect()
    }
}
