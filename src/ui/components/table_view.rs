//! Renders a `tables::Table`: caption, header scopes, sortable columns (click or Enter), verdict
//! colours on deltas, paging, and export (CSV, Markdown, Confluence). Every table is paged
//! (`limits::TABLE_PAGE_ROWS` rows unless the view picks a size), so no bundle can put more rows
//! than that into the page at once; exports always carry every row.

use super::verdict_class;
use crate::tables::{to_confluence, to_csv, to_markdown, Table};
use crate::ui::browser;
use crate::ui::show::shown;
use crate::ui::state::NoticeKind;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn TableView(
    #[prop(into)] table: Signal<Table>,
    /// Rows per page (at least 1).
    #[prop(default = crate::limits::TABLE_PAGE_ROWS)]
    page_size: usize,
    /// Sort state (column, descending); owned by the caller when it is part of the URL.
    #[prop(optional)]
    sort: Option<RwSignal<Option<(usize, bool)>>>,
    /// Blank the first cell of follow-up rows of a group (e.g. a transaction's other runs).
    #[prop(default = false)]
    group_rows: bool,
) -> impl IntoView {
    let sort = sort.unwrap_or_else(|| RwSignal::new(None));
    let page_size = page_size.max(1);
    let page = RwSignal::new(0usize);
    let rows_total = Memo::new(move |_| table.with(|t| t.rows.len()));
    Effect::new(move |_| {
        rows_total.track();
        // Only when it changes: setting it anyway would build the rows on screen a second time.
        if page.get_untracked() != 0 {
            page.set(0);
        }
    });
    // The header changes only with the columns, not with every new table (a filter, a switch).
    let columns = Memo::new(move |_| table.with(|t| t.columns.clone()));
    let header = move || {
        columns.with(|columns| {
            columns
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let (label, numeric) = (c.label.clone(), c.numeric);
                    let aria = move || match sort.get() {
                        Some((col, true)) if col == i => "descending",
                        Some((col, false)) if col == i => "ascending",
                        _ => "none",
                    };
                    let click = move |_| {
                        // Numbers sort largest first, text A to Z; a second click reverses,
                        // a third restores the table's own order.
                        sort.update(|s| {
                            *s = match *s {
                                Some((col, desc)) if col == i && desc == numeric => Some((i, !numeric)),
                                Some((col, _)) if col == i => None,
                                _ => Some((i, numeric)),
                            }
                        })
                    };
                    view! {
                        <th scope="col" class:num=numeric aria-sort=aria>
                            <button type="button" class="sort" on:click=click>{label}
                                <span class="sort-icon" aria-hidden="true">{move || match aria() { "ascending" => "▲", "descending" => "▼", _ => "" }}</span>
                            </button>
                        </th>
                    }
                })
                .collect_view()
        })
    };
    let body = move || {
        let s = sort.get();
        let p = page.get();
        table.with(|t| {
            let rows: Vec<&crate::tables::Row> = match s {
                Some((col, desc)) => t.sorted(col, desc),
                None => t.rows.iter().collect(),
            };
            let numeric: Vec<bool> = t.columns.iter().map(|c| c.numeric).collect();
            let start = (p * page_size).min(rows.len());
            let end = (start + page_size).min(rows.len());
            let mut prev_group = None;
            rows[start..end]
                .iter()
                .map(|r| {
                    let follow = group_rows && prev_group == Some(r.group);
                    prev_group = Some(r.group);
                    let cells = r
                        .cells
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            let text = if follow && i == 0 { String::new() } else { c.display() };
                            let class = format!(
                                "{}{}",
                                if numeric.get(i).copied().unwrap_or(false) { "num " } else { "" },
                                c.verdict.map(verdict_class).unwrap_or("")
                            );
                            // Reasons are rendered for the rows on screen only.
                            let reason = c.reason();
                            let delta = c.delta.map(|(d, v)| {
                                let title = reason.clone().unwrap_or_else(|| v.label().to_string());
                                view! { <span class=format!("delta {} {}", verdict_class(v), d.arrow()) title=title>{d.render()}</span> }
                            });
                            let title = if c.delta.is_none() { reason } else { None };
                            if i == 0 {
                                view! { <th scope="row" class=class>{text}{delta}</th> }.into_any()
                            } else {
                                view! { <td class=class title=title>{text}{delta}</td> }.into_any()
                            }
                        })
                        .collect_view();
                    view! { <tr class:highlight=r.highlight class:follow=follow>{cells}</tr> }
                })
                .collect_view()
        })
    };
    let pages = move || rows_total.get().div_ceil(page_size).max(1);
    view! {
        <div class="table-block">
            <div class="table-tools">
                <span class="caption-text">{move || table.with(|t| t.caption.clone())}</span>
                <span class="count">{move || crate::format::count(rows_total.get(), "row", "rows")}</span>
                <ExportMenu table=table/>
            </div>
            {shown(move || rows_total.get() == 0, move || view! {
                <p class="empty">"No rows match."</p>
            }.into_any())}
            {shown(move || rows_total.get() != 0, move || view! {
                <div class="table-scroll" tabindex="0">
                    <table data-table=move || table.with(|t| t.id.clone())>
                        <caption class="visually-hidden">{move || table.with(|t| t.caption.clone())}</caption>
                        <thead><tr>{header}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            }.into_any())}
            {shown(move || { pages() > 1 }, move || view! {
                <div class="pager">
                    <button type="button" class="ghost" disabled=move || page.get() == 0 on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>"‹ Previous"</button>
                    <span>{move || {
                        let (p, n) = (page.get(), rows_total.get());
                        format!("Rows {}–{} of {}", p * page_size + 1, ((p + 1) * page_size).min(n), crate::format::number(n as f64))
                    }}</span>
                    <button type="button" class="ghost" disabled=move || { page.get() + 1 >= pages() } on:click=move |_| page.update(|p| *p += 1)>"Next ›"</button>
                </div>
            }.into_any())}
        </div>
    }
}

#[component]
fn ExportMenu(table: Signal<Table>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let copy = move |kind: &'static str, f: fn(&Table) -> String| {
        let text = table.with(f);
        spawn_local(async move {
            if browser::copy_text(&text).await {
                state.notify(NoticeKind::Info, format!("Table copied as {kind}."), vec![]);
            } else {
                state.notify(
                    NoticeKind::Warning,
                    format!("The browser did not allow copying; the {kind} is below."),
                    vec![text],
                );
            }
        });
    };
    let download = move |ext: &'static str, mime: &'static str, f: fn(&Table) -> String| {
        let (name, text) = table.with(|t| (format!("{}.{ext}", t.id), f(t)));
        browser::download(&name, mime, &text);
    };
    view! {
        <details class="export">
            <summary>"Export"</summary>
            <div class="menu">
                <button type="button" on:click=move |_| copy("CSV", to_csv)>"Copy CSV"</button>
                <button type="button" on:click=move |_| copy("Markdown", to_markdown)>"Copy Markdown"</button>
                <button type="button" on:click=move |_| copy("Confluence wiki markup", to_confluence)>"Copy Confluence"</button>
                <button type="button" on:click=move |_| download("csv", "text/csv", to_csv)>"Download CSV"</button>
                <button type="button" on:click=move |_| download("md", "text/markdown", to_markdown)>"Download Markdown"</button>
                <button type="button" on:click=move |_| download("txt", "text/plain", to_confluence)>"Download Confluence"</button>
            </div>
        </details>
    }
}
