//! The import panel: each raw file imported in this session, what it was recognised as, and
//! which run it goes into. Runs can be renamed, given dimensions and chosen as the baseline; files
//! can move to another run or a new one. Every change makes the workspace's imported runs again
//! (`loader::sync_session`); the session itself is `AppState::session`.

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
    let counts = move || {
        state.session.with(|s| {
            let runs = s.runs.len();
            format!(
                "{} file{} into {} run{}",
                s.files.len(),
                if s.files.len() == 1 { "" } else { "s" },
                runs,
                if runs == 1 { "" } else { "s" }
            )
        })
    };
    let runs = move || {
        state.session.with(|s| {
            let targets: Vec<(usize, String)> =
                s.runs.iter().enumerate().filter(|(_, r)| r.merge).map(|(i, r)| (i, r.spec.label.clone().unwrap_or_else(|| r.spec.id.clone()))).collect();
            s.runs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let id = r.spec.id.clone();
                    let label = r.spec.label.clone().unwrap_or_else(|| id.clone());
                    let dims: Vec<(String, String)> = r.spec.dimensions.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    let files: Vec<(usize, String, String, u64, usize)> =
                        s.files_of(i).map(|(fi, f)| (fi, f.name.clone(), f.format.clone(), f.records, f.bundle.runs.len())).collect();
                    let targets = targets.clone();
                    let merge = r.merge;
                    let base_id = id.clone();
                    view! {
                        <li class="import-run" data-run=id.clone()>
                            <div class="import-run-head">
                                {if merge {
                                    view! {
                                        <label class="import-name">
                                            <span class="visually-hidden">"Run name"</span>
                                            <input type="text" value=label.clone() data-testid="import-run-name"
                                                on:change=move |ev| { let v = event_target_value(&ev); edit(state, |s| s.rename(i, &v)); }/>
                                        </label>
                                    }.into_any()
                                } else {
                                    view! { <span class="import-name-fixed">{format!("{label} and the other runs of this file")}</span> }.into_any()
                                }}
                                <code class="hint" title="The run id, used in links">{id.clone()}</code>
                                <span class="import-dims">
                                    {dims.into_iter().map(|(k, v)| {
                                        let key = k.clone();
                                        view! {
                                            <span class="chip on">{format!("{k}={v}")}
                                                <button type="button" class="ghost small" aria-label=format!("Remove {k}")
                                                    on:click=move |_| edit(state, |s| { s.set_dimension(i, &key, ""); None })>"×"</button>
                                            </span>
                                        }
                                    }).collect_view()}
                                    {shown(move || merge, move || view! {
                                        <input type="text" class="dim-input" placeholder="release=Poppy" aria-label="Add a dimension (key=value)" data-testid="import-dim"
                                            on:change=move |ev| {
                                                let text = event_target_value(&ev);
                                                match crate::assemble::session::parse_dimension(&text) {
                                                    Some((k, v)) => edit(state, |s| { s.set_dimension(i, &k, &v); None }),
                                                    None => state.notify(NoticeKind::Warning, format!("“{text}” is not a dimension: write key=value, e.g. users=20."), vec![]),
                                                }
                                            }/>
                                    }.into_any())}
                                </span>
                                <button type="button" class="ghost small" data-testid="import-baseline"
                                    title="Compare the other runs against this one"
                                    on:click=move |_| { let id = base_id.clone(); state.url.update(|u| { u.base = Some(id); u.runs.clear(); }); }>"Use as baseline"</button>
                            </div>
                            <ul class="import-files">
                                {files.into_iter().map(|(fi, name, format, records, n_runs)| {
                                    let targets = targets.clone();
                                    view! {
                                        <li>
                                            <span class="import-file">{name}</span>
                                            <span class="hint">{format!(" — {format}{}{}",
                                                if records > 0 { format!(", {}", crate::format::count(records as usize, "record", "records")) } else { String::new() },
                                                if n_runs > 1 { format!(", {n_runs} runs") } else { String::new() })}</span>
                                            {shown(move || n_runs == 1, move || view! {
                                                <label class="import-move">
                                                    <span class="visually-hidden">"Move to run"</span>
                                                    <select data-testid="import-move" on:change=move |ev| {
                                                        let v = event_target_value(&ev);
                                                        let to = if v == "new" { None } else { v.parse::<usize>().ok() };
                                                        let mut refused = None;
                                                        edit(state, |s| { refused = s.move_file(fi, to).err(); None });
                                                        if let Some(why) = refused { state.notify(NoticeKind::Warning, why, vec![]); }
                                                    }>
                                                        {targets.iter().map(|(t, l)| view! { <option value=t.to_string() selected=*t == i>{format!("in {l}")}</option> }).collect_view()}
                                                        <option value="new">"in a new run"</option>
                                                    </select>
                                                </label>
                                            }.into_any())}
                                            <button type="button" class="ghost small" aria-label="Remove this file" title="Remove this file"
                                                on:click=move |_| edit(state, |s| { s.remove_file(fi); None })>"Remove"</button>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        {shown(move || state.session.with(|s| !s.is_empty()), move || view! {
            <section class="import-panel" aria-labelledby="import-h">
                <div class="import-panel-head">
                    <h2 id="import-h">"Imported files"</h2>
                    <span class="hint">{counts}</span>
                    <span class="spacer"></span>
                    <button type="button" class="ghost small" on:click=move |_| open.update(|o| *o = !*o) aria-expanded=move || open.get().to_string()>
                        {move || if open.get() { "Hide" } else { "Show" }}
                    </button>
                </div>
                {shown(move || open.get(), move || view! {
                    <p class="hint">"Files dropped together form one run (two of the same kind, such as two JTLs, are two runs). Move files between runs, name runs and set dimensions; the runs are ordinary runs: compare, export and Save bundle work on them."</p>
                    <ul class="import-runs">{runs}</ul>
                }.into_any())}
            </section>
        }.into_any())}
    }
}
