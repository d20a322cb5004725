//! The busy bar: what is being read (bytes and records so far, the rate, the time left), a
//! progress bar, and Cancel.

use crate::ui::ingest::Progress;
use crate::ui::loader;
use crate::ui::show::shown;
use leptos::prelude::*;

/// "Reading big.jtl… 40% (2 GB of 5 GB) · 1,234,567 rows, 400,000/s · about 8 s left", `secs`
/// after the job started.
fn progress_text(p: &Progress, secs: f64) -> String {
    if let Some(crate::ui::ingest::Opening { read: i, of: n }) = p.opening {
        return format!(
            "Opening {}… {} of {} runs read",
            p.name,
            crate::format::thousands(i as f64, 0),
            crate::format::thousands(n as f64, 0)
        );
    }
    let mut parts = vec![match p.total {
        Some(total) if total > 0 => format!(
            "Reading {}… {}% ({} of {})",
            p.name,
            p.bytes.min(total) * 100 / total,
            crate::format::bytes(p.bytes as f64),
            crate::format::bytes(total as f64)
        ),
        _ => format!("Reading {}… {}", p.name, crate::format::bytes(p.bytes as f64)),
    }];
    if p.records > 0 {
        parts.push(format!(
            "{} rows, {}/s",
            crate::format::thousands(p.records as f64, 0),
            crate::format::thousands(p.records as f64 / secs, 0)
        ));
    }
    if let Some(total) = p.total.filter(|t| *t > p.bytes && p.bytes > 0 && secs > 0.5) {
        let left = (total - p.bytes) as f64 / (p.bytes as f64 / secs);
        parts.push(format!("about {} left", crate::format::duration_s(left.max(1.0).round())));
    }
    parts.join(" · ")
}

/// Seconds since the job started (at least a millisecond).
fn elapsed_s(p: &Progress) -> f64 {
    ((web_sys::window().and_then(|w| w.performance()).map_or(0.0, |x| x.now()) - p.started_ms) / 1000.0).max(0.001)
}

/// (done, total) of the bar: runs read while a big bundle opens, else bytes.
fn bar_of(p: &Progress) -> Option<(u64, u64)> {
    match p.opening {
        Some(crate::ui::ingest::Opening { read: i, of: n }) => Some((i as u64, n as u64)),
        None => p.total.filter(|t| *t > 0).map(|t| (p.bytes.min(t), t)),
    }
}

/// What is being read: bytes and records so far, the rate, the time left, and Cancel.
#[component]
pub fn Busy() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let text = move || {
        state
            .progress
            .with(|p| p.as_ref().map(|p| progress_text(p, elapsed_s(p))))
            .unwrap_or_else(|| "Loading…".to_string())
    };
    let bar = Memo::new(move |_| state.progress.with(|p| p.as_ref().and_then(bar_of)));
    view! {
        <div class="busy" role="status">
            <span class="spinner"></span>
            <span class="busy-text">{text}</span>
            // One element whose attributes follow the progress (not a new one per report).
            {shown(move || bar.with(Option::is_some), move || view! {
                <progress
                    max=move || bar.get().map_or(1, |b| b.1).to_string()
                    value=move || bar.get().map_or(0, |b| b.0).to_string()
                ></progress>
            }.into_any())}
            {shown(move || state.progress.with(Option::is_some), move || view! {
                <button type="button" class="ghost small" on:click=move |_| loader::cancel() data-testid="cancel-load">"Cancel"</button>
            }.into_any())}
        </div>
    }
}
