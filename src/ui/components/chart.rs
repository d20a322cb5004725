//! A Plotly chart: a div and an Effect that hands the figure to Plotly.js (the outside world)
//! whenever it changes. Plotly's own mode bar exports PNG and SVG.
//!
//! Plotly renders a subset of HTML in every text it draws, so bundle text reaches a figure only
//! through `crate::chart_text::chart_text` (re-exported here as `text`): the helpers below apply
//! it, and views that add traces themselves call it for every name and category.

use crate::ui::plotly_loader::ensure_plotly;
use leptos::prelude::*;
use leptos::task::spawn_local;
use plotly::configuration::{ImageButtonFormats, ToImageButtonOptions};
use plotly::{Configuration, Layout, Plot};

pub use crate::chart_text::chart_text as text;
use crate::limits::{MAX_CHART_CATEGORIES, MAX_CHART_TRACES};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    // Our own binding with `catch`: plotly's `bindings::react` panics when Plotly.js refuses
    // (e.g. the div left the page while Plotly.js was still loading), and a panic kills the page.
    #[wasm_bindgen(catch, js_namespace = Plotly, js_name = react)]
    async fn plotly_react(id: &str, figure: &js_sys::Object) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>;
}

/// Draws `plot` into the element `id` if it is still on the page; a refusal is logged, not fatal.
async fn draw(id: &str, plot: &Plot) {
    let on_page = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)).is_some();
    if on_page {
        if let Err(e) = plotly_react(id, &plot.to_js_object()).await {
            leptos::logging::warn!("Plotly could not draw {id}: {e:?}");
        }
    }
}

/// `Plotly.downloadImage(id, {format, filename})`.
fn download_image(id: &str, format: &str, file_name: &str) {
    use wasm_bindgen::{JsCast, JsValue};
    let Ok(plotly) = js_sys::Reflect::get(&js_sys::global(), &"Plotly".into()) else { return };
    let Ok(f) = js_sys::Reflect::get(&plotly, &"downloadImage".into()) else { return };
    let Some(f) = f.dyn_ref::<js_sys::Function>() else { return };
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"format".into(), &format.into());
    let _ = js_sys::Reflect::set(&opts, &"filename".into(), &file_name.into());
    let _ = js_sys::Reflect::set(&opts, &"scale".into(), &JsValue::from(2));
    let _ = f.call2(&plotly, &JsValue::from_str(id), &opts);
}

fn grid_colour(dark: bool) -> &'static str {
    if dark { "#3b4252" } else { "#e4e7eb" }
}

/// An axis in the current theme's colours, titled.
pub fn axis(dark: bool, title: &str) -> plotly::layout::Axis {
    let grid = grid_colour(dark);
    let a = plotly::layout::Axis::new().grid_color(grid).zero_line_color(grid).line_color(grid).auto_margin(true);
    if title.is_empty() { a } else { a.title(text(title)) }
}

/// Colours of the current theme for a layout (both axes untitled; set titled ones with `axis`).
pub fn themed(layout: Layout, dark: bool) -> Layout {
    use plotly::common::Font;
    let fg = if dark { "#d8dee9" } else { "#1f2933" };
    layout
        .paper_background_color("rgba(0,0,0,0)")
        .plot_background_color("rgba(0,0,0,0)")
        .font(Font::new().color(fg).family("system-ui, sans-serif").size(12))
        .x_axis(axis(dark, ""))
        .y_axis(axis(dark, ""))
}

/// One bar trace per run over `rows` (comparison rows, one cell per run), named by `labels`;
/// runs with no value in any row get no trace (and no legend entry). Horizontal bars put the
/// names on the y axis. Names and labels are bundle text: they pass through `text` here. At most
/// `MAX_CHART_CATEGORIES` rows and `MAX_CHART_TRACES` runs are drawn (see `cut_note`).
pub fn bars_per_run(rows: &[&crate::analysis::Row], names: &[String], labels: &[String], horizontal: bool) -> Plot {
    use plotly::common::Orientation;
    let mut plot = Plot::new();
    let rows = &rows[..rows.len().min(MAX_CHART_CATEGORIES)];
    let names = crate::chart_text::unique(names.iter().take(rows.len()).map(|n| text(n)).collect());
    for (i, label) in labels.iter().enumerate().take(MAX_CHART_TRACES) {
        let vals: Vec<Option<f64>> = rows.iter().map(|r| r.cells.get(i).and_then(|c| c.value)).collect();
        if vals.iter().all(Option::is_none) {
            continue;
        }
        let label = text(label);
        if horizontal {
            plot.add_trace(plotly::Bar::new(vals, names.clone()).orientation(Orientation::Horizontal).name(label));
        } else {
            plot.add_trace(plotly::Bar::new(names.clone(), vals).name(label));
        }
    }
    plot
}

/// What a chart left out to stay readable and fast, or `None`: "Showing 40 of 120 services and
/// 40 of 45 runs."
pub fn cut_note(categories: (usize, usize, &str), traces: (usize, usize, &str)) -> Option<String> {
    let part = |(n, max, what): (usize, usize, &str)| (n > max).then(|| format!("{max} of {} {what}", crate::format::number(n as f64)));
    match (part(categories), part(traces)) {
        (None, None) => None,
        (Some(a), Some(b)) => Some(format!("Showing {a} and {b}; the table has them all.")),
        (Some(a), None) | (None, Some(a)) => Some(format!("Showing {a}; the table has them all.")),
    }
}

/// A plot with runlens' configuration: responsive, no logo, the mode bar's PNG export named
/// `file_name` (SVG comes from the chart's own buttons).
pub fn configured(mut plot: Plot, file_name: &str) -> Plot {
    plot.set_configuration(
        Configuration::new()
            .responsive(true)
            .display_logo(false)
            .display_mode_bar(plotly::configuration::DisplayModeBar::Hover)
            .to_image_button_options(ToImageButtonOptions::new().format(ImageButtonFormats::Png).filename(file_name).scale(2)),
    );
    plot
}

#[component]
pub fn Chart<F>(
    /// Builds the figure; re-run when the signals it reads change. (A closure, not a signal:
    /// Plotly's figures are not `Send`.)
    figure: F,
    /// Accessible description of what the chart shows.
    #[prop(into)]
    label: String,
    #[prop(default = 360)]
    height: u32,
    /// File name (without extension) of PNG/SVG downloads.
    #[prop(default = "runlens-chart")]
    file_name: &'static str,
) -> impl IntoView
where
    F: Fn() -> Plot + 'static,
{
    let id = format!("chart-{}", NEXT_ID.fetch_add(1, Ordering::Relaxed));
    let error = RwSignal::new(None::<String>);
    let div_id = id.clone();
    Effect::new(move |_| {
        let plot = figure();
        let id = div_id.clone();
        spawn_local(async move {
            match ensure_plotly().await {
                Ok(()) => draw(&id, &plot).await,
                Err(e) => error.set(Some(e)),
            }
        });
    });
    let download = {
        let id = id.clone();
        move |format: &'static str| {
            let id = id.clone();
            spawn_local(async move {
                if ensure_plotly().await.is_ok() {
                    download_image(&id, format, file_name);
                }
            });
        }
    };
    let d2 = download.clone();
    view! {
        <figure class="chart-wrap">
            <div class="chart-tools">
                <button type="button" class="ghost small" on:click=move |_| download("png") title="Download the chart as PNG">"PNG"</button>
                <button type="button" class="ghost small" on:click=move |_| d2("svg") title="Download the chart as SVG">"SVG"</button>
            </div>
            <div id=id class="chart" role="img" aria-label=label style=format!("min-height:{height}px")></div>
            <Show when=move || error.get().is_some()>
                <p class="empty">{move || error.get().unwrap_or_default()}</p>
            </Show>
        </figure>
    }
}
