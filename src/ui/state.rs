//! App state: one context struct with a `provide_*`/`use_*` pair. Everything the URL restores
//! lives in `url`; derived values are memos, never stored.

use crate::analysis::window::{window_runs, Windowed};
use crate::analysis::{self, Row};
use crate::bundle::{LabelRule, Run};
use crate::model::{Thresholds, Workspace};
use crate::urlstate::{Theme, UrlState};
use leptos::prelude::*;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub id: u64,
    pub kind: NoticeKind,
    pub text: String,
    /// Details (e.g. the list of warnings), shown collapsed.
    pub details: Vec<String>,
}

#[derive(Clone, Copy)]
pub struct AppState {
    pub workspace: RwSignal<Workspace>,
    pub url: RwSignal<UrlState>,
    pub notices: RwSignal<Vec<Notice>>,
    /// Loads in flight (files being read, URLs being fetched).
    pub busy: RwSignal<u32>,
    /// Raw files imported in this session and how they group into runs (the import panel).
    pub session: RwSignal<crate::assemble::session::Session>,
    /// The file being read now, if any.
    pub progress: RwSignal<Option<super::ingest::Progress>>,
    pub system_dark: RwSignal<bool>,
    /// Selected run ids, baseline first.
    pub selected: Memo<Vec<String>>,
    /// The label rules in force: the bundles', then the link's (`label=`).
    pub label_rules: Memo<Vec<LabelRule>>,
    /// The selected runs whole, with the label rules applied: shared with the workspace (pointers,
    /// not copies of the runs) when there are no rules.
    pub whole: Memo<Vec<Arc<Run>>>,
    /// The selected runs cut to the window (`window=`), and what the window did to each.
    pub windowed: Memo<Windowed>,
    /// The selected runs as every view judges them: cut to the window, else shared whole.
    pub runs: Memo<Vec<Arc<Run>>>,
    /// Labels of the selected runs.
    pub labels: Memo<Vec<String>>,
    /// The thresholds in force: defaults, the bundle's, the link's.
    pub thresholds: Memo<Thresholds>,
    /// The comparison of the selected runs under the thresholds.
    pub rows: Memo<Vec<Row>>,
    pub dark: Memo<bool>,
}

impl AppState {
    /// Shows a notice. Plain information without details goes away by itself after a while;
    /// errors and warnings stay until dismissed.
    pub fn notify(&self, kind: NoticeKind, text: impl Into<String>, details: Vec<String>) {
        let text = text.into();
        let transient = kind == NoticeKind::Info && details.is_empty();
        let mut new_id = 0;
        self.notices.update(|n| {
            new_id = n.iter().map(|x| x.id).max().unwrap_or(0) + 1;
            n.push(Notice { id: new_id, kind, text, details });
            // A page of notices is enough: the oldest go first (limits::MAX_NOTICES).
            let over = n.len().saturating_sub(crate::limits::MAX_NOTICES);
            n.drain(..over);
        });
        if transient {
            let notices = self.notices;
            gloo::timers::callback::Timeout::new(8_000, move || {
                notices.try_update(|n| n.retain(|x| x.id != new_id));
            })
            .forget();
        }
    }
}

/// A memo of a big derived value (runs, comparison rows, tables, trends): whenever its inputs
/// change and it runs again, its value counts as new. `Memo::new` would compare the new value with
/// the old one to spare its readers a run when they are equal: for these values that is a deep
/// walk (22,000 rows, or every transaction of every run) that almost never finds them equal, and
/// a `PartialEq` of each type compiled into the page.
pub fn derived<T: Send + Sync + 'static>(f: impl Fn(Option<&T>) -> T + Send + Sync + 'static) -> Memo<T> {
    Memo::new_with_compare(f, |_, _| true)
}

pub use crate::model::labels::with_label_rules;

/// Plain references to shared runs, as the analysis functions take them.
pub fn refs(runs: &[Arc<Run>]) -> Vec<&Run> {
    runs.iter().map(|r| &**r).collect()
}

pub fn provide_app_state(url: UrlState, system_dark: bool) -> AppState {
    let workspace = RwSignal::new(Workspace::default());
    let url = RwSignal::new(url);
    let selected = Memo::new(move |_| url.with(|u| workspace.with(|w| u.selected_runs(w))));
    let label_rules = Memo::new(move |_| {
        let mut rules = workspace.with(Workspace::label_rules);
        url.with(|u| rules.extend(u.labels.iter().cloned()));
        rules
    });
    // The runs after the label rules (with none, the workspace's own), then cut to the window.
    let whole = derived(move |_| {
        let ids = selected.get();
        label_rules.with(|rules| workspace.with(|w| with_label_rules(ids.iter().filter_map(|id| w.shared(id)), rules)))
    });
    // The window alone, so that other URL changes (a filter being typed) never cut the runs again.
    let window = Memo::new(move |_| url.with(|u| (u.window, u.shifts.clone())));
    let windowed = derived(move |_| {
        let (spec, shifts) = window.get();
        whole.with(|runs| window_runs(runs, spec, &shifts))
    });
    let runs = derived(move |_| windowed.with(|w| w.runs.clone()));
    let labels = Memo::new(move |_| {
        let ids = selected.get();
        workspace.with(|w| ids.iter().filter_map(|id| w.run(id).map(|r| r.label.clone())).collect())
    });
    let thresholds = Memo::new(move |_| url.with(|u| workspace.with(|w| u.thresholds(w))));
    // Bootstrap intervals depend on the runs alone: computed once per selection and window, kept
    // while the thresholds change.
    let intervals = derived(move |_| windowed.with(|w| analysis::intervals(&refs(&w.runs))));
    let rows = derived(move |_| {
        let th = thresholds.get();
        intervals.with(|iv| windowed.with(|w| analysis::compare_with(&refs(&w.runs), &th, iv)))
    });
    let system_dark = RwSignal::new(system_dark);
    let dark = Memo::new(move |_| match url.with(|u| u.theme) {
        Some(Theme::Dark) => true,
        Some(Theme::Light) => false,
        None => system_dark.get(),
    });
    let state = AppState {
        workspace,
        url,
        notices: RwSignal::new(Vec::new()),
        busy: RwSignal::new(0),
        session: RwSignal::new(Default::default()),
        progress: RwSignal::new(None),
        system_dark,
        selected,
        whole,
        windowed,
        label_rules,
        runs,
        labels,
        thresholds,
        rows,
        dark,
    };
    provide_context(state);
    state
}

pub fn use_app_state() -> AppState {
    expect_context::<AppState>()
}
