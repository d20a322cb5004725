//! The steady state runlens suggests for a run: the plateau of its active users, else of its
//! throughput, without the partial buckets at the plateau's edges.

use crate::bundle::Timeline;

/// What a suggested window was found from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The buckets where the most users were active.
    Users,
    /// The buckets whose throughput is at least 80 % of the run's median bucket.
    Throughput,
}

impl Basis {
    pub fn words(self) -> &'static str {
        match self {
            Basis::Users => "the plateau of active users",
            Basis::Throughput => "the plateau of throughput",
        }
    }
}

/// A suggested window, seconds of test time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Suggestion {
    pub from_s: f64,
    pub to_s: f64,
    pub basis: Basis,
}

/// The fewest buckets a plateau must span to be used.
const MIN_PLATEAU: usize = 3;

/// The run's steady state, or `None` when neither users nor throughput show a plateau.
pub fn suggest(tl: &Timeline) -> Option<Suggestion> {
    let users: Vec<f64> = tl.users.iter().map(|u| *u as f64).collect();
    let top = users.iter().copied().fold(0.0, f64::max);
    let users = plateau(&users, top).map(|r| (r, Basis::Users));
    let throughput = || {
        let has_plain = tl.transactions.iter().any(|t| !t.controller);
        let mut per_bucket = vec![0f64; tl.buckets as usize];
        for t in tl.transactions.iter().filter(|t| !(has_plain && t.controller)) {
            for (b, n) in per_bucket.iter_mut().zip(&t.samples) {
                *b += *n as f64;
            }
        }
        let mut busy: Vec<f64> = per_bucket.iter().copied().filter(|n| *n > 0.0).collect();
        crate::order::sort_by(&mut busy, |a, b| a.total_cmp(b));
        let median = *busy.get(busy.len() / 2)?;
        let relative: Vec<f64> = per_bucket.iter().map(|n| n / median).collect();
        plateau(&relative, 0.8).map(|r| (r, Basis::Throughput))
    };
    let ((first, end), basis) = users.or_else(throughput)?;
    Some(Suggestion { from_s: tl.bucket_start_s(first as u32), to_s: tl.bucket_start_s(end as u32), basis })
}

/// The buckets from the first to the last at or above `threshold` (its first and last bucket left
/// out when the plateau is long enough, as they are partly ramp-up and ramp-down), as
/// `(first, end)`; `None` when it spans fewer than `MIN_PLATEAU` buckets.
fn plateau(series: &[f64], threshold: f64) -> Option<(usize, usize)> {
    let hit = |v: &f64| threshold > 0.0 && *v >= threshold;
    let first = series.iter().position(hit)?;
    let last = series.iter().rposition(hit)?;
    let n = last + 1 - first;
    if n < MIN_PLATEAU {
        return None;
    }
    Some(if n >= MIN_PLATEAU + 2 { (first + 1, last) } else { (first, last + 1) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::TransactionTimeline;

    fn timeline(users: Vec<u32>, samples: Vec<u64>) -> Timeline {
        let n = samples.len();
        Timeline {
            start_ms: 0,
            origin_ms: 0,
            interval_s: 10,
            buckets: n as u32,
            users,
            transactions: vec![TransactionTimeline {
                name: "t".into(),
                samples,
                errors: vec![0; n],
                ..Default::default()
            }],
            causes: vec![],
        }
    }

    #[test]
    fn users_plateau_without_its_edge_buckets() {
        let t = timeline(vec![2, 5, 10, 10, 10, 10, 10, 10, 6, 1], vec![1; 10]);
        let s = suggest(&t).unwrap();
        assert_eq!(s.basis, Basis::Users);
        // Buckets 2..=7 are at the top; 3..7 is kept: 30 s to 70 s.
        assert_eq!((s.from_s, s.to_s), (30.0, 70.0));
    }

    #[test]
    fn throughput_when_users_are_unknown() {
        let t = timeline(vec![], vec![1, 4, 9, 10, 11, 10, 9, 10, 3, 0]);
        let s = suggest(&t).unwrap();
        assert_eq!(s.basis, Basis::Throughput);
        // Median busy bucket 9 (sorted 1 3 4 9 9 10 10 10 11: index 4); ≥ 7.2 from bucket 2 to 7.
        assert_eq!((s.from_s, s.to_s), (30.0, 70.0));
    }

    #[test]
    fn no_plateau_no_suggestion() {
        assert_eq!(suggest(&timeline(vec![], vec![0, 9, 0, 0])), None);
        assert_eq!(suggest(&timeline(vec![], vec![0; 4])), None);
    }
}
