//! The JSON source of a CloudWatch dashboard widget (or a whole dashboard body): a query
//! definition with `metrics` arrays and no datapoints. Format:
//! https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CloudWatch-Dashboard-Body-Structure.html
//!
//! It is refused, with a message that names what it queries and how to get the values. Importing
//! its service list alone would make resources without a single number: a comparison would show
//! them as missing data, which is worse than saying what to fetch. The metrics arrays use the
//! dashboard shorthand: `"..."` repeats the previous metric's leading values so that the rest
//! lines up with its end, and `"."` repeats the value at the same place in the previous metric.

use crate::bundle::{LoadError, LoadErrorKind};
use crate::import::Ctx;
use crate::import::Head;
use serde_json::Value;

/// Content detection: an object whose `metrics` is a list of lists (a widget's `properties`),
/// or a dashboard body with `widgets`.
pub fn detect(h: &Head) -> bool {
    let t = h.trimmed();
    if !t.starts_with('{') {
        return false;
    }
    let list_of_lists = t.find("\"metrics\"").is_some_and(|i| {
        let rest = t[i + "\"metrics\"".len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().strip_prefix('[').is_some_and(|r| r.trim_start().starts_with(['[', '{'])))
    });
    list_of_lists
        && (t.contains("\"AWS/") || t.contains("\"region\"") || t.contains("\"view\"") || t.contains("\"expression\""))
}

/// Expands the shorthand of one metrics row against the previous expanded row.
fn expand(row: &[Value], prev: &[String]) -> Vec<String> {
    let strings: Vec<&str> = row.iter().filter_map(Value::as_str).collect();
    let mut out: Vec<String> = match strings.first() {
        Some(&"...") => {
            let rest = &strings[1..];
            let keep = prev.len().saturating_sub(rest.len());
            prev[..keep].iter().cloned().chain(rest.iter().map(|s| s.to_string())).collect()
        }
        _ => strings.iter().map(|s| s.to_string()).collect(),
    };
    for (i, v) in out.iter_mut().enumerate() {
        if v == "." {
            *v = prev.get(i).cloned().unwrap_or_default();
        }
    }
    out
}

/// (namespace, metric, service) of every metric row of every `metrics` list in `v`.
fn metrics(v: &Value, out: &mut Vec<(String, String, Option<String>)>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Array(rows)) = o.get("metrics") {
                let mut prev: Vec<String> = Vec::new();
                for row in rows.iter().filter_map(Value::as_array) {
                    let full = expand(row, &prev);
                    if full.len() >= 2 {
                        let dims: Vec<(String, String)> = full[2..]
                            .chunks(2)
                            .filter(|c| c.len() == 2)
                            .map(|c| (c[0].clone(), c[1].clone()))
                            .collect();
                        out.push((full[0].clone(), full[1].clone(), super::naming::service_of_dimensions(&dims)));
                    } else if let Some(e) = row.iter().find_map(|x| x.get("expression").and_then(Value::as_str)) {
                        out.push(("expression".into(), e.to_string(), None));
                    }
                    prev = full;
                }
            }
            o.values().for_each(|x| metrics(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| metrics(x, out)),
        _ => {}
    }
}

/// The refusal: what the widget queries, and the command that returns its values.
pub fn refuse(ctx: &mut Ctx, text: &str) -> LoadError {
    let mut found = Vec::new();
    let mut how = String::new();
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        metrics(&v, &mut found);
        if let (Some(stat), Some(period)) =
            (v.get("stat").and_then(Value::as_str), v.get("period").and_then(Value::as_u64))
        {
            how = format!(", {stat} per {period} s");
        }
    }
    let mut kinds: Vec<String> = found.iter().map(|(ns, m, _)| format!("{ns} {m}")).collect();
    kinds.dedup();
    let services: Vec<&str> = found.iter().filter_map(|(_, _, s)| s.as_deref()).collect();
    let shown = services.iter().take(4).copied().collect::<Vec<_>>().join(", ");
    let what = match (found.len(), services.len()) {
        (0, _) => String::new(),
        (n, 0) => format!(" ({n} metrics: {}{how})", kinds.join(", ")),
        (n, s) if s > 4 => format!(" ({n} metrics: {} of {shown} and {} more{how})", kinds.join(", "), s - 4),
        (n, _) => format!(" ({n} metrics: {} of {shown}{how})", kinds.join(", ")),
    };
    ctx.error(
        LoadErrorKind::Unsupported,
        None,
        format!(
            "this is the source of a CloudWatch dashboard widget{what}: a query definition, not measured values. \
To import the values, fetch them with `aws cloudwatch get-metric-data --metric-data-queries file://queries.json \
--start-time … --end-time …` (one MetricStat query per metric, each with \"Label\": \"${{PROP('Dim.ServiceName')}} \
${{PROP('MetricName')}}\" so the output names service and metric) and open that output here"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorthand_rows_expand_against_the_previous_one() {
        let prev: Vec<String> = ["AWS/ECS", "CPUUtilization", "ServiceName", "a", "ClusterName", "c"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let row: Vec<Value> = serde_json::from_str(r#"["...", "b", ".", ".", {"visible": false}]"#).unwrap();
        assert_eq!(expand(&row, &prev), vec!["AWS/ECS", "CPUUtilization", "ServiceName", "b", "ClusterName", "c"]);
        let row: Vec<Value> = serde_json::from_str(r#"[".", "MemoryUtilization", ".", "x"]"#).unwrap();
        assert_eq!(expand(&row, &prev), vec!["AWS/ECS", "MemoryUtilization", "ServiceName", "x"]);
    }
}
