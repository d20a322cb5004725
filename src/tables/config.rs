//! The index-size table of one run and the configuration tables (modules, infrastructure).

use super::{Cell, Column, Row, Table};
use crate::analysis::{ConfigRow, Verdict};
use crate::bundle::{Run, Unit};
use crate::fold;

/// One run's `_cat/indices` table, sizes in binary units.
pub fn indices_table(run: &Run) -> Table {
    let columns = vec![
        Column::text("Index"),
        Column::text("Health"),
        Column::text("Status"),
        Column::text("UUID"),
        Column::num("Primaries"),
        Column::num("Replicas"),
        Column::num("Docs"),
        Column::num("Deleted docs"),
        Column::num("Store size"),
        Column::num("Primary store size"),
    ];
    let n = |v: Option<u64>| Cell::number(v.map(|v| v as f64));
    let rows = run
        .indices
        .iter()
        .enumerate()
        .map(|(i, x)| Row {
            primary: false,
            rank: None,
            cells: vec![
                Cell::text(&x.index),
                Cell::text(x.health.clone().unwrap_or_default()),
                Cell::text(x.status.clone().unwrap_or_default()),
                Cell::text(x.uuid.clone().unwrap_or_default()),
                n(x.pri.map(u64::from)),
                n(x.rep.map(u64::from)),
                n(x.docs_count),
                n(x.docs_deleted),
                Cell::value(x.store_size.map(|b| b.0 as f64), Unit::Bytes),
                Cell::value(x.pri_store_size.map(|b| b.0 as f64), Unit::Bytes),
            ],
            group: i,
            highlight: x.health.as_deref().is_some_and(|h| h != "green"),
        })
        .collect();
    Table { id: format!("indices-{}", run.id), caption: format!("Indices: {}", run.label), columns, rows }
}

/// Module and infrastructure settings side by side; changed values highlighted.
pub fn config_table(rows: &[ConfigRow], labels: &[String], changed_only: bool, group_name: &str) -> Table {
    let first = if group_name == "Modules" { "Module" } else { "Component" };
    let mut columns = vec![Column::text(first), Column::text("Setting")];
    columns.extend(labels.iter().map(|l| Column::text(l.clone())));
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    let mut group = 0;
    for r in rows.iter().filter(|r| r.group == group_name && (!changed_only || r.changed)) {
        if last != Some(r.item.as_str()) {
            group += 1;
            last = Some(&r.item);
        }
        let mut cells = vec![Cell::text(&r.item), Cell::text(&r.setting)];
        cells.extend(r.values.iter().map(|v| match v {
            Some(v) => {
                let mut c = Cell::text(v.clone());
                if let Some(n) = crate::number::parse_f64(v) {
                    c.sort = super::SortKey::Num(n);
                }
                if r.changed {
                    c.verdict = Some(Verdict::Changed);
                }
                c
            }
            None => Cell::empty(),
        }));
        let mut row = Row::new(cells, group);
        row.highlight = r.changed;
        out.push(row);
    }
    let id = format!("config-{}", fold::lower(group_name));
    Table { id, caption: group_name.into(), columns, rows: out }
}
