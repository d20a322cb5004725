//! Flattens a run into facts: one numeric value per (section, key, metric), with its unit and
//! the direction in which it is better. Comparisons align facts of different runs by that key.

use crate::bundle::{Direction, Run, Unit};
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
    pub direction: Direction,
    pub value: f64,
}

struct Out<'f, 'a> {
    facts: &'f mut Vec<Fact<'a>>,
    section: Section,
    key: Cow<'a, str>,
}

impl<'a> Out<'_, 'a> {
    fn push(&mut self, metric: impl Into<Cow<'a, str>>, value: Option<f64>, unit: Unit, direction: Direction) {
        if let Some(value) = value.filter(|v| v.is_finite()) {
            self.facts.push(Fact {
                section: self.section,
                key: self.key.clone(),
                metric: metric.into(),
                unit,
                direction,
                value,
            });
        }
    }
}

/// All facts of a run, in display order.
pub fn facts(run: &Run) -> Vec<Fact<'_>> {
    use Direction::*;
    let mut f = Vec::with_capacity(1 + run.transactions.len() * 11 + run.resources.len() * 3 + run.indices.len() * 4);
    Out { facts: &mut f, section: Section::Duration, key: "Run duration".into() }
        .push("", run.duration_s, Unit::S, LowerIsBetter);
    for k in &run.kpis {
        Out { facts: &mut f, section: Section::Kpi, key: k.name.as_str().into() }.push("", Some(k.value), k.unit, k.direction);
    }
    for t in &run.transactions {
        let mut o = Out { facts: &mut f, section: Section::Transaction, key: t.name.as_str().into() };
        o.push("samples", t.samples.map(|v| v as f64), Unit::Count, Neutral);
        o.push("errors", t.errors.map(|v| v as f64), Unit::Count, LowerIsBetter);
        for (m, v) in [
            ("mean", t.mean_ms),
            ("median", t.median_ms),
            ("p90", t.p90_ms),
            ("p95", t.p95_ms),
            ("p99", t.p99_ms),
            ("min", t.min_ms),
            ("max", t.max_ms),
        ] {
            o.push(m, v, Unit::Ms, LowerIsBetter);
        }
        for (name, v) in &t.percentiles {
            o.push(name.as_str(), Some(*v), Unit::Ms, LowerIsBetter);
        }
        o.push("throughput", t.throughput_per_s, Unit::PerSecond, HigherIsBetter);
    }
    for r in &run.resources {
        let key = format!("{} · {}", r.service, r.metric);
        let mut o = Out { facts: &mut f, section: Section::Resource, key: key.into() };
        o.push("peak", r.peak, r.unit, LowerIsBetter);
        o.push("average", r.average, r.unit, LowerIsBetter);
        o.push("min", r.min, r.unit, LowerIsBetter);
        for p in &r.phases {
            o.push(format!("average ({})", p.label), p.average, r.unit, LowerIsBetter);
            o.push(format!("peak ({})", p.label), p.peak, r.unit, LowerIsBetter);
        }
    }
    for x in &run.indices {
        let mut o = Out { facts: &mut f, section: Section::Index, key: x.index.as_str().into() };
        o.push("docs", x.docs_count.map(|v| v as f64), Unit::Count, Neutral);
        o.push("deleted docs", x.docs_deleted.map(|v| v as f64), Unit::Count, LowerIsBetter);
        o.push("store size", x.store_size.map(|v| v.0 as f64), Unit::Bytes, LowerIsBetter);
        o.push("primary store size", x.pri_store_size.map(|v| v.0 as f64), Unit::Bytes, LowerIsBetter);
    }
    for e in &run.errors {
        Out { facts: &mut f, section: Section::Error, key: e.message.as_str().into() }
            .push("count", e.count.map(|v| v as f64), Unit::Count, LowerIsBetter);
    }
    for t in &run.tenants {
        for k in &t.kpis {
            let key = format!("{} · {}", t.tenant, k.name);
            Out { facts: &mut f, section: Section::Tenant, key: key.into() }.push("", Some(k.value), k.unit, k.direction);
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{ByteSize, IndexStats, Transaction};

    #[test]
    fn flattens_transactions_and_indices() {
        let run = Run {
            id: "a".into(),
            label: "A".into(),
            duration_s: Some(60.0),
            transactions: vec![Transaction { name: "login".into(), p95_ms: Some(120.0), ..Default::default() }],
            indices: vec![IndexStats { index: "i".into(), store_size: Some(ByteSize(10)), ..Default::default() }],
            ..Default::default()
        };
        let f = facts(&run);
        assert_eq!(f.len(), 3);
        assert_eq!((f[1].section, &*f[1].key, &*f[1].metric, f[1].value), (Section::Transaction, "login", "p95", 120.0));
        assert_eq!((&*f[2].metric, f[2].unit), ("store size", Unit::Bytes));
    }
}
