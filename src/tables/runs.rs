//! The runs table (overview) and the tenants table: what each run was and what it measured.

use super::{Cell, Column, Row, Table};
use crate::analysis::Verdict;
use crate::bundle::{Run, RunStatus, Unit};
use crate::model::Workspace;
use std::sync::Arc;

/// The runs of a workspace with their conditions (overview); a run in `judged` (the selected runs
/// as the views judge them: label rules applied, cut to the window) is shown as judged, so that
/// its duration and notes are the window's.
pub fn runs_table(ws: &Workspace, judged: &[Arc<Run>]) -> Table {
    let columns = ["Run", "Release", "Dimensions", "Start", "End", "Duration", "Status", "Conditions", "Notes"];
    let rows = ws
        .all_runs()
        .map(|r| judged.iter().find(|j| j.id == r.id).map_or(r, |j| &**j))
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

    /// A selected run cut to the window shows the window's duration and note; the others as loaded.
    #[test]
    fn judged_runs_replace_the_loaded_ones() {
        use crate::analysis::window::{window_runs, WindowSpec};
        let mut ws = Workspace::default();
        for (id, night) in [("a", 0), ("b", 1)] {
            let jtl = support::jtl::ramped(120, 30, 2.0, night, 2);
            let mut b = crate::import::import_bytes(&format!("{id}.jtl"), &jtl).unwrap().bundle;
            b.runs[0].id = id.into();
            b.runs[0].label = id.into();
            ws.add(id, b, vec![]);
        }
        let loaded: Vec<String> = ws.all_runs().map(|r| r.duration_s.unwrap().to_string()).collect();
        let selected: Vec<Arc<Run>> = ws.shared("b").into_iter().cloned().collect();
        let cut = window_runs(&selected, WindowSpec::Range { from_s: 40, to_s: 100 }, &[]).runs;
        let t = runs_table(&ws, &cut);
        let col = |name: &str| t.columns.iter().position(|c| c.label == name).unwrap();
        let cells = |r: usize, c: usize| t.rows[r].cells[c].display();
        assert_eq!(cells(0, col("Duration")), runs_table(&ws, &[]).rows[0].cells[col("Duration")].display());
        assert_eq!(cells(1, col("Duration")), crate::format::value(cut[0].duration_s.unwrap(), Unit::S));
        assert_ne!(cut[0].duration_s.unwrap().to_string(), loaded[1], "the window is shorter than the run");
        assert!(cells(1, col("Notes")).contains("(the window)"), "{}", cells(1, col("Notes")));
        assert!(!cells(0, col("Notes")).contains("(the window)"));
    }

    #[test]
    fn short_times() {
        assert_eq!(short_time("2023-10-01T10:18:00Z"), "2023-10-01 10:18 UTC");
        assert_eq!(short_time("yesterday"), "yesterday");
        assert_eq!(short_time("2023-10-0é1T10:18:00Z"), "2023-10-0é1T10:18:00Z", "never slices inside a character");
    }
}
