//! The summary of a comparison, one per candidate: how many transactions regressed or improved
//! beyond noise (a transaction is judged by its median, p95 and error rate), the same for every
//! other figure, and the worst five changes, as a sentence a release manager can paste.

use super::compare::{Cell, Change, Row, Verdict, Why};
use crate::format;
use crate::model::Section;
use std::collections::HashMap;

/// Statistics a transaction is judged by; the others (mean, p90, p99, min, max) only when it has
/// neither a median nor a p95.
const HEADLINE: [&str; 3] = ["median", "p95", "errors"];
const FALLBACK: [&str; 3] = ["mean", "p90", "p99"];

/// How many things got each verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub regressed: usize,
    pub improved: usize,
    pub within_noise: usize,
    pub changed: usize,
    pub not_enough_data: usize,
    pub not_comparable: usize,
    /// Present in only one of the two runs (added, removed, or no data in this run).
    pub unmatched: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.regressed
            + self.improved
            + self.within_noise
            + self.changed
            + self.not_enough_data
            + self.not_comparable
            + self.unmatched
    }

    fn add(&mut self, v: Outcome) {
        match v {
            Outcome::Regressed => self.regressed += 1,
            Outcome::Improved => self.improved += 1,
            Outcome::WithinNoise => self.within_noise += 1,
            Outcome::Changed => self.changed += 1,
            Outcome::NotEnoughData => self.not_enough_data += 1,
            Outcome::NotComparable => self.not_comparable += 1,
            Outcome::Unmatched => self.unmatched += 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Regressed,
    Improved,
    Changed,
    NotComparable,
    NotEnoughData,
    WithinNoise,
    Unmatched,
}

fn outcome(c: &Cell) -> Outcome {
    if c.is_regression() {
        return Outcome::Regressed;
    }
    match c.verdict {
        Verdict::Regressed => Outcome::Regressed,
        Verdict::Improved => Outcome::Improved,
        Verdict::Changed => Outcome::Changed,
        Verdict::NotComparable => Outcome::NotComparable,
        Verdict::NotEnoughData => Outcome::NotEnoughData,
        Verdict::WithinNoise | Verdict::Baseline => Outcome::WithinNoise,
        Verdict::Added | Verdict::Removed | Verdict::Missing => Outcome::Unmatched,
    }
}

/// One of the worst changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Worst {
    pub section: Section,
    pub key: String,
    /// "p95 +12.3%", "vanished", "new error".
    pub what: String,
    rank: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Index of the candidate among the compared runs.
    pub candidate: usize,
    pub transactions: Counts,
    pub others: Counts,
    /// The candidate's status makes every figure not comparable.
    pub failed: bool,
    /// The candidate has no per-transaction latency while the baseline has.
    pub no_transactions: bool,
    /// The baseline has no per-transaction latency while the candidate has.
    pub no_baseline_transactions: bool,
    /// Up to five regressions, worst first.
    pub worst: Vec<Worst>,
}

fn describe(r: &Row, c: &Cell) -> (String, f64) {
    match c.why {
        Why::Vanished(Section::Error) => ("gone".into(), 1e6),
        Why::Vanished(_) => ("vanished".into(), 1e6),
        Why::New(Section::Error) => ("new error".into(), 1e6),
        _ => {
            let change = c.change.map(|ch| ch.text(r.spec.family, c.unit)).unwrap_or_default();
            let t = c.why.threshold().unwrap_or(1.0);
            let rank =
                c.change.map_or(0.0, |ch| if let Change::Abs(_) = ch { 1e5 } else { ch.severity(r.spec.family, t) });
            let what =
                if r.metric.is_empty() || &*r.metric == "count" { change } else { format!("{} {change}", r.metric) };
            (what, rank)
        }
    }
}

/// The summary of candidate `ci` (1 for the first candidate) in `rows`.
pub fn summarize(rows: &[Row], ci: usize) -> Summary {
    let mut s = Summary {
        candidate: ci,
        transactions: Counts::default(),
        others: Counts::default(),
        failed: false,
        no_transactions: false,
        no_baseline_transactions: false,
        worst: Vec::new(),
    };
    let mut worst: Vec<Worst> = Vec::new();
    // Transactions: one outcome per key, from its headline statistics.
    let mut by_key: HashMap<&str, Vec<&Row>> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| r.section == Section::Transaction) {
        by_key
            .entry(&r.key)
            .or_insert_with(|| {
                order.push(&r.key);
                Vec::new()
            })
            .push(r);
    }
    let mut absent = 0;
    for key in &order {
        let rs = &by_key[key];
        let pick = |names: &[&str]| rs.iter().copied().filter(|r| names.contains(&&*r.metric)).collect::<Vec<_>>();
        let mut judged = pick(&HEADLINE);
        if !judged.iter().any(|r| &*r.metric != "errors") {
            judged.extend(pick(&FALLBACK));
        }
        let cells: Vec<(&Row, &Cell)> = judged.iter().filter_map(|r| r.cells.get(ci).map(|c| (*r, c))).collect();
        let Some(o) = cells.iter().map(|(_, c)| outcome(c)).min() else { continue };
        if cells.iter().all(|(_, c)| matches!(c.why, Why::SectionAbsent(_))) {
            absent += 1;
        }
        s.transactions.add(o);
        if o == Outcome::Regressed {
            if let Some((what, rank)) = cells
                .iter()
                .filter(|(_, c)| c.is_regression())
                .map(|(r, c)| describe(r, c))
                .max_by(|a, b| a.1.total_cmp(&b.1))
            {
                worst.push(Worst { section: Section::Transaction, key: key.to_string(), what, rank });
            }
        }
    }
    s.no_transactions = absent > 0 && absent == order.len();
    s.no_baseline_transactions = !order.is_empty()
        && rows
            .iter()
            .filter(|r| r.section == Section::Transaction)
            .all(|r| r.cells.first().is_none_or(|c| c.value.is_none()));
    for r in rows.iter().filter(|r| r.section != Section::Transaction) {
        let Some(c) = r.cells.get(ci) else { continue };
        if matches!(c.why, Why::Failed { .. }) {
            s.failed = true;
        }
        let o = outcome(c);
        s.others.add(o);
        if o == Outcome::Regressed {
            let (what, rank) = describe(r, c);
            worst.push(Worst { section: r.section, key: r.key.to_string(), what, rank });
        }
    }
    crate::order::sort_by(&mut worst, |a, b| b.rank.total_cmp(&a.rank));
    worst.truncate(5);
    s.worst = worst;
    s
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", format::number(n as f64), if n == 1 { one } else { many })
}

fn counts_text(c: &Counts) -> String {
    let mut parts = vec![format!(
        "{} regressed and {} improved beyond noise",
        format::number(c.regressed as f64),
        format::number(c.improved as f64)
    )];
    for (n, what) in [
        (c.changed, "changed (no better direction)"),
        (c.within_noise, "within noise"),
        (c.not_enough_data, "with too few samples"),
        (c.not_comparable, "not comparable"),
        (c.unmatched, "not in both runs"),
    ] {
        if n > 0 {
            parts.push(format!("{} {what}", format::number(n as f64)));
        }
    }
    parts.join(", ")
}

impl Summary {
    /// The summary as one paragraph: "Poppy test #2 against Orchid: of 46 transactions, 3
    /// regressed and … beyond noise, …. Worst: …."
    pub fn sentence(&self, labels: &[String]) -> String {
        let mut out = self.statement(labels) + " ";
        if self.worst.is_empty() {
            out += "No regression beyond noise among the figures both runs have.";
        } else {
            let list: Vec<String> = self.worst.iter().map(|w| format!("{} ({})", w.key, w.what)).collect();
            out += &format!("Worst: {}.", list.join("; "));
        }
        out
    }

    /// The counts without the worst changes (shown as a list beside it).
    pub fn statement(&self, labels: &[String]) -> String {
        let cand = labels.get(self.candidate).map_or("the candidate", String::as_str);
        let base = labels.first().map_or("the baseline", String::as_str);
        let mut sentences: Vec<String> = Vec::new();
        if self.failed {
            sentences.push(format!("{cand} did not complete, so its figures are not comparable."));
        }
        let t = &self.transactions;
        let none = |who: &str| {
            format!(
                "none of {} can be judged: {who} has no per-transaction latency.",
                plural(t.total(), "transaction", "transactions")
            )
        };
        if self.no_transactions {
            sentences.push(none(cand));
        } else if self.no_baseline_transactions {
            sentences.push(none(&format!("the baseline, {base},")));
        } else if t.total() > 0 {
            sentences.push(format!("of {}, {}.", plural(t.total(), "transaction", "transactions"), counts_text(t)));
        }
        let o = &self.others;
        if o.total() > 0 {
            let what = if t.total() > 0 {
                plural(o.total(), "other figure", "other figures")
            } else {
                plural(o.total(), "figure", "figures")
            };
            sentences.push(format!("of {what}, {}.", counts_text(o)));
        }
        // The first sentence follows "…: " in lower case; the others start with a capital.
        let body: Vec<String> =
            sentences.into_iter().enumerate().map(|(i, s)| if i == 0 { s } else { capitalized(&s) }).collect();
        format!("{cand} against {base}: {}", body.join(" "))
    }
}

/// `s` with its first letter in upper case: the sentences after the first open with runlens' own
/// words ("of 46 transactions", "none of …"), which are ASCII.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_ascii_uppercase().to_string() + c.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare;
    use crate::bundle::{Run, Transaction};
    use crate::model::Thresholds;

    fn tx(name: &str, p95: f64, samples: u64) -> Transaction {
        Transaction {
            name: name.into(),
            p95_ms: Some(p95),
            median_ms: Some(p95 / 2.0),
            samples: Some(samples),
            ..Default::default()
        }
    }

    #[test]
    fn counts_transactions_and_names_the_worst() {
        let a = Run {
            id: "a".into(),
            duration_s: Some(100.0),
            transactions: vec![tx("x", 100.0, 100), tx("y", 100.0, 100), tx("z", 100.0, 5), tx("gone", 1.0, 100)],
            ..Default::default()
        };
        let b = Run {
            id: "b".into(),
            duration_s: Some(80.0),
            transactions: vec![tx("x", 130.0, 100), tx("y", 101.0, 100), tx("z", 300.0, 5)],
            ..Default::default()
        };
        let rows = compare(&[&a, &b], &Thresholds::default());
        let s = summarize(&rows, 1);
        assert_eq!(
            (s.transactions.regressed, s.transactions.within_noise, s.transactions.not_enough_data),
            (2, 1, 1),
            "{s:?}"
        );
        assert_eq!(s.others.improved, 1, "the duration");
        let text = s.sentence(&["A".into(), "B".into()]);
        assert!(text.starts_with("B against A: of 4 transactions, 2 regressed and 0 improved beyond noise, 1 within noise, 1 with too few samples. Of 1 other figure, 0 regressed and 1 improved beyond noise."), "{text}");
        assert!(text.contains("Worst: gone (vanished); x (p95 +30.0%)."), "{text}");
    }

    #[test]
    fn a_candidate_without_latency_says_so() {
        let a = Run { id: "a".into(), transactions: vec![tx("x", 100.0, 100)], ..Default::default() };
        let b = Run { id: "b".into(), duration_s: Some(1.0), ..Default::default() };
        let s = summarize(&compare(&[&a, &b], &Thresholds::default()), 1);
        assert!(s.no_transactions);
        assert!(s
            .sentence(&["A".into(), "B".into()])
            .contains("none of 1 transaction can be judged: B has no per-transaction latency"));
        let back = summarize(&compare(&[&b, &a], &Thresholds::default()), 1);
        assert!(back
            .sentence(&["B".into(), "A".into()])
            .contains("none of 1 transaction can be judged: the baseline, B, has no per-transaction latency"));
    }
}
