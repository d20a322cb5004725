//! The two-dimension grid panel of the compare view: one metric over (dimension A × dimension B)
//! with deltas along both axes.

use crate::analysis::{grid, grid_dims, Cell};
use crate::format;
use crate::ui::components::verdict_class;
use leptos::prelude::*;

fn delta_text(c: &Cell, unit: crate::bundle::Unit) -> Option<String> {
    c.rel.map(format::relative).or_else(|| c.abs.map(|a| format::delta(a, unit)))
}

#[component]
pub fn GridPanel() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let runs = state.runs;
    let dims = Memo::new(move |_| runs.with(|r| grid_dims(&r.iter().collect::<Vec<_>>())));
    // Rows worth a grid: values in at least two runs.
    let choices = Memo::new(move |_| {
        state.rows.with(|rows| {
            rows.iter()
                .enumerate()
                .filter(|(_, r)| r.cells.iter().filter(|c| c.value.is_some()).count() >= 2)
                .map(|(i, r)| (i, if r.metric.is_empty() { r.key.clone() } else { format!("{} · {}", r.key, r.metric) }))
                .collect::<Vec<_>>()
        })
    });
    let picked = RwSignal::new(0usize);
    let threshold = Memo::new(move |_| state.url.with(|u| u.threshold_pct) / 100.0);
    let table = move || {
        let (rd, cd) = dims.get()?;
        let choice = choices.with(|c| c.get(picked.get()).or(c.first()).map(|x| x.0))?;
        let t = threshold.get();
        let row = state.rows.with(|rows| rows.get(choice).cloned())?;
        let g = runs.with(|r| grid(&r.iter().collect::<Vec<_>>(), &row, (&rd, &cd), t));
        let unit = row.unit;
        let head = g.col_values.iter().map(|c| view! { <th scope="col" class="num">{format!("{cd} = {c}")}</th> }).collect_view();
        let body = g
            .row_values
            .iter()
            .zip(g.cells.iter())
            .map(|(rv, cells)| {
                let tds = cells
                    .iter()
                    .map(|cell| match cell {
                        None => view! { <td class="num">"no run"</td> }.into_any(),
                        Some(c) => {
                            let v = c.value.map(|v| format::value(v, unit)).unwrap_or_else(|| "–".into());
                            let left = c.vs_left.and_then(|d| delta_text(&d, unit).map(|t| (t, d.verdict)));
                            let above = c.vs_above.and_then(|d| delta_text(&d, unit).map(|t| (t, d.verdict)));
                            view! {
                                <td class="num">
                                    {v}
                                    {left.map(|(t, v)| view! { <span class=format!("delta {}", verdict_class(v)) title=format!("against the cell to the left: {}", v.label())>{format!("← {t}")}</span> })}
                                    {above.map(|(t, v)| view! { <span class=format!("delta {}", verdict_class(v)) title=format!("against the cell above: {}", v.label())>{format!("↑ {t}")}</span> })}
                                </td>
                            }
                            .into_any()
                        }
                    })
                    .collect_view();
                view! { <tr><th scope="row">{format!("{rd} = {rv}")}</th>{tds}</tr> }
            })
            .collect_view();
        Some(view! {
            <div class="table-scroll">
                <table data-table="grid">
                    <caption class="visually-hidden">{format!("{rd} × {cd}")}</caption>
                    <thead><tr><th scope="col">{format!("{rd} \\ {cd}")}</th>{head}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        })
    };
    view! {
        <Show when=move || dims.with(|d| d.is_some()) && runs.with(|r| r.len() >= 3)>
            <section class="grid-panel">
                <h2>{move || dims.get().map(|(a, b)| format!("Grid: {a} × {b}")).unwrap_or_default()}</h2>
                <label>"Metric "
                    <select on:change=move |ev| picked.set(event_target_value(&ev).parse().unwrap_or(0)) data-testid="grid-metric">
                        {move || choices.get().into_iter().enumerate().map(|(i, (_, label))| view! { <option value=i.to_string()>{label}</option> }).collect_view()}
                    </select>
                </label>
                {table}
            </section>
        </Show>
    }
}
