//! A compact text dump of an import: what the snapshot tests compare and what the CLI prints with
//! `--summary`. One line per run, transaction, resource, index and error; numbers rounded to six
//! significant digits so that snapshots do not churn on float noise.

use crate::bundle::{Bundle, Run, Unit};
use crate::import::Imported;
use std::fmt::Write;

fn n(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let s = format!("{:.*}", (5 - v.abs().log10().floor().clamp(-6.0, 5.0) as i32).max(0) as usize, v);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn opt(label: &str, v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!(" {label}={}", n(v)))
}

fn unit(u: Unit) -> &'static str {
    match u {
        Unit::Ms => "ms",
        Unit::S => "s",
        Unit::Percent => "%",
        Unit::Count => "count",
        Unit::Bytes => "B",
        Unit::PerSecond => "/s",
        Unit::None => "",
    }
}

/// The dump of one import.
pub fn summary(imp: &Imported) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "format: {} ({})", imp.format.slug(), imp.format.title());
    let _ = writeln!(out, "records: {}", imp.records);
    out.push_str(&bundle_summary(&imp.bundle));
    let _ = writeln!(out, "warnings ({}):", imp.warnings.len());
    for w in &imp.warnings {
        let _ = writeln!(out, "  {w}");
    }
    out
}

/// The dump of a bundle: its title, one block per run, its comparisons.
pub fn bundle_summary(b: &Bundle) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "report: {:?}", b.report.title);
    for r in &b.runs {
        run(&mut out, r);
    }
    for c in &b.comparisons {
        let _ = writeln!(out, "comparison: {} vs {}", c.candidates.join(", "), c.baseline);
    }
    out
}

fn run(out: &mut String, r: &Run) {
    let _ = writeln!(
        out,
        "run {:?} {:?}{}{}{} status={:?}",
        r.id,
        r.label,
        r.start.as_ref().map_or(String::new(), |s| format!(" start={s}")),
        r.end.as_ref().map_or(String::new(), |s| format!(" end={s}")),
        opt("duration_s", r.duration_s),
        r.status
    );
    if !r.dimensions.is_empty() {
        let dims: Vec<String> = r.dimensions.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(out, "  dims {}", dims.join(" "));
    }
    for k in &r.kpis {
        let _ = writeln!(
            out,
            "  kpi {:?} = {} {} {}",
            k.name,
            n(k.value),
            unit(k.unit),
            k.direction.map_or("Unstated".to_string(), |d| format!("{d:?}"))
        );
    }
    for t in &r.transactions {
        let extra: String = t.percentiles.iter().map(|(k, v)| format!(" {k}={}", n(*v))).collect();
        let _ = writeln!(
            out,
            "  txn {:?}{}{}{}{}{}{}{}{}{}{}{}{}{}",
            t.name,
            opt("n", t.samples.map(|v| v as f64)),
            opt("err", t.errors.map(|v| v as f64)),
            opt("mean", t.mean_ms),
            opt("min", t.min_ms),
            opt("p50", t.median_ms),
            opt("p90", t.p90_ms),
            opt("p95", t.p95_ms),
            opt("p99", t.p99_ms),
            opt("max", t.max_ms),
            opt("tput", t.throughput_per_s),
            opt("rx", t.bytes_received.map(|v| v as f64)),
            extra,
            t.histogram.as_ref().map_or(String::new(), |h| format!(
                " hist={}x{}",
                h.counts.len(),
                h.counts.iter().sum::<u64>()
            )),
        );
        if let Some(note) = &t.note {
            let _ = writeln!(out, "    note {note}");
        }
    }
    for x in &r.resources {
        let _ = writeln!(
            out,
            "  res {:?} {:?} {}{}{}{}{}",
            x.service,
            x.metric,
            unit(x.unit),
            opt("peak", x.peak),
            opt("avg", x.average),
            opt("min", x.min),
            x.series.as_ref().map_or(String::new(), |s| format!(" series={}", s.values.len())),
        );
        if let Some(note) = &x.note {
            let _ = writeln!(out, "    note {note}");
        }
    }
    for i in &r.indices {
        let _ = writeln!(
            out,
            "  idx {:?}{}{}{}{}{}{}{}{}",
            i.index,
            i.health.as_ref().map_or(String::new(), |h| format!(" {h}")),
            i.status.as_ref().map_or(String::new(), |s| format!(" {s}")),
            opt("docs", i.docs_count.map(|v| v as f64)),
            opt("deleted", i.docs_deleted.map(|v| v as f64)),
            opt("store", i.store_size.map(|v| v.0 as f64)),
            opt("pri_store", i.pri_store_size.map(|v| v.0 as f64)),
            opt("pri", i.pri.map(f64::from)),
            opt("rep", i.rep.map(f64::from)),
        );
    }
    for e in &r.errors {
        let services = if e.services.is_empty() { String::new() } else { format!(" services={:?}", e.services) };
        let mut cause = String::new();
        for (name, v) in [("txn", &e.transaction), ("code", &e.code), ("example", &e.example)] {
            if let Some(v) = v {
                let _ = write!(cause, " {name}={v:?}");
            }
        }
        let _ = writeln!(
            out,
            "  error {:?}{}{cause}{}{}{services}",
            e.message,
            opt("count", e.count.map(|v| v as f64)),
            opt("first_s", e.first_s),
            opt("last_s", e.last_s)
        );
    }
    if let Some(t) = &r.timeline {
        timeline(out, t);
    }
    for note in &r.notes {
        let _ = writeln!(out, "  note {note}");
    }
}

/// One line per timeline: its grid, users, and per transaction totals, not every cell.
fn timeline(out: &mut String, t: &crate::bundle::Timeline) {
    let sum = |f: fn(&crate::bundle::TransactionTimeline) -> &Vec<u64>| -> u64 {
        t.transactions.iter().map(|x| f(x).iter().sum::<u64>()).sum()
    };
    let _ = writeln!(
        out,
        "  timeline {}s x{} offset={}ms{} txns={}{} exact={} cells={} samples={} errors={} causes={}{}",
        t.interval_s,
        t.buckets,
        t.origin_ms - t.start_ms,
        t.users.iter().max().map_or(String::new(), |u| format!(" users<={u}")),
        t.transactions.iter().filter(|x| !x.total).count(),
        match t.transactions.iter().filter(|x| x.total).count() {
            0 => String::new(),
            n => format!(" totals={n}"),
        },
        t.transactions.iter().filter(|x| x.exact).count(),
        t.transactions.iter().map(|x| x.cells.iter().map(|c| c.len() / 2).sum::<usize>()).sum::<usize>(),
        sum(|x| &x.samples),
        sum(|x| &x.errors),
        t.causes.len(),
        if t.is_well_formed() { "" } else { " NOT WELL FORMED" },
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(super::n(12.0), "12");
        assert_eq!(super::n(1.0 / 3.0), "0.333333");
        assert_eq!(super::n(12345.678912), "12345.7");
        assert_eq!(super::n(0.000123456789), "0.000123457");
    }
}
