//! What a comparison gives the gate, whatever the output format: per candidate the viewer's
//! summary and, with criteria, every check; whether it failed; the link to the viewer.

use runlens::analysis::criteria::{self, Check, Rules, Status};
use runlens::analysis::{summarize, Row, Summary};

/// One candidate's result.
pub struct Candidate {
    /// Its index among the compared runs (1 for the first candidate).
    pub index: usize,
    pub summary: Summary,
    pub checks: Vec<Check>,
    pub failed: bool,
}

/// Counts of the checks of one or all candidates.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub failed: usize,
    pub skipped: usize,
    pub passed: usize,
}

impl Tally {
    pub fn of<'a>(checks: impl IntoIterator<Item = &'a Check>) -> Tally {
        let mut t = Tally::default();
        for c in checks {
            match c.status {
                Status::Failed => t.failed += 1,
                Status::NotEnoughData => t.skipped += 1,
                Status::Passed => t.passed += 1,
            }
        }
        t
    }
}

/// The criteria in force and where they come from.
pub struct Criteria {
    /// "criteria.toml", or "history.json (thresholds.criteria)".
    pub source: String,
    pub rules: Rules,
}

/// The gate's whole result.
pub struct Gate {
    /// Run ids and labels, the baseline first.
    pub ids: Vec<String>,
    pub labels: Vec<String>,
    /// `None`: the gate is the viewer's summary (any regression beyond noise fails).
    pub criteria: Option<Criteria>,
    pub candidates: Vec<Candidate>,
    /// The comparison in the viewer, when `--viewer` is given.
    pub link: Option<String>,
    /// The shifts of the `--history` bundle.
    pub history: Option<super::history::History>,
}

impl Gate {
    /// Judges every candidate of `rows` (compared as `ids`) by the criteria, or by the summary.
    pub fn judge(rows: &[Row], ids: Vec<String>, labels: Vec<String>, criteria: Option<Criteria>, min: u64) -> Gate {
        let candidates = (1..ids.len())
            .map(|ci| {
                let summary = summarize(rows, ci);
                let checks = criteria.as_ref().map_or_else(Vec::new, |c| criteria::evaluate(&c.rules, rows, ci, min));
                let failed = match &criteria {
                    Some(_) => checks.iter().any(|c| c.status == Status::Failed),
                    None => summary.transactions.regressed + summary.others.regressed > 0,
                };
                Candidate { index: ci, summary, checks, failed }
            })
            .collect();
        Gate { ids, labels, criteria, candidates, link: None, history: None }
    }

    pub fn failed(&self) -> bool {
        self.candidates.iter().any(|c| c.failed)
    }

    pub fn failed_candidates(&self) -> usize {
        self.candidates.iter().filter(|c| c.failed).count()
    }

    pub fn tally(&self) -> Tally {
        Tally::of(self.candidates.iter().flat_map(|c| &c.checks))
    }

    pub fn label(&self, i: usize) -> &str {
        self.labels.get(i).map_or("", String::as_str)
    }

    /// "B against A".
    pub fn title(&self, c: &Candidate) -> String {
        format!("{} against {}", self.label(c.index), self.label(0))
    }

    /// The rule of a check, as it reads in reports.
    pub fn rule_title(&self, check: &Check) -> String {
        self.criteria.as_ref().and_then(|c| c.rules.rules.get(check.rule)).map_or_else(String::new, |r| r.title())
    }

    /// The one-line verdict: "failed: 1 of 2 candidates failed …" / "passed: …".
    pub fn verdict(&self) -> String {
        let n = self.candidates.len();
        let word = |n: usize| if n == 1 { "candidate" } else { "candidates" };
        let head = if self.failed() {
            format!("failed: {} of {n} {} failed", self.failed_candidates(), word(n))
        } else {
            format!("passed: {n} {} passed", word(n))
        };
        match &self.criteria {
            Some(c) => {
                let t = self.tally();
                format!(
                    "{head} the criteria of {} ({} failed, {} not enough data, {} passed)",
                    c.source, t.failed, t.skipped, t.passed
                )
            }
            None => {
                let regressed: usize =
                    self.candidates.iter().map(|c| c.summary.transactions.regressed + c.summary.others.regressed).sum();
                format!(
                    "{head} with no criteria given: the gate fails on any regression beyond noise ({regressed} found)"
                )
            }
        }
    }
}
