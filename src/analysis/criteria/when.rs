//! A criterion's `when` text read into a `When`: `METRIC OP BOUND`, e.g. `p95 > +10%`,
//! `error_rate > 1%`, `cpu.peak > 80%`, `throughput < -5%`. Written by hand: three tokens
//! (docs/decisions/0045-criteria-when-by-hand.md).

use crate::bundle::Unit;
use crate::model::Family;

/// Which rows a criterion covers.
#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    /// Every figure of a family (`latency`: every latency statistic of every transaction).
    Family(Family),
    /// One statistic of the transactions (`p95`, `median`, `throughput`).
    Statistic(String),
    /// One statistic of a family's rows (`cpu.peak`, `memory.average`).
    FamilyStatistic(Family, String),
}

impl Selector {
    /// The family of the rows it covers.
    pub fn family(&self) -> Family {
        match self {
            Selector::Family(f) | Selector::FamilyStatistic(f, _) => *f,
            Selector::Statistic(s) if s == "throughput" => Family::Throughput,
            Selector::Statistic(_) => Family::Latency,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Above,
    AtLeast,
    Below,
    AtMost,
}

impl Op {
    pub fn holds(self, x: f64, bound: f64) -> bool {
        match self {
            Op::Above => x > bound,
            Op::AtLeast => x >= bound,
            Op::Below => x < bound,
            Op::AtMost => x <= bound,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Op::Above => ">",
            Op::AtLeast => ">=",
            Op::Below => "<",
            Op::AtMost => "<=",
        }
    }
}

/// What a bound's unit measures; `factor` turns it into the kind's base unit (ms, bytes, per
/// second, percent, a plain number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Time,
    Bytes,
    Rate,
    Percent,
    Plain,
}

impl Kind {
    /// The kind of a row's unit and the factor of that unit.
    pub fn of_unit(u: Unit) -> (Kind, f64) {
        match u {
            Unit::Ms => (Kind::Time, 1.0),
            Unit::S => (Kind::Time, 1000.0),
            Unit::Bytes => (Kind::Bytes, 1.0),
            Unit::PerSecond => (Kind::Rate, 1.0),
            Unit::Percent => (Kind::Percent, 1.0),
            Unit::Count | Unit::None => (Kind::Plain, 1.0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Time => "a time",
            Kind::Bytes => "a size in bytes",
            Kind::Rate => "a rate per second",
            Kind::Percent => "a percentage",
            Kind::Plain => "a plain number",
        }
    }
}

/// The bound a metric is held to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// A change against the baseline, in percent of the baseline's value (`+10%`).
    Relative(f64),
    /// A change in percentage points (`+0.5 pp`), for values in percent and error rates.
    Points(f64),
    /// A change in a unit (`+50 ms`): the amount in the kind's base unit.
    Delta(f64, Kind),
    /// The candidate's own value (`500 ms`, `1%`): in the kind's base unit.
    Value(f64, Kind),
}

impl Bound {
    /// Changes are judged against noise by default; values are not.
    pub fn is_change(self) -> bool {
        !matches!(self, Bound::Value(..))
    }
}

/// A `when` read.
#[derive(Debug, Clone, PartialEq)]
pub struct When {
    pub selector: Selector,
    pub op: Op,
    pub bound: Bound,
}

const UNITS: [(&str, Kind, f64); 17] = [
    ("ms", Kind::Time, 1.0),
    ("s", Kind::Time, 1000.0),
    ("min", Kind::Time, 60_000.0),
    ("%", Kind::Percent, 1.0),
    ("/s", Kind::Rate, 1.0),
    ("/min", Kind::Rate, 1.0 / 60.0),
    ("b", Kind::Bytes, 1.0),
    ("bytes", Kind::Bytes, 1.0),
    ("kb", Kind::Bytes, 1e3),
    ("mb", Kind::Bytes, 1e6),
    ("gb", Kind::Bytes, 1e9),
    ("kib", Kind::Bytes, 1024.0),
    ("mib", Kind::Bytes, 1_048_576.0),
    ("gib", Kind::Bytes, 1_073_741_824.0),
    ("", Kind::Plain, 1.0),
    ("pp", Kind::Percent, 1.0),
    ("x", Kind::Plain, 1.0),
];

/// Units a family's figures come in.
fn kinds(f: Family) -> &'static [Kind] {
    match f {
        Family::Latency | Family::Duration => &[Kind::Time],
        Family::Throughput => &[Kind::Rate],
        Family::ErrorRate => &[Kind::Percent],
        Family::Cpu => &[Kind::Percent, Kind::Plain],
        Family::Memory => &[Kind::Bytes, Kind::Percent],
        Family::Size => &[Kind::Bytes],
        Family::Count => &[Kind::Plain, Kind::Percent],
    }
}

fn selector(s: &str) -> Result<Selector, String> {
    let statistic = |x: &str| {
        let percentile =
            x.strip_prefix('p').is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.'));
        percentile || ["mean", "median", "min", "max", "throughput"].contains(&x)
    };
    if let Some(f) = Family::from_slug(s) {
        return Ok(Selector::Family(f));
    }
    if let Some((f, stat)) = s.split_once('.') {
        if let (Some(f), false) = (Family::from_slug(f), stat.is_empty()) {
            return Ok(Selector::FamilyStatistic(f, stat.to_string()));
        }
    }
    if statistic(s) {
        return Ok(Selector::Statistic(s.to_string()));
    }
    let families: Vec<&str> = Family::ALL.iter().map(|f| f.slug()).collect();
    Err(format!(
        "“{s}” is not a metric: use a family ({}), a statistic (p95, median, mean, min, max, throughput) or FAMILY.STATISTIC (cpu.peak)",
        families.join(", ")
    ))
}

fn op(s: &str) -> Option<(Op, &str)> {
    [(">=", Op::AtLeast), ("<=", Op::AtMost), (">", Op::Above), ("<", Op::Below)]
        .into_iter()
        .find_map(|(t, op)| s.strip_prefix(t).map(|rest| (op, rest)))
}

fn bound(s: &str) -> Result<Bound, String> {
    let s = s.trim();
    let (sign, rest) = match s.as_bytes().first() {
        Some(b'+') => (Some(1.0), &s[1..]),
        Some(b'-') => (Some(-1.0), &s[1..]),
        _ => (None, s),
    };
    let split = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let (digits, unit) = (&rest[..split], rest[split..].trim());
    let n = crate::number::parse_f64(digits)
        .filter(|n| n.is_finite() && !digits.is_empty())
        .ok_or_else(|| format!("“{s}” is not a number with a unit (e.g. +10%, 500 ms, 1%)"))?;
    let lower = crate::fold::lower(unit);
    let Some((_, kind, factor)) = UNITS.iter().find(|(u, _, _)| *u == &*lower) else {
        return Err(format!(
            "“{unit}” is not a unit runlens knows (ms, s, min, %, pp, /s, /min, bytes, KB, MB, GB, KiB, MiB, GiB)"
        ));
    };
    match (sign, &*lower) {
        (None, "pp") => Err("pp is a change: write it with a sign (+0.5 pp)".into()),
        (Some(sg), "%") => Ok(Bound::Relative(sg * n)),
        (Some(sg), "pp") => Ok(Bound::Points(sg * n)),
        (Some(sg), _) => Ok(Bound::Delta(sg * n * factor, *kind)),
        (None, _) => Ok(Bound::Value(n * factor, *kind)),
    }
}

/// Whether `bound` can apply to figures of `family`; the message says why not.
fn fits(family: Family, b: Bound) -> Result<(), String> {
    let ok = kinds(family);
    match b {
        Bound::Relative(_) => Ok(()),
        Bound::Points(_) if ok.contains(&Kind::Percent) => Ok(()),
        Bound::Points(_) => {
            Err(format!("{} is not in percent: use a relative change (+10%) instead of pp", family.title()))
        }
        Bound::Delta(_, k) | Bound::Value(_, k) if ok.contains(&k) => Ok(()),
        Bound::Delta(_, k) | Bound::Value(_, k) => {
            let want: Vec<&str> = ok.iter().map(|k| k.name()).collect();
            Err(format!("{} is {}, not {}", family.title(), want.join(" or "), k.name()))
        }
    }
}

/// Reads a `when` text; the error says what is wrong in words.
pub fn parse(text: &str) -> Result<When, String> {
    let t = text.trim();
    let Some(at) = t.find(['<', '>']) else {
        return Err(format!("“{t}” has no comparison: write METRIC > BOUND, e.g. “p95 > +10%”"));
    };
    let name = t[..at].trim();
    let (op, rest) = op(&t[at..]).ok_or_else(|| format!("“{t}” has no comparison"))?;
    if name.is_empty() {
        return Err(format!("“{t}” names no metric before {}", op.symbol()));
    }
    let selector = selector(&crate::fold::lower(name))?;
    let bound = bound(rest)?;
    fits(selector.family(), bound)?;
    Ok(When { selector, op, bound })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_changes_and_values() {
        let w = parse("p95 > +10%").unwrap();
        assert_eq!((w.selector, w.op, w.bound), (Selector::Statistic("p95".into()), Op::Above, Bound::Relative(10.0)));
        assert_eq!(parse("throughput < -5%").unwrap().bound, Bound::Relative(-5.0));
        assert_eq!(parse("p95 > 0.5 s").unwrap().bound, Bound::Value(500.0, Kind::Time));
        assert_eq!(parse("latency >= +50ms").unwrap().bound, Bound::Delta(50.0, Kind::Time));
        assert_eq!(parse("error_rate > 1%").unwrap().bound, Bound::Value(1.0, Kind::Percent));
        assert_eq!(parse("error_rate > +0.5 pp").unwrap().bound, Bound::Points(0.5));
        assert_eq!(
            parse("memory.peak > 2 GiB").unwrap().selector,
            Selector::FamilyStatistic(Family::Memory, "peak".into())
        );
        assert_eq!(parse("size <= 1.5 GB").unwrap().bound, Bound::Value(1.5e9, Kind::Bytes));
        assert_eq!(parse("p99.9 > 1 s").unwrap().selector, Selector::Statistic("p99.9".into()));
    }

    #[test]
    fn says_what_is_wrong() {
        assert!(parse("p95 +10%").unwrap_err().contains("no comparison"));
        assert!(parse("p96x > 1 ms").unwrap_err().contains("not a metric"));
        assert!(parse("p95 > ten").unwrap_err().contains("not a number"));
        assert!(parse("p95 > 5 parsecs").unwrap_err().contains("not a unit"));
        assert_eq!(parse("p95 > 5 MB").unwrap_err(), "latency is a time, not a size in bytes");
        assert!(parse("p95 > +1 pp").unwrap_err().contains("not in percent"));
        assert!(parse("error_rate > 1 pp").unwrap_err().contains("with a sign"));
        assert!(parse("> 1 ms").unwrap_err().contains("names no metric"));
    }
}
