//! Which service and metric a CloudWatch series is, and in which unit. Neither output names the
//! service: `get-metric-statistics` gives the metric name as `Label`, `get-metric-data` an `Id` and
//! a `Label` that defaults to the metric name (`CPUUtilization`). The service comes, in this order,
//! from the query's dimensions when the file also holds `MetricDataQueries`, from the label
//! beside a known metric name (`mod-search-b CPUUtilization`, or a label made with
//! `${PROP('Dim.ServiceName')} ${PROP('MetricName')}`), else from the query id.

use crate::bundle::Unit;

/// CloudWatch metric names runlens names itself: (name, metric, unit). Names not listed keep
/// their CloudWatch name.
const METRICS: [(&str, &str, Unit); 10] = [
    ("CPUUtilization", "cpu", Unit::Percent),
    ("MemoryUtilization", "memory", Unit::Percent),
    ("CPUReservation", "cpu_reservation", Unit::Percent),
    ("MemoryReservation", "memory_reservation", Unit::Percent),
    ("DatabaseConnections", "db_connections", Unit::Count),
    ("FreeableMemory", "freeable_memory", Unit::Bytes),
    ("JVMMemoryPressure", "jvm_memory_pressure", Unit::Percent),
    ("RunningTaskCount", "running_tasks", Unit::Count),
    ("ReadIOPS", "read_iops", Unit::PerSecond),
    ("WriteIOPS", "write_iops", Unit::PerSecond),
];

/// Dimensions that name a service, most specific first (ECS service before its cluster).
const SERVICE_DIMENSIONS: [&str; 14] = [
    "ServiceName",
    "DBInstanceIdentifier",
    "DBClusterIdentifier",
    "DomainName",
    "CacheClusterId",
    "Cluster Name",
    "FunctionName",
    "QueueName",
    "LoadBalancer",
    "TargetGroup",
    "InstanceId",
    "AutoScalingGroupName",
    "ClusterName",
    "TaskDefinitionFamily",
];

/// Words that name a metric in a hand-written label or id.
const HINTS: [(&str, &str); 3] = [("cpu", "cpu"), ("memory", "memory"), ("mem", "memory")];

/// A CloudWatch metric name as a runlens metric with its usual unit (RDS CPU is `db_cpu`, as the
/// FOLIO reports name it).
pub fn metric(name: &str, namespace: Option<&str>) -> (String, Option<Unit>) {
    if name == "CPUUtilization" && namespace == Some("AWS/RDS") {
        return ("db_cpu".into(), Some(Unit::Percent));
    }
    match METRICS.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(name)) {
        Some((_, m, u)) => (m.to_string(), Some(*u)),
        None => (name.to_string(), None),
    }
}

/// A CloudWatch unit (`StandardUnit`) as a bundle unit and the factor into it. Units runlens has
/// no counterpart for (`Kilobytes`, `Bytes/Second`) are `None`, and the caller says so.
pub fn unit(name: &str) -> Option<(Unit, f64)> {
    Some(match name {
        "Percent" => (Unit::Percent, 1.0),
        "Count" => (Unit::Count, 1.0),
        "Bytes" => (Unit::Bytes, 1.0),
        "Seconds" => (Unit::S, 1.0),
        "Milliseconds" => (Unit::Ms, 1.0),
        "Microseconds" => (Unit::Ms, 0.001),
        "Count/Second" => (Unit::PerSecond, 1.0),
        "None" => (Unit::None, 1.0),
        _ => return None,
    })
}

/// The service named by a metric's dimensions.
pub fn service_of_dimensions(dims: &[(String, String)]) -> Option<String> {
    SERVICE_DIMENSIONS
        .iter()
        .find_map(|d| dims.iter().find(|(n, _)| n == d).map(|(_, v)| v.clone()))
        .or_else(|| dims.first().map(|(_, v)| v.clone()))
        .filter(|s| !s.trim().is_empty())
}

/// What a label says: the service (the label without the metric's name) and the metric, when a
/// word of it names one.
pub fn from_label(label: &str) -> (Option<String>, Option<(String, Option<Unit>)>) {
    let words: Vec<&str> = label.split_whitespace().collect();
    let found = words.iter().position(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        METRICS.iter().any(|(n, _, _)| n.eq_ignore_ascii_case(w))
            || HINTS.iter().any(|(h, _)| h.eq_ignore_ascii_case(w))
    });
    let Some(i) = found else {
        return (Some(label.trim().to_string()).filter(|s| !s.is_empty()), None);
    };
    let word = words[i].trim_matches(|c: char| !c.is_alphanumeric());
    let m = match HINTS.iter().find(|(h, _)| h.eq_ignore_ascii_case(word)) {
        Some((_, m)) => (m.to_string(), Some(Unit::Percent)),
        None => metric(word, None),
    };
    let rest: Vec<&str> = words.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, w)| *w).collect();
    let service = rest.join(" ").trim_matches(|c: char| c.is_whitespace() || "-:|/,()".contains(c)).to_string();
    (Some(service).filter(|s| !s.is_empty()), Some(m))
}

/// A metric named by a query id such as `cpu_mod_search` or `memSearch`.
pub fn from_id(id: &str) -> Option<(String, Option<Unit>)> {
    let lower = id.to_ascii_lowercase();
    let first = lower.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
    HINTS
        .iter()
        .find(|(h, _)| {
            first == *h
                || (lower.starts_with(h)
                    && id.len() > h.len()
                    && id[h.len()..].starts_with(|c: char| c.is_ascii_uppercase()))
        })
        .map(|(_, m)| (m.to_string(), Some(Unit::Percent)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_ids_and_dimensions() {
        assert_eq!(
            from_label("mod-search-b CPUUtilization"),
            (Some("mod-search-b".into()), Some(("cpu".into(), Some(Unit::Percent))))
        );
        assert_eq!(from_label("CPUUtilization"), (None, Some(("cpu".into(), Some(Unit::Percent)))));
        assert_eq!(
            from_label("mod-search memory"),
            (Some("mod-search".into()), Some(("memory".into(), Some(Unit::Percent))))
        );
        assert_eq!(from_label("Avg Total IOPS"), (Some("Avg Total IOPS".into()), None));
        assert_eq!(from_id("cpu_mod_search").map(|m| m.0), Some("cpu".into()));
        assert_eq!(from_id("memSearch").map(|m| m.0), Some("memory".into()));
        assert_eq!(from_id("m1"), None);
        assert_eq!(from_id("membership"), None);
        let dims = [
            ("ClusterName".to_string(), "qcpt-pvt".to_string()),
            ("ServiceName".to_string(), "mod-search-b".to_string()),
        ];
        assert_eq!(service_of_dimensions(&dims), Some("mod-search-b".into()));
        assert_eq!(metric("CPUUtilization", Some("AWS/RDS")).0, "db_cpu");
        assert_eq!(unit("Microseconds"), Some((Unit::Ms, 0.001)));
        assert_eq!(unit("Kilobytes"), None);
    }
}
