//! The report page export: the comparison as one wiki page (Markdown with the charts embedded as
//! PNG data URLs, Confluence wiki markup referencing the charts as attachments, or one HTML file).
//! The page itself is built and written by `tables::report`; this only renders the charts to PNG
//! with Plotly.js (`Plotly.toImage` on a figure object, off screen) and offers the downloads.

use crate::analysis::Row;
use crate::tables::{
    biggest_changes, page_confluence, page_html, page_markdown, report_page, DeltaText, ReportChart, ReportPage,
};
use crate::ui::browser;
use crate::ui::components::chart::{
    axis, bars_per_run, js_figure, margin, text, themed, Attr, Attrs, ChartText, Figure, Trace,
};
use crate::ui::plotly_loader::ensure_plotly;
use crate::ui::state::{AppState, NoticeKind};
use leptos::prelude::*;
use leptos::task::spawn_local;
use plotly::common::Orientation;
use plotly::layout::BarMode;
use wasm_bindgen::JsValue;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    // `catch`: a refusal (no canvas, a bad figure) is an error value, never a panic.
    #[wasm_bindgen(catch, js_namespace = Plotly, js_name = toImage)]
    async fn plotly_to_image(figure: &js_sys::Object, opts: &js_sys::Object) -> Result<JsValue, JsValue>;
}

const CHART_WIDTH: u32 = 1000;
const BARS: usize = 15;

/// Renders `fig` to a PNG data URL, or None when Plotly.js cannot.
async fn png(fig: &Figure, height: u32) -> Option<String> {
    ensure_plotly().await.ok()?;
    let opts = js_sys::Object::new();
    for (k, v) in [
        ("format", JsValue::from_str("png")),
        ("width", CHART_WIDTH.into()),
        ("height", height.into()),
        ("scale", 1.into()),
    ] {
        let _ = js_sys::Reflect::set(&opts, &k.into(), &v);
    }
    plotly_to_image(&js_figure(fig), &opts).await.ok()?.as_string()
}

fn short(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(59).collect::<String>())
    }
}

/// Horizontal bars of the biggest changes beyond noise, one trace per candidate, coloured by
/// verdict, each labelled with its change as the tables show it.
fn changes_figure(rows: &[&Row], labels: &[String]) -> (Figure, u32) {
    let names: Vec<ChartText> = rows.iter().rev().map(|r| text(&short(&r.label()))).collect();
    let p = &crate::palette::LIGHT;
    let mut fig = Figure::new();
    for (ci, label) in labels.iter().enumerate().skip(1) {
        let (mut x, mut shown_text, mut colour) = (Vec::new(), Vec::new(), Vec::new());
        for r in rows.iter().rev() {
            let c = r.cells.get(ci);
            let d = c.and_then(|c| crate::tables::delta_text(c, &r.spec));
            let shown = match d {
                Some(DeltaText::Rel(v)) => Some(crate::format::shown_relative(v) * 100.0),
                Some(DeltaText::Points(p, k)) => Some(crate::format::shown_points(p, k)),
                _ => None,
            };
            x.push(shown);
            shown_text.push(text(&d.map(|d| d.render()).unwrap_or_default()));
            colour.push(match c.map(|c| c.verdict) {
                Some(crate::analysis::Verdict::Improved) => p.better,
                Some(crate::analysis::Verdict::Regressed) => p.worse,
                Some(crate::analysis::Verdict::Changed) => p.changed,
                _ => p.muted,
            });
        }
        fig.add_trace(
            Trace::bar()
                .with("x", x)
                .with("y", names.clone())
                .with("orientation", Attr::of(Orientation::Horizontal))
                .with("name", text(label))
                .with("text", shown_text)
                .with("marker", Attr::obj([("color", colour.into())])),
        );
    }
    let height = 140 + 26 * rows.len() as u32 * (labels.len().saturating_sub(1).max(1) as u32).min(4);
    fig.set_layout(report_layout(
        "Changes beyond noise against the baseline (% for relative changes, pp for percentages)",
        axis(false, "change against the baseline"),
    ));
    (fig, height)
}

/// The layout of a report chart: light theme, a title, grouped bars, `x_axis`.
fn report_layout(title: &'static str, x_axis: Attr) -> Attrs {
    themed(
        false,
        Attrs::default()
            .with("title", Attr::obj([("text", title.into())]))
            .with("barmode", Attr::of(BarMode::Group))
            .with("xaxis", x_axis)
            .with("margin", margin(10, 30, 50, 40)),
    )
}

/// p95 per run of the transactions whose latency changed most.
fn latency_figure(rows: &[Row], labels: &[String]) -> Option<(Figure, u32)> {
    let p95: Vec<Row> = rows
        .iter()
        .filter(|r| r.section == crate::model::Section::Transaction && &*r.metric == "p95")
        .cloned()
        .collect();
    let top: Vec<&Row> = biggest_changes(&p95, 12).into_iter().rev().collect();
    if top.is_empty() {
        return None;
    }
    let names: Vec<String> = top.iter().map(|r| short(&r.key)).collect();
    let mut fig = bars_per_run(&top, &names, labels, true);
    fig.set_layout(report_layout(
        "p95 of the transactions whose latency changed most",
        axis(false, "p95 latency (ms)"),
    ));
    Some((fig, 140 + 20 * top.len() as u32 * labels.len().min(4) as u32))
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Markdown,
    Confluence,
    Html,
    Images,
}

/// Starts an export unless one is under way: the charts are drawn (asynchronously), then the page
/// is built and downloaded.
fn start_export(state: AppState, busy: RwSignal<bool>, kind: Kind) {
    if busy.get_untracked() {
        return;
    }
    busy.set(true);
    let labels = state.labels.get_untracked();
    let (charts_wanted, latency) = state.rows.with_untracked(|rows| {
        let big: Vec<Row> = biggest_changes(rows, BARS).into_iter().cloned().collect();
        (big, latency_figure(rows, &labels))
    });
    spawn_local(async move {
        let charts = draw_charts(&charts_wanted, latency, &labels).await;
        // The runs as judged: cut to the window when there is one.
        let page: Option<ReportPage> = state.workspace.with_untracked(|w| {
            let th = state.thresholds.get_untracked();
            state.runs.with_untracked(|runs| {
                let runs = crate::ui::refs(runs);
                state.rows.with_untracked(|rows| Some(report_page(w, &runs, rows, &labels, &th, charts.clone())))
            })
        });
        busy.set(false);
        let Some(page) = page else { return };
        deliver(kind, &page, &charts);
        if kind != Kind::Images && charts.iter().any(|c| c.png.is_none()) {
            state.notify(
                NoticeKind::Warning,
                "The charts could not be drawn as images; the page has the tables only.",
                vec![],
            );
        }
    });
}

/// The report's charts as PNG: the biggest changes, and the latency of the transactions that
/// changed most.
async fn draw_charts(changed: &[Row], latency: Option<(Figure, u32)>, labels: &[String]) -> Vec<ReportChart> {
    let mut charts = Vec::new();
    if !changed.is_empty() {
        let refs: Vec<&Row> = changed.iter().collect();
        let (plot, h) = changes_figure(&refs, labels);
        charts.push(ReportChart {
            title: "Changes beyond noise".into(),
            file_name: "runlens-changes.png".into(),
            png: png(&plot, h).await,
        });
    }
    if let Some((plot, h)) = latency {
        charts.push(ReportChart {
            title: "p95 of the transactions that changed most".into(),
            file_name: "runlens-latency.png".into(),
            png: png(&plot, h).await,
        });
    }
    charts
}

/// Downloads the page in the format asked for, or the chart images.
fn deliver(kind: Kind, page: &ReportPage, charts: &[ReportChart]) {
    match kind {
        Kind::Markdown => browser::download("runlens-report.md", "text/markdown", &page_markdown(page)),
        Kind::Confluence => browser::download("runlens-report-confluence.txt", "text/plain", &page_confluence(page)),
        Kind::Html => browser::download("runlens-report.html", "text/html", &page_html(page)),
        Kind::Images => {
            for c in charts {
                if let Some(url) = c.safe_png() {
                    browser::download_url(&c.file_name, url);
                }
            }
        }
    }
}

#[component]
pub fn ReportExport() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let busy = RwSignal::new(false);
    let export = move |kind: Kind| start_export(state, busy, kind);
    view! {
        <section class="report-export" aria-label="Report page">
            <span class="caption-text">"Report page"</span>
            <span class="hint">"the summary, test runs, what changed beyond noise, charts and notes, ready for a wiki"</span>
            <span class="buttons">
                <button type="button" class="ghost small" data-testid="report-md" disabled=move || busy.get() on:click=move |_| export(Kind::Markdown)
                    title="Markdown with the charts embedded as PNG data">"Markdown"</button>
                <button type="button" class="ghost small" data-testid="report-confluence" disabled=move || busy.get() on:click=move |_| export(Kind::Confluence)
                    title="Confluence wiki markup; attach the chart images (next button) to the page, the markup shows them by file name">"Confluence"</button>
                <button type="button" class="ghost small" data-testid="report-html" disabled=move || busy.get() on:click=move |_| export(Kind::Html)
                    title="One self-contained HTML file">"HTML"</button>
                <button type="button" class="ghost small" data-testid="report-images" disabled=move || busy.get() on:click=move |_| export(Kind::Images)
                    title="The charts as PNG files, named as the Confluence markup expects">"Chart images"</button>
            </span>
        </section>
    }
}
