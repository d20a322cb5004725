//! Errors by cause over test time, for the Timeline: the causes that failed most often across the
//! selected runs (JMeter's "Top 5 errors"), and each run's failures per second of each, per bucket.

use crate::bundle::{CauseTimeline, Run};

/// A cause as the Timeline groups it: by response code and normalised message. With all samples
/// shown, the same cause in several transactions is one; with one transaction, only its causes count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CauseKey {
    pub code: Option<String>,
    pub message: String,
}

impl CauseKey {
    fn of(c: &CauseTimeline) -> CauseKey {
        CauseKey { code: c.code.clone().filter(|c| !c.is_empty()), message: c.message.clone() }
    }

    /// How the chart names it: "500 · Internal Server Error", the code or the message alone when
    /// the other is empty.
    pub fn label(&self) -> String {
        match (&self.code, self.message.is_empty()) {
            (Some(code), false) => format!("{code} · {}", self.message),
            (Some(code), true) => code.clone(),
            (None, false) => self.message.clone(),
            (None, true) => "(no code or message)".to_string(),
        }
    }
}

fn counted<'a>(run: &'a Run, transaction: Option<&'a str>) -> impl Iterator<Item = &'a CauseTimeline> {
    run.usable_timeline()
        .into_iter()
        .flat_map(|tl| tl.causes.iter())
        .filter(move |c| transaction.is_none_or(|t| c.transaction == t))
}

/// `[bucket, count, …]` as pairs, skipping a trailing half pair.
fn pairs(counts: &[u64]) -> impl Iterator<Item = (usize, u64)> + '_ {
    counts.chunks_exact(2).map(|p| (p[0] as usize, p[1]))
}

/// The `top` causes with the most failures over all `runs` (of `transaction`, or of every one),
/// most first; ties keep the order first seen.
pub fn top_causes<'a>(runs: impl IntoIterator<Item = &'a Run>, transaction: Option<&str>, top: usize) -> Vec<CauseKey> {
    let mut totals: Vec<(CauseKey, u64)> = Vec::new();
    for run in runs {
        for c in counted(run, transaction) {
            let key = CauseKey::of(c);
            let n: u64 = pairs(&c.counts).map(|(_, n)| n).sum();
            match totals.iter_mut().find(|(k, _)| *k == key) {
                Some((_, total)) => *total += n,
                None => totals.push((key, n)),
            }
        }
    }
    totals.retain(|(_, n)| *n > 0);
    crate::order::sort_by(&mut totals, |a, b| b.1.cmp(&a.1));
    totals.into_iter().take(top).map(|(k, _)| k).collect()
}

/// Per key, the run's failures of that cause per second in each bucket of its timeline (empty when
/// the run has none).
pub fn cause_rates(run: &Run, keys: &[CauseKey], transaction: Option<&str>) -> Vec<Vec<f64>> {
    let Some(tl) = run.usable_timeline() else { return Vec::new() };
    let n = tl.buckets as usize;
    let width = tl.interval_s as f64;
    keys.iter()
        .map(|key| {
            let mut per = vec![0u64; n];
            for c in counted(run, transaction).filter(|c| CauseKey::of(c) == *key) {
                for (b, count) in pairs(&c.counts) {
                    if let Some(slot) = per.get_mut(b) {
                        *slot += count;
                    }
                }
            }
            per.into_iter().map(|c| c as f64 / width).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{Timeline, TransactionTimeline};

    fn cause(tx: &str, code: &str, message: &str, counts: Vec<u64>) -> CauseTimeline {
        CauseTimeline { transaction: tx.into(), code: Some(code.into()), message: message.into(), counts }
    }

    fn run(causes: Vec<CauseTimeline>) -> Run {
        let tx = |name: &str| TransactionTimeline {
            name: name.into(),
            samples: vec![10, 10, 10],
            errors: vec![0, 0, 0],
            sum_ms: vec![0.0; 3],
            ..Default::default()
        };
        Run {
            timeline: Some(Timeline {
                start_ms: 0,
                origin_ms: 0,
                interval_s: 10,
                buckets: 3,
                transactions: vec![tx("a"), tx("b")],
                causes,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn the_commonest_causes_over_every_run_and_transaction() {
        let base = run(vec![cause("a", "500", "boom", vec![0, 2, 2, 1]), cause("b", "503", "busy", vec![1, 1])]);
        let cand = run(vec![
            cause("b", "500", "boom", vec![1, 4]),
            cause("a", "503", "busy", vec![0, 1]),
            cause("a", "404", "gone", vec![2, 9]),
        ]);
        // 500 boom: 3 + 4 = 7; 404 gone: 9; 503 busy: 1 + 1 = 2.
        let keys = top_causes([&base, &cand], None, 2);
        let labels: Vec<String> = keys.iter().map(CauseKey::label).collect();
        assert_eq!(labels, ["404 · gone", "500 · boom"]);
        // Base: 500 boom in buckets 0 (2) and 2 (1) of transaction a; nothing of 404.
        assert_eq!(cause_rates(&base, &keys, None), vec![vec![0.0; 3], vec![0.2, 0.0, 0.1]]);
        assert_eq!(cause_rates(&cand, &keys, None), vec![vec![0.0, 0.0, 0.9], vec![0.0, 0.4, 0.0]]);
        // One transaction: only its causes count.
        let only_b = top_causes([&base, &cand], Some("b"), 5);
        assert_eq!(only_b.iter().map(CauseKey::label).collect::<Vec<_>>(), ["500 · boom", "503 · busy"]);
        assert_eq!(cause_rates(&base, &only_b, Some("b")), vec![vec![0.0; 3], vec![0.0, 0.1, 0.0]]);
    }

    #[test]
    fn malformed_timelines_and_runs_without_one_have_no_causes() {
        let keys = vec![CauseKey { code: Some("500".into()), message: "boom".into() }];
        // Bucket 7 does not exist and the trailing 9 is half a pair: the timeline is not used.
        let odd = run(vec![cause("a", "500", "boom", vec![7, 3, 1, 2, 9])]);
        assert!(top_causes([&odd], None, 5).is_empty());
        assert!(cause_rates(&odd, &keys, None).is_empty());
        assert!(cause_rates(&Run::default(), &keys, None).is_empty());
        let bare = CauseKey { code: None, message: String::new() };
        assert_eq!(bare.label(), "(no code or message)");
    }
}
