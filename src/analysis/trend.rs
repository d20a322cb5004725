//! Trends over many runs: the runs ordered by a dimension (start time, release, version, any
//! `dimensions` key, or the bundle's order), and one metric across them, each run judged against
//! the baseline as a comparison of the two would judge it, and the metric's change points.
//! Runs annotated `excluded` keep their place and value but are neither judged nor part of the
//! change points.

use super::changepoint::history::{row_shifts, series_of, Shift, ShiftKind};
use super::compare::{compare_one, Row, Verdict, Why};
use super::window::{window_checked, window_runs, Focus, Shift as WindowShift, WindowSpec, Windowed};
use crate::bundle::{Annotation, LabelRule, Run};
use crate::model::labels::with_label_rules;
use crate::model::{facts, Section, Thresholds};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

/// Orders that are not dimension keys.
pub const ORDER_START: &str = "start";
pub const ORDER_RELEASE: &str = "release";
pub const ORDER_VERSION: &str = "version";
pub const ORDER_BUNDLE: &str = "bundle";

/// The value a run has for an order, if any.
pub fn order_value<'r>(run: &'r Run, by: &str) -> Option<&'r str> {
    match by {
        ORDER_START => run.start.as_deref(),
        ORDER_RELEASE => run.release.as_deref(),
        ORDER_VERSION => run.version.as_deref(),
        ORDER_BUNDLE => None,
        d => run.dimensions.get(d).map(String::as_str),
    }
}

/// The orders the runs offer: start time, release, version when some run states them, each
/// dimension key, and the bundle's own order.
pub fn orders(runs: &[&Run]) -> Vec<String> {
    let mut out: Vec<String> = [ORDER_START, ORDER_RELEASE, ORDER_VERSION]
        .into_iter()
        .filter(|o| runs.iter().any(|r| order_value(r, o).is_some()))
        .map(str::to_string)
        .collect();
    for r in runs {
        for k in r.dimensions.keys() {
            if !out.contains(k) && ![ORDER_START, ORDER_RELEASE, ORDER_VERSION, ORDER_BUNDLE].contains(&k.as_str()) {
                out.push(k.clone());
            }
        }
    }
    out.push(ORDER_BUNDLE.into());
    out
}

/// The order a trend starts with: start time when every run has one, else a dimension that
/// reads like a sequence (date, night, build, release), else the release, else the bundle's.
pub fn default_order(runs: &[&Run]) -> String {
    let all = |o: &str| !runs.is_empty() && runs.iter().all(|r| order_value(r, o).is_some());
    if all(ORDER_START) {
        return ORDER_START.into();
    }
    for d in ["date", "night", "build", "release", "version"] {
        if runs.iter().all(|r| r.dimensions.contains_key(d)) && !runs.is_empty() {
            return d.into();
        }
    }
    if all(ORDER_RELEASE) {
        return ORDER_RELEASE.into();
    }
    ORDER_BUNDLE.into()
}

/// Compares two labels the way people number things: digit runs as numbers ("build 9" before
/// "build 10"), the rest as text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (crate::fold::lower(a), crate::fold::lower(b));
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let take = |it: &mut std::iter::Peekable<std::str::Chars>| {
                    let mut s = String::new();
                    while let Some(c) = it.peek().copied().filter(char::is_ascii_digit) {
                        s.push(c);
                        it.next();
                    }
                    s
                };
                let (n, m) = (take(&mut x), take(&mut y));
                let (n, m) = (n.trim_start_matches('0'), m.trim_start_matches('0'));
                let o = n.len().cmp(&m.len()).then_with(|| n.cmp(m));
                if o != Ordering::Equal {
                    return o;
                }
            }
            (Some(c), Some(d)) => {
                let o = c.cmp(&d);
                if o != Ordering::Equal {
                    return o;
                }
                x.next();
                y.next();
            }
        }
    }
}

/// The runs in the order `by`; runs without a value keep their place after those with one.
pub fn ordered<'r>(runs: &[&'r Run], by: &str) -> Vec<&'r Run> {
    let mut out = runs.to_vec();
    if by != ORDER_BUNDLE {
        crate::order::sort_by(&mut out, |a, b| match (order_value(a, by), order_value(b, by)) {
            (Some(x), Some(y)) => natural_cmp(x, y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        });
    }
    out
}

/// A metric a trend can show: present in at least two runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrendMetric {
    pub section: Section,
    pub key: String,
    pub metric: String,
}

impl TrendMetric {
    /// "key · metric", or the key alone (the `metric=` URL value).
    pub fn label(&self) -> String {
        if self.metric.is_empty() {
            self.key.clone()
        } else {
            format!("{} · {}", self.key, self.metric)
        }
    }
}

/// Transaction statistics worth a trend (the others are in the tables).
const TREND_TX: [&str; 4] = ["median", "p95", "errors", "throughput"];

/// The metrics found in at least two of `runs`, in section order then first appearance.
pub fn trend_metrics(runs: &[&Run]) -> Vec<TrendMetric> {
    // Keyed by the facts' own names, borrowed from the runs where they can be (no copy of each
    // transaction's name per run); Fx hashing, as in `compare`: a 50-run bundle has 400,000 facts.
    type Key<'a> = (Section, Cow<'a, str>, Cow<'a, str>);
    // Per metric: its first appearance, how many runs have it, and the last run that counted.
    let mut seen: FxHashMap<Key, (usize, usize, usize)> = FxHashMap::default();
    for (ri, r) in runs.iter().enumerate() {
        for f in facts(r) {
            if f.section == Section::Transaction && !TREND_TX.contains(&&*f.metric) {
                continue;
            }
            let n = seen.len();
            let e = seen.entry((f.section, f.key, f.metric)).or_insert((n, 0, usize::MAX));
            if e.2 != ri {
                (e.1, e.2) = (e.1 + 1, ri);
            }
        }
    }
    let mut list: Vec<(Key, (usize, usize, usize))> = seen.into_iter().filter(|(_, (_, n, _))| *n >= 2).collect();
    crate::order::sort_by_key(&mut list, |((s, _, _), (first, _, _))| (*s, *first));
    list.into_iter()
        .map(|((section, key, metric), _)| TrendMetric { section, key: key.into_owned(), metric: metric.into_owned() })
        .collect()
}

/// One metric across runs in order, judged against the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// The runs' ids in order.
    pub run_ids: Vec<String>,
    /// Where each run sits on the x axis: its order value, else its label.
    pub x: Vec<String>,
    /// Position of the baseline in `run_ids`.
    pub baseline: usize,
    /// The comparison row; `cells[i]` belongs to `run_ids[i]` (the baseline's is `Baseline`);
    /// an excluded run's is not comparable (`Why::Excluded`) but keeps its value.
    pub row: Row,
    /// The metric's change points (`analysis::changepoint`), excluded runs left out.
    pub shifts: Vec<Shift>,
    /// Each run's annotation, in order.
    pub annotations: Vec<Option<Annotation>>,
    /// Whether the series was long enough for a change point (two minimum segments).
    pub could_shift: bool,
}

impl Trend {
    /// Which level run `i` is on: how many shifts start at or before it.
    pub fn level(&self, i: usize) -> usize {
        self.shifts.iter().filter(|s| s.index <= i).count()
    }

    /// Whether run `i` is judged a regression on a level an expected change brought (its latest
    /// shift is expected, and the baseline is before it): a trade-off, not an alarm.
    pub fn is_expected(&self, i: usize) -> bool {
        let latest = self.shifts.iter().rev().find(|s| s.index <= i);
        self.row.cells.get(i).is_some_and(|c| c.is_regression())
            && latest.is_some_and(|s| s.kind == ShiftKind::Expected && self.baseline < s.index)
    }

    /// Whether run `i` is judged a regression while on the baseline's level (no shift between
    /// them, in a series long enough to show one): a noisy run, not an alarm.
    pub fn is_blip(&self, i: usize) -> bool {
        self.could_shift
            && self.row.cells.get(i).is_some_and(|c| c.is_regression())
            && self.level(i) == self.level(self.baseline)
    }
}

/// Every loaded run as the Trends view judges it, as every other view judges the selected runs
/// (`AppState::whole` then `windowed`): the label rules applied, then cut to the window (runs
/// without a timeline stay whole, and the outcomes say so).
pub fn trend_runs<'a>(
    runs: impl Iterator<Item = &'a Arc<Run>>,
    rules: &[LabelRule],
    spec: WindowSpec,
    shifts: &[WindowShift],
) -> Windowed {
    window_runs(&with_label_rules(runs, rules), spec, shifts)
}

/// The runs (label rules applied) as the trend of `m` reads them under the window: each cut only
/// as far as `m` needs (`Focus::Metric`), far less work than `trend_runs` over a long history;
/// `usable` is `window::usable(runs)`, found once for every window move (empty: found here). The
/// trend of `m` over them equals its trend over `trend_runs` (tests/trend_window.rs).
pub fn trend_window(
    runs: &[Arc<Run>],
    usable: &[bool],
    m: &TrendMetric,
    spec: WindowSpec,
    shifts: &[WindowShift],
) -> Windowed {
    window_checked(runs, usable, spec, shifts, Focus::Metric(m.section, &m.key))
}

/// The trend of `m` over `runs` (already in order) against the run `baseline`.
pub fn trend(runs: &[&Run], baseline: &str, m: &TrendMetric, by: &str, th: &Thresholds) -> Option<Trend> {
    let b = runs.iter().position(|r| r.id == baseline)?;
    // The baseline first for the comparison, then the others in order.
    let mut cmp_order: Vec<&Run> = vec![runs[b]];
    cmp_order.extend(runs.iter().enumerate().filter(|(i, _)| *i != b).map(|(_, r)| *r));
    let judged = compare_one(&cmp_order, th, m.section, &m.key, &m.metric)?;
    let mut cells = Vec::with_capacity(runs.len());
    let mut others = judged.cells[1..].iter();
    for (i, r) in runs.iter().enumerate() {
        let mut c = if i == b { judged.cells[0] } else { *others.next()? };
        if i != b && r.is_excluded() {
            (c.verdict, c.why, c.change, c.abs) = (Verdict::NotComparable, Why::Excluded, None, None);
        }
        cells.push(c);
    }
    let row = Row { cells, ..judged };
    let settings = crate::analysis::changepoint::DEFAULT;
    Some(Trend {
        could_shift: series_of(&row).1.len() >= 2 * settings.min_segment,
        run_ids: runs.iter().map(|r| r.id.clone()).collect(),
        x: runs.iter().map(|r| order_value(r, by).map_or_else(|| r.label.clone(), str::to_string)).collect(),
        baseline: b,
        shifts: row_shifts(runs, &row, &settings),
        annotations: runs.iter().map(|r| r.annotation.clone()).collect(),
        row,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::RunStatus;

    fn nightly(i: usize, dur: f64) -> Run {
        let mut r = Run {
            id: format!("n{i}"),
            label: format!("Night {i}"),
            start: Some(format!("2024-03-{:02}T02:00:00Z", i + 1)),
            duration_s: Some(dur),
            ..Default::default()
        };
        r.dimensions.insert("build".into(), format!("build {}", 100 - i));
        r
    }

    #[test]
    fn orders_naturally_and_judges_each_night_against_the_baseline() {
        assert_eq!(natural_cmp("build 9", "build 10"), Ordering::Less);
        assert_eq!(natural_cmp("v1.10.0", "v1.9.3"), Ordering::Greater);
        let mut runs: Vec<Run> = (0..30).map(|i| nightly(i, 3600.0 + if i == 20 { 600.0 } else { 0.0 })).collect();
        runs[25].status = RunStatus::Failed;
        runs.reverse();
        let refs: Vec<&Run> = runs.iter().collect();
        assert_eq!(default_order(&refs), ORDER_START);
        assert_eq!(orders(&refs), vec!["start".to_string(), "build".into(), "bundle".into()]);
        let by_start = ordered(&refs, ORDER_START);
        assert_eq!(by_start[0].id, "n0");
        let by_build = ordered(&refs, "build");
        assert_eq!(by_build[0].id, "n29", "build 71 comes before build 100");
        let m = &trend_metrics(&refs)[0];
        assert_eq!(m.label(), "Run duration");
        let t = trend(&by_start, "n3", m, ORDER_START, &Thresholds::default()).unwrap();
        assert_eq!((t.baseline, t.x[0].as_str()), (3, "2024-03-01T02:00:00Z"));
        assert_eq!(t.row.cells[3].verdict, Verdict::Baseline);
        assert_eq!(t.row.cells[20].verdict, Verdict::Regressed, "night 20 took 10 minutes longer");
        assert_eq!(t.row.cells[25].verdict, Verdict::NotComparable, "night 25 failed");
        assert_eq!(t.row.cells[29].verdict, Verdict::WithinNoise);
    }

    #[test]
    fn change_points_sit_on_the_runs_in_order_and_a_lone_regression_is_a_blip() {
        // 24 nights, bundle order reversed: 1 h, a 20-minute spike at night 5, 1 h 20 min from
        // night 14 on (small wobbles so the values are not all equal).
        let wobble = |i: usize| [0.0, 20.0, -15.0, 5.0][i % 4];
        let dur = |i: usize| wobble(i) + if i == 5 || i >= 14 { 4800.0 } else { 3600.0 };
        let mut runs: Vec<Run> = (0..24).map(|i| nightly(i, dur(i))).collect();
        runs.reverse();
        let refs: Vec<&Run> = runs.iter().collect();
        let by_start = ordered(&refs, ORDER_START);
        let m = &trend_metrics(&refs)[0];
        let t = trend(&by_start, "n0", m, ORDER_START, &Thresholds::default()).unwrap();
        let at: Vec<(&str, usize)> = t.shifts.iter().map(|s| (s.run_id.as_str(), s.index)).collect();
        assert_eq!(at, [("n14", 14)]);
        assert_eq!(t.row.cells[5].verdict, Verdict::Regressed);
        assert!(t.is_blip(5), "night 5 is on the baseline's level");
        assert!(!t.is_blip(14) && !t.is_blip(20), "nights after the shift are the shift");
        assert_eq!((t.level(13), t.level(14)), (0, 1));
        assert!(!t.is_expected(20), "no annotation: the shift is a regression");
        runs.iter_mut().find(|r| r.id == "n14").unwrap().annotation =
            Some(Annotation { kind: crate::bundle::AnnotationKind::ExpectedChange, note: String::new() });
        let refs: Vec<&Run> = runs.iter().collect();
        let t = trend(&ordered(&refs, ORDER_START), "n0", m, ORDER_START, &Thresholds::default()).unwrap();
        assert!(t.is_expected(14) && t.is_expected(20) && !t.is_expected(5), "after the expected shift");
    }

    #[test]
    fn metrics_are_those_of_two_runs_or_more_in_section_order_then_first_seen() {
        use crate::bundle::Transaction;
        let tx = |name: &str, p95: f64| Transaction {
            name: name.into(),
            p95_ms: Some(p95),
            p90_ms: Some(p95),
            ..Default::default()
        };
        let run = |id: &str, dur: Option<f64>, txs: Vec<Transaction>| Run {
            id: id.into(),
            duration_s: dur,
            transactions: txs,
            ..Default::default()
        };
        // "b" twice in the first run counts once for it; "twice-in-r1", "only-a" and "only-c" are
        // in one run each.
        let runs = [
            run(
                "r1",
                None,
                vec![
                    tx("b", 1.0),
                    tx("twice-in-r1", 1.0),
                    tx("only-a", 1.0),
                    tx("b", 2.0),
                    tx("twice-in-r1", 2.0),
                    tx("a", 1.0),
                ],
            ),
            run("r2", Some(60.0), vec![tx("a", 1.0), tx("b", 1.0)]),
            run("r3", Some(70.0), vec![tx("only-c", 1.0)]),
        ];
        let refs: Vec<&Run> = runs.iter().collect();
        let got: Vec<(Section, String, String)> =
            trend_metrics(&refs).into_iter().map(|m| (m.section, m.key, m.metric)).collect();
        let want = [
            (Section::Duration, "Run duration", ""),
            (Section::Transaction, "b", "p95"),
            (Section::Transaction, "a", "p95"),
        ];
        let want: Vec<(Section, String, String)> =
            want.iter().map(|(s, k, m)| (*s, k.to_string(), m.to_string())).collect();
        assert_eq!(got, want, "p90 is not a trend metric of a transaction; one run's metrics are not a trend");
        // A metric a later run adds to a key comes after every metric seen before it, not beside
        // its key's others: first appearance is over all metrics.
        let with_median = |name: &str| Transaction { median_ms: Some(1.0), ..tx(name, 1.0) };
        let runs = [
            run("r1", None, vec![tx("a", 1.0), tx("b", 1.0)]),
            run("r2", None, vec![with_median("a"), tx("b", 1.0)]),
            run("r3", None, vec![with_median("a")]),
        ];
        let refs: Vec<&Run> = runs.iter().collect();
        let got: Vec<String> = trend_metrics(&refs).iter().map(TrendMetric::label).collect();
        assert_eq!(got, ["a · p95", "b · p95", "a · median"]);
    }
}
