//! The run KPIs of merged load generators: the ones `samples::run_kpis` makes (samples, error
//! rate, throughput, mean and p95 response time) made again from the merged labels when every
//! part's labels add up to its samples, else from the parts' values (the p95 then said to be
//! approximate); counts that add up (iterations, data, users started) summed, k6's iteration rate
//! made again over the union of the runs; any other KPI kept
//! from the first part that has it, with a warning when another part's value differs.

use crate::bundle::{Kpi, Run, Warning};
use crate::import::common::samples::{run_kpis, LabelStats};

/// KPIs that are counts over the whole test: the sum over load generators.
const ADDITIVE: [&str; 8] = [
    "Iterations",
    "Data received",
    "Data sent",
    "Dropped iterations",
    "Users started",
    "Failures",
    "Exceptions",
    "Max VUs",
];
/// KPIs `run_kpis` makes.
const FROM_SAMPLES: [&str; 5] = ["Samples", "Error rate", "Throughput", "Mean response time", "p95 response time"];

fn value(kpis: &[Kpi], name: &str) -> Option<f64> {
    kpis.iter().find(|k| k.name == name).map(|k| k.value)
}

/// Whether a part's transactions are exactly the samples its KPIs count.
fn labels_are_the_total(run: &Run) -> bool {
    let sum: u64 = run.transactions.iter().filter_map(|t| t.samples).sum();
    value(&run.kpis, "Samples").is_some_and(|n| n == sum as f64)
}

pub fn merge(
    parts: &[(&str, &Run)],
    labels: &[&LabelStats],
    window: (Option<i64>, Option<i64>),
) -> (Vec<Kpi>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut out: Vec<Kpi> = Vec::new();
    let has_sample_kpis = parts.iter().any(|(_, r)| value(&r.kpis, "Samples").is_some());
    if has_sample_kpis && parts.iter().all(|(_, r)| labels_are_the_total(r)) {
        let mut total = LabelStats { name: "All samples".into(), ..Default::default() };
        labels.iter().for_each(|l| total.merge(l));
        out = run_kpis(&total, window);
    } else if has_sample_kpis {
        out = from_values(parts, window, &mut warnings);
    }
    for (source, run) in parts {
        for k in &run.kpis {
            if FROM_SAMPLES.contains(&k.name.as_str()) && has_sample_kpis {
                continue;
            }
            match out.iter_mut().find(|o| o.name == k.name) {
                None => out.push(k.clone()),
                Some(_) if k.name == "Iteration rate" => {}
                Some(o) if ADDITIVE.contains(&k.name.as_str()) => o.value += k.value,
                Some(o) if o.value != k.value => warnings.push(Warning {
                    path: source.to_string(),
                    message: format!(
                        "KPI {:?} differs from an earlier load generator's and does not add up; the run keeps the earlier one",
                        k.name
                    ),
                }),
                Some(_) => {}
            }
        }
    }
    // k6's iteration rate is the iterations over its whole run (all metrics' points).
    let runs = parts.iter().map(|(_, r)| super::window_of(r));
    let (s, e): (Vec<_>, Vec<_>) = runs.unzip();
    let span = match (s.into_iter().flatten().min(), e.into_iter().flatten().max()) {
        (Some(s), Some(e)) if e > s => Some((e - s) as f64 / 1000.0),
        _ => None,
    };
    if let (Some(iterations), Some(secs)) = (value(&out, "Iterations"), span) {
        if let Some(k) = out.iter_mut().find(|k| k.name == "Iteration rate") {
            k.value = iterations / secs;
            warnings.push(Warning {
                path: parts.first().map_or(String::new(), |p| p.0.to_string()),
                message: "KPI \"Iteration rate\" is over an estimated window: the union of the runs (k6 counts it from its first to its last point, which a bundle does not give)".into(),
            });
        }
    }
    (out, warnings)
}

/// The sample KPIs from the parts' own: counts and errors add up, throughput is over the union
/// window, the mean is weighted by samples; the p95 of all samples cannot be made, so the largest
/// part's p95 stands for it, with a warning.
fn from_values(parts: &[(&str, &Run)], window: (Option<i64>, Option<i64>), warnings: &mut Vec<Warning>) -> Vec<Kpi> {
    let template = |name: &str| parts.iter().find_map(|(_, r)| r.kpis.iter().find(|k| k.name == name).cloned());
    let mut n = 0.0;
    let (mut errors, mut weighted) = (0.0, 0.0);
    for (_, r) in parts {
        let ni = value(&r.kpis, "Samples").unwrap_or(0.0);
        n += ni;
        errors += (value(&r.kpis, "Error rate").unwrap_or(0.0) * ni / 100.0).round();
        weighted += value(&r.kpis, "Mean response time").unwrap_or(0.0) * ni;
    }
    let mut out = Vec::new();
    let mut put = |name: &str, v: Option<f64>| {
        if let (Some(mut k), Some(v)) = (template(name), v) {
            k.value = v;
            out.push(k);
        }
    };
    put("Samples", Some(n));
    put("Error rate", (n > 0.0).then(|| errors * 100.0 / n));
    put(
        "Throughput",
        match window {
            (Some(s), Some(e)) if e > s => Some(n * 1000.0 / (e - s) as f64),
            _ => None,
        },
    );
    put("Mean response time", (n > 0.0).then(|| weighted / n));
    let p95 = parts.iter().filter_map(|(_, r)| value(&r.kpis, "p95 response time")).reduce(f64::max);
    put("p95 response time", p95);
    if p95.is_some() {
        warnings.push(Warning {
            path: parts.first().map_or(String::new(), |p| p.0.to_string()),
            message: "the run's p95 response time over all samples cannot be merged exactly here (the transactions are not the samples the KPIs count); it is the largest load generator's p95".into(),
        });
    }
    out
}
