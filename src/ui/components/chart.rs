//! A Plotly chart: a div and an Effect that hands the figure to Plotly.js (the outside world)
//! whenever it changes. Plotly's own mode bar exports PNG and SVG.

use crate::ui::plotly_loader::ensure_plotly;
use leptos::prelude::*;
use leptos::task::spawn_local;
use plotly::configuration::{ImageButtonFormats, ToImageButtonOptions};
use plotly::{Configuration, Layout, Plot};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// Colours of the current theme for a layout.
pub fn themed(layout: Layout, dark: bool) -> Layout {
    use plotly::common::Font;
    use plotly::layout::Axis;
    let (fg, grid) = if dark { ("#d8dee9", "#3b4252") } else { ("#1f2933", "#e4e7eb") };
    layout
        .paper_background_color("rgba(0,0,0,0)")
        .plot_background_color("rgba(0,0,0,0)")
        .font(Font::new().color(fg).family("system-ui, sans-serif").size(12))
        .x_axis(Axis::new().grid_color(grid).zero_line_color(grid).auto_margin(true))
        .y_axis(Axis::new().grid_color(grid).zero_line_color(grid).auto_margin(true))
}

/// A plot with runlens' configuration: responsive, no logo, PNG/SVG export under `file_name`.
pub fn configured(mut plot: Plot, file_name: &str, svg: bool) -> Plot {
    let format = if svg { ImageButtonFormats::Svg } else { ImageButtonFormats::Png };
    plot.set_configuration(
        Configuration::new()
            .responsive(true)
            .display_logo(false)
            .display_mode_bar(plotly::configuration::DisplayModeBar::Hover)
            .to_image_button_options(ToImageButtonOptions::new().format(format).filename(file_name).scale(2)),
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
                Ok(()) => plotly::bindings::react(&id, &plot).await,
                Err(e) => error.set(Some(e)),
            }
        });
    });
    view! {
        <figure class="chart-wrap">
            <div id=id class="chart" role="img" aria-label=label style=format!("min-height:{height}px")></div>
            <Show when=move || error.get().is_some()>
                <p class="empty">{move || error.get().unwrap_or_default()}</p>
            </Show>
        </figure>
    }
}
