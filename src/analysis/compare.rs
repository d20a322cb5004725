//! N-run comparison: one row per (section, key, metric), one cell per run, each judged against
//! the baseline (the first run) by `judge`. Bootstrap intervals (`intervals`) depend only on the
//! runs, so a caller can keep them while thresholds change (`compare_with`).

use super::judge::{judge, Judging, Side};
pub use super::judge::{Cell, Change, Evidence, Method, Verdict, Why};
use super::noise::{self, Exceedance, Extreme, Interval};
use super::tail::Tail;
use crate::bundle::{Run, RunStatus, Transaction, Unit};
use crate::model::Family;
use crate::model::{facts, key_facts, transaction_samples, Fact, Section, Spec, Thresholds};
use rustc_hash::FxHashMap;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub section: Section,
    /// Shared by the rows of one key, and a metric's name by every row of it: a switch on
    /// 3 runs × 2,000 transactions builds 22,000 rows, and two strings each were most of its
    /// allocations.
    pub key: Arc<str>,
    pub metric: Arc<str>,
    /// The baseline's unit (else the first run's that has the row).
    pub unit: Unit,
    pub spec: Spec,
    /// One cell per run, the baseline first.
    pub cells: Vec<Cell>,
}

impl Row {
    /// Whether any run regressed against the baseline (see `Cell::is_regression`).
    pub fn has_regression(&self) -> bool {
        self.cells.iter().any(Cell::is_regression)
    }

    /// "key · metric", or the key alone.
    pub fn label(&self) -> String {
        if self.metric.is_empty() {
            self.key.to_string()
        } else {
            format!("{} · {}", self.key, self.metric)
        }
    }

    /// The reason of cell `i`'s verdict in a sentence.
    pub fn reason(&self, i: usize) -> String {
        self.cells.get(i).map(|c| c.reason(&self.spec)).unwrap_or_default()
    }
}

/// Latency statistics that get a bootstrap interval when both runs carry histograms (p99 only
/// when both runs have enough samples beyond it to be judged at all: `analysis::tail`).
pub const INTERVAL_METRICS: [(&str, f64); 3] = [("median", 0.5), ("p95", 0.95), ("p99", 0.99)];

/// What one transaction of one run has to be judged by against the baseline's.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TransactionNoise {
    /// An interval per `INTERVAL_METRICS`.
    quantiles: [Option<Interval>; INTERVAL_METRICS.len()],
    max: Option<Exceedance>,
    min: Option<Exceedance>,
}

/// Bootstrap intervals and exceedance tests of the selected runs: per run (the baseline's list
/// is empty), transaction name → its evidence.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Intervals {
    per_run: Vec<FxHashMap<String, TransactionNoise>>,
}

impl Intervals {
    fn get(&self, run: usize, key: &str, metric: &str) -> Option<Evidence> {
        let noise = self.per_run.get(run)?.get(key)?;
        match metric {
            "max" => noise.max.map(|e| Evidence::Exceedance(e, Extreme::Max)),
            "min" => noise.min.map(|e| Evidence::Exceedance(e, Extreme::Min)),
            _ => {
                let m = INTERVAL_METRICS.iter().position(|(m, _)| *m == metric)?;
                noise.quantiles[m].map(|i| Evidence::Interval(i, Method::HistogramBootstrap))
            }
        }
    }

    /// How many (run, transaction) pairs have intervals.
    pub fn len(&self) -> usize {
        self.per_run.iter().map(FxHashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A run's transactions that carry histograms, by name (the first of a name).
fn with_histograms(run: &Run) -> FxHashMap<&str, &Transaction> {
    let mut out = FxHashMap::default();
    for t in run.transactions.iter().filter(|t| t.histogram.is_some()) {
        out.entry(t.name.as_str()).or_insert(t);
    }
    out
}

/// The evidence of transaction `b` against the baseline's `a` (both with histograms).
fn transaction_noise(
    boot: &noise::Bootstrap,
    name: &str,
    a: &Transaction,
    b: &Transaction,
) -> Option<TransactionNoise> {
    let (ha, hb) = (a.histogram.as_ref()?, b.histogram.as_ref()?);
    let extreme = |which, va: Option<f64>, vb: Option<f64>| noise::extreme_change(which, (ha, va?), (hb, vb?));
    let [median, p95, p99] = INTERVAL_METRICS.map(|(_, q)| (q, noise::seed(name, q)));
    let [median, p95] = boot.quantile_changes(ha, hb, [median, p95]);
    // p99 with too few samples beyond it is not judged: its interval (the costliest: drawn
    // exactly) is not worth computing.
    let tail = Tail::Quantile(p99.0);
    let judged = !tail.too_few(transaction_samples(a)) && !tail.too_few(transaction_samples(b));
    let p99 = if judged { boot.quantile_change(ha, hb, p99.0, p99.1) } else { None };
    Some(TransactionNoise {
        quantiles: [median, p95, p99],
        max: extreme(Extreme::Max, a.max_ms, b.max_ms),
        min: extreme(Extreme::Min, a.min_ms, b.min_ms),
    })
}

/// Bootstrap intervals of every transaction that has a histogram in the baseline and a run.
pub fn intervals(runs: &[&Run]) -> Intervals {
    intervals_of(runs, None)
}

/// Intervals of all transactions, or only of the one named `only`.
fn intervals_of(runs: &[&Run], only: Option<&str>) -> Intervals {
    // One run compares with nothing: no histograms to index, no bootstrap to set up.
    let (Some(base), true) = (runs.first(), runs.len() > 1) else { return Intervals::default() };
    let base_h = with_histograms(base);
    let boot = noise::Bootstrap::shared();
    let per_run = runs
        .iter()
        .enumerate()
        .map(|(ri, run)| {
            // A failed run is not comparable: no interval is worth its time.
            let failed = |r: &Run| matches!(r.status, RunStatus::Failed | RunStatus::Aborted);
            if ri == 0 || base_h.is_empty() || failed(base) || failed(run) {
                return FxHashMap::default();
            }
            with_histograms(run)
                .into_iter()
                .filter(|(name, _)| only.is_none_or(|o| o == *name))
                .filter_map(|(name, b)| Some((name.to_string(), transaction_noise(boot, name, base_h.get(name)?, b)?)))
                .collect()
        })
        .collect();
    Intervals { per_run }
}

/// Compares `runs[1..]` with `runs[0]` under `th`, computing bootstrap intervals as needed.
pub fn compare(runs: &[&Run], th: &Thresholds) -> Vec<Row> {
    compare_with(runs, th, &intervals(runs))
}

#[derive(Clone, Copy)]
struct Slot {
    value: f64,
    unit: Unit,
    samples: Option<f64>,
    seconds: Option<f64>,
}

/// Compares `runs[1..]` with `runs[0]` with intervals computed before. Rows keep the order in
/// which keys first appear, grouped by section.
pub fn compare_with(runs: &[&Run], th: &Thresholds, iv: &Intervals) -> Vec<Row> {
    align(runs, th, iv, None)
}

/// One row only: (section, key, metric) across `runs`, judged against `runs[0]` as `compare`
/// would, without the work for every other row (trends, grids).
pub fn compare_one(runs: &[&Run], th: &Thresholds, section: Section, key: &str, metric: &str) -> Option<Row> {
    let iv = if section == Section::Transaction { intervals_of(runs, Some(key)) } else { Intervals::default() };
    align(runs, th, &iv, Some((section, key, metric))).into_iter().next()
}

fn align(runs: &[&Run], th: &Thresholds, iv: &Intervals, only: Option<(Section, &str, &str)>) -> Vec<Row> {
    // One row only: each run's facts of its key, and whether the run has that section at all
    // (which tells a missing key from a missing section), instead of all its facts.
    let (all, has_section): (Vec<Vec<Fact>>, Vec<bool>) = match only {
        Some((section, key, _)) => runs.iter().map(|r| key_facts(r, section, key)).unzip(),
        None => (runs.iter().map(|r| facts(r)).collect(), Vec::new()),
    };
    let mut g = gather(&all, runs.len(), only);
    if let Some((section, _, _)) = only {
        for (ri, has) in has_section.iter().enumerate() {
            g.sections[ri][section as usize] = *has;
        }
    }
    judge_rows(&mut g, runs, th, iv);
    in_order(g.rows, &g.row_key)
}

/// The runs' facts aligned by key: one row per (key, metric), one slot per run.
struct Gathered {
    rows: Vec<Row>,
    /// Per row: its key's number (keys numbered in order of first appearance).
    row_key: Vec<usize>,
    /// Per row, one slot per run (a stride of the number of runs).
    slots: Vec<Option<Slot>>,
    /// Per key (a stride of the number of runs), which runs have it.
    key_runs: Vec<bool>,
    /// Per run, which sections it has.
    sections: Vec<[bool; Section::ALL.len()]>,
}

/// Aligns the facts of `n` runs (`all`, each run's facts key by key) into rows; with `only`, keeps
/// that one row (but still notes which runs have which keys and sections).
fn gather(all: &[Vec<Fact>], n: usize, only: Option<(Section, &str, &str)>) -> Gathered {
    let cap = all.first().map_or(0, Vec::len);
    let mut g = Gathered {
        rows: Vec::with_capacity(cap),
        row_key: Vec::with_capacity(cap),
        slots: Vec::with_capacity(cap * n),
        key_runs: Vec::new(),
        sections: vec![[false; Section::ALL.len()]; n],
    };
    // Fx hashing: the keys are the bundle's own names, hashed tens of thousands of times per
    // switch; SipHash's protection against chosen collisions is not worth its cost here.
    // Rows by (key number, metric): a key's name is hashed once per run of its facts, not once
    // per metric (a run's facts come key by key).
    let mut index: FxHashMap<(usize, &str), usize> = FxHashMap::default();
    index.reserve(cap);
    let mut key_index: FxHashMap<(Section, &str), usize> = FxHashMap::default();
    // Per key, its name once it has a row; the metrics' names, once each.
    let mut key_names: Vec<Option<Arc<str>>> = Vec::new();
    // Usually about a dozen metric names: a short list is enough (past `MAX_SHARED_METRICS`
    // names, as with many resource phases, a row gets a copy of its own).
    const MAX_SHARED_METRICS: usize = 64;
    let mut metric_names: Vec<Arc<str>> = Vec::new();
    for (ri, run_facts) in all.iter().enumerate() {
        let mut last: Option<(Section, &str, usize)> = None;
        for f in run_facts {
            g.sections[ri][f.section as usize] = true;
            let k = match last {
                Some((s, key, k)) if s == f.section && key == f.key => k,
                _ => {
                    let k = *key_index.entry((f.section, &f.key)).or_insert_with(|| {
                        g.key_runs.extend(std::iter::repeat_n(false, n));
                        key_names.push(None);
                        key_names.len() - 1
                    });
                    last = Some((f.section, &f.key, k));
                    k
                }
            };
            g.key_runs[k * n + ri] = true;
            if only.is_some_and(|(s, k, m)| (s, k, m) != (f.section, &*f.key, &*f.metric)) {
                continue;
            }
            let i = *index.entry((k, &f.metric)).or_insert_with(|| {
                let key = key_names[k].get_or_insert_with(|| Arc::from(&*f.key)).clone();
                let metric = match metric_names.iter().find(|m| ***m == *f.metric) {
                    Some(m) => m.clone(),
                    None if metric_names.len() < MAX_SHARED_METRICS => {
                        metric_names.push(Arc::from(&*f.metric));
                        metric_names[metric_names.len() - 1].clone()
                    }
                    None => Arc::from(&*f.metric),
                };
                g.rows.push(Row { section: f.section, key, metric, unit: f.unit, spec: f.spec, cells: Vec::new() });
                g.row_key.push(k);
                g.slots.extend(std::iter::repeat_n(None, n));
                g.rows.len() - 1
            });
            // The first occurrence wins (the loader warns about duplicates).
            g.slots[i * n + ri].get_or_insert(Slot {
                value: f.value,
                unit: f.unit,
                samples: f.samples,
                seconds: f.seconds,
            });
        }
    }
    g
}

/// Each row's cells: the baseline's value, and every other run judged against it.
fn judge_rows(g: &mut Gathered, runs: &[&Run], th: &Thresholds, iv: &Intervals) {
    let n = runs.len();
    for ((row, slot), k) in g.rows.iter_mut().zip(g.slots.chunks(n.max(1))).zip(&g.row_key) {
        let side = |ri: usize| {
            let s = slot[ri];
            Side {
                value: s.map(|s| s.value),
                unit: s.map_or(row.unit, |s| s.unit),
                samples: s.and_then(|s| s.samples),
                seconds: s.and_then(|s| s.seconds),
                status: runs[ri].status,
                has_key: g.key_runs[*k * n + ri],
                // A run that counts failed samples per transaction has errors as a section,
                // even with none (so that a baseline's error is gone from it, not "no data").
                has_section: g.sections[ri][row.section as usize]
                    || row.section == Section::Error && counts_errors(runs[ri]),
            }
        };
        let base = side(0);
        let transaction = row.section == Section::Transaction;
        let tail = if transaction && row.spec.family == Family::Latency { Tail::of(&row.metric) } else { None };
        let judging = Judging { spec: &row.spec, section: row.section, tail, th };
        row.cells = (0..n)
            .map(|ri| {
                if ri == 0 {
                    return Cell::baseline(base.value, base.unit);
                }
                let evidence = if transaction { iv.get(ri, &row.key, &row.metric) } else { None };
                judge(judging, &base, &side(ri), evidence)
            })
            .collect();
    }
}

/// Whether the run counts failed samples per transaction (its importer saw every sample).
fn counts_errors(run: &Run) -> bool {
    run.transactions.iter().any(|t| t.errors.is_some())
}

/// Sections in order, then by key in order of first appearance (a key's metrics stay together
/// even when a later run adds metrics the baseline lacks); stable inside a key.
fn in_order(rows: Vec<Row>, row_key: &[usize]) -> Vec<Row> {
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    crate::order::sort_by_key(&mut idx, |i| (rows[*i].section, row_key[*i]));
    let mut slots: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
    idx.into_iter().filter_map(|i| slots[i].take()).collect()
}

#[cfg(test)]
mod cause_tests;
#[cfg(test)]
mod tail_tests;
#[cfg(test)]
mod tests;
