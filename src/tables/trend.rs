//! The table under a trend chart: one row per run in order, its value, the change against the
//! baseline and the verdict (reason on hover and in exports).

use super::build::{value_cell, verdict_cell};
use super::runs::short_time;
use super::{Cell, Column, Row, Table};
use crate::analysis::trend::Trend;
use crate::analysis::trend::ORDER_START;
use crate::bundle::AnnotationKind;

/// `labels[i]` is the label of `t.run_ids[i]`.
pub fn trend_table(t: &Trend, labels: &[String], order: &str) -> Table {
    let rows = t
        .row
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut label = Cell::text(labels.get(i).cloned().unwrap_or_default());
            if i == t.baseline {
                label = Cell::text(format!("{} (baseline)", labels.get(i).cloned().unwrap_or_default()));
            }
            let x = t.x.get(i).cloned().unwrap_or_default();
            let x = if order == ORDER_START { short_time(&x) } else { x };
            let cells = vec![
                label,
                Cell::text(x),
                value_cell(c, &t.row.spec),
                verdict_cell(c, &t.row.spec),
                Cell::text(shift_note(t, i)),
            ];
            let mut row = Row::new(cells, i);
            row.highlight = c.is_regression() && !t.is_blip(i) && !t.is_expected(i);
            row
        })
        .collect();
    Table {
        id: "trend".into(),
        caption: format!("{} by {order}", t.row.label()),
        columns: vec![
            Column::text("Run"),
            Column::text(if order == ORDER_START { "Start" } else { order }),
            Column::num("Value (change against the baseline)"),
            Column::text("Verdict"),
            Column::text("Change point"),
        ],
        rows,
    }
}

/// What the change points say of run `i`: the shift that starts there, a blip, or its annotation.
fn shift_note(t: &Trend, i: usize) -> String {
    let note = |n: &str| if n.is_empty() { String::new() } else { format!(": {n}") };
    if let Some(s) = t.shifts.iter().find(|s| s.index == i) {
        return format!("shifted {} ({}), {}", s.change_text(), s.p_text(), s.kind_text());
    }
    match t.annotations.get(i).and_then(Option::as_ref) {
        Some(a) if a.kind == AnnotationKind::Excluded => format!("excluded{}", note(&a.note)),
        Some(a) => format!("expected change{}; no shift found", note(&a.note)),
        None if t.is_blip(i) => "a blip: no shift from the baseline's level".into(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::trend::{trend, trend_metrics, ORDER_BUNDLE};
    use crate::bundle::Run;

    #[test]
    fn one_row_per_run_with_its_verdict() {
        let runs: Vec<Run> = [100.0, 104.0, 130.0]
            .iter()
            .enumerate()
            .map(|(i, d)| Run {
                id: format!("r{i}"),
                label: format!("R{i}"),
                duration_s: Some(*d),
                ..Default::default()
            })
            .collect();
        let refs: Vec<&Run> = runs.iter().collect();
        let t = trend(&refs, "r0", &trend_metrics(&refs)[0], ORDER_BUNDLE, &Default::default()).unwrap();
        let table = trend_table(&t, &["R0".into(), "R1".into(), "R2".into()], "bundle");
        let text: Vec<String> =
            table.rows.iter().map(|r| r.cells.iter().map(|c| c.plain()).collect::<Vec<_>>().join(" | ")).collect();
        assert_eq!(
            text[0], "R0 (baseline) | R0 | 1 min 40 s | baseline | ",
            "three runs are too few for a change point"
        );
        assert!(
            text[2].starts_with(
                "R2 | R2 | 2 min 10 s (+30.0%, regressed) | regressed: +30.0% is beyond the 5% duration threshold"
            ),
            "{}",
            text[2]
        );
        assert!(table.rows[2].highlight && !table.rows[1].highlight);
    }
}
