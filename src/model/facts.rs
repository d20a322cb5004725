//! Flattens a run into facts: one numeric value per (section, key, metric), with its unit, its
//! `Spec` (family, direction, how to compare; see `metric`) and what a rate needs (samples,
//! seconds). Comparisons align facts of different runs by that key.

use super::metric::Spec;
use crate::bundle::{Run, Unit};
use std::borrow::Cow;

/// Which part of a run a fact comes from; also the order sections are shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Duration,
    Kpi,
    Transaction,
    Resource,
    Index,
    Error,
    Tenant,
}

impl Section {
    pub const ALL: [Section; 7] = [
        Section::Duration,
        Section::Kpi,
        Section::Transaction,
        Section::Resource,
        Section::Index,
        Section::Error,
        Section::Tenant,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Section::Duration => "Duration",
            Section::Kpi => "KPIs",
            Section::Transaction => "Latency",
            Section::Resource => "Resources",
            Section::Index => "Index sizes",
            Section::Error => "Errors",
            Section::Tenant => "Tenants",
        }
    }

    /// What a run lacks when it has no fact of this section, e.g. "per-transaction latency".
    pub fn data_name(self) -> &'static str {
        match self {
            Section::Duration => "run duration",
            Section::Kpi => "KPIs",
            Section::Transaction => "per-transaction latency",
            Section::Resource => "resource figures",
            Section::Index => "index statistics",
            Section::Error => "error counts",
            Section::Tenant => "tenant results",
        }
    }
}

/// One comparable number of a run. Names borrow from the run where they can (a bundle of
/// thousands of transactions yields tens of thousands of facts).
#[derive(Debug, Clone, PartialEq)]
pub struct Fact<'a> {
    pub section: Section,
    /// What it measures: a transaction name, "mod-search · cpu", an index name, a KPI name.
    pub key: Cow<'a, str>,
    /// Which statistic of it: "p95", "average", "store size"; empty for KPIs.
    pub metric: Cow<'a, str>,
    pub unit: Unit,
    pub spec: Spec,
    pub value: f64,
    /// Samples behind the value: the transaction's (latency, errors), the run's total (error
    /// list). Rates and the minimum-data rule use it.
    pub samples: Option<f64>,
    /// The run's duration, for errors per hour when sample counts are unknown.
    pub seconds: Option<f64>,
}

struct Out<'f, 'a> {
    facts: &'f mut Vec<Fact<'a>>,
    section: Section,
    key: Cow<'a, str>,
    samples: Option<f64>,
    seconds: Option<f64>,
}

impl<'a> Out<'_, 'a> {
    fn push(&mut self, metric: impl Into<Cow<'a, str>>, value: Option<f64>, unit: Unit, spec: Spec) {
        if let Some(value) = value.filter(|v| v.is_finite()) {
            self.facts.push(Fact {
                section: self.section,
                key: self.key.clone(),
                metric: metric.into(),
                unit,
                spec,
                value,
                samples: self.samples,
                seconds: self.seconds,
            });
        }
    }
}

fn out<'f, 'a>(facts: &'f mut Vec<Fact<'a>>, section: Section, key: impl Into<Cow<'a, str>>) -> Out<'f, 'a> {
    Out { facts, section, key: key.into(), samples: None, seconds: None }
}

/// Samples of a transaction: its count, else its histogram's.
pub fn transaction_samples(t: &crate::bundle::Transaction) -> Option<f64> {
    t.samples.or_else(|| t.histogram.as_ref().map(|h| h.counts.iter().sum())).map(|n| n as f64)
}

/// All facts of a run, in display order.
pub fn facts(run: &Run) -> Vec<Fact<'_>> {
    let mut f = Vec::with_capacity(1 + run.transactions.len() * 11 + run.resources.len() * 3 + run.indices.len() * 4);
    for s in Section::ALL {
        section_facts(&mut f, run, s, None);
    }
    f
}

/// The facts of one key of a run, as `facts` gives them (in its order), and whether the run has
/// any fact of that section at all (a run that lacks the key may still have the section). For
/// the comparison of one row (`compare_one`): a 50-run history's trend needs one transaction of
/// each run, not its 20,000 facts.
pub fn key_facts<'a>(run: &'a Run, section: Section, key: &str) -> (Vec<Fact<'a>>, bool) {
    let mut f = Vec::new();
    section_facts(&mut f, run, section, Some(key));
    if !f.is_empty() {
        return (f, true);
    }
    let has_section = if section == Section::Transaction {
        // The first transaction with a fact settles it; most runs answer at their first.
        let mut one = Vec::new();
        run.transactions.iter().any(|t| {
            one.clear();
            transaction_facts(&mut one, t);
            !one.is_empty()
        })
    } else {
        let mut all = Vec::new();
        section_facts(&mut all, run, section, None);
        !all.is_empty()
    };
    (f, has_section)
}

fn transaction_facts<'a>(f: &mut Vec<Fact<'a>>, t: &'a crate::bundle::Transaction) {
    let mut o = out(f, Section::Transaction, t.name.as_str());
    o.samples = transaction_samples(t);
    o.push("samples", t.samples.map(|v| v as f64), Unit::Count, Spec::transaction("samples"));
    o.push("errors", t.errors.map(|v| v as f64), Unit::Count, Spec::transaction("errors"));
    for (m, v) in [
        ("mean", t.mean_ms),
        ("median", t.median_ms),
        ("p90", t.p90_ms),
        ("p95", t.p95_ms),
        ("p99", t.p99_ms),
        ("min", t.min_ms),
        ("max", t.max_ms),
    ] {
        o.push(m, v, Unit::Ms, Spec::transaction(m));
    }
    for (name, v) in &t.percentiles {
        o.push(name.as_str(), Some(*v), Unit::Ms, Spec::transaction(name));
    }
    o.push("throughput", t.throughput_per_s, Unit::PerSecond, Spec::transaction("throughput"));
}

/// Appends the facts of one section of `run` (only those of `key`, when given).
fn section_facts<'a>(f: &mut Vec<Fact<'a>>, run: &'a Run, section: Section, key: Option<&str>) {
    let wanted = |k: &str| key.is_none_or(|key| key == k);
    match section {
        Section::Duration => {
            if wanted("Run duration") {
                out(f, Section::Duration, "Run duration").push("", run.duration_s, Unit::S, Spec::duration());
            }
        }
        Section::Kpi => {
            for k in run.kpis.iter().filter(|k| wanted(&k.name)) {
                out(f, Section::Kpi, k.name.as_str()).push(
                    "",
                    Some(k.value),
                    k.unit,
                    Spec::kpi(&k.name, k.unit, k.direction),
                );
            }
        }
        Section::Transaction => {
            for t in run.transactions.iter().filter(|t| wanted(&t.name)) {
                transaction_facts(f, t);
            }
        }
        Section::Resource => {
            for r in &run.resources {
                let name = format!("{} · {}", r.service, r.metric);
                if !wanted(&name) {
                    continue;
                }
                let spec = Spec::resource(&r.metric, r.unit);
                let mut o = out(f, Section::Resource, name);
                o.push("peak", r.peak, r.unit, spec);
                o.push("average", r.average, r.unit, spec);
                o.push("min", r.min, r.unit, spec);
                for p in &r.phases {
                    o.push(format!("average ({})", p.label), p.average, r.unit, spec);
                    o.push(format!("peak ({})", p.label), p.peak, r.unit, spec);
                }
            }
        }
        Section::Index => {
            for x in run.indices.iter().filter(|x| wanted(&x.index)) {
                let mut o = out(f, Section::Index, x.index.as_str());
                o.push("docs", x.docs_count.map(|v| v as f64), Unit::Count, Spec::index("docs"));
                o.push("deleted docs", x.docs_deleted.map(|v| v as f64), Unit::Count, Spec::index("deleted docs"));
                o.push("store size", x.store_size.map(|v| v.0 as f64), Unit::Bytes, Spec::index("store size"));
                o.push(
                    "primary store size",
                    x.pri_store_size.map(|v| v.0 as f64),
                    Unit::Bytes,
                    Spec::index("primary store size"),
                );
            }
        }
        Section::Error => {
            let total_samples =
                run.transactions.iter().map(transaction_samples).try_fold(0.0, |acc, s| s.map(|s| acc + s));
            for e in run.errors.iter() {
                let key: Cow<'a, str> = match (&e.transaction, &e.code) {
                    (None, None) => Cow::Borrowed(e.message.as_str()),
                    _ => Cow::Owned(e.key()),
                };
                if !wanted(&key) {
                    continue;
                }
                let mut o = out(f, Section::Error, key);
                o.samples = total_samples.filter(|n| *n > 0.0);
                o.seconds = run.duration_s.filter(|d| *d > 0.0);
                o.push("count", e.count.map(|v| v as f64), Unit::Count, Spec::error_entry());
            }
        }
        Section::Tenant => {
            for t in &run.tenants {
                for k in &t.kpis {
                    let name = format!("{} · {}", t.tenant, k.name);
                    if wanted(&name) {
                        out(f, Section::Tenant, name).push(
                            "",
                            Some(k.value),
                            k.unit,
                            Spec::kpi(&k.name, k.unit, k.direction),
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{ByteSize, ErrorEntry, IndexStats, Transaction};

    #[test]
    fn flattens_transactions_and_indices() {
        let run = Run {
            id: "a".into(),
            label: "A".into(),
            duration_s: Some(60.0),
            transactions: vec![Transaction {
                name: "login".into(),
                p95_ms: Some(120.0),
                samples: Some(40),
                ..Default::default()
            }],
            indices: vec![IndexStats { index: "i".into(), store_size: Some(ByteSize(10)), ..Default::default() }],
            errors: vec![ErrorEntry { message: "boom".into(), count: Some(2), ..Default::default() }],
            ..Default::default()
        };
        let f = facts(&run);
        assert_eq!(f.len(), 5);
        assert_eq!(
            (f[2].section, &*f[2].key, &*f[2].metric, f[2].value, f[2].samples),
            (Section::Transaction, "login", "p95", 120.0, Some(40.0))
        );
        assert_eq!((&*f[3].metric, f[3].unit), ("store size", Unit::Bytes));
        assert_eq!(
            (f[4].samples, f[4].seconds),
            (Some(40.0), Some(60.0)),
            "run-level errors know the run's samples and duration"
        );
    }

    #[test]
    fn the_facts_of_one_key_are_those_of_all_facts_for_it() {
        let tx = |name: &str, p95: Option<f64>| Transaction { name: name.into(), p95_ms: p95, ..Default::default() };
        let run = Run {
            id: "a".into(),
            duration_s: Some(60.0),
            transactions: vec![
                tx("empty", None),
                tx("login", Some(120.0)),
                tx("search", Some(80.0)),
                tx("login", Some(130.0)),
            ],
            indices: vec![IndexStats { index: "i".into(), store_size: Some(ByteSize(10)), ..Default::default() }],
            ..Default::default()
        };
        let all = facts(&run);
        for (section, key) in [
            (Section::Transaction, "login"),
            (Section::Transaction, "search"),
            (Section::Index, "i"),
            (Section::Duration, "Run duration"),
        ] {
            let want: Vec<_> = all.iter().filter(|f| f.section == section && f.key == key).cloned().collect();
            assert!(!want.is_empty());
            assert_eq!(key_facts(&run, section, key), (want, true), "{key}");
        }
        // A key without facts: the section is there (another transaction has one) or it is not.
        assert_eq!(key_facts(&run, Section::Transaction, "empty"), (vec![], true));
        assert_eq!(key_facts(&run, Section::Resource, "x"), (vec![], false));
        let bare = Run { transactions: vec![tx("empty", None)], ..Default::default() };
        assert_eq!(key_facts(&bare, Section::Transaction, "empty"), (vec![], false));
    }
}
