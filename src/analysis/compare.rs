//! N-run comparison: one row per (section, key, metric), one cell per run, each judged against
//! the baseline (the first run).

use crate::bundle::{Direction, Run, Unit};
use crate::model::{facts, Section};
use std::collections::HashMap;

/// How a value compares with the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The baseline itself.
    Baseline,
    Better,
    Worse,
    /// Changed by less than the threshold.
    Same,
    /// Changed beyond the threshold, in a metric with no better direction.
    Changed,
    /// Present here, absent from the baseline.
    Added,
    /// Present in the baseline, absent here.
    Removed,
    /// Absent in both.
    Missing,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Baseline => "baseline",
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Same => "within threshold",
            Verdict::Changed => "changed",
            Verdict::Added => "added",
            Verdict::Removed => "removed",
            Verdict::Missing => "–",
        }
    }
}

/// One run's value in a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub value: Option<f64>,
    /// Value minus the baseline's.
    pub abs: Option<f64>,
    /// Relative change as a fraction of the baseline's magnitude.
    pub rel: Option<f64>,
    pub verdict: Verdict,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub section: Section,
    pub key: String,
    pub metric: String,
    pub unit: Unit,
    pub direction: Direction,
    /// One cell per run, the baseline first.
    pub cells: Vec<Cell>,
}

impl Row {
    /// Whether any run is worse than the baseline (for "regressions only" filters).
    pub fn has_regression(&self) -> bool {
        self.cells.iter().any(|c| c.verdict == Verdict::Worse)
    }
}

pub(crate) fn judge(base: Option<f64>, value: Option<f64>, direction: Direction, threshold: f64) -> Cell {
    match (base, value) {
        (Some(b), Some(v)) => {
            let abs = v - b;
            let rel = if b != 0.0 { Some(abs / b.abs()) } else if v == 0.0 { Some(0.0) } else { None };
            let beyond = rel.is_none_or(|r| r.abs() >= threshold);
            let verdict = if !beyond || abs == 0.0 {
                Verdict::Same
            } else {
                match direction {
                    Direction::LowerIsBetter if abs < 0.0 => Verdict::Better,
                    Direction::HigherIsBetter if abs > 0.0 => Verdict::Better,
                    Direction::Neutral => Verdict::Changed,
                    _ => Verdict::Worse,
                }
            };
            Cell { value: Some(v), abs: Some(abs), rel, verdict }
        }
        (None, Some(v)) => Cell { value: Some(v), abs: None, rel: None, verdict: Verdict::Added },
        (Some(_), None) => Cell { value: None, abs: None, rel: None, verdict: Verdict::Removed },
        (None, None) => Cell { value: None, abs: None, rel: None, verdict: Verdict::Missing },
    }
}

/// Compares `runs[1..]` with `runs[0]`. `threshold` is a fraction (0.05 = 5 %): smaller relative
/// changes are `Same`. Rows keep the order in which keys first appear, grouped by section.
pub fn compare(runs: &[&Run], threshold: f64) -> Vec<Row> {
    let all: Vec<Vec<crate::model::Fact>> = runs.iter().map(|r| facts(r)).collect();
    let mut rows: Vec<Row> = Vec::new();
    let mut index: HashMap<(Section, &str, &str), usize> = HashMap::with_capacity(all.first().map_or(0, Vec::len));
    let mut values: Vec<Vec<Option<f64>>> = Vec::new();
    for (ri, run_facts) in all.iter().enumerate() {
        for f in run_facts {
            let i = *index.entry((f.section, &f.key, &f.metric)).or_insert_with(|| {
                rows.push(Row {
                    section: f.section,
                    key: f.key.to_string(),
                    metric: f.metric.to_string(),
                    unit: f.unit,
                    direction: f.direction,
                    cells: Vec::new(),
                });
                values.push(vec![None; runs.len()]);
                rows.len() - 1
            });
            // The first occurrence wins (the loader warns about duplicates).
            values[i][ri].get_or_insert(f.value);
        }
    }
    for (row, vals) in rows.iter_mut().zip(values) {
        let base = vals.first().copied().flatten();
        row.cells = vals
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if i == 0 {
                    Cell { value: *v, abs: None, rel: None, verdict: if v.is_some() { Verdict::Baseline } else { Verdict::Missing } }
                } else {
                    judge(base, *v, row.direction, threshold)
                }
            })
            .collect();
    }
    // Group by section, then by key in order of first appearance (a key's metrics stay together
    // even when a later run adds metrics the baseline lacks); stable inside a key.
    let mut key_order: HashMap<(Section, &str), usize> = HashMap::new();
    let order: Vec<(Section, usize)> = rows
        .iter()
        .map(|r| {
            let n = key_order.len();
            (r.section, *key_order.entry((r.section, &r.key)).or_insert(n))
        })
        .collect();
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by_key(|i| order[*i]);
    let mut slots: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
    idx.into_iter().filter_map(|i| slots[i].take()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{Kpi, Transaction};

    fn run(id: &str, dur: Option<f64>, p95: Option<f64>, thr: Option<f64>) -> Run {
        Run {
            id: id.into(),
            label: id.into(),
            duration_s: dur,
            transactions: p95
                .map(|p| vec![Transaction { name: "search".into(), p95_ms: Some(p), throughput_per_s: thr, ..Default::default() }])
                .unwrap_or_default(),
            ..Default::default()
        }
    }

    #[test]
    fn judges_direction_and_threshold() {
        let (a, b) = (run("a", Some(40200.0), Some(100.0), Some(10.0)), run("b", Some(35220.0), Some(104.0), Some(12.0)));
        let rows = compare(&[&a, &b], 0.05);
        let dur = &rows[0];
        assert_eq!(dur.section, Section::Duration);
        assert_eq!(dur.cells[1].verdict, Verdict::Better);
        assert!((dur.cells[1].rel.unwrap() + 0.12388).abs() < 1e-4);
        let p95 = rows.iter().find(|r| r.metric == "p95").unwrap();
        assert_eq!(p95.cells[1].verdict, Verdict::Same, "4 % is inside the 5 % threshold");
        let thr = rows.iter().find(|r| r.metric == "throughput").unwrap();
        assert_eq!(thr.cells[1].verdict, Verdict::Better, "higher throughput is better");
        let strict = compare(&[&a, &b], 0.01);
        assert_eq!(strict.iter().find(|r| r.metric == "p95").unwrap().cells[1].verdict, Verdict::Worse);
    }

    #[test]
    fn marks_added_removed_and_neutral() {
        let a = run("a", None, Some(100.0), None);
        let mut b = run("b", Some(10.0), None, None);
        b.kpis.push(Kpi { name: "docs".into(), value: 5.0, unit: Unit::Count, direction: Direction::Neutral, note: None });
        let c = { let mut c = a.clone(); c.kpis.push(Kpi { name: "docs".into(), value: 9.0, unit: Unit::Count, direction: Direction::Neutral, note: None }); c };
        let rows = compare(&[&c, &b], 0.05);
        let p95 = rows.iter().find(|r| r.metric == "p95").unwrap();
        assert_eq!(p95.cells[1].verdict, Verdict::Removed);
        assert_eq!(rows.iter().find(|r| r.section == Section::Duration).unwrap().cells[1].verdict, Verdict::Added);
        assert_eq!(rows.iter().find(|r| r.key == "docs").unwrap().cells[1].verdict, Verdict::Changed);
        assert_eq!(p95.cells[0].verdict, Verdict::Baseline);
    }

    #[test]
    fn metrics_of_one_key_stay_together() {
        use crate::bundle::{Phase, Resource};
        let res = |phases: Vec<Phase>| Resource { service: "s".into(), metric: "cpu".into(), unit: Unit::Percent, average: Some(1.0), phases, ..Default::default() };
        let other = Resource { service: "t".into(), metric: "cpu".into(), unit: Unit::Percent, average: Some(2.0), ..Default::default() };
        let a = Run { id: "a".into(), resources: vec![res(vec![]), other.clone()], ..Default::default() };
        let b = Run { id: "b".into(), resources: vec![res(vec![Phase { label: "late".into(), average: Some(3.0), peak: None }]), other], ..Default::default() };
        let keys: Vec<(String, String)> = compare(&[&a, &b], 0.05).into_iter().map(|r| (r.key, r.metric)).collect();
        assert_eq!(keys, vec![("s · cpu".into(), "average".into()), ("s · cpu".into(), "average (late)".into()), ("t · cpu".into(), "average".into())]);
    }

    #[test]
    fn zero_baseline_is_a_change_without_ratio() {
        let mut a = run("a", Some(0.0), None, None);
        let b = run("b", Some(5.0), None, None);
        a.label = "zero".into();
        let rows = compare(&[&a, &b], 0.05);
        assert_eq!(rows[0].cells[1].rel, None);
        assert_eq!(rows[0].cells[1].verdict, Verdict::Worse);
    }
}
