//! Hostile and broken input, end to end: a bundle whose every string is markup or script, opened
//! in every view including the charts (Trends and the report page's charts and exports too); bad
//! files after a good one; a sandboxed embed.

use crate::harness::{drop_bytes, drop_file, env, eval_until, site, urlencode, wait_text, with_browser};
use fantoccini::{Client, Locator};
use serde_json::json;

/// Markup that would run or style something if any of it were treated as HTML (by the DOM or by
/// Plotly's own HTML subset). Each script sets the sentinel `window.__pwned`.
const SCRIPT: &str = "<script>window.__pwned=1</script>";
const IMG: &str = "<img src=x onerror=\"window.__pwned=2\">";
const LINK: &str = "<a href=\"?src=https://elsewhere.example/x.json\">click</a>";
const SHORT_LINK: &str = "<a href=\"?src=//e.example/x\">go</a>";
const BIG: &str = "<span style=\"font-size:60px\">BIG</span>";
const JS_URL: &str = "javascript:window.__pwned=3";

fn hostile_bundle() -> serde_json::Value {
    let tx = |name: &str, p95: f64| json!({"name": name, "samples": 100, "median_ms": p95 / 2.0, "p95_ms": p95, "p99_ms": p95 * 1.5});
    let run = |id: &str, label: &str, f: f64| {
        json!({
            "id": id, "label": label,
            "notes": [SCRIPT, IMG],
            "dimensions": {"users": BIG},
            "transactions": [tx(SHORT_LINK, 120.0 * f), tx(BIG, 80.0 * f), tx(SCRIPT, 60.0 * f), tx(IMG, 40.0 * f)],
            "resources": [
                {"service": LINK, "metric": "cpu", "unit": "percent", "average": 40.0 * f, "peak": 90.0 * f,
                 "series": {"t_s": [0, 60, 120], "values": [10.0 * f, 50.0, 40.0]}},
                {"service": BIG, "metric": "cpu", "unit": "percent", "average": 30.0 * f}
            ],
            "indices": [{"index": IMG, "store_size": 1_000_000_000u64}, {"index": LINK, "store_size": 2_000_000_000u64}],
            "kpis": [{"name": SCRIPT, "value": 100.0 * f, "unit": "s"}],
            "errors": [{"message": IMG, "count": 3, "services": [LINK]}],
            "modules": [{"module": BIG, "cpu_units": (1024.0 * f) as u32, "settings": {SCRIPT: LINK}}],
            "timeline": {
                "start_ms": 1_700_000_000_000u64, "origin_ms": 1_700_000_000_000u64, "interval_s": 60, "buckets": 2,
                "users": [1, 2],
                "transactions": [
                    {"name": IMG, "samples": [5, 5], "errors": [1, 0], "sum_ms": [200.0 * f, 250.0 * f],
                     "values_ms": [40.0 * f, 60.0 * f], "exact": true, "cells": [[0, 5], [0, 4, 1, 1]]},
                    {"name": SHORT_LINK, "samples": [3, 0], "errors": [0, 0], "sum_ms": [300.0, 0.0],
                     "values_ms": [100.0], "exact": true, "cells": [[0, 3], []]}
                ],
                "causes": [{"transaction": IMG, "code": BIG, "message": LINK, "counts": [0, 1]}]
            }
        })
    };
    json!({
        "format": "runlens-bundle", "version": 1,
        "report": {
            "title": SCRIPT, "purpose": IMG, "summary": [LINK, BIG], "notes": [SCRIPT],
            "links": [{"label": "evil", "url": JS_URL}, {"label": LINK, "url": "https://example.test/ok"}],
            "tickets": [{"id": "T-1", "url": JS_URL, "title": BIG}]
        },
        "runs": [run("a", BIG, 1.0), run("b", LINK, 1.2), run("c", SCRIPT, 0.9)],
        "comparisons": [{"baseline": "a", "candidates": ["b", "c"]}]
    })
}

/// Nothing from the bundle ran or became an element: the sentinel is unset, no image, frame or
/// script is in the page, no link points where the bundle said, no chart SVG holds a link or a
/// styled span, and nothing is 60px large.
async fn assert_inert(c: &Client, view: &str) {
    let found = c
        .execute(
            "return {
               pwned: window.__pwned === undefined ? null : window.__pwned,
               elements: document.querySelectorAll('main img, main script, main iframe, main object, main [onerror]').length,
               links: [...document.querySelectorAll('a')].map(a => a.getAttribute('href')).filter(h => /elsewhere|e\\.example|javascript:/i.test(h || '')),
               svgLinks: document.querySelectorAll('.chart svg a').length,
               styled: [...document.querySelectorAll('main *')].filter(e => /font-size:\\s*60px/.test(e.getAttribute('style') || '') || getComputedStyle(e).fontSize === '60px').map(e => e.outerHTML.slice(0, 200))
             }",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        found,
        json!({"pwned": null, "elements": 0, "links": [], "svgLinks": 0, "styled": []}),
        "in the {view} view"
    );
}

/// The texts of the elements matching `css`.
async fn texts(c: &Client, css: &str) -> Vec<String> {
    let v = c
        .execute("return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", vec![json!(css)])
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

async fn open_view(c: &Client, slug: &str) {
    c.find(Locator::Css(&format!("[data-view='{slug}']"))).await.unwrap().click().await.unwrap();
    wait_text(c, &format!("main.view[data-view='{slug}']"), "").await;
}

async fn wait_chart(c: &Client) {
    eval_until(c, "return !!(window.Plotly && document.querySelector('.chart .main-svg .legendtext'))").await;
}

#[tokio::test]
async fn a_hostile_bundle_runs_nothing_and_shows_its_text_literally() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_file(&c, "hostile.json", &hostile_bundle().to_string()).await;
        // Overview: the title, purpose, lists and links as text; the javascript: URL is no link.
        let h1 = wait_text(&c, ".report h1", "window.__pwned").await;
        assert_eq!(h1, SCRIPT);
        assert_eq!(texts(&c, ".report .purpose").await, [IMG]);
        assert!(texts(&c, ".report li").await.iter().any(|t| t == LINK));
        let links = c.find_all(Locator::Css(".report a")).await.unwrap();
        let mut hrefs = Vec::new();
        for a in links {
            hrefs.push(a.attr("href").await.unwrap().unwrap_or_default());
        }
        assert_eq!(hrefs, ["https://example.test/ok"], "only the https link became an anchor");
        assert!(texts(&c, ".run-picker option").await.contains(&BIG.to_string()), "run labels as text in the picker");
        assert!(texts(&c, ".errors code").await.contains(&IMG.to_string()));
        assert_inert(&c, "overview").await;

        for view in ["compare", "config"] {
            open_view(&c, view).await;
            wait_text(&c, "table", "<").await;
            assert_inert(&c, view).await;
        }
        let config = texts(&c, "table[data-table='config-modules'] th").await;
        assert!(config.iter().any(|t| t == BIG), "{config:?}");

        // Charts: legends, ticks and hover labels show the text literally, as SVG text.
        open_view(&c, "latency").await;
        wait_chart(&c).await;
        let legend = texts(&c, ".chart .legendtext").await;
        assert!(legend.contains(&BIG.to_string()) && legend.contains(&LINK.to_string()) && legend.contains(&SCRIPT.to_string()), "{legend:?}");
        let ticks = texts(&c, ".chart .ytick text").await;
        for name in [SHORT_LINK, BIG, SCRIPT, IMG] {
            assert!(ticks.contains(&name.to_string()), "{name} on the axis: {ticks:?}");
        }
        c.execute(
            "const gd = document.querySelector('.chart .js-plotly-plot') || document.querySelector('.chart');
             Plotly.Fx.hover(gd, [{curveNumber: 0, pointNumber: 3}]);",
            vec![],
        )
        .await
        .unwrap();
        let hover = eval_until(&c, "const t = [...document.querySelectorAll('.hoverlayer text')].map(e => e.textContent).join(' | '); return t.length > 0 && t").await;
        assert!(hover.as_str().unwrap().contains(BIG) || hover.as_str().unwrap().contains(SHORT_LINK), "hover text literal: {hover}");
        assert_eq!(c.execute("return document.querySelectorAll('.hoverlayer a, .hoverlayer [style*=\"font-size:60px\"]').length", vec![]).await.unwrap(), json!(0));
        assert_inert(&c, "latency").await;

        open_view(&c, "resources").await;
        wait_chart(&c).await;
        eval_until(&c, "return document.querySelectorAll('.chart .main-svg').length >= 4").await;
        let legend = texts(&c, ".chart .legendtext").await;
        assert!(legend.iter().any(|t| t.starts_with(BIG) || t.starts_with(LINK)), "{legend:?}");
        let ticks = texts(&c, ".chart .xtick text").await;
        assert!(ticks.iter().any(|t| t.starts_with(LINK)), "{ticks:?}");
        assert_inert(&c, "resources").await;

        open_view(&c, "indices").await;
        wait_chart(&c).await;
        let legend = texts(&c, ".chart .legendtext").await;
        assert!(legend.contains(&IMG.to_string()) && legend.contains(&LINK.to_string()), "{legend:?}");
        let ticks = texts(&c, ".chart .xtick text").await;
        assert!(ticks.contains(&SCRIPT.to_string()), "{ticks:?}");
        assert_inert(&c, "indices").await;

        // Trends: run labels are the categories and the hover text of every point.
        open_view(&c, "trends").await;
        wait_chart(&c).await;
        let ticks = texts(&c, ".chart .xtick text").await;
        for label in [BIG, LINK, SCRIPT] {
            assert!(ticks.iter().any(|t| t == label), "{label} on the axis: {ticks:?}");
        }
        c.execute(
            "const gd = document.querySelector('.chart.js-plotly-plot, .chart .js-plotly-plot');
             const t = gd.data.findIndex(d => d.hovertext);
             Plotly.Fx.hover(gd, [{curveNumber: t, pointNumber: 0}]);",
            vec![],
        )
        .await
        .unwrap();
        let hover = eval_until(&c, "const t = [...document.querySelectorAll('.hoverlayer text')].map(e => e.textContent).join(' | '); return t.length > 0 && t").await;
        let hover = hover.as_str().unwrap();
        assert!([BIG, LINK, SCRIPT].iter().any(|l| hover.contains(l)), "hover text literal: {hover}");
        assert_eq!(c.execute("return document.querySelectorAll('.hoverlayer a, .hoverlayer [style*=\"font-size:60px\"]').length", vec![]).await.unwrap(), json!(0));
        assert_inert(&c, "trends").await;

        // Timeline: transaction names in the picker, run labels in the legend and the error
        // cause in the key under the chart, all as text.
        open_view(&c, "timeline").await;
        wait_chart(&c).await;
        let legend = texts(&c, ".chart .legendtext").await;
        assert!(legend.contains(&BIG.to_string()) && legend.contains(&SCRIPT.to_string()), "{legend:?}");
        assert!(texts(&c, ".timeline-controls option").await.contains(&IMG.to_string()));
        assert_eq!(texts(&c, ".cause-key li").await, [format!("{BIG} · {LINK}")]);
        assert_inert(&c, "timeline").await;

        report_exports_are_inert(&c).await;
    })
    .await;
}

/// The raw markup of the hostile bundle (not the exports' own `<img>` of a chart), none of which
/// may reach a chart or an export as markup.
const RAW: [&str; 4] = ["<script", "<img src=x", "<a href=\"?src", "<span style"];

/// Every string in `v` (keys included).
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

/// The report page's exports (Markdown, Confluence, HTML) and the figures of its charts
/// (recorded from `Plotly.toImage`): the hostile text is in them, encoded, never as markup.
async fn report_exports_are_inert(c: &Client) {
    open_view(c, "overview").await;
    wait_text(c, ".report-export", "Report page").await;
    // Each download's text by its file name (Plotly.js makes blob URLs of its own while it draws
    // the charts as images, so blobs are matched by the link's href).
    c.execute(
        "window.__blobs = {}; window.__figs = []; window.__downloads = []; window.__texts = {};
         const create = URL.createObjectURL;
         URL.createObjectURL = (b) => { const u = create.call(URL, b); window.__blobs[u] = b; return u; };
         HTMLAnchorElement.prototype.click = function () {
           const name = this.getAttribute('download'), blob = window.__blobs[this.getAttribute('href')];
           window.__downloads.push(name);
           if (blob) blob.text().then(t => { window.__texts[name] = t; });
         };",
        vec![],
    )
    .await
    .unwrap();
    // Plotly.js loads with the first chart; the overview has none, so wait for it here.
    eval_until(c, "return !!window.Plotly").await;
    c.execute(
        "const toImage = Plotly.toImage;
         Plotly.toImage = (fig, opts) => { window.__figs.push(JSON.parse(JSON.stringify(fig))); return toImage.call(Plotly, fig, opts); };",
        vec![],
    )
    .await
    .unwrap();
    for (button, file) in [
        ("report-md", "runlens-report.md"),
        ("report-confluence", "runlens-report-confluence.txt"),
        ("report-html", "runlens-report.html"),
    ] {
        c.find(Locator::Css(&format!("[data-testid='{button}']"))).await.unwrap().click().await.unwrap();
        eval_until(c, &format!("return window.__texts['{file}'] !== undefined")).await;
    }
    let texts = c.execute("return window.__texts", vec![]).await.unwrap();
    for file in ["runlens-report.md", "runlens-report-confluence.txt", "runlens-report.html"] {
        let text = texts[file].as_str().unwrap();
        for raw in RAW {
            // Markdown and Confluence markup escape `<` with a backslash; HTML as `&lt;`.
            let unescaped = text.match_indices(raw).any(|(i, _)| i == 0 || !text[..i].ends_with('\\'));
            assert!(!unescaped, "{raw} as markup in the {file} export");
        }
    }
    let html = texts["runlens-report.html"].as_str().unwrap();
    assert!(html.contains("&lt;script&gt;window.__pwned=1&lt;/script&gt;"), "the title, as text, in the HTML export");
    let figs = eval_until(c, "return window.__figs.length >= 2 && window.__figs").await;
    let mut all = Vec::new();
    strings(&figs, &mut all);
    for raw in RAW {
        assert!(!all.iter().any(|s| s.contains(raw)), "{raw} in a report chart: {all:?}");
    }
    assert!(all.iter().any(|s| s.contains("&lt;span style")), "the hostile names reach the report charts, encoded");
    assert_inert(c, "overview").await;
}

/// Files from tests/bad-input (and two made here) dropped after a good bundle: each is refused
/// with a notice that names it, or loads with warnings, and the good bundle stays shown.
#[tokio::test]
async fn a_good_bundle_stays_loaded_through_every_bad_file() {
    with_browser(|c| async move {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/bad-input");
        let read = |name: &str| std::fs::read(format!("{dir}/{name}")).unwrap();
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_bytes(&c, "good.json", &read("good.json")).await;
        wait_text(&c, ".report h1", "Checkout latency").await;
        for name in [
            "empty.json",
            "binary-garbage.bin",
            "truncated.json",
            "wrong-types.json",
            "unknown-format.json",
            "unknown-version.json",
            "duplicate-ids.json",
            "latin1.json",
            "gbk.json",
        ] {
            drop_bytes(&c, name, &read(name)).await;
            wait_text(&c, ".notice.error", name).await;
        }
        // Made in the page: a CSV with a 10 MB line, and JSON nested 100,000 deep.
        c.execute(
            "const drop = (name, text) => { const dt = new DataTransfer(); dt.items.add(new File([text], name));
               document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})); };
             drop('long-line.csv', 'timeStamp,elapsed,label,success\\n1,2,' + 'x'.repeat(10 << 20) + ',true\\n');
             drop('deep.json', '['.repeat(100000) + ']'.repeat(100000));",
            vec![],
        )
        .await
        .unwrap();
        wait_text(&c, ".notice.error", "long-line.csv").await;
        wait_text(&c, ".notice.error", "deep.json").await;
        // Odd values load, with warnings that name the file and the place.
        drop_bytes(&c, "nan-infinity-negative.json", &read("nan-infinity-negative.json")).await;
        wait_text(&c, ".notice.warning", "nan-infinity-negative.json loaded with 4 warnings").await;
        assert!(c.find(Locator::Css("body")).await.unwrap().html(false).await.unwrap().contains("line 28: NaN is not a number JSON allows"));
        // The first bundle is still the one shown, and still works.
        wait_text(&c, ".report h1", "Checkout latency").await;
        assert!(c.find_all(Locator::Css("#panic")).await.unwrap().is_empty(), "no panic");
        open_view(&c, "latency").await;
        wait_text(&c, "table[data-table='latency']", "Login").await;
    })
    .await;
}

/// Wikis sandbox embeds (`sandbox="allow-scripts"` without `allow-same-origin`): the frame has an
/// opaque origin, so every request is cross-origin. The module, the wasm, the stylesheet (with its
/// integrity hash) and Plotly must all load, given `Access-Control-Allow-Origin: *`.
/// The release build aborts at once on a panic (scripts/env.sh: panic=immediate-abort), so no Rust
/// hook runs: the wasm traps with a `WebAssembly.RuntimeError` that reaches the page as an
/// uncaught error, and `public/boot.js` shows the error box. The trap is raised here as the
/// browser raises it (an error event carrying a `RuntimeError`, then a rejected promise carrying
/// one): the box says what the browser said, as text, once, with a reload link; an ordinary
/// script error shows nothing.
#[tokio::test]
async fn a_trap_in_the_wasm_shows_the_error_box_not_a_dead_page() {
    with_browser(|c| async move {
        c.goto(&site("?src=examples%2Ffolio-reindex-orchid-vs-poppy.json")).await.unwrap();
        wait_text(&c, ".headline-card", "−12.4%").await;
        let raise = "window.dispatchEvent(new ErrorEvent('error', {error: new Error('not a trap')}));";
        c.execute(raise, vec![]).await.unwrap();
        assert!(c.find_all(Locator::Css("#panic")).await.unwrap().is_empty(), "a script error is not a crash");
        let trap = "window.dispatchEvent(new ErrorEvent('error', {error: new WebAssembly.RuntimeError('unreachable <b>x</b>')}));";
        c.execute(trap, vec![]).await.unwrap();
        let text = wait_text(&c, "#panic", "runlens stopped because of an internal error.").await;
        assert!(text.contains("RuntimeError: unreachable <b>x</b>"), "the browser's words, as text: {text}");
        c.execute("Promise.reject(new WebAssembly.RuntimeError('again'));", vec![]).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(c.find_all(Locator::Css("#panic")).await.unwrap().len(), 1, "one box");
        let href = c.find(Locator::Css("#panic a")).await.unwrap().attr("href").await.unwrap();
        assert_eq!(href.as_deref(), Some(""), "the link reloads the page");
    })
    .await;
}

#[tokio::test]
async fn a_sandboxed_embed_of_another_origin_is_styled_and_draws_charts() {
    with_browser(|c| async move {
        let inner =
            site("?src=examples/folio-reindex-orchid-vs-poppy.json&view=indices&base=poppy-t2&cand=poppy-t5&embed=1");
        c.goto(&format!("{}/embed.html?sandbox#{}", env().other_origin, urlencode(&inner))).await.unwrap();
        eval_until(&c, "return window.heights.length > 0 && window.heights[window.heights.length - 1] > 300").await;
        c.clone().enter_frame(0).await.unwrap();
        assert_eq!(c.execute("return origin", vec![]).await.unwrap(), json!("null"), "the frame's origin is opaque");
        wait_text(&c, "table[data-table='compare-indices']", "122.9 GiB").await;
        let styles = c
            .execute(
                "return {
                   sheets: document.styleSheets.length > 0,
                   bodyMargin: getComputedStyle(document.body).marginTop,
                   collapse: getComputedStyle(document.querySelector('table')).borderCollapse,
                   accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() !== ''
                 }",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(styles, json!({"sheets": true, "bodyMargin": "0px", "collapse": "collapse", "accent": true}));
        eval_until(&c, "return !!(window.Plotly && document.querySelector('.chart .main-svg .legendtext'))").await;
    })
    .await;
}
