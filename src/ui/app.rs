//! The app shell: header, notices, view tabs, the page-wide drop zone, and the sync effects
//! (URL, theme, embed height) with the outside world.

use super::browser;
use super::components::{notices::Notices, open_button::OpenButton, run_picker::RunPicker};
use super::loader;
use super::show::{shown, shown_or};
use super::state::provide_app_state;
use super::views;
use crate::urlstate::{Theme, UrlState, View};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let (url, notices) = UrlState::parse(&browser::location_search());
    let srcs = url.src.clone();
    let state = provide_app_state(url, browser::prefers_dark());
    for n in notices {
        state.notify(super::state::NoticeKind::Info, n, vec![]);
    }
    // Outside-world sync: the address bar follows the state, the root element the theme.
    Effect::new(move |_| browser::replace_query_soon(state.url.with(|u| u.to_query())));
    Effect::new(move |_| browser::set_root_theme(state.dark.get()));
    if let Ok(Some(mql)) = browser::window().match_media("(prefers-color-scheme: dark)") {
        let m2 = mql.clone();
        gloo::events::EventListener::new(&mql, "change", move |_| state.system_dark.set(m2.matches())).forget();
    }
    // The ingest workers read every file; progress goes to the busy bar.
    let workers = state.url.with_untracked(|u| u.workers).map_or_else(super::ingest::default_workers, usize::from);
    super::ingest::init(workers, std::rc::Rc::new(move |p| state.progress.set(p)));
    // A link that names bundles shows exactly those; remembered local files come back only on a
    // plain visit.
    let shared = loader::load_shared(state);
    if srcs.is_empty() && !shared && !state.url.with_untracked(|u| u.embed) {
        loader::restore(state);
    }
    // A link straight to a view with charts: Plotly.js loads while the worker reads the bundles
    // (the page's thread is idle then), not after them (a 50 MB bundle's latency view: ...).
    if !srcs.is_empty() && state.url.with_untracked(|u| u.view.has_charts()) {
        leptos::task::spawn_local(async {
            let _ = super::plotly_loader::ensure_plotly().await;
        });
    }
    loader::load_urls(state, srcs);
    if state.url.with_untracked(|u| u.embed) {
        browser::observe_height_for_parent();
    }

    // Memos, so that the branches below re-render only when these change, not on every URL edit.
    let embed = Memo::new(move |_| state.url.with(|u| u.embed));
    let has_runs = Memo::new(move |_| state.workspace.with(|w| !w.is_empty()));
    let dragging = RwSignal::new(false);

    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
            loader::load_files(state, list);
        }
    };

    view! {
        <div
            class="app"
            class:embed=embed
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                if !embed.get() { dragging.set(true); }
            }
            on:dragleave=move |ev: web_sys::DragEvent| {
                if ev.related_target().is_none() { dragging.set(false); }
            }
            on:drop=on_drop
        >
            {shown(move || !embed.get(), move || view! {
                <Header/>
            }.into_any())}
            <Notices/>
            {shown(move || dragging.get(), move || view! {
                <div class="drop-overlay" aria-hidden="true"><p>"Drop result bundles to open them"</p></div>
            }.into_any())}
            {shown(move || { state.busy.get() != 0 }, move || view! {
                <Busy/>
            }.into_any())}
            {move || if has_runs.get() {
                view! { <Workspace/> }.into_any()
            } else if embed.get() {
                view! { <p class="empty">"Nothing to show yet: this embed names no bundle that loaded."</p> }.into_any()
            } else {
                view! { <views::landing::Landing/> }.into_any()
            }}
        </div>
    }
}

/// What is being read: bytes and records so far, the rate, the time left, and Cancel.
#[component]
fn Busy() -> impl IntoView {
    let state = super::use_app_state();
    let text = move || {
        let Some(p) = state.progress.get() else { return "Loading…".to_string() };
        let secs = ((web_sys::window().and_then(|w| w.performance()).map_or(0.0, |x| x.now()) - p.started_ms) / 1000.0)
            .max(0.001);
        if let Some((i, n)) = p.opening {
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
    };
    // (done, total) of the bar: runs read while a big bundle opens, else bytes.
    let bar = Memo::new(move |_| {
        state.progress.get().and_then(|p| match p.opening {
            Some((i, n)) => Some((i as u64, n as u64)),
            None => p.total.filter(|t| *t > 0).map(|t| (p.bytes.min(t), t)),
        })
    });
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

#[component]
fn Header() -> impl IntoView {
    let state = super::use_app_state();
    let toggle_theme = move |_| {
        let dark = state.dark.get_untracked();
        state.url.update(|u| u.theme = Some(if dark { Theme::Light } else { Theme::Dark }));
    };
    let title = move || state.workspace.with(|w| w.sources.first().map(|s| s.report.title.clone()));
    let close_all = move |_| {
        leptos::task::spawn_local(super::persist::forget());
        state.workspace.set(Default::default());
        super::loader::close_session(state);
        state.notices.set(vec![]);
        state.url.set(UrlState { theme: state.url.get_untracked().theme, ..Default::default() });
    };
    view! {
        <header class="top">
            <a class="brand" href="./">"runlens"</a>
            <span class="report-title">{title}</span>
            <span class="spacer"></span>
            <super::components::share::ShareButtons/>
            {shown(move || state.workspace.with(|w| !w.is_empty()), move || view! {
                <OpenButton/>
            }.into_any())}
            {shown(move || state.workspace.with(|w| !w.is_empty()), move || view! {
                <button type="button" class="ghost" on:click=close_all title="Close all bundles and forget the remembered ones">"Close all"</button>
            }.into_any())}
            <button type="button" class="ghost theme-toggle" on:click=toggle_theme
                aria-label=move || if state.dark.get() { "Switch to light theme" } else { "Switch to dark theme" }>
                {move || if state.dark.get() { "☀" } else { "☾" }}
            </button>
        </header>
    }
}

#[component]
fn Workspace() -> impl IntoView {
    let state = super::use_app_state();
    let view_now = Memo::new(move |_| state.url.with(|u| u.view));
    let embed = Memo::new(move |_| state.url.with(|u| u.embed));
    view! {
        {shown(move || !embed.get(), move || view! {
            <nav class="tabs" aria-label="Views">
                {View::ALL.into_iter().map(|v| view! {
                    <button type="button" class="tab"
                        aria-current=move || (view_now.get() == v).then_some("page")
                        on:click=move |_| state.url.update(|u| u.view = v)
                        data-view=v.slug()>
                        {v.title()}
                    </button>
                }).collect_view()}
            </nav>
        }.into_any())}
        <main id="main" class="view" data-view=move || view_now.get().slug()>
            {shown(move || embed.get(), move || view! {
                <a class="open-full" target="_blank" rel="noopener"
                    href=move || format!("{}?{}", browser::page_base(), state.url.with(|u| UrlState { embed: false, ..u.clone() }.to_query()))>
                    "Open in runlens ↗"
                </a>
            }.into_any())}
            {shown(move || !embed.get(), move || view! {
                <super::components::import_panel::ImportPanel/>
            }.into_any())}
            {shown_or(move || !embed.get(), move || view! {
                <RunPicker/>
            }.into_any(), {let f = move || view! {
                <p class="embed-runs">{move || {
                    let l = state.labels.get();
                    match l.split_first() {
                        Some((b, rest)) if !rest.is_empty() => format!("{} vs {b}", rest.join(", ")),
                        Some((b, _)) => b.clone(),
                        None => String::new(),
                    }
                }}</p>
            }; move || f().into_any()})}
            {move || match view_now.get() {
                View::Overview => view! { <views::overview::Overview/> }.into_any(),
                View::Compare => view! { <views::compare::Compare/> }.into_any(),
                View::Latency => view! { <views::latency::Latency/> }.into_any(),
                View::Resources => view! { <views::resources::Resources/> }.into_any(),
                View::Indices => view! { <views::indices::Indices/> }.into_any(),
                View::Trends => view! { <views::trends::Trends/> }.into_any(),
                View::Config => view! { <views::config::Config/> }.into_any(),
            }}
        </main>
    }
}
