//! The landing page: drop zone, file picker, paste box and the example gallery.

use crate::ui::components::open_button::OpenButton;
use crate::ui::loader;
use crate::urlstate::View;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[derive(Debug, Clone, PartialEq)]
struct Example {
    file: String,
    title: String,
    description: String,
    /// The view the card opens on (`view`, a URL slug such as "timeline"); the default one if absent.
    view: Option<View>,
}

/// The example list (`examples/index.json`: `[{file, title, description, view?}]`), read with the
/// browser's `fetch` and `JSON.parse` (`browser::json_records`).
async fn example_list() -> Result<Vec<Example>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let failed = |e: wasm_bindgen::JsValue| e.as_string().unwrap_or_else(|| "the request failed".into());
    let resp: web_sys::Response =
        JsFuture::from(window.fetch_with_str("examples/index.json")).await.map_err(failed)?.unchecked_into();
    if !resp.ok() {
        return Err(format!("HTTP {}", resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(failed)?).await.map_err(failed)?.as_string().unwrap_or_default();
    let views = crate::ui::browser::json_records(&text, &["view"])?;
    crate::ui::browser::json_records(&text, &["file", "title", "description"])?
        .into_iter()
        .zip(views)
        .map(|(r, v)| {
            let [file, title, description] = <[String; 3]>::try_from(r?).ok()?;
            let view = v.and_then(|v| View::from_slug(v.first()?));
            Some(Example { file, title, description, view })
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| "an example lacks its file, title or description".to_string())
}

#[component]
pub fn Landing() -> impl IntoView {
    view! {
        <main id="main" class="landing">
            <Hero/>
            <ExampleGallery/>
            <PasteBox/>
        </main>
    }
}

/// The title, what runlens does, and the drop target with the file picker.
#[component]
fn Hero() -> impl IntoView {
    view! {
        <section class="hero">
            <h1>"Compare performance-test runs"</h1>
            <p class="lead">"Drop test results anywhere on this page to see what got better or worse between runs: latency per transaction, CPU and memory per service, search-index sizes and configuration. Nothing leaves your browser."</p>
            <div class="drop-target" data-testid="drop-zone">
                <p><strong>"Drop result files here"</strong>": the output of JMeter, k6, Gatling, Locust, OpenSearch, CloudWatch or docker stats, of any size, or runlens bundles (.json, .json.gz). Several at once join one workspace."</p>
                <OpenButton/>
                {formats()}
            </div>
        </section>
    }
}

/// Every format runlens reads, by the names users know them by (`import::formats`' registry).
fn formats() -> AnyView {
    let items = crate::import::formats::listed()
        .map(|(slug, title)| view! { <li data-format=slug>{title}</li> })
        .collect_view();
    view! {
        <details class="formats">
            <summary>"Every format it reads"</summary>
            <ul data-testid="formats">{items}</ul>
        </details>
    }
    .into_any()
}

/// The examples, each one click away (its URL goes into the link).
#[component]
fn ExampleGallery() -> impl IntoView {
    let examples = RwSignal::new(None::<Result<Vec<Example>, String>>);
    spawn_local(async move {
        examples.set(Some(example_list().await));
    });
    view! {
        <section class="examples" aria-labelledby="examples-h">
            <h2 id="examples-h">"Examples"</h2>
            {move || match examples.get() {
                None => view! { <p class="empty">"Loading the example list…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="empty">{format!("The example list could not be loaded ({e}).")}</p> }.into_any(),
                Some(Ok(list)) => view! {
                    <ul class="gallery">{list.into_iter().map(|example| view! { <ExampleCard example/> }).collect_view()}</ul>
                }.into_any(),
            }}
        </section>
    }
}

#[component]
fn ExampleCard(example: Example) -> impl IntoView {
    let state = crate::ui::use_app_state();
    let Example { file, title, description, view } = example;
    let src = format!("examples/{file}");
    let open = move |_| {
        state.url.update(|u| {
            u.src = vec![src.clone()];
            if let Some(v) = view {
                u.view = v;
            }
        });
        loader::load_urls(state, vec![src.clone()]);
    };
    view! {
        <li>
            <button type="button" class="card" data-example=file on:click=open>
                <span class="card-title">{title}</span>
                <span class="card-text">{description}</span>
            </button>
        </li>
    }
}

/// A text box for a bundle or a tool's output, and Load.
#[component]
fn PasteBox() -> impl IntoView {
    let state = crate::ui::use_app_state();
    let pasted = RwSignal::new(String::new());
    let load_pasted = move |_| {
        let text = pasted.get_untracked();
        loader::load_text(state, text, move |ok| {
            if ok {
                pasted.set(String::new());
            }
        });
    };
    view! {
        <section class="paste" aria-labelledby="paste-h">
            <h2 id="paste-h">"Paste results"</h2>
            <textarea rows="5" placeholder="A runlens bundle, or a tool's output such as JMeter CSV results" data-testid="paste"
                prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            <button type="button" on:click=load_pasted disabled=move || pasted.with(|p| p.trim().is_empty())>"Load pasted text"</button>
            <p class="hint">"The format is documented in docs/bundle-format.md; its JSON Schema is at "<a href="schema/bundle-v1.schema.json">"schema/bundle-v1.schema.json"</a>"."</p>
        </section>
    }
}
