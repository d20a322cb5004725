//! The app shell: header, notices, the busy bar, the page-wide drop zone, the landing page or the
//! workspace (view tabs and the view), and the sync effects (URL, theme, embed height) with the
//! outside world.

use super::browser;
use super::components::{
    busy::Busy, import_panel::ImportPanel, notices::Notices, open_button::OpenButton, run_picker::RunPicker,
    share::ShareButtons, window_bar::WindowBar,
};
use super::loader;
use super::show::{shown, shown_or};
use super::state::{provide_app_state, AppState};
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
    sync_with_outside(state);
    start_loading(state, srcs);
    if state.url.with_untracked(|u| u.embed) {
        browser::observe_height_for_parent();
    }

    // A memo, so that the branches below re-render only when it changes, not on every URL edit.
    let embed = Memo::new(move |_| state.url.with(|u| u.embed));
    let dragging = RwSignal::new(false);
    view! {
        <div
            class="app"
            class:embed=embed
            on:dragover=move |ev: web_sys::DragEvent| drag_over(ev, embed, dragging)
            on:dragleave=move |ev: web_sys::DragEvent| {
                if ev.related_target().is_none() { dragging.set(false); }
            }
            on:drop=move |ev: web_sys::DragEvent| drop_files(state, ev, dragging)
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
            <Content embed/>
        </div>
    }
}

/// Outside-world sync: the address bar follows the state, the root element the theme, the theme
/// the system's while the link sets none.
fn sync_with_outside(state: AppState) {
    Effect::new(move |_| browser::replace_query_soon(state.url.with(|u| u.to_query())));
    Effect::new(move |_| browser::set_root_theme(state.dark.get()));
    if let Ok(Some(mql)) = browser::window().match_media("(prefers-color-scheme: dark)") {
        let m2 = mql.clone();
        gloo::events::EventListener::new(&mql, "change", move |_| state.system_dark.set(m2.matches())).forget();
    }
}

/// Starts the ingest workers and loads what the link names (or, on a plain visit, the remembered
/// files).
fn start_loading(state: AppState, srcs: Vec<String>) {
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
}

fn drag_over(ev: web_sys::DragEvent, embed: Memo<bool>, dragging: RwSignal<bool>) {
    ev.prevent_default();
    if !embed.get() {
        dragging.set(true);
    }
}

fn drop_files(state: AppState, ev: web_sys::DragEvent, dragging: RwSignal<bool>) {
    ev.prevent_default();
    dragging.set(false);
    if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
        let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        loader::load_files(state, list);
    }
}

/// The workspace once runs are loaded; before that the landing page (or, embedded, a line).
#[component]
fn Content(embed: Memo<bool>) -> impl IntoView {
    let state = super::use_app_state();
    let has_runs = Memo::new(move |_| state.workspace.with(|w| !w.is_empty()));
    move || {
        if has_runs.get() {
            view! { <Workspace/> }.into_any()
        } else if embed.get() {
            view! { <p class="empty">"Nothing to show yet: this embed names no bundle that loaded."</p> }.into_any()
        } else {
            view! { <views::landing::Landing/> }.into_any()
        }
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
            <ShareButtons/>
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
            <ViewTabs view_now/>
        }.into_any())}
        <main id="main" class="view" data-view=move || view_now.get().slug()>
            {shown(move || embed.get(), move || view! {
                <OpenFullLink/>
            }.into_any())}
            {shown(move || !embed.get(), move || view! {
                <ImportPanel/>
            }.into_any())}
            {shown_or(move || !embed.get(), move || view! {
                <RunPicker/>
            }.into_any(), {let f = move || view! {
                <EmbedRuns/>
            }; move || f().into_any()})}
            {shown(move || !embed.get(), move || view! {
                <WindowBar/>
            }.into_any())}
            <CurrentView view_now/>
        </main>
    }
}

/// One tab per view (`View::ALL`), the current one marked.
#[component]
fn ViewTabs(view_now: Memo<View>) -> impl IntoView {
    let state = super::use_app_state();
    let tab = move |v: View| {
        view! {
            <button type="button" class="tab"
                aria-current=move || (view_now.get() == v).then_some("page")
                on:click=move |_| state.url.update(|u| u.view = v)
                data-view=v.slug()>
                {v.title()}
            </button>
        }
    };
    view! {
        <nav class="tabs" aria-label="Views">
            {View::ALL.into_iter().map(tab).collect_view()}
        </nav>
    }
}

/// Embedded: a link to the same state in a page of its own.
#[component]
fn OpenFullLink() -> impl IntoView {
    let state = super::use_app_state();
    let href = move || {
        format!("{}?{}", browser::page_base(), state.url.with(|u| UrlState { embed: false, ..u.clone() }.to_query()))
    };
    view! {
        <a class="open-full" target="_blank" rel="noopener"
            href=href>
            "Open in runlens ↗"
        </a>
    }
}

/// "candidates vs baseline", for "B, C vs A".
fn runs_line(labels: &[String]) -> String {
    match labels.split_first() {
        Some((b, rest)) if !rest.is_empty() => format!("{} vs {b}", rest.join(", ")),
        Some((b, _)) => b.clone(),
        None => String::new(),
    }
}

/// Embedded: the compared runs as a line (in place of the run picker).
#[component]
fn EmbedRuns() -> impl IntoView {
    let state = super::use_app_state();
    view! {
        <p class="embed-runs">{move || state.labels.with(|l| runs_line(l))}</p>
    }
}

/// The page of the current view.
#[component]
fn CurrentView(view_now: Memo<View>) -> impl IntoView {
    move || match view_now.get() {
        View::Overview => view! { <views::overview::Overview/> }.into_any(),
        View::Compare => view! { <views::compare::Compare/> }.into_any(),
        View::Latency => view! { <views::latency::Latency/> }.into_any(),
        View::Resources => view! { <views::resources::Resources/> }.into_any(),
        View::Indices => view! { <views::indices::Indices/> }.into_any(),
        View::Trends => view! { <views::trends::Trends/> }.into_any(),
        View::Timeline => view! { <views::timeline::Timeline/> }.into_any(),
        View::Config => view! { <views::config::Config/> }.into_any(),
    }
}
