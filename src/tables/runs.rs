//! The runs table (overview) and the tenants table: what each run was and what it measured.

use super::{Cell, Column, Row, Table};
use crate::analysis::Verdict;
use crate::bundle::{Run, RunStatus, Unit};
use crate::model::Workspace;

/// The runs of a workspace with their conditions (overview).
pub fn runs_table(ws: &Workspace) -> Table {
    let columns = ["Run", "Release", "Dimensions", "Start", "End", "Duration", "Status", "Conditions", "Notes"];
    let rows = ws
        .all_runs()
        .enumerate()
        .map(|(i, r)| {
            let dims = r.dimensions.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
            let status = match (r.status, &r.status_reason) {
                (RunStatus::Completed, _) => "completed".to_string(),
                (s, Some(reason)) => format!("{}: {reason}", status_word(s)),
                (s, None) => status_word(s).to_string(),
            };
            let mut status_cell = Cell::text(status);
            if matches!(r.status, RunStatus::Failed | RunStatus::Aborted) {
                status_cell.verdict = Some(Verdict::Regressed);
            }
            Row::new(
                vec![
                    Cell::text(&r.label),
                    Cell::text(r.release.clone().unwrap_or_default()),
                    Cell::text(dims),
                    Cell::text(r.start.as_deref().map(short_time).unwrap_or_default()),
                    Cell::text(r.end.as_deref().map(short_time).unwrap_or_default()),
                    Cell::value(r.duration_s, Unit::S),
                    status_cell,
                    Cell::text(r.conditions.join("; ")),
                    Cell::text(r.notes.join(" ")),
                ],
                i,
            )
        })
        .collect();
    Table {
        id: "runs".into(),
        caption: "Runs".into(),
        columns: columns.iter().map(|c| if *c == "Duration" { Column::num(*c) } else { Column::text(*c) }).collect(),
        rows,
    }
}

pub(crate) fn status_word(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Completed => "completed",
        RunStatus::Failed => "failed",
        RunStatus::Aborted => "aborted",
        RunStatus::Unknown => "unknown",
    }
}

/// "2023-10-01T10:18:00Z" -> "2023-10-01 10:18 UTC"; anything else unchanged.
pub fn short_time(t: &str) -> String {
    let utc = t.strip_suffix('Z').or_else(|| t.strip_suffix("+00:00"));
    match utc.and_then(|s| Some((s.get(..10)?, s.get(10..11)?, s.get(11..16)?))) {
        Some((date, "T", hm)) => format!("{date} {hm} UTC"),
        _ => t.to_string(),
    }
}

/// Per-tenant results of the given runs (multi-tenant tests): one row per run and tenant.
pub fn tenants_table(runs: &[&Run]) -> Table {
    let mut rows = Vec::new();
    for (g, run) in runs.iter().enumerate() {
        for t in &run.tenants {
            let kpis = t
                .kpis
                .iter()
                .map(|k| format!("{}: {}", k.name, crate::format::value(k.value, k.unit)))
                .collect::<Vec<_>>()
                .join("; ");
            rows.push(Row::new(
                vec![Cell::text(&run.label), Cell::text(&t.tenant), Cell::text(kpis), Cell::text(t.notes.join(" "))],
                g,
            ));
        }
    }
    Table {
        id: "tenants".into(),
        caption: "Tenants".into(),
        columns: ["Run", "Tenant", "KPIs", "Notes"].into_iter().map(Column::text).collect(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenants_rows_name_run_tenant_and_kpis() {
        use crate::bundle::{Kpi, TenantResult};
        let run = Run {
            id: "r".into(),
            label: "R".into(),
            tenants: vec![TenantResult {
                tenant: "t1".into(),
                kpis: vec![Kpi { name: "DI".into(), value: 10800.0, unit: Unit::S, ..Default::default() }],
                notes: vec!["slow".into()],
                ..Default::default()
            }],
            ..Default::default()
        };
        let t = tenants_table(&[&run]);
        let cells: Vec<String> = t.rows[0].cells.iter().map(|c| c.display()).collect();
        assert_eq!(cells, vec!["R", "t1", "DI: 3 h", "slow"]);
    }

    #[test]
    fn short_times() {
        assert_eq!(short_time("2023-10-01T10:18:00Z"), "2023-10-01 10:18 UTC");
        assert_eq!(short_time("yesterday"), "yesterday");
        assert_eq!(short_time("2023-10-0é1T10:18:00Z"), "2023-10-0é1T10:18:00Z", "never slices inside a character");
    }
}
