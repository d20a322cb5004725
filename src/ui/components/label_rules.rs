//! The label-rule editor: the rules in force (the bundles', then the link's), a form to add one
//! and a button to remove each of the link's. Every edit goes to the URL (`label=`).

use crate::bundle::{LabelRule, LabelRuleKind};
use crate::model::labels::{describe, problem};
use crate::ui::show::shown;
use crate::urlstate::{label_param, RENAME_ARROW};
use leptos::prelude::*;

const KINDS: [(LabelRuleKind, &str, &str); 4] = [
    (LabelRuleKind::Ids, "ids", "Collapse ids"),
    (LabelRuleKind::Rename, "rename", "Rename"),
    (LabelRuleKind::Include, "include", "Include"),
    (LabelRuleKind::Exclude, "exclude", "Exclude"),
];

fn kind_of(slug: &str) -> LabelRuleKind {
    KINDS.iter().find(|k| k.1 == slug).map_or(LabelRuleKind::Ids, |k| k.0)
}

/// Why `rule` cannot be added, if it cannot.
fn refusal(rule: &LabelRule) -> Option<String> {
    if let Some(why) = problem(rule) {
        return Some(format!("This rule {why}."));
    }
    label_param(rule).is_none().then(|| format!("A rename's pattern cannot hold “{RENAME_ARROW}” (write “=?”)."))
}

#[component]
pub fn LabelRules() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let kind = RwSignal::new("ids".to_string());
    let pattern = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let from_bundles = Memo::new(move |_| state.workspace.with(|w| w.label_rules()));
    let from_link = Memo::new(move |_| state.url.with(|u| u.labels.clone()));
    let names = |runs: &[std::sync::Arc<crate::bundle::Run>]| {
        let n: rustc_hash::FxHashSet<&str> =
            runs.iter().flat_map(|r| r.transactions.iter().map(|t| t.name.as_str())).collect();
        n.len()
    };
    let before = move || {
        let ids = state.selected.get();
        state.workspace.with(|w| names(&ids.iter().filter_map(|id| w.shared(id).cloned()).collect::<Vec<_>>()))
    };
    let after = move || state.runs.with(|r| names(r));
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let k = kind_of(&kind.get_untracked());
        let rule = LabelRule {
            kind: k,
            pattern: pattern.get_untracked().trim().to_string(),
            to: (k == LabelRuleKind::Rename).then(|| to.get_untracked().trim().to_string()),
        };
        match refusal(&rule) {
            Some(why) => error.set(Some(why)),
            None => {
                error.set(None);
                state.url.update(|u| u.labels.push(rule));
                pattern.set(String::new());
                to.set(String::new());
            }
        }
    };
    let remove = move |i: usize| {
        state.url.update(|u| {
            if i < u.labels.len() {
                u.labels.remove(i);
            }
        })
    };
    view! {
        <section class="label-rules" data-testid="label-rules">
            <h3>"Label rules"</h3>
            <p class="hint">"Transaction labels are mapped by these rules, in order, before runs are compared; labels that end up equal are merged. "
                {move || format!("The selected runs have {} before the rules, {} after.", crate::format::count(before(), "label", "labels"), after())}</p>
            <ol class="rule-list">
                {move || from_bundles.get().into_iter().map(|r| view! {
                    <li><span>{describe(&r)}</span>" "<span class="hint">"(from the bundle)"</span></li>
                }).collect_view()}
                {move || from_link.get().into_iter().enumerate().map(|(i, r)| view! {
                    <li data-testid="label-rule"><span>{describe(&r)}</span>" "
                        <button type="button" class="ghost" title="Remove this rule" on:click=move |_| remove(i)>"Remove"</button></li>
                }).collect_view()}
            </ol>
            <form class="controls" on:submit=add data-testid="label-rule-form">
                <label>"Kind "
                    <select prop:value=move || kind.get() on:change=move |ev| kind.set(event_target_value(&ev))>
                        {KINDS.iter().map(|(_, slug, title)| view! { <option value=*slug>{*title}</option> }).collect_view()}
                    </select>
                </label>
                <label class="grow">"Pattern "
                    <input type="text" placeholder=move || if kind.get() == "ids" { "every label (or a glob)" } else { "glob: * and ?" }
                        prop:value=move || pattern.get() on:input=move |ev| pattern.set(event_target_value(&ev))/>
                </label>
                {shown(move || kind.get() == "rename", move || view! {
                    <label class="grow">"New name "
                        <input type="text" prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev))/>
                    </label>
                }.into_any())}
                <button type="submit">"Add rule"</button>
            </form>
            {move || error.get().map(|e| view! { <p class="hint error" role="alert">{e}</p> })}
        </section>
    }
}
