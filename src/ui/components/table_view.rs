//! Renders a `tables::Table`: caption, header scopes, sortable columns (click or Enter), verdict
//! colours on deltas, paging, and export (CSV, Markdown, Confluence). Every table is paged
//! (`limits::TABLE_PAGE_ROWS` rows unless the view picks a size), so no bundle can put more rows
//! than that into the page at once; exports always carry every row.

use super::verdict_class;
use crate::tables::{to_confluence, to_csv, to_markdown, Cell, Row, Table};
use crate::ui::browser;
use crate::ui::show::shown;
use crate::ui::state::NoticeKind;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// A table's sort: (column, descending), or the table's own order.
type Sort = RwSignal<Option<(usize, bool)>>;

#[component]
pub fn TableView(
    #[prop(into)] table: Signal<Table>,
    /// Rows per page (at least 1).
    #[prop(default = crate::limits::TABLE_PAGE_ROWS)]
    page_size: usize,
    /// Sort state (column, descending); owned by the caller when it is part of the URL.
    #[prop(optional)]
    sort: Option<Sort>,
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
    view! {
        <div class="table-block">
            <TableToolbar table rows_total/>
            {shown(move || rows_total.get() == 0, move || view! {
                <p class="empty">"No rows match."</p>
            }.into_any())}
            {shown(move || rows_total.get() != 0, move || view! {
                <DataTable table sort page page_size group_rows/>
            }.into_any())}
            <Pager page rows_total page_size/>
        </div>
    }
}

/// Above the table: its caption, how many rows it has, and the export menu.
#[component]
fn TableToolbar(table: Signal<Table>, rows_total: Memo<usize>) -> impl IntoView {
    view! {
        <div class="table-tools">
            <span class="caption-text">{move || table.with(|t| t.caption.clone())}</span>
            <span class="count">{move || crate::format::count(rows_total.get(), "row", "rows")}</span>
            <ExportMenu table=table/>
        </div>
    }
}

/// The table itself, in a scrolling box: hidden caption, header, the rows of the current page.
#[component]
fn DataTable(
    table: Signal<Table>,
    sort: Sort,
    page: RwSignal<usize>,
    page_size: usize,
    group_rows: bool,
) -> impl IntoView {
    view! {
        <div class="table-scroll" tabindex="0">
            <table data-table=move || table.with(|t| t.id.clone())>
                <caption class="visually-hidden">{move || table.with(|t| t.caption.clone())}</caption>
                <thead><tr><TableHead table sort/></tr></thead>
                <tbody><TableBody table sort page page_size group_rows/></tbody>
            </table>
        </div>
    }
}

/// The header row's cells, one sort button each.
#[component]
fn TableHead(table: Signal<Table>, sort: Sort) -> impl IntoView {
    // The header changes only with the columns, not with every new table (a filter, a switch).
    let columns = Memo::new(move |_| table.with(|t| t.columns.clone()));
    move || {
        columns.with(|columns| {
            columns
                .iter()
                .enumerate()
                .map(|(index, c)| view! { <HeaderCell index label=c.label.clone() numeric=c.numeric sort/> })
                .collect_view()
        })
    }
}

/// `aria-sort` of column `i` under `sort`.
fn aria_sort(sort: Option<(usize, bool)>, i: usize) -> &'static str {
    match sort {
        Some((col, true)) if col == i => "descending",
        Some((col, false)) if col == i => "ascending",
        _ => "none",
    }
}

/// The sort after a click on column `i`: numbers sort largest first, text A to Z; a second click
/// reverses, a third restores the table's own order.
fn next_sort(sort: Option<(usize, bool)>, i: usize, numeric: bool) -> Option<(usize, bool)> {
    match sort {
        Some((col, desc)) if col == i && desc == numeric => Some((i, !numeric)),
        Some((col, _)) if col == i => None,
        _ => Some((i, numeric)),
    }
}

fn sort_icon(aria: &str) -> &'static str {
    match aria {
        "ascending" => "▲",
        "descending" => "▼",
        _ => "",
    }
}

/// One column's header: its label as a sort button (click or Enter), with the sort's arrow.
#[component]
fn HeaderCell(index: usize, label: String, numeric: bool, sort: Sort) -> impl IntoView {
    let aria = move || aria_sort(sort.get(), index);
    let click = move |_| sort.update(|s| *s = next_sort(*s, index, numeric));
    view! {
        <th scope="col" class:num=numeric aria-sort=aria>
            <button type="button" class="sort" on:click=click>{label}
                <span class="sort-icon" aria-hidden="true">{move || sort_icon(aria())}</span>
            </button>
        </th>
    }
}

/// The rows of the current page, in the current sort.
#[component]
fn TableBody(
    table: Signal<Table>,
    sort: Sort,
    page: RwSignal<usize>,
    page_size: usize,
    group_rows: bool,
) -> impl IntoView {
    move || {
        let (s, p) = (sort.get(), page.get());
        table.with(|t| page_rows(t, s, p, page_size, group_rows))
    }
}

fn page_rows(t: &Table, sort: Option<(usize, bool)>, page: usize, page_size: usize, group_rows: bool) -> AnyView {
    let rows: Vec<&Row> = match sort {
        Some((col, desc)) => t.sorted(col, desc),
        None => t.rows.iter().collect(),
    };
    let numeric: Vec<bool> = t.columns.iter().map(|c| c.numeric).collect();
    let start = (page * page_size).min(rows.len());
    let end = (start + page_size).min(rows.len());
    let mut prev_group = None;
    rows[start..end]
        .iter()
        .map(|r| {
            let follow = group_rows && prev_group == Some(r.group);
            prev_group = Some(r.group);
            body_row(r, &numeric, follow)
        })
        .collect_view()
        .into_any()
}

/// A row; a follow-up row of a group (`follow`) leaves its first cell blank.
fn body_row(r: &Row, numeric: &[bool], follow: bool) -> impl IntoView {
    let cells = r
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| body_cell(c, i, numeric.get(i).copied().unwrap_or(false), follow && i == 0))
        .collect_view();
    view! { <tr class:highlight=r.highlight class:follow=follow>{cells}</tr> }
}

/// A cell: the row's header in the first column, else data; coloured by verdict, its delta beside
/// it, its reason on hover.
fn body_cell(c: &Cell, i: usize, numeric: bool, blank: bool) -> AnyView {
    let text = if blank { String::new() } else { c.display() };
    let class = format!("{}{}", if numeric { "num " } else { "" }, c.verdict.map(verdict_class).unwrap_or(""));
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
}

/// "Rows 51–100 of 1,234".
fn rows_shown(page: usize, page_size: usize, total: usize) -> String {
    let last = ((page + 1) * page_size).min(total);
    format!("Rows {}–{} of {}", page * page_size + 1, last, crate::format::number(total as f64))
}

/// Previous and Next, and which rows are on screen; only when there is more than one page.
#[component]
fn Pager(page: RwSignal<usize>, rows_total: Memo<usize>, page_size: usize) -> impl IntoView {
    let pages = move || rows_total.get().div_ceil(page_size).max(1);
    shown(
        move || pages() > 1,
        move || {
            view! {
        <div class="pager">
            <button type="button" class="ghost" disabled=move || page.get() == 0 on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>"‹ Previous"</button>
            <span>{move || rows_shown(page.get(), page_size, rows_total.get())}</span>
            <button type="button" class="ghost" disabled=move || { page.get() + 1 >= pages() } on:click=move |_| page.update(|p| *p += 1)>"Next ›"</button>
        </div>
    }.into_any()
        },
    )
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
