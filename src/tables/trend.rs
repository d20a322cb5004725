//! The table under a trend chart: one row per run in order, its value, the change against the
//! baseline and the verdict (reason on hover and in exports).

use super::build::{value_cell, verdict_cell};
use super::runs::short_time;
use super::{Cell, Column, Row, Table};
use crate::analysis::trend::Trend;
use crate::analysis::trend::ORDER_START;

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
            let mut row =
                Row::new(vec![label, Cell::text(x), value_cell(c, &t.row.spec), verdict_cell(c, &t.row.spec)], i);
            row.highlight = c.is_regression();
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
        ],
        rows,
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
        assert_eq!(text[0], "R0 (baseline) | R0 | 1 min 40 s | baseline");
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
