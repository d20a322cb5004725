//! Judges a candidate's comparison rows by the rules: per rule and transaction (or other figure),
//! passed, failed (with the figures that failed and why) or not enough data. The rows are the
//! viewer's (`analysis::compare`); a rule reads their values and, when it asks for it, their
//! verdicts.

use super::{CriteriaError, Rule, Rules, Seg};
use crate::analysis::compare::{Cell, Row, Verdict};
use crate::bundle::Unit;
use crate::format;
use crate::model::{Family, Measure, Section};
use std::collections::HashMap;
use std::sync::Arc;
use wildmatch::WildMatch;

use super::when::{Bound, Kind, Selector};

/// How a rule ended for one transaction (or other figure).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Passed,
    Failed,
    /// Nothing it covers could be judged (too few samples, a value missing, not comparable).
    NotEnoughData,
}

/// One figure that failed a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The statistic ("p95", "error rate", "peak"); empty for KPIs and the run's duration.
    pub metric: String,
    /// The baseline's and the candidate's value as compared, in words ("120 ms", "1.50%").
    pub base: String,
    pub cand: String,
    /// The change as the viewer shows it ("+12.3%"), or what was measured.
    pub change: String,
    /// Why it failed: "+12.3% > +10%; +12.3% is beyond the 5% latency threshold …".
    pub why: String,
}

/// One rule on one transaction (or other figure) of one candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Index of the rule in `Rules::rules`.
    pub rule: usize,
    pub section: Section,
    pub key: Arc<str>,
    pub status: Status,
    /// The figures that failed.
    pub findings: Vec<Finding>,
    /// Why it could not be judged (with `Status::NotEnoughData`).
    pub skipped: String,
}

fn covers(rule: &Rule, row: &Row) -> bool {
    if row.section == Section::Error {
        return false;
    }
    match &rule.when.selector {
        Selector::Family(f) => row.spec.family == *f,
        Selector::Statistic(s) => row.section == Section::Transaction && *row.metric == **s,
        Selector::FamilyStatistic(f, s) => row.spec.family == *f && *row.metric == **s,
    }
}

fn matches(pattern: &str, key: &str) -> bool {
    WildMatch::new(pattern).matches(key)
}

fn is_rate(row: &Row) -> bool {
    row.spec.measure == Measure::ErrorRate
}

/// The kind of a row's values as a rule compares them, and the factor to the kind's base unit.
fn kind_of(row: &Row) -> (Kind, f64) {
    if is_rate(row) {
        (Kind::Percent, 1.0)
    } else {
        Kind::of_unit(row.unit)
    }
}

fn fits(bound: Bound, kind: Kind) -> bool {
    match bound {
        Bound::Relative(_) => true,
        Bound::Points(_) => kind == Kind::Percent,
        Bound::Delta(_, k) | Bound::Value(_, k) => k == kind,
    }
}

/// Errors of rules that depend on the compared runs: `ignore` and `transactions` patterns that
/// match nothing, and bounds in a unit the covered figures are not in.
pub fn check_names(rules: &Rules, rows: &[Row]) -> Result<(), Vec<CriteriaError>> {
    let mut errors = Vec::new();
    for (i, p) in rules.ignore.iter().enumerate() {
        if !rows.iter().any(|r| matches(p, &r.key)) {
            let at = [Seg::Key("ignore".into()), Seg::Index(i)];
            errors.push(CriteriaError::at(
                &at,
                format!("“{p}” matches no transaction or other figure of the compared runs"),
            ));
        }
    }
    for rule in &rules.rules {
        let at = |field: &str| [Seg::Key("fail".into()), Seg::Index(rule.index), Seg::Key(field.into())];
        let covered: Vec<&Row> = rows.iter().filter(|r| covers(rule, r)).collect();
        if let Some(p) = &rule.pattern {
            if !covered.iter().any(|r| matches(p, &r.key)) {
                let m = format!("“{p}” matches no transaction with figures that “{}” covers", rule.text);
                errors.push(CriteriaError::at(&at("transactions"), m));
            }
        }
        if let Some(m) = unknown_statistic(rule, rows, &covered) {
            errors.push(CriteriaError::at(&at("when"), m));
        }
        if let Some(r) = covered.iter().find(|r| !fits(rule.when.bound, kind_of(r).0)) {
            let m = format!("“{}” is {}, which “{}” does not fit", r.label(), kind_of(r).0.name(), rule.text);
            errors.push(CriteriaError::at(&at("when"), m));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// A statistic no row has while its family has rows (a typo such as `cpu.peek` or `p59`): the
/// statistics there are, in words.
fn unknown_statistic(rule: &Rule, rows: &[Row], covered: &[&Row]) -> Option<String> {
    let (family, transactions_only) = match &rule.when.selector {
        Selector::Family(_) => return None,
        Selector::Statistic(_) => (rule.when.selector.family(), true),
        Selector::FamilyStatistic(f, _) => (*f, false),
    };
    if !covered.is_empty() {
        return None;
    }
    let mut have: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| r.spec.family == family && r.section != Section::Error) {
        if (!transactions_only || r.section == Section::Transaction)
            && !r.metric.is_empty()
            && !have.contains(&&*r.metric)
        {
            have.push(&r.metric);
        }
    }
    (!have.is_empty()).then(|| {
        format!("“{}” names a statistic the compared runs do not have; they have {}", rule.text, have.join(", "))
    })
}

/// What one rule made of one row.
enum Outcome {
    Pass,
    Fail(Finding),
    Skip(String),
}

/// The sample counts of each transaction: its "samples" row.
fn samples_rows(rows: &[Row]) -> HashMap<&str, &Row> {
    rows.iter().filter(|r| r.section == Section::Transaction && &*r.metric == "samples").map(|r| (&*r.key, r)).collect()
}

struct Ctx<'a> {
    ci: usize,
    min_samples: u64,
    samples: HashMap<&'a str, &'a Row>,
}

impl Ctx<'_> {
    fn samples(&self, row: &Row, run: usize) -> Option<f64> {
        self.samples.get(&*row.key).and_then(|r| r.cells.get(run)).and_then(|c| c.value)
    }

    /// A cell's value as rules compare it: an error count as a rate in percent.
    fn value(&self, row: &Row, run: usize, cell: &Cell) -> Option<f64> {
        let v = cell.value?;
        if is_rate(row) {
            self.samples(row, run).filter(|n| *n > 0.0).map(|n| 100.0 * v / n)
        } else {
            Some(v)
        }
    }

    fn too_few(&self, row: &Row) -> Option<String> {
        if row.section != Section::Transaction || row.spec.family == Family::Count {
            return None;
        }
        let (b, c) = (self.samples(row, 0), self.samples(row, self.ci));
        let few = |n: Option<f64>| n.is_some_and(|n| n < self.min_samples as f64);
        (few(b) || few(c)).then(|| {
            let n = |x: Option<f64>| x.map_or("unknown".to_string(), format::number);
            format!(
                "too few samples: {} in the baseline, {} in the candidate (at least {} needed)",
                n(b),
                n(c),
                self.min_samples
            )
        })
    }
}

fn shown(v: f64, row: &Row) -> String {
    if is_rate(row) {
        format!("{}%", crate::decimal::fixed(v, 2))
    } else {
        format::value(v, row.unit)
    }
}

/// The figure a bound is compared with, in the bound's terms, and how it reads.
fn measured(bound: Bound, b: Option<f64>, v: f64, row: &Row) -> Result<(f64, String), String> {
    let factor = kind_of(row).1;
    let base = || b.ok_or_else(|| "not in the baseline".to_string());
    Ok(match bound {
        Bound::Value(_, _) => (v * factor, shown(v, row)),
        Bound::Delta(_, _) => {
            let d = v - base()?;
            (d * factor, format::delta(d, if is_rate(row) { Unit::Percent } else { row.unit }))
        }
        Bound::Points(_) => {
            let d = v - base()?;
            (d, format::points(d, 2))
        }
        Bound::Relative(_) => {
            let b = base()?;
            if b == 0.0 {
                return Err("the baseline is zero: no relative change".into());
            }
            let r = (v - b) / b.abs();
            (100.0 * format::shown_relative(r), format::relative(r))
        }
    })
}

fn bound_text(bound: Bound, row: &Row) -> String {
    let unit = if is_rate(row) { Unit::Percent } else { row.unit };
    let factor = kind_of(row).1;
    match bound {
        Bound::Relative(p) => format::relative(p / 100.0),
        Bound::Points(p) => format::points(p, 2),
        Bound::Delta(d, _) => format::delta(d / factor, unit),
        Bound::Value(x, _) if is_rate(row) => format!("{}%", format::number(x)),
        Bound::Value(x, _) => format::value(x / factor, unit),
    }
}

fn judge_row(rule: &Rule, row: &Row, ctx: &Ctx) -> Outcome {
    let (Some(base), Some(cand)) = (row.cells.first(), row.cells.get(ctx.ci)) else {
        return Outcome::Skip("not in the comparison".into());
    };
    if cand.verdict == Verdict::NotComparable {
        return Outcome::Skip(cand.reason(&row.spec));
    }
    if let Some(why) = ctx.too_few(row) {
        return Outcome::Skip(why);
    }
    if rule.beyond_noise && cand.verdict == Verdict::NotEnoughData {
        return Outcome::Skip(cand.reason(&row.spec));
    }
    let Some(v) = ctx.value(row, ctx.ci, cand) else {
        let missing = if cand.value.is_some() { "no sample count to make a rate" } else { "not in the candidate" };
        return Outcome::Skip(missing.into());
    };
    let b = ctx.value(row, 0, base);
    let (x, text) = match measured(rule.when.bound, b, v, row) {
        Ok(m) => m,
        Err(why) => return Outcome::Skip(why),
    };
    let limit = match rule.when.bound {
        Bound::Relative(p) | Bound::Points(p) | Bound::Delta(p, _) | Bound::Value(p, _) => p,
    };
    if !rule.when.op.holds(x, limit) || (rule.beyond_noise && !cand.verdict.is_beyond_noise()) {
        return Outcome::Pass;
    }
    let mut why = format!("{text} {} {}", rule.when.op.symbol(), bound_text(rule.when.bound, row));
    if rule.beyond_noise {
        why = format!("{why}; {}", cand.reason(&row.spec));
    }
    let metric = if is_rate(row) { "error rate".to_string() } else { row.metric.to_string() };
    Outcome::Fail(Finding {
        metric,
        base: b.map_or("–".into(), |b| shown(b, row)),
        cand: shown(v, row),
        change: cand.change.map_or(text, |c| c.text(row.spec.family, cand.unit)),
        why,
    })
}

/// Judges candidate `ci` (1 for the first) of `rows` by `rules`: one check per rule and
/// transaction (or other figure) the rule covers, in the rows' order. `min_samples` applies where
/// the rules state none.
pub fn evaluate(rules: &Rules, rows: &[Row], ci: usize, min_samples: u64) -> Vec<Check> {
    let ctx = Ctx { ci, min_samples: rules.min_samples.unwrap_or(min_samples), samples: samples_rows(rows) };
    let ignored = |r: &Row| rules.ignore.iter().any(|p| matches(p, &r.key));
    let mut checks: Vec<Check> = Vec::new();
    for (ri, rule) in rules.rules.iter().enumerate() {
        let pattern = rule.pattern.as_deref().map(WildMatch::new);
        let mut by_key: HashMap<(Section, &str), usize> = HashMap::new();
        for row in rows.iter().filter(|r| covers(rule, r) && !ignored(r)) {
            if pattern.as_ref().is_some_and(|p| !p.matches(&row.key)) || !fits(rule.when.bound, kind_of(row).0) {
                continue;
            }
            let at = *by_key.entry((row.section, &row.key)).or_insert_with(|| {
                checks.push(Check {
                    rule: ri,
                    section: row.section,
                    key: row.key.clone(),
                    status: Status::NotEnoughData,
                    findings: Vec::new(),
                    skipped: String::new(),
                });
                checks.len() - 1
            });
            let check = &mut checks[at];
            match judge_row(rule, row, &ctx) {
                Outcome::Fail(f) => {
                    check.status = Status::Failed;
                    check.findings.push(f);
                }
                Outcome::Pass if check.status == Status::NotEnoughData => check.status = Status::Passed,
                Outcome::Pass => {}
                Outcome::Skip(why) if check.skipped.is_empty() => check.skipped = why,
                Outcome::Skip(_) => {}
            }
        }
    }
    checks
}
