//! The import panel: each raw file imported in this session, what it was recognised as, and
//! which run it goes into. Runs can be renamed, given dimensions and chosen as the baseline; files
//! can move to another run or a new one. Every change makes the workspace's imported runs again
//! (`loader::sync_session`); the session itself is `AppState::session`.

use crate::assemble::session::Session;
use crate::ui::loader::sync_session;
use crate::ui::show::shown;
use crate::ui::state::{AppState, NoticeKind};
use leptos::prelude::*;

/// Applies an edit to the session and makes the runs again; a run id that changed follows in the
/// link (baseline, candidates).
fn edit(state: AppState, f: impl FnOnce(&mut crate::assemble::session::Session) -> Option<(String, String)>) {
    let renamed = state.session.try_update(f).flatten();
    sync_session(state, renamed);
}

#[component]
pub fn ImportPanel() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let open = RwSignal::new(true);
    shown(
        move || state.session.with(|s| !s.is_empty()),
        move || {
            view! {
        <section class="import-panel" aria-labelledby="import-h">
            <ImportPanelHead open/>
            {shown(move || open.get(), move || view! {
                <p class="hint">"Files dropped together are grouped into runs as the tools name them: a Locust --csv set, a Gatling report, a JTL with the statistics.json, _cat/indices, CloudWatch and docker stats files of its test (by name, or by time); two load generators of one test add up. Move files between runs, name runs and set dimensions; the runs are ordinary runs: compare, export and Save bundle work on them."</p>
                <ul class="import-runs"><ImportRuns/></ul>
            }.into_any())}
        </section>
    }.into_any()
        },
    )
}

/// "3 files into 2 runs".
fn counts(s: &Session) -> String {
    let runs = s.runs.len();
    format!(
        "{} file{} into {} run{}",
        s.files.len(),
        if s.files.len() == 1 { "" } else { "s" },
        runs,
        if runs == 1 { "" } else { "s" }
    )
}

/// The panel's title, its counts, and Hide / Show.
#[component]
fn ImportPanelHead(open: RwSignal<bool>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    view! {
        <div class="import-panel-head">
            <h2 id="import-h">"Imported files"</h2>
            <span class="hint">{move || state.session.with(counts)}</span>
            <span class="spacer"></span>
            <button type="button" class="ghost small" on:click=move |_| open.update(|o| *o = !*o) aria-expanded=move || open.get().to_string()>
                {move || if open.get() { "Hide" } else { "Show" }}
            </button>
        </div>
    }
}

/// A run of the session as the panel shows it.
struct RunItem {
    index: usize,
    id: String,
    label: String,
    /// Files may join it and it may be renamed (a bundle's own runs may not).
    merge: bool,
    dims: Vec<(String, String)>,
    files: Vec<FileItem>,
}

/// A file of a run as the panel shows it.
struct FileItem {
    index: usize,
    name: String,
    format: String,
    records: u64,
    n_runs: usize,
}

fn run_items(s: &Session) -> Vec<RunItem> {
    s.runs
        .iter()
        .enumerate()
        .map(|(i, r)| RunItem {
            index: i,
            id: r.spec.id.clone(),
            label: r.spec.label.clone().unwrap_or_else(|| r.spec.id.clone()),
            merge: r.merge,
            dims: r.spec.dimensions.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            files: s
                .files_of(i)
                .map(|(fi, f)| FileItem {
                    index: fi,
                    name: f.name.clone(),
                    format: f.format.clone(),
                    records: f.records,
                    n_runs: f.bundle.runs.len(),
                })
                .collect(),
        })
        .collect()
}

/// The runs a file may move to: (index, label) of each run files can join.
fn move_targets(s: &Session) -> Vec<(usize, String)> {
    s.runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.merge)
        .map(|(i, r)| (i, r.spec.label.clone().unwrap_or_else(|| r.spec.id.clone())))
        .collect()
}

/// Every run of the session, built again on each edit.
#[component]
fn ImportRuns() -> impl IntoView {
    let state = crate::ui::use_app_state();
    move || {
        let (runs, targets) = state.session.with(|s| (run_items(s), move_targets(s)));
        runs.into_iter().map(|run| view! { <ImportRun run targets=targets.clone()/> }).collect_view()
    }
}

/// One run: its name, id, dimensions and "Use as baseline", then its files.
#[component]
fn ImportRun(run: RunItem, targets: Vec<(usize, String)>) -> impl IntoView {
    let RunItem { index, id, label, merge, dims, files } = run;
    let (data_run, shown_id) = (id.clone(), id.clone());
    view! {
        <li class="import-run" data-run=data_run>
            <div class="import-run-head">
                <RunName index label merge/>
                <code class="hint" title="The run id, used in links">{shown_id}</code>
                <RunDimensions index dims merge/>
                <BaselineButton id/>
            </div>
            <ul class="import-files">
                {files.into_iter().map(|file| view! { <ImportFile run=index file targets=targets.clone()/> }).collect_view()}
            </ul>
        </li>
    }
}

/// The run's name, editable where files can join it.
#[component]
fn RunName(index: usize, label: String, merge: bool) -> impl IntoView {
    let state = crate::ui::use_app_state();
    if !merge {
        return view! { <span class="import-name-fixed">{format!("{label} and the other runs of this file")}</span> }
            .into_any();
    }
    let rename = move |ev| {
        let v = event_target_value(&ev);
        edit(state, |s| s.rename(index, &v));
    };
    view! {
        <label class="import-name">
            <span class="visually-hidden">"Run name"</span>
            <input type="text" value=label data-testid="import-run-name" on:change=rename/>
        </label>
    }
    .into_any()
}

/// The run's dimensions as removable chips, and a field to add one.
#[component]
fn RunDimensions(index: usize, dims: Vec<(String, String)>, merge: bool) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let chip = move |(k, v): (String, String)| {
        let key = k.clone();
        let remove = move |_| {
            edit(state, |s| {
                s.set_dimension(index, &key, "");
                None
            })
        };
        view! {
            <span class="chip on">{format!("{k}={v}")}
                <button type="button" class="ghost small" aria-label=format!("Remove {k}") on:click=remove>"×"</button>
            </span>
        }
    };
    view! {
        <span class="import-dims">
            {dims.into_iter().map(chip).collect_view()}
            {shown(move || merge, move || view! { <DimensionInput index/> }.into_any())}
        </span>
    }
}

/// Adds a dimension written as key=value; anything else is refused with a notice.
#[component]
fn DimensionInput(index: usize) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let add = move |ev| {
        let text = event_target_value(&ev);
        match crate::assemble::session::parse_dimension(&text) {
            Some((k, v)) => edit(state, |s| {
                s.set_dimension(index, &k, &v);
                None
            }),
            None => state.notify(
                NoticeKind::Warning,
                format!("“{text}” is not a dimension: write key=value, e.g. users=20."),
                vec![],
            ),
        }
    };
    view! {
        <input type="text" class="dim-input" placeholder="release=Poppy" aria-label="Add a dimension (key=value)" data-testid="import-dim"
            on:change=add/>
    }
}

/// Makes the run the baseline (and drops the candidates).
#[component]
fn BaselineButton(id: String) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let use_as_baseline = move |_| {
        let id = id.clone();
        state.url.update(|u| {
            u.base = Some(id);
            u.runs.clear();
        });
    };
    view! {
        <button type="button" class="ghost small" data-testid="import-baseline"
            title="Compare the other runs against this one"
            on:click=use_as_baseline>"Use as baseline"</button>
    }
}

/// " — JMeter CSV, 1,234 records, 3 runs".
fn file_note(f: &FileItem) -> String {
    let records = if f.records > 0 {
        format!(", {}", crate::format::count(f.records as usize, "record", "records"))
    } else {
        String::new()
    };
    let runs = if f.n_runs > 1 { format!(", {} runs", f.n_runs) } else { String::new() };
    format!(" — {}{records}{runs}", f.format)
}

/// One file: name, format and size; where it goes; Remove.
#[component]
fn ImportFile(run: usize, file: FileItem, targets: Vec<(usize, String)>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let (index, single) = (file.index, file.n_runs == 1);
    let note = file_note(&file);
    view! {
        <li>
            <span class="import-file">{file.name}</span>
            <span class="hint">{note}</span>
            {shown(move || single, move || view! { <MoveSelect file=index run targets=targets.clone()/> }.into_any())}
            <button type="button" class="ghost small" aria-label="Remove this file" title="Remove this file"
                on:click=move |_| edit(state, |s| { s.remove_file(index); None })>"Remove"</button>
        </li>
    }
}

/// Moves a file to another run or a new one; a refused move is said in a notice.
#[component]
fn MoveSelect(file: usize, run: usize, targets: Vec<(usize, String)>) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let move_file = move |ev| {
        let v = event_target_value(&ev);
        let to = if v == "new" { None } else { v.parse::<usize>().ok() };
        let mut refused = None;
        edit(state, |s| {
            refused = s.move_file(file, to).err();
            None
        });
        if let Some(why) = refused {
            state.notify(NoticeKind::Warning, why, vec![]);
        }
    };
    view! {
        <label class="import-move">
            <span class="visually-hidden">"Move to run"</span>
            <select data-testid="import-move" on:change=move_file>
                {targets.into_iter().map(|(t, l)| view! { <option value=t.to_string() selected=t == run>{format!("in {l}")}</option> }).collect_view()}
                <option value="new">"in a new run"</option>
            </select>
        </label>
    }
}
