//! A Plotly chart: a div and an Effect that hands the figure to Plotly.js (the outside world)
//! whenever it changes. Plotly's own mode bar exports PNG and SVG.
//!
//! Figures are `crate::figure::Figure`s: Plotly.js JSON (https://plotly.com/javascript/reference/)
//! whose every value is a `figure::Attr`, so text from data reaches Plotly only as a
//! `ChartText` (made by `chart_text`, re-exported here as `text`), never as a raw string. The
//! closed vocabularies (modes, orientations, bar and hover modes, axis types, anchors) are the
//! `plotly` crate's types, listed below as `Vocabulary`, so a value is never misspelt (marker
//! symbols are literals checked against the crate's names by a test: `symbol`). The crate's own
//! `Plot` is not used: it serializes every attribute Plotly has (its `Layout`, `Axis`, `Bar` and
//! `Scatter` carry hundreds of fields, each compiled into the page), while a figure here carries
//! only what runlens draws.

use crate::ui::plotly_loader::ensure_plotly;
use crate::ui::show::shown;
use leptos::prelude::*;
use leptos::task::spawn_local;
use plotly::common::Orientation;
use plotly::configuration::{DisplayModeBar, ImageButtonFormats};
use serde_json::{Map, Value};

pub use crate::chart_text::{chart_text as text, ChartText};
pub use crate::figure::{Attr, Attrs, Figure, Trace, Vocabulary};
use crate::limits::{MAX_CHART_CATEGORIES, MAX_CHART_TRACES};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

impl Vocabulary for plotly::common::Anchor {}
impl Vocabulary for plotly::common::Fill {}
impl Vocabulary for plotly::common::HoverInfo {}
impl Vocabulary for plotly::common::Mode {}
impl Vocabulary for Orientation {}
impl Vocabulary for plotly::layout::AxisType {}
impl Vocabulary for plotly::layout::BarMode {}
impl Vocabulary for plotly::layout::HoverMode {}
impl Vocabulary for DisplayModeBar {}
impl Vocabulary for ImageButtonFormats {}

/// The marker symbols runlens draws, by Plotly's names. `plotly::common::MarkerSymbol` is the
/// crate's type for them, but a symbol chosen at run time serializes through its `Serialize`,
/// which links the names of all its 150 symbols into the page;
/// `tests/components.rs` checks these against the crate's.
pub mod symbol {
    pub const CIRCLE: &str = "circle";
    pub const CIRCLE_OPEN: &str = "circle-open";
    pub const DIAMOND: &str = "diamond";
    pub const X: &str = "x";
}

/// The figure as the object Plotly.js takes (`{data, layout, config}`), built value by value
/// (`js_value`) rather than written as JSON text for the browser to parse: the page then links no
/// JSON writer (its float formatting alone is a 10 KB table).
pub fn js_figure(fig: &Figure) -> js_sys::Object {
    let data: js_sys::Array = fig.traces().map(js_object).collect();
    let entries = js_sys::Array::of3(
        &js_sys::Array::of2(&"data".into(), &data),
        &js_sys::Array::of2(&"layout".into(), &js_object(fig.layout())),
        &js_sys::Array::of2(&"config".into(), &js_object(fig.config())),
    );
    js_sys::Object::from_entries(&entries).unwrap_or_default()
}

/// A JSON value as the browser's `JSON.parse` would make it from its text: numbers are the same
/// doubles, objects get their keys as own properties (`Object.fromEntries`, so a key such as
/// `__proto__` is a plain key, never the object's prototype).
fn js_value(v: &Value) -> wasm_bindgen::JsValue {
    use wasm_bindgen::JsValue;
    match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        // A `Value` holds no NaN or infinity (`figure::Attr` makes them null, as JSON text has them).
        Value::Number(n) => n.as_f64().map_or(JsValue::NULL, JsValue::from_f64),
        Value::String(s) => JsValue::from_str(s),
        Value::Array(items) => items.iter().map(js_value).collect::<js_sys::Array>().into(),
        Value::Object(m) => js_object(m).into(),
    }
}

/// `js_value` of an object.
pub fn js_object(m: &Map<String, Value>) -> js_sys::Object {
    let entries: js_sys::Array = m.iter().map(|(k, v)| js_sys::Array::of2(&k.into(), &js_value(v))).collect();
    js_sys::Object::from_entries(&entries).unwrap_or_default()
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    // Our own binding with `catch`: plotly's `bindings::react` panics when Plotly.js refuses
    // (e.g. the div left the page while Plotly.js was still loading), and a panic kills the page.
    #[wasm_bindgen(catch, js_namespace = Plotly, js_name = react)]
    async fn plotly_react(id: &str, figure: &js_sys::Object) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>;
}

/// Draws `figure` into the element `id` if it is still on the page; a refusal is logged, not fatal.
async fn draw(id: &str, figure: &Figure) {
    let on_page = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)).is_some();
    if on_page {
        if let Err(e) = plotly_react(id, &js_figure(figure)).await {
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
    if dark {
        "#3b4252"
    } else {
        "#e4e7eb"
    }
}

/// An axis in the current theme's colours, titled `title` (a `ChartText`, or the code's literal).
pub fn axis(dark: bool, title: impl Into<Attr>) -> Attr {
    let mut a = plain_axis(dark);
    a.set("title", Attr::obj([("text", title.into())]));
    a
}

/// A figure's margins in pixels.
pub fn margin(l: u32, r: u32, t: u32, b: u32) -> Attr {
    Attr::obj([("l", l.into()), ("r", r.into()), ("t", t.into()), ("b", b.into())])
}

/// An untitled axis in the current theme's colours.
pub fn plain_axis(dark: bool) -> Attr {
    let grid = grid_colour(dark);
    Attr::obj([
        ("gridcolor", grid.into()),
        ("zerolinecolor", grid.into()),
        ("linecolor", grid.into()),
        ("automargin", true.into()),
    ])
}

/// A layout in the current theme's colours (both axes untitled; set titled ones with `axis`),
/// with `layout`'s attributes over it.
pub fn themed(dark: bool, layout: Attrs) -> Attrs {
    let fg = if dark { "#d8dee9" } else { "#1f2933" };
    let mut out = Attrs::default()
        .with("paper_bgcolor", "rgba(0,0,0,0)")
        .with("plot_bgcolor", "rgba(0,0,0,0)")
        .with(
            "font",
            Attr::obj([("color", fg.into()), ("family", "system-ui, sans-serif".into()), ("size", 12u32.into())]),
        )
        .with("xaxis", plain_axis(dark))
        .with("yaxis", plain_axis(dark));
    out.extend(layout);
    out
}

/// One bar trace per run over `rows` (comparison rows, one cell per run), named by `labels`;
/// runs with no value in any row get no trace (and no legend entry). Horizontal bars put the
/// names on the y axis. Names and labels are data: they become `ChartText` here. At most
/// `MAX_CHART_CATEGORIES` rows and `MAX_CHART_TRACES` runs are drawn (see `cut_note`).
pub fn bars_per_run(rows: &[&crate::analysis::Row], names: &[String], labels: &[String], horizontal: bool) -> Figure {
    let mut fig = Figure::new();
    let rows = &rows[..rows.len().min(MAX_CHART_CATEGORIES)];
    let names = crate::chart_text::unique(names.iter().take(rows.len()).map(|n| text(n)).collect());
    for (i, label) in labels.iter().enumerate().take(MAX_CHART_TRACES) {
        let vals: Vec<Option<f64>> = rows.iter().map(|r| r.cells.get(i).and_then(|c| c.value)).collect();
        if vals.iter().all(Option::is_none) {
            continue;
        }
        let bar = Trace::bar().with("name", text(label));
        fig.add_trace(if horizontal {
            bar.with("x", vals).with("y", names.clone()).with("orientation", Attr::of(Orientation::Horizontal))
        } else {
            bar.with("x", names.clone()).with("y", vals)
        });
    }
    fig
}

/// What a chart left out to stay readable and fast, or `None`: "Showing 40 of 120 services and
/// 40 of 45 runs."
pub fn cut_note(categories: (usize, usize, &str), traces: (usize, usize, &str)) -> Option<String> {
    let part = |(n, max, what): (usize, usize, &str)| {
        (n > max).then(|| format!("{max} of {} {what}", crate::format::number(n as f64)))
    };
    match (part(categories), part(traces)) {
        (None, None) => None,
        (Some(a), Some(b)) => Some(format!("Showing {a} and {b}; the table has them all.")),
        (Some(a), None) | (None, Some(a)) => Some(format!("Showing {a}; the table has them all.")),
    }
}

/// A figure with runlens' configuration: responsive, no logo, the mode bar's PNG export named
/// `file_name` (SVG comes from the chart's own buttons).
pub fn configured(mut fig: Figure, file_name: &str) -> Figure {
    fig.set_config(
        Attrs::default()
            .with("responsive", true)
            .with("displaylogo", false)
            .with("displayModeBar", Attr::of(DisplayModeBar::Hover))
            .with(
                "toImageButtonOptions",
                Attr::obj([
                    ("format", Attr::of(ImageButtonFormats::Png)),
                    ("filename", Attr::file_name(file_name)),
                    ("scale", 2u32.into()),
                ]),
            ),
    );
    fig
}

#[component]
pub fn Chart<F>(
    /// Builds the figure; re-run when the signals it reads change.
    figure: F,
    /// Accessible description of what the chart shows.
    #[prop(into)]
    label: String,
    #[prop(default = 360)] height: u32,
    /// File name (without extension) of PNG/SVG downloads.
    #[prop(default = "runlens-chart")]
    file_name: &'static str,
    /// Called with the x range a user selects by dragging (the figure sets `dragmode: "select"`).
    #[prop(optional)]
    on_select: Option<Box<dyn Fn(f64, f64)>>,
) -> impl IntoView
where
    F: Fn() -> Figure + 'static,
{
    chart(Box::new(figure), label, height, file_name, on_select)
}

/// Hands `Plotly`'s `plotly_selected` events of the chart `id` to `on_select` as an x range
/// (`event.range.x`); a click that selects nothing sends no range and is ignored.
fn listen_for_selection(id: &str, on_select: std::rc::Rc<dyn Fn(f64, f64)>) {
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    let Some(div) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    let Ok(on) = js_sys::Reflect::get(&div, &"on".into()) else { return };
    let Some(on) = on.dyn_ref::<js_sys::Function>() else { return };
    let handler = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
        let get = |v: &JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).ok();
        let x = get(&event, "range").and_then(|r| get(&r, "x"));
        let end = |i: u32| x.as_ref().map(|x| js_sys::Reflect::get_u32(x, i)).and_then(Result::ok)?.as_f64();
        if let (Some(a), Some(b)) = (end(0), end(1)) {
            on_select(a.min(b), a.max(b));
        }
    });
    let _ = on.call2(&div, &"plotly_selected".into(), handler.as_ref());
    // The chart's div keeps the handler for as long as it lives (Plotly holds it).
    handler.forget();
}

/// `Chart`'s body, for any figure: the component is generic over the closure that builds the
/// figure, and this keeps one copy of its effect, buttons and view for the page's charts.
fn chart(
    figure: Box<dyn Fn() -> Figure>,
    label: String,
    height: u32,
    file_name: &'static str,
    on_select: Option<Box<dyn Fn(f64, f64)>>,
) -> AnyView {
    let id = format!("chart-{}", NEXT_ID.fetch_add(1, Ordering::Relaxed));
    let on_select: Option<std::rc::Rc<dyn Fn(f64, f64)>> = on_select.map(std::rc::Rc::from);
    let listening = std::rc::Rc::new(std::cell::Cell::new(false));
    let error = RwSignal::new(None::<String>);
    let div_id = id.clone();
    let drawn = std::rc::Rc::new(std::cell::Cell::new(0u64));
    Effect::new(move |_| {
        let drawn = drawn.clone();
        let (on_select, listening) = (on_select.clone(), listening.clone());
        let fig = figure();
        let id = div_id.clone();
        let this = drawn.get() + 1;
        drawn.set(this);
        spawn_local(async move {
            // The chart follows the frame that shows the rest of the change (a table updates
            // without waiting for Plotly); a newer figure supersedes this one.
            crate::ui::browser::after_paint().await;
            if drawn.get() != this {
                return;
            }
            match ensure_plotly().await {
                Ok(()) => {
                    draw(&id, &fig).await;
                    if let Some(f) = on_select.filter(|_| !listening.replace(true)) {
                        listen_for_selection(&id, f);
                    }
                }
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
            <div id=id class="chart" role="img" aria-label=label style=format!("--chart-placeholder:{height}px")></div>
            {shown(move || error.get().is_some(), move || view! {
                <p class="empty">{move || error.get().unwrap_or_default()}</p>
            }.into_any())}
        </figure>
    }
    .into_any()
}
