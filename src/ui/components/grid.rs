//! The two-dimension grid panel of the compare view: one metric over (dimension A × dimension B)
//! with deltas and verdicts along both axes.

use crate::analysis::{grid, grid_dims, Cell, Grid, GridCell, Row};
use crate::format;
use crate::tables::delta_text;
use crate::ui::components::verdict_class;
use crate::ui::show::shown;
use leptos::prelude::*;

/// A delta against a neighbour: "← +33.3% regressed", coloured, its reason on hover.
fn neighbour(arrow: &'static str, side: &'static str, c: Option<Cell>, row: &Row) -> Option<impl IntoView> {
    let c = c?;
    let d = delta_text(&c, &row.spec)?;
    let class = format!("delta {} {}", verdict_class(c.verdict), d.arrow());
    let title = format!("against the cell {side}: {}", c.reason(&row.spec));
    let word =
        if matches!(d, crate::tables::DeltaText::Label(_)) { String::new() } else { format!(" {}", c.verdict.label()) };
    Some(view! { <span class=class title=title>{format!("{arrow} {}{word}", d.render())}</span> })
}

#[component]
pub fn GridPanel() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let runs = state.runs;
    let dims = Memo::new(move |_| runs.with(|r| grid_dims(&crate::ui::refs(r))));
    // Rows worth a grid: values in at least two runs.
    let choices = Memo::new(move |_| {
        state.rows.with(|rows| {
            rows.iter()
                .enumerate()
                .filter(|(_, r)| r.cells.iter().filter(|c| c.value.is_some()).count() >= 2)
                .map(|(i, r)| (i, r.label()))
                .collect::<Vec<_>>()
        })
    });
    let picked = RwSignal::new(0usize);
    let table = move || {
        let (rd, cd) = dims.get()?;
        let choice = choices.with(|c| c.get(picked.get()).or(c.first()).map(|x| x.0))?;
        let th = state.thresholds.get();
        let row = state.rows.with(|rows| rows.get(choice).cloned())?;
        let g = runs.with(|r| grid(&crate::ui::refs(r), &row, (&rd, &cd), &th));
        Some(grid_table(&g, &row, &rd, &cd))
    };
    shown(
        move || dims.with(|d| d.is_some()) && runs.with(|r| r.len() >= 3),
        move || {
            view! {
                <section class="grid-panel">
                    <h2>{move || dims.get().map(|(a, b)| format!("Grid: {a} × {b}")).unwrap_or_default()}</h2>
                    <GridMetricPicker picked choices/>
                    {table}
                </section>
            }
            .into_any()
        },
    )
}

/// Which metric the grid shows (rows with values in at least two runs).
#[component]
fn GridMetricPicker(picked: RwSignal<usize>, choices: Memo<Vec<(usize, String)>>) -> impl IntoView {
    let options = move || {
        choices
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, (_, label))| view! { <option value=i.to_string()>{label}</option> })
            .collect_view()
    };
    view! {
        <label>"Metric "
            <select on:change=move |ev| picked.set(event_target_value(&ev).parse().unwrap_or(0)) data-testid="grid-metric">
                {options}
            </select>
        </label>
    }
}

/// The grid as a table: dimension B across, dimension A down.
fn grid_table(g: &Grid, row: &Row, rd: &str, cd: &str) -> AnyView {
    let head =
        g.col_values.iter().map(|c| view! { <th scope="col" class="num">{format!("{cd} = {c}")}</th> }).collect_view();
    let body = g
        .row_values
        .iter()
        .zip(g.cells.iter())
        .map(|(rv, cells)| {
            let tds = cells.iter().map(|cell| grid_cell(cell.as_ref(), row)).collect_view();
            view! { <tr><th scope="row">{format!("{rd} = {rv}")}</th>{tds}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table data-table="grid">
                <caption class="visually-hidden">{format!("{rd} × {cd}")}</caption>
                <thead><tr><th scope="col">{format!("{rd} \\ {cd}")}</th>{head}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// A cell of the grid: its value and its deltas against the cells to the left and above.
fn grid_cell(cell: Option<&GridCell>, row: &Row) -> AnyView {
    let Some(c) = cell else {
        return view! { <td class="num">"no run"</td> }.into_any();
    };
    let unit = c.vs_left.or(c.vs_above).map_or(row.unit, |x| x.unit);
    let v = c.value.map(|v| format::value(v, unit)).unwrap_or_else(|| "–".into());
    view! {
        <td class="num">
            {v}
            {neighbour("←", "to the left", c.vs_left, row)}
            {neighbour("↑", "above", c.vs_above, row)}
        </td>
    }
    .into_any()
}
