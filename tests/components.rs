#![cfg(target_arch = "wasm32")]
//! Component tests in headless Chromium: the table renderer (caption, scopes, deltas, sorting,
//! paging) and the chart wrapper's contract with Plotly.js.

use leptos::prelude::*;
use runlens::analysis::{self, Verdict};
use runlens::bundle::{Run, Transaction};
use runlens::tables::{latency_table, RowFilter, Table};
use runlens::ui::components::{
    chart::{text, Chart, Figure, Trace},
    table_view::TableView,
};
use runlens::urlstate::UrlState;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn host() -> web_sys::HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    div.dyn_into().unwrap()
}

async fn tick() {
    gloo_timers::future::TimeoutFuture::new(20).await;
}

fn texts(root: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default()).collect()
}

fn latency_fixture(n: usize) -> Table {
    let run = |id: &str, scale: f64| Run {
        id: id.into(),
        label: id.to_uppercase(),
        transactions: (0..n)
            .map(|i| Transaction {
                name: format!("tx{i:04}"),
                samples: Some(100),
                p95_ms: Some((n - i) as f64 * 10.0 * scale),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let (a, b) = (run("a", 1.0), run("b", 1.2));
    let rows = analysis::compare(&[&a, &b], &Default::default());
    latency_table(&rows, &["A".into(), "B".into()], &RowFilter::default())
}

#[wasm_bindgen_test]
async fn table_renders_caption_scopes_and_coloured_deltas() {
    let root = host();
    let table = latency_fixture(3);
    let _h = leptos::mount::mount_to(root.clone(), move || {
        runlens::ui::provide_app_state(UrlState::default(), false);
        view! { <TableView table=Signal::derive(move || table.clone()) group_rows=true/> }
    });
    tick().await;
    assert_eq!(texts(&root, "caption"), vec!["Latency per transaction"]);
    assert_eq!(root.query_selector_all("thead th[scope=col]").unwrap().length(), 12);
    assert_eq!(root.query_selector_all("tbody th[scope=row]").unwrap().length(), 6);
    let worse = texts(&root, "tbody .delta.v-worse.up");
    assert_eq!(worse.len(), 3, "every p95 of B is 20 % slower, an upward change: {worse:?}");
    assert!(worse.iter().all(|t| t == "+20.0%"), "{worse:?}");
    let title =
        root.query_selector("tbody .delta.v-worse").unwrap().unwrap().get_attribute("title").unwrap_or_default();
    assert!(title.starts_with("+20.0% is beyond the 5% latency threshold"), "the reason on hover: {title}");
    // Follow-up rows of a group blank the transaction name.
    assert_eq!(texts(&root, "tbody tr.follow th"), vec!["", "", ""]);
    assert_eq!(Verdict::Regressed.label(), "regressed");
}

#[wasm_bindgen_test]
async fn clicking_a_header_sorts_and_paging_limits_rows() {
    let root = host();
    let table = latency_fixture(120);
    let _h = leptos::mount::mount_to(root.clone(), move || {
        runlens::ui::provide_app_state(UrlState::default(), false);
        view! { <TableView table=Signal::derive(move || table.clone()) page_size=50 group_rows=true/> }
    });
    tick().await;
    assert_eq!(root.query_selector_all("tbody tr").unwrap().length(), 50);
    assert!(texts(&root, ".pager span")[0].contains("of 240"));
    let first = || texts(&root, "tbody tr:first-child th")[0].clone();
    assert_eq!(first(), "tx0000");
    // p95 is column 7 (transaction, run, samples, errors, mean, median, p90, p95).
    let p95: web_sys::HtmlElement =
        root.query_selector("thead th:nth-child(8) button").unwrap().unwrap().dyn_into().unwrap();
    let aria = || root.query_selector("thead th:nth-child(8)").unwrap().unwrap().get_attribute("aria-sort");
    assert_eq!(aria().as_deref(), Some("none"));
    p95.click();
    tick().await;
    assert_eq!(aria().as_deref(), Some("descending"), "numbers sort largest first on the first click");
    assert_eq!(first(), "tx0000");
    p95.click();
    tick().await;
    assert_eq!(aria().as_deref(), Some("ascending"));
    assert_eq!(first(), "tx0119", "ascending p95 puts the fastest first");
    let next: web_sys::HtmlElement =
        root.query_selector(".pager button:last-child").unwrap().unwrap().dyn_into().unwrap();
    next.click();
    tick().await;
    let pager = texts(&root, ".pager span")[0].clone();
    assert!(pager.starts_with("Rows 51–100"), "{pager}");
    assert_eq!(first(), "tx0094", "page 2 of the ascending order");
}

#[wasm_bindgen_test]
fn the_marker_symbols_are_plotly_crate_names() {
    use plotly::common::MarkerSymbol;
    use runlens::ui::components::chart::symbol;
    let name = |m: MarkerSymbol| serde_json::to_value(m).unwrap();
    assert_eq!(name(MarkerSymbol::Circle), symbol::CIRCLE);
    assert_eq!(name(MarkerSymbol::CircleOpen), symbol::CIRCLE_OPEN);
    assert_eq!(name(MarkerSymbol::Diamond), symbol::DIAMOND);
}

#[wasm_bindgen_test]
fn a_figure_reaches_plotly_as_json_parse_would_make_it_from_its_text() {
    use runlens::ui::components::chart::{js_figure, js_object, Attr, Attrs};
    let stringify = |v: &wasm_bindgen::JsValue| js_sys::JSON::stringify(v).unwrap().as_string().unwrap();
    let serde_json::Value::Object(m) = serde_json::json!({
        "type": "bar", "x": ["a", "<b>b</b>", "\u{2212}"], "y": [1, null, 0.1, -2.5e-7, 1e300, 9007199254740993u64],
        "marker": {"color": ["#fff"]}, "visible": true, "none": null, "nested": [[1, [2]], {}],
        "__proto__": {"polluted": 1},
    }) else {
        unreachable!()
    };
    let built = js_object(&m);
    let parsed = js_sys::JSON::parse(&serde_json::to_string(&m).unwrap()).unwrap();
    assert_eq!(stringify(&built), stringify(&parsed));
    // `__proto__` is a key of the object, as JSON.parse makes it, not its prototype.
    let own = js_sys::Object::get_own_property_names(&built);
    assert!(own.includes(&"__proto__".into(), 0), "{:?}", own);
    assert!(js_sys::Reflect::get(&built, &"polluted".into()).unwrap().is_undefined());
    // A whole figure: data, layout and configuration.
    let mut f = Figure::new();
    f.add_trace(Trace::bar().with("x", vec![text("a"), text("<b>b</b>")]).with("y", vec![Some(1.0), None]));
    f.set_layout(Attrs::default().with("title", Attr::obj([("text", "t".into())])));
    let (built, whole) = (js_figure(&f), f.to_value());
    for key in ["data", "layout", "config"] {
        let part = js_sys::Reflect::get(&built, &key.into()).unwrap();
        let parsed = js_sys::JSON::parse(&whole[key].to_string()).unwrap();
        assert_eq!(stringify(&part), stringify(&parsed), "{key}");
    }
}

#[wasm_bindgen_test]
fn numbers_are_written_in_the_browser_as_rust_writes_them() {
    runlens::js_platform::install();
    use runlens::decimal::{fixed, shortest};
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let special = [
        0.0,
        -0.0,
        0.1,
        0.3,
        1e21,
        1.5e21,
        1e-7,
        1.5e-7,
        123456789.125,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        2.5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let random = (0..20_000).map(|i| {
        if i % 2 == 0 {
            f64::from_bits(next())
        } else {
            (next() % 10_000_000) as f64 / 1000.0 - 5000.0
        }
    });
    let mut ties = 0;
    for v in special.into_iter().chain(random) {
        // The shortest text that reads back: Rust's, but for a number exactly halfway between two
        // such texts (1690060720831323.25), where JavaScript picks the even digit and Rust the other.
        let (text, rust) = (shortest(v), format!("{v}"));
        if text != rust {
            assert_eq!(text.len(), rust.len(), "{v:e}: {text} against {rust}");
            assert_eq!(text.parse::<f64>().map(f64::to_bits), Ok(v.to_bits()), "{v:e}: {text} reads back");
            assert!(text.ends_with(['0', '2', '4', '6', '8']), "{v:e}: {text} is the even one");
            ties += 1;
        }
        assert_eq!(fixed(v, 1), format!("{v:.1}"), "{v:e}");
    }
    assert!(ties < 20, "{ties} ties in 20,000 numbers");
}

#[wasm_bindgen_test]
fn link_data_is_decoded_by_the_browser_as_by_the_base64_crate() {
    use base64::Engine;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    for len in [0usize, 1, 2, 3, 4, 5, 255, 256, 1000] {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
        let text = engine.encode(&bytes);
        assert_eq!(runlens::ui::browser::base64url_bytes(&text), Some(bytes), "{len} bytes");
    }
    for bad in ["a", "ab*c", "ab cd", "abcde", "€€€€"] {
        assert_eq!(runlens::ui::browser::base64url_bytes(bad), None, "{bad}");
    }
}

#[wasm_bindgen_test]
fn the_panic_screen_shows_the_message_as_text_with_a_reload_link() {
    runlens::ui::panic::show("panicked at <b>src/x.rs</b>: boom");
    let doc = web_sys::window().unwrap().document().unwrap();
    let panel = doc.get_element_by_id("panic").expect("a panic panel");
    assert_eq!(panel.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(
        panel.query_selector("pre").unwrap().unwrap().text_content().as_deref(),
        Some("panicked at <b>src/x.rs</b>: boom")
    );
    assert!(panel.query_selector("b").unwrap().is_none(), "the message is text, not HTML");
    assert_eq!(panel.query_selector("a").unwrap().unwrap().text_content().as_deref(), Some("Reload the page"));
}

#[wasm_bindgen_test]
async fn chart_hands_the_figure_to_plotly_and_follows_its_signal() {
    // A stand-in for Plotly.js that records what it is given.
    js_sys::Function::new_no_args(
        "window.__plots = []; window.Plotly = { react: (id, fig) => { window.__plots.push([id, fig]); return Promise.resolve(); } };",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap();
    let root = host();
    let name = RwSignal::new("first".to_string());
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Chart figure=move || {
                let mut f = Figure::new();
                f.add_trace(
                    Trace::bar()
                        .with("x", vec![text("a"), text("b")])
                        .with("y", vec![1.0, 2.0])
                        .with("name", text(&name.get())),
                );
                f
            } label="test chart"/>
        }
    });
    tick().await;
    let recorded =
        || js_sys::Reflect::get(&js_sys::global(), &"__plots".into()).unwrap().dyn_into::<js_sys::Array>().unwrap();
    assert_eq!(recorded().length(), 1);
    let div = root.query_selector(".chart").unwrap().unwrap();
    assert_eq!(div.get_attribute("role").as_deref(), Some("img"));
    assert_eq!(div.get_attribute("aria-label").as_deref(), Some("test chart"));
    let call = recorded().get(0).dyn_into::<js_sys::Array>().unwrap();
    assert_eq!(call.get(0).as_string(), Some(div.id()));
    let trace_name = |call: &js_sys::Array| {
        let fig = call.get(1);
        let data = js_sys::Reflect::get(&fig, &"data".into()).unwrap().dyn_into::<js_sys::Array>().unwrap();
        js_sys::Reflect::get(&data.get(0), &"name".into()).unwrap().as_string()
    };
    assert_eq!(trace_name(&call).as_deref(), Some("first"));
    name.set("second".into());
    tick().await;
    assert_eq!(recorded().length(), 2, "a changed signal redraws");
    assert_eq!(trace_name(&recorded().get(1).dyn_into().unwrap()).as_deref(), Some("second"));
}

#[wasm_bindgen_test]
fn a_downloaded_body_reads_the_same_from_its_chunks_at_every_offset() {
    use runlens::import::common::parallel::RangeSource;
    use runlens::worker::chunk_source::ChunkSource;
    use std::io::Read;
    let body: Vec<u8> = (0..700u32).map(|i| (i * 7 % 251) as u8).collect();
    // Chunks of uneven sizes, with empty ones between, at the start and at the end.
    let mut chunks = vec![js_sys::Uint8Array::new_with_length(0)];
    let mut at = 0;
    for (k, len) in [1usize, 0, 63, 200, 0, 5, 300, 131].into_iter().enumerate() {
        chunks.push(js_sys::Uint8Array::from(&body[at..at + len]));
        at += len;
        if k == 3 {
            chunks.push(js_sys::Uint8Array::new_with_length(0));
        }
    }
    assert_eq!(at, body.len());
    let src = ChunkSource::new(chunks);
    assert_eq!(src.size(), 700);
    for offset in 0..=710u64 {
        for len in [0usize, 1, 64, 250, 800] {
            let got = src.read_at(offset, len).unwrap();
            let from = (offset as usize).min(body.len());
            assert_eq!(got, &body[from..(from + len).min(body.len())], "read_at({offset}, {len})");
        }
    }
    for buf_len in [1usize, 7, 64, 1000] {
        let mut reader = src.reader_from(3).unwrap();
        let (mut out, mut buf) = (Vec::new(), vec![0; buf_len]);
        loop {
            let n = reader.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        assert_eq!(out, &body[3..], "reading with a {buf_len}-byte buffer");
    }
}

/// The page–worker messages (`runlens::protocol`): each comes back from its JS object as it was
/// sent, posting it transfers (detaches) exactly its byte arrays, and a message with a field
/// missing is an error that names the message, the field and the job.
mod protocol {
    use js_sys::{Array, Reflect, Uint8Array};
    use runlens::protocol::{FromWriter, LoadedGroup, RangeBytes, ToPage, ToWorker, ToWriter, Written};
    use wasm_bindgen::JsValue;
    use wasm_bindgen_test::*;

    fn bytes(b: &[u8]) -> Uint8Array {
        Uint8Array::from(b)
    }

    fn blob() -> web_sys::Blob {
        web_sys::Blob::new_with_str_sequence(&Array::of1(&"x".into())).unwrap()
    }

    fn file() -> RangeBytes {
        RangeBytes::Blob(blob())
    }

    /// `n` ports, as a download's ranges get their bytes on.
    fn ports(n: usize) -> RangeBytes {
        RangeBytes::Ports((0..n).map(|_| web_sys::MessageChannel::new().unwrap().port2()).collect())
    }

    /// Posts `message` with `transfer` on a channel (as a worker or the page would).
    fn post(message: &js_sys::Object, transfer: &Array) {
        let channel = web_sys::MessageChannel::new().unwrap();
        channel.port1().post_message_with_transferable(message, transfer).unwrap();
    }

    #[wasm_bindgen_test]
    fn messages_to_a_worker_come_back_as_sent() {
        let messages = vec![
            ToWorker::Import { job: 1, name: "a.jtl".into(), blob: blob(), workers: 3 },
            ToWorker::Fetch { job: 2, name: "b.json".into(), url: "https://example.com/b.json".into(), workers: 1 },
            ToWorker::Range { job: 3, name: "c.jtl".into(), bytes: file(), plan: bytes(&[1, 2]), index: 2 },
            ToWorker::Range { job: 3, name: "c.jtl".into(), bytes: ports(1), plan: bytes(&[1, 2]), index: 1 },
            ToWorker::Part { job: 4, index: 1, data: bytes(&[3]), failed: None },
            ToWorker::Part { job: 4, index: 2, data: bytes(&[]), failed: Some("bad line".into()) },
            ToWorker::Runs { job: 5, index: 1, first: 7, data: bytes(b"[]") },
            ToWorker::RunsDone { job: 5, index: 1, ids: Some(vec!["r1".into(), "r2".into()]) },
            ToWorker::RunsDone { job: 5, index: 2, ids: None },
            ToWorker::Warm,
        ];
        for m in messages {
            let back = ToWorker::from_js(&m.to_js().into()).unwrap();
            assert_eq!(format!("{back:?}"), format!("{m:?}"));
            // Byte arrays and a range's port are transferred.
            let transferred = matches!(
                m,
                ToWorker::Part { .. } | ToWorker::Runs { .. } | ToWorker::Range { bytes: RangeBytes::Ports(_), .. }
            );
            assert_eq!(m.transfer().length(), u32::from(transferred), "{m:?}");
        }
        // The plan is copied to each worker, never transferred.
        let plan = bytes(&[1, 2, 3]);
        let range = ToWorker::Range { job: 3, name: "c.jtl".into(), bytes: file(), plan: plan.clone(), index: 1 };
        post(&range.to_js(), &range.transfer());
        assert_eq!(plan.length(), 3);
    }

    #[wasm_bindgen_test]
    fn messages_to_the_page_come_back_as_sent_and_transfer_their_arrays() {
        let (head, run) = (bytes(&[1, 2, 3]), bytes(&[4, 5]));
        let done = ToPage::Done {
            job: 9,
            data: head.clone(),
            runs: vec![run.clone()],
            ms: Some(12.5),
            read_ms: None,
            later: Some(2),
        };
        let messages = vec![
            ToPage::Ready { build: "b1".into() },
            ToPage::Memory { bytes: 5 << 30 },
            ToPage::Progress { job: 1, bytes: 5_000_000_000, records: 7 },
            ToPage::Plan { job: 1, data: bytes(&[1]), ranges: 3, bytes: file() },
            ToPage::Plan { job: 1, data: bytes(&[1]), ranges: 3, bytes: ports(2) },
            ToPage::Part { job: 1, index: 2, data: bytes(&[]), failed: Some("why".into()) },
            ToPage::Big { job: 1, bundle: true, bytes: 1 << 33 },
            ToPage::BundleParts {
                job: 1,
                parts: vec![bytes(b"[]"), bytes(b"[1]")],
                firsts: vec![3, 8],
                from: 1,
                last: false,
            },
            ToPage::RunsDone {
                job: 1,
                index: 1,
                group: Some(LoadedGroup { first: 3, ids: vec!["a".into()], runs: vec![bytes(&[9])] }),
            },
            ToPage::RunsDone { job: 1, index: 2, group: None },
            ToPage::Error { job: 1, message: "It failed.".into() },
            done.clone(),
        ];
        for m in &messages {
            let back = ToPage::from_js(&m.to_js().into()).unwrap();
            assert_eq!(format!("{back:?}"), format!("{m:?}"));
            assert_eq!(back.job(), m.job());
        }
        let counts: Vec<u32> = messages.iter().map(|m| m.transfer().length()).collect();
        assert_eq!(counts, [0, 0, 0, 1, 3, 1, 0, 2, 1, 0, 0, 2]);
        post(&done.to_js(), &done.transfer());
        assert_eq!((head.length(), run.length()), (0, 0), "the answer's arrays are transferred, not copied");
    }

    #[wasm_bindgen_test]
    fn the_writers_messages_come_back_as_sent() {
        let data = bytes(&[1, 2]);
        let write = ToWriter::Write { job: 4, data: data.clone() };
        assert_eq!(format!("{:?}", ToWriter::from_js(&write.to_js().into()).unwrap()), format!("{write:?}"));
        post(&write.to_js(), &write.transfer());
        assert_eq!(data.length(), 0, "the request is transferred");
        let answers = vec![
            FromWriter::Ready { build: "b1".into() },
            FromWriter::Memory { bytes: 50 << 20 },
            FromWriter::Written { job: 1, answer: Written::Json(vec![bytes(b"{}"), bytes(b"[]")]) },
            FromWriter::Written {
                job: 2,
                answer: Written::Merged { data: bytes(&[1]), runs: vec![bytes(&[2])], json: vec![bytes(b"{}")] },
            },
            FromWriter::Written { job: 3, answer: Written::Fragment("bundle=abc".into()) },
            FromWriter::Written { job: 3, answer: Written::Fragment(String::new()) },
            FromWriter::Written { job: 4, answer: Written::Size(3_000_000) },
            FromWriter::Error { job: 5, message: "The writer worker stopped.".into() },
        ];
        for m in &answers {
            let back = FromWriter::from_js(&m.to_js().into()).unwrap();
            assert_eq!(format!("{back:?}"), format!("{m:?}"));
        }
        let counts: Vec<u32> = answers.iter().map(|m| m.transfer().length()).collect();
        assert_eq!(counts, [0, 0, 2, 3, 0, 0, 0, 0]);
    }

    #[wasm_bindgen_test]
    fn a_message_that_does_not_read_is_an_error_naming_its_field() {
        let range = ToWorker::Range { job: 3, name: "c.jtl".into(), bytes: file(), plan: bytes(&[1]), index: 1 };
        let o = range.to_js();
        Reflect::delete_property(&o, &"plan".into()).unwrap();
        let e = ToWorker::from_js(&o.into()).unwrap_err();
        assert_eq!(e.job(), Some(3));
        assert!(!e.is_unknown_kind());
        assert_eq!(e.to_string(), "a \"range\" message without its plan (a Uint8Array)");
        // Bytes neither of a file nor on ports.
        let o = range.to_js();
        Reflect::delete_property(&o, &"blob".into()).unwrap();
        let e = ToWorker::from_js(&o.into()).unwrap_err();
        assert_eq!(e.to_string(), "a \"range\" message without its ports (a Blob or an array of MessagePorts)");
        let o = ToPage::Progress { job: 2, bytes: 1, records: 1 }.to_js();
        Reflect::set(&o, &"records".into(), &"many".into()).unwrap();
        assert_eq!(
            ToPage::from_js(&o.into()).unwrap_err().to_string(),
            "a \"progress\" message whose records is not a number"
        );
        // Another side's message, or none at all: of no kind this side takes.
        assert!(ToWorker::from_js(&ToPage::Ready { build: "b".into() }.to_js().into()).unwrap_err().is_unknown_kind());
        assert!(ToPage::from_js(&JsValue::UNDEFINED).unwrap_err().is_unknown_kind());
        assert!(FromWriter::from_js(&JsValue::from_str("written")).unwrap_err().is_unknown_kind());
    }
}
