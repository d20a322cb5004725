//! The criteria of a CI gate: a bundle's `thresholds.criteria` or a criteria file read into rules
//! (`compile`), checked against the compared runs' names (`check_names`), and each candidate's
//! comparison rows judged by them (`evaluate`). Errors say where, as a path into the criteria
//! (`fail[2].when`) that the caller turns into a JSON path or a line and column.

mod eval;
mod when;

pub use eval::{check_names, evaluate, Check, Finding, Status};
pub use when::{parse as parse_when, Bound, Kind, Op, Selector, When};

use crate::bundle::Criteria;
use std::fmt;

/// One step of a path into the criteria document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// Where in the criteria an error is: `fail[2].when`, `ignore[0]` (empty: the whole document).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Path(pub Vec<Seg>);

impl Path {
    fn of(parts: &[Seg]) -> Path {
        Path(parts.to_vec())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A criterion that cannot be used, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct CriteriaError {
    pub path: Path,
    pub message: String,
}

impl CriteriaError {
    fn at(parts: &[Seg], message: impl Into<String>) -> CriteriaError {
        CriteriaError { path: Path::of(parts), message: message.into() }
    }
}

/// One criterion ready to judge by.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Its place in `fail`.
    pub index: usize,
    /// The `when` as written, trimmed.
    pub text: String,
    pub when: When,
    /// The `transactions` pattern, if any.
    pub pattern: Option<String>,
    pub beyond_noise: bool,
}

impl Rule {
    /// How the rule reads in reports: `p95 > +10% (search*)`.
    pub fn title(&self) -> String {
        match &self.pattern {
            Some(p) => format!("{} ({p})", self.text),
            None => self.text.clone(),
        }
    }
}

/// Criteria read: their rules, ignore patterns and minimum sample count.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rules {
    pub rules: Vec<Rule>,
    pub ignore: Vec<String>,
    pub min_samples: Option<u64>,
}

/// Reads every `when`; all errors at once, each with its place.
pub fn compile(c: &Criteria) -> Result<Rules, Vec<CriteriaError>> {
    let (rules, errors) = compile_all(c);
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors)
    }
}

/// Checks criteria in full: the rules read, unknown keys found before (`unknown`), and the names
/// and units checked against the compared rows; every error at once.
pub fn check(
    c: &Criteria,
    unknown: Vec<CriteriaError>,
    rows: &[crate::analysis::Row],
) -> Result<Rules, Vec<CriteriaError>> {
    let (rules, mut errors) = compile_all(c);
    errors.splice(0..0, unknown);
    if let Err(e) = check_names(&rules, rows) {
        errors.extend(e);
    }
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors)
    }
}

/// The rules that read, and the errors of those that do not.
fn compile_all(c: &Criteria) -> (Rules, Vec<CriteriaError>) {
    let mut errors = Vec::new();
    let mut rules = Vec::new();
    for (i, f) in c.fail.iter().enumerate() {
        let at = |field: &str| [Seg::Key("fail".into()), Seg::Index(i), Seg::Key(field.into())];
        match when::parse(&f.when) {
            Ok(when) => rules.push(Rule {
                index: i,
                text: f.when.trim().to_string(),
                beyond_noise: f.beyond_noise.unwrap_or(when.bound.is_change()),
                when,
                pattern: f.transactions.clone(),
            }),
            Err(m) => errors.push(CriteriaError::at(&at("when"), m)),
        }
        if f.transactions.as_deref().is_some_and(|p| p.trim().is_empty()) {
            errors.push(CriteriaError::at(&at("transactions"), "an empty pattern matches nothing"));
        }
    }
    if c.fail.is_empty() {
        errors.push(CriteriaError::at(&[], "no criterion: add at least one [[fail]] with a `when`"));
    }
    (Rules { rules, ignore: c.ignore.clone(), min_samples: c.min_samples }, errors)
}

/// Criteria from a JSON value (what a TOML or YAML file becomes), with an error for each unknown
/// key (to report with the others, see `check`); a value of the wrong type is an error.
pub fn from_json(value: serde_json::Value) -> Result<(Criteria, Vec<CriteriaError>), Vec<CriteriaError>> {
    let mut unknown = Vec::new();
    let mut on_unknown = |p: serde_ignored::Path<'_>| unknown.push(ignored_path(&p));
    let de = serde_ignored::Deserializer::new(value, &mut on_unknown);
    let parsed: Result<Criteria, _> = serde_path_to_error::deserialize(de);
    let mut errors: Vec<CriteriaError> =
        unknown.into_iter().map(|p| CriteriaError { path: p, message: "unknown key".into() }).collect();
    match parsed {
        Ok(c) => Ok((c, errors)),
        Err(e) => {
            let path = Path(
                e.path()
                    .iter()
                    .filter_map(|s| match s {
                        serde_path_to_error::Segment::Seq { index } => Some(Seg::Index(*index)),
                        serde_path_to_error::Segment::Map { key } => Some(Seg::Key(key.clone())),
                        _ => None,
                    })
                    .collect(),
            );
            errors.push(CriteriaError { path, message: e.into_inner().to_string() });
            Err(errors)
        }
    }
}

fn ignored_path(p: &serde_ignored::Path<'_>) -> Path {
    use serde_ignored::Path as P;
    let mut out = Vec::new();
    let mut at = p;
    loop {
        at = match at {
            P::Root => break,
            P::Seq { parent, index } => {
                out.push(Seg::Index(*index));
                parent
            }
            P::Map { parent, key } => {
                out.push(Seg::Key(key.clone()));
                parent
            }
            P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => parent,
        };
    }
    out.reverse();
    Path(out)
}

#[cfg(test)]
mod tests;
