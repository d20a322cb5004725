//! Loading, URLs, embedding and export, end to end.

use crate::harness::{drop_file, env, eval_until, settled_query, site, urlencode, wait_query, wait_text, with_browser};
use fantoccini::{Client, Locator};
use serde_json::json;
use std::time::{Duration, Instant};

const SEED000: &str = "examples/folio-reindex-orchid-vs-poppy.json";
const SEED001: &str = "examples/folio-mod-search-eureka.json";

fn example_text(file: &str) -> String {
    std::fs::read_to_string(format!("{}/public/{file}", concat!(env!("CARGO_MANIFEST_DIR"), "/.."))).unwrap()
}

#[tokio::test]
async fn every_example_loads_from_src() {
    with_browser(|c| async move {
        for (file, title) in [
            (SEED000, "Reindexing"),
            (SEED001, "mod-search"),
            ("examples/folio-data-import-file-splitting.json", "ata import"),
            ("examples/folio-61-tenants.json", "61"),
        ] {
            c.goto(&site(&format!("?src={file}"))).await.unwrap();
            wait_text(&c, ".report h1", title).await;
            assert!(c.find_all(Locator::Css(".notice.error")).await.unwrap().is_empty(), "{file} loaded with an error");
        }
    })
    .await;
}

#[tokio::test]
async fn dropped_file_then_bad_file_keeps_what_was_loaded() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_file(&c, "reindex.json", &example_text(SEED000)).await;
        wait_text(&c, ".headline-card", "−12.4%").await;
        drop_file(&c, "broken.json", "{\"format\": \"runlens-bundle\",\n \"version\": 1,\n \"report\": nope}").await;
        let err = wait_text(&c, ".notice.error", "broken.json").await;
        assert!(err.contains("line 3") && err.contains("not valid JSON"), "{err}");
        // A CSV of no supported tool (a JTL header would be imported now).
        drop_file(&c, "other.csv", "colour,weight,shape\nred,2,round\n").await;
        let err = wait_text(&c, ".notice.error", "other.csv").await;
        assert!(err.contains("JMeter"), "the message lists what is supported: {err}");
        // What was loaded before is still there.
        wait_text(&c, ".headline-card", "−12.4%").await;
        // The same bundle again: its run ids are renamed, not lost.
        drop_file(&c, "again.json", &example_text(SEED000)).await;
        wait_text(&c, ".notice", "renamed").await;
        let chips = c.find_all(Locator::Css(".run-picker option")).await.unwrap();
        assert_eq!(chips.len(), 12, "six runs twice");
    })
    .await;
}

/// The texts of the files this deployment remembers in IndexedDB, once the page has made its store
/// (None before: opening the database here would make it without the page's store).
async fn remembered(c: &Client) -> Option<Vec<String>> {
    let script = "const done = arguments[0];
        indexedDB.databases().then((dbs) => {
          if (!dbs.some((d) => d.name === 'runlens:/runlens/')) return done(null);
          const r = indexedDB.open('runlens:/runlens/');
          r.onerror = () => done(null);
          r.onsuccess = () => {
            const db = r.result;
            if (!db.objectStoreNames.contains('files')) { db.close(); return done(null); }
            const all = db.transaction('files').objectStore('files').getAll();
            all.onsuccess = () => {
              db.close();
              Promise.all(all.result.map((v) => v.blob.text())).then(done, () => done(null));
            };
            all.onerror = () => { db.close(); done(null); };
          };
        });";
    serde_json::from_value(c.execute_async(script, vec![]).await.unwrap()).unwrap()
}

/// Waits until the deployment remembers exactly one file, and gives its text.
async fn remembered_one(c: &Client) -> String {
    let t0 = Instant::now();
    loop {
        match remembered(c).await {
            Some(texts) if texts.len() == 1 => return texts.into_iter().next().unwrap_or_default(),
            other => assert!(
                t0.elapsed() < Duration::from_secs(10),
                "one file was not remembered within 10 s: {:?}",
                other.map(|t| t.len())
            ),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn file_input_loads_and_a_reload_reopens_local_files() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        let path = std::fs::canonicalize(format!("{}/public/{SEED001}", concat!(env!("CARGO_MANIFEST_DIR"), "/.."))).unwrap();
        let path = path.to_str().unwrap();
        c.find(Locator::Css("[data-testid='file-input']")).await.unwrap().send_keys(path).await.unwrap();
        wait_text(&c, ".report h1", "mod-search").await;
        // The file is written to IndexedDB as it opens; a reload in the same few milliseconds
        // could come before the write has committed, so the test waits for the record.
        assert!(remembered_one(&c).await.contains("mod-search"), "the bundle itself is remembered");
        c.refresh().await.unwrap();
        wait_text(&c, ".notice", "Reopened 1 file").await;
        wait_text(&c, ".report h1", "mod-search").await;
        // Remembered in IndexedDB under this deployment's path, not in the origin-wide localStorage.
        let dbs = c.execute_async("indexedDB.databases().then(d => arguments[0](d.map(x => x.name)))", vec![]).await.unwrap();
        assert_eq!(dbs, json!(["runlens:/runlens/"]));
        assert_eq!(c.execute("return localStorage.length", vec![]).await.unwrap(), json!(0));
        // "Close all" forgets it.
        c.find(Locator::XPath("//button[normalize-space()='Close all']")).await.unwrap().click().await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        c.refresh().await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        assert!(c.find_all(Locator::Css(".report")).await.unwrap().is_empty());
        // A bundle an earlier version remembered in localStorage moves to IndexedDB once; an entry
        // without its text, or that is no object at all, is skipped, not the list.
        c.execute_async(
            "fetch('examples/folio-mod-search-eureka.json').then(r => r.text()).then(t => {
               localStorage.setItem('runlens.recent.v1', JSON.stringify([null, 5, {name: 'old.json'}, {name: 'legacy.json', json: t}]));
               arguments[0](); })",
            vec![],
        )
        .await
        .unwrap();
        c.refresh().await.unwrap();
        wait_text(&c, ".notice", "Reopened 1 file").await;
        wait_text(&c, ".report h1", "mod-search").await;
        assert_eq!(c.execute("return localStorage.length", vec![]).await.unwrap(), json!(0));
    })
    .await;
}

/// A tool's raw output becomes runs in the import panel; what is remembered for a reload is the
/// JSON of their bundle, which the writer worker writes with them (`wire::write::Answer::Merged`),
/// not the raw file.
#[tokio::test]
async fn a_dropped_jtl_is_remembered_as_its_runs_and_a_reload_reopens_them() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        let jtl = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/corpus/jmeter-csv/taurus-tranctl.jtl"
        ))
        .unwrap();
        drop_file(&c, "tranctl.jtl", &jtl).await;
        wait_text(&c, ".notice", "tranctl.jtl: read as JMeter CSV").await;
        let runs = "const r = [...document.querySelectorAll('.run-picker option')].map(o => o.value);";
        let shown = eval_until(&c, &format!("{runs} return r.length ? r : null")).await;
        // The record remembered: the runs' bundle (its JSON), not the JTL.
        let text = remembered_one(&c).await;
        assert!(
            text.contains("\"format\":\"runlens-bundle\"") && text.contains("Transaction Controller1"),
            "{text:.300}"
        );
        c.refresh().await.unwrap();
        wait_text(&c, ".notice", "Reopened 1 file").await;
        eval_until(&c, &format!("{runs} return JSON.stringify(r) === JSON.stringify({shown}) || null")).await;
    })
    .await;
}

#[tokio::test]
async fn a_reload_restores_view_runs_filters_and_theme() {
    with_browser(|c| async move {
        c.goto(&site(&format!("?src={SEED001}&bogus=1"))).await.unwrap();
        wait_text(&c, ".notice", "bogus").await;
        // The tabs appear once the bundle has loaded (in a worker, after the notice).
        wait_text(&c, ".report h1", "mod-search").await;
        c.find(Locator::Css("[data-view='latency']")).await.unwrap().click().await.unwrap();
        c.find(Locator::Css("[data-testid='baseline'] option[value='non-eureka-20u']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        c.find(Locator::Css("[data-testid='filter']")).await.unwrap().send_keys("title").await.unwrap();
        c.find(Locator::Css("[data-testid='thresholds'] summary")).await.unwrap().click().await.unwrap();
        c.find(Locator::Css("[data-testid='threshold-latency']")).await.unwrap().clear().await.unwrap();
        c.find(Locator::Css("[data-testid='threshold-latency']")).await.unwrap().send_keys("2.5\n").await.unwrap();
        c.find(Locator::Css(".theme-toggle")).await.unwrap().click().await.unwrap();
        // The new baseline replaces the declared comparison's; its candidate stays.
        wait_query(
            &c,
            &[
                "view=latency",
                "base=non-eureka-20u",
                "cand=eureka-1u",
                "filter=title",
                "threshold.latency=2.5",
                "theme=",
            ],
        )
        .await;
        let before = settled_query(&c).await;
        let theme_before = c.execute("return document.documentElement.dataset.theme", vec![]).await.unwrap();
        c.refresh().await.unwrap();
        wait_text(&c, "table[data-table='latency']", "title").await;
        assert_eq!(settled_query(&c).await, before, "the URL survives a reload unchanged");
        assert_eq!(c.execute("return document.documentElement.dataset.theme", vec![]).await.unwrap(), theme_before);
        let filter = c.find(Locator::Css("[data-testid='filter']")).await.unwrap().prop("value").await.unwrap();
        assert_eq!(filter.as_deref(), Some("title"));
        let rows = c.find(Locator::Css("table[data-table='latency']")).await.unwrap().text().await.unwrap();
        assert!(!rows.contains("authorities"), "the filter applies after the reload");
        let base = c.find(Locator::Css("[data-testid='baseline']")).await.unwrap().prop("value").await.unwrap();
        assert_eq!(base.as_deref(), Some("non-eureka-20u"));
    })
    .await;
}

#[tokio::test]
async fn src_refuses_other_schemes_and_explains_failed_fetches() {
    with_browser(|c| async move {
        c.goto(&site("?src=javascript:alert(1)&src=examples/missing.json")).await.unwrap();
        wait_text(&c, ".notice.error", "javascript: scheme").await;
        wait_text(&c, ".notice.error", "HTTP 404").await;
    })
    .await;
}

#[tokio::test]
async fn embed_in_an_iframe_of_another_origin_posts_its_height() {
    with_browser(|c| async move {
        let inner = site(&format!("?src={SEED000}&view=indices&base=poppy-t2&cand=poppy-t5&embed=1"));
        let host = format!("{}/embed.html#{}", env().other_origin, urlencode(&inner));
        c.goto(&host).await.unwrap();
        let h = eval_until(
            &c,
            "return window.heights.length > 0 && window.heights[window.heights.length - 1] > 300 && window.heights",
        )
        .await;
        eprintln!("embed heights posted: {h}");
        c.clone().enter_frame(0).await.unwrap();
        wait_text(&c, "table[data-table='compare-indices']", "122.9 GiB").await;
        assert!(c.find_all(Locator::Css("header.top")).await.unwrap().is_empty(), "no header when embedded");
        assert!(c.find_all(Locator::Css("nav.tabs")).await.unwrap().is_empty(), "no tabs when embedded");
        let link = c.find(Locator::Css("a.open-full")).await.unwrap().attr("href").await.unwrap().unwrap();
        assert!(link.contains("/runlens/?") && link.contains("view=indices") && !link.contains("embed"), "{link}");
    })
    .await;
}

#[tokio::test]
async fn exports_carry_the_table_and_the_workspace() {
    with_browser(|c| async move {
        c.goto(&site(&format!("?src={SEED000}"))).await.unwrap();
        wait_text(&c, ".headline-card", "−12.4%").await;
        c.execute(
            "document.querySelectorAll('.notice .close').forEach(b => b.click());
             window.__copied = []; navigator.clipboard.writeText = (t) => { window.__copied.push(t); return Promise.resolve(); };
             window.__blobs = []; const make = URL.createObjectURL, revoke = URL.revokeObjectURL;
             URL.createObjectURL = (b) => { if (b.type !== 'application/json') return make.call(URL, b); window.__blobs.push(b); return 'blob:stub'; };
             URL.revokeObjectURL = (u) => { if (u !== 'blob:stub') revoke.call(URL, u); };",
            vec![],
        )
        .await
        .unwrap();
        let block = "//div[contains(@class,'table-block')][.//table[@data-table='runs']]";
        c.find(Locator::XPath(&format!("{block}//summary"))).await.unwrap().click().await.unwrap();
        for label in ["Copy CSV", "Copy Markdown", "Copy Confluence"] {
            c.find(Locator::XPath(&format!("{block}//button[normalize-space()='{label}']"))).await.unwrap().click().await.unwrap();
        }
        let copied = eval_until(&c, "return window.__copied.length === 3 && window.__copied").await;
        let copied: Vec<String> = serde_json::from_value(copied).unwrap();
        assert!(copied[0].starts_with("Run,Release,Dimensions,Start,End,Duration,Status"), "{}", copied[0]);
        assert!(copied[0].contains("Poppy test #2,Poppy,\"release=Poppy, test=2\",2023-10-01 10:18 UTC,2023-10-01 20:05 UTC,9 h 47 min,completed"), "{}", copied[0]);
        assert!(copied[1].starts_with("**Runs**\n\n| Run | Release |") && copied[1].contains("| 11 h 10 min |"), "{}", copied[1]);
        assert!(copied[2].starts_with("*Runs*\n||Run||Release||") && copied[2].contains("|9 h 47 min|"), "{}", copied[2]);
        // The whole workspace as one bundle, loaded back: the same runs.
        c.find(Locator::Css("[data-testid='export-bundle']")).await.unwrap().click().await.unwrap();
        // The writer worker writes it: the download follows a moment later.
        // (Other blobs, such as the script that starts the writer worker, go to the browser.)
        eval_until(&c, "return window.__blobs.length === 1").await;
        let saved = c
            .execute_async("const done = arguments[0]; window.__blobs[0].text().then(done);", vec![])
            .await
            .unwrap();
        let saved: serde_json::Value = serde_json::from_str(saved.as_str().unwrap()).unwrap();
        let original: serde_json::Value = serde_json::from_str(&example_text(SEED000)).unwrap();
        assert_eq!(saved["format"], "runlens-bundle");
        assert_eq!(saved["runs"].as_array().unwrap().len(), 6);
        assert_eq!(saved["runs"][1]["indices"][2]["store_size"], json!(131_962_870_170u64));
        assert_eq!(saved["runs"][0]["label"], original["runs"][0]["label"]);
        // Charts download as SVG and PNG through Plotly.
        c.find(Locator::Css("[data-view='indices']")).await.unwrap().click().await.unwrap();
        eval_until(&c, "return !!(window.Plotly && document.querySelector('.chart .main-svg'))").await;
        c.execute("window.__images = []; Plotly.downloadImage = (id, o) => { window.__images.push(o.format + ':' + o.filename); return Promise.resolve(); };", vec![]).await.unwrap();
        c.find(Locator::XPath("//button[normalize-space()='SVG']")).await.unwrap().click().await.unwrap();
        c.find(Locator::XPath("//button[normalize-space()='PNG']")).await.unwrap().click().await.unwrap();
        let images = eval_until(&c, "return window.__images.length === 2 && window.__images").await;
        assert_eq!(images, json!(["svg:runlens-index-sizes", "png:runlens-index-sizes"]));
    })
    .await;
}

#[tokio::test]
async fn a_link_carries_local_runs_to_a_page_that_has_none_of_them() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_file(&c, "mod-search.json", &example_text(SEED001)).await;
        wait_text(&c, ".report-title", "mod-search").await;
        c.execute("window.__copied = []; navigator.clipboard.writeText = (t) => { window.__copied.push(t); return Promise.resolve(); };", vec![])
            .await
            .unwrap();
        c.find(Locator::Css("[data-testid='copy-link']")).await.unwrap().click().await.unwrap();
        let link = eval_until(&c, "return window.__copied.length === 1 && window.__copied[0]").await;
        let link = link.as_str().unwrap().to_string();
        let (_, fragment) = link.split_once("#bundle=").unwrap_or_else(|| panic!("the runs travel in the link: {link}"));
        assert!(fragment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "base64url: {fragment}");
        // A fresh page with nothing remembered opens the link: the same runs, read from the link.
        c.execute("[...document.querySelectorAll('button')].find(b => b.textContent === 'Close all').click();", vec![]).await.unwrap();
        wait_text(&c, ".landing", "Drop result files").await;
        c.goto(&link).await.unwrap();
        wait_text(&c, ".report-title", "mod-search").await;
        let original: serde_json::Value = serde_json::from_str(&example_text(SEED001)).unwrap();
        let ids: Vec<String> = original["runs"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
        let shown = eval_until(&c, "const ids = [...document.querySelectorAll('[data-testid=baseline] option')].map(o => o.value); return ids.length > 0 && ids").await;
        let mut shown: Vec<String> = serde_json::from_value(shown).unwrap();
        let mut want = ids.clone();
        shown.sort();
        want.sort();
        assert_eq!(shown, want, "every run of the dropped bundle");
        assert!(c.find_all(Locator::Css(".notice.error")).await.unwrap().is_empty(), "no error");
        // A damaged link says so in words and opens nothing.
        // (A query of its own: a change of the fragment alone would not load the page again.)
        c.goto(&site("?view=overview#bundle=not*base64")).await.unwrap();
        wait_text(&c, ".notice.error", "damaged or cut short").await;
    })
    .await;
}

#[tokio::test]
async fn bundle_strings_are_shown_as_text_never_as_html() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        let evil = json!({
            "format": "runlens-bundle", "version": 1,
            "report": {
                "title": "<img src=x onerror=\"window.__pwned=1\"><b>bold</b>",
                "tickets": [{"id": "EVIL-1", "url": "javascript:window.__pwned=2"}, {"id": "OK-1", "url": "https://example.test/OK-1"}]
            },
            "runs": [{"id": "a", "label": "<script>window.__pwned=3</script>"}]
        });
        drop_file(&c, "evil.json", &evil.to_string()).await;
        let h1 = wait_text(&c, ".report h1", "<img").await;
        assert_eq!(h1, "<img src=x onerror=\"window.__pwned=1\"><b>bold</b>");
        assert!(c.find_all(Locator::Css(".report h1 img, .report h1 b")).await.unwrap().is_empty());
        let links = c.find_all(Locator::Css(".tickets a")).await.unwrap();
        assert_eq!(links.len(), 1, "only the https ticket becomes a link");
        assert_eq!(links[0].attr("href").await.unwrap().as_deref(), Some("https://example.test/OK-1"));
        wait_text(&c, ".tickets", "EVIL-1").await;
        let pwned = c.execute("return window.__pwned || null", vec![]).await.unwrap();
        assert!(pwned.is_null(), "{pwned}");
    })
    .await;
}

#[tokio::test]
async fn a_refused_storage_quota_is_said_and_the_bundle_stays_open() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        // The browser refuses to store anything more for this site.
        c.execute(
            "IDBObjectStore.prototype.put = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };",
            vec![],
        )
        .await
        .unwrap();
        drop_file(&c, "reindex.json", &example_text(SEED000)).await;
        wait_text(&c, ".headline-card", "−12.4%").await;
        let n = wait_text(&c, ".notice.warning", "reindex.json").await;
        assert!(n.contains("will not be reopened after a reload") && n.contains("storage quota is used up"), "{n}");
    })
    .await;
}

/// A bundle of `runs` runs × 2,000 transactions with 16-bucket histograms (about 0.6 MB a run);
/// `warn_in` puts a percentile out of order in that run's fourth transaction.
fn big_bundle(runs: usize, warn_in: Option<usize>) -> String {
    let runs: Vec<serde_json::Value> = (0..runs)
        .map(|r| {
            let tx: Vec<serde_json::Value> = (0..2000)
                .map(|i| {
                    let b = 20.0 + (i % 89) as f64 * 2.5 + r as f64;
                    let p90 = if warn_in == Some(r) && i == 3 { 1.0 } else { b * 1.5 };
                    json!({"name": format!("tx {i:04} \"{r}\""), "samples": 400, "errors": i % 3, "median_ms": b, "p90_ms": p90, "max_ms": b * 3.0,
                           "histogram": {"upper_bounds_ms": (0..16).map(|k| b * 0.5 + k as f64 * 7.0).collect::<Vec<_>>(), "counts": vec![25; 16]}})
                })
                .collect();
            json!({"id": format!("run-{r:02}"), "label": format!("Run {r:02}"), "transactions": tx})
        })
        .collect();
    json!({"format": "runlens-bundle", "version": 1, "report": {"title": "Big"}, "runs": runs}).to_string()
}

/// A bundle over 8 MB is cut between two workers by its runs (`worker::bundle_parts`): opened by
/// `?src=` (cut into several groups while it downloads, `bundle::stream_cut`) and dropped (cut in
/// two), it shows what one worker shows; a warning in a later group (which sends the file through
/// the one-pass loader) is named by its path in the whole bundle.
#[tokio::test]
async fn a_big_bundle_read_by_two_workers_shows_what_one_worker_shows() {
    let clean = big_bundle(17, None);
    assert!(clean.len() > 9 << 20, "{} bytes", clean.len());
    let clean_url = crate::harness::serve_file("files/big-clean.json", clean.as_bytes());
    let warned_url = crate::harness::serve_file("files/big-warned.json", big_bundle(17, Some(14)).as_bytes());
    with_browser(move |c| async move {
        let shown = "(() => { const s = document.querySelector('[data-testid=summary] .summary-line'); const t = document.querySelector('table[data-table=runs] tbody');
                      return s && t && t.rows.length ? s.textContent + ' | ' + t.rows.length + ' | ' + t.textContent : null; })()";
        let groups = "return window.runlensIngest ? (window.runlensIngest.groups ?? 0) : null";
        let mut seen = Vec::new();
        for workers in [2, 1] {
            c.goto(&site(&format!("?src=..{clean_url}&workers={workers}"))).await.unwrap();
            seen.push(eval_until(&c, &format!("return {shown}")).await);
            let n = c.execute(groups, vec![]).await.unwrap().as_u64().unwrap();
            // About 10 MB in groups of 2 MiB of runs, cut as the download arrives.
            if workers == 2 {
                assert!((3..=6).contains(&n), "{n} groups");
            } else {
                assert_eq!(n, 0, "one worker reads it in one pass");
            }
        }
        assert_eq!(seen[0], seen[1], "two workers show what one shows");
        let text = seen[0].as_str().unwrap();
        assert!(text.contains(" | 17 | ") && text.contains("Run 16"), "{text}");

        // Dropped: the same, from the file's bytes.
        c.goto(&site("?workers=2")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        c.execute(
            "fetch(arguments[0]).then(r => r.blob()).then(b => { const dt = new DataTransfer(); dt.items.add(new File([b], 'big.json'));
             document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})); });",
            vec![json!(format!("..{clean_url}"))],
        )
        .await
        .unwrap();
        let dropped = eval_until(&c, &format!("return {shown}")).await;
        assert_eq!(c.execute(groups, vec![]).await.unwrap(), json!(1));
        assert_eq!(dropped.as_str().unwrap().split(" | ").nth(1), Some("17"), "{dropped}");

        c.goto(&site(&format!("?src=..{warned_url}&workers=2"))).await.unwrap();
        let warnings = eval_until(&c, "return [...document.querySelectorAll('.notice.warning li')].map(l => l.textContent).join(' / ') || null").await;
        assert!(warnings.as_str().unwrap().contains("runs[14].transactions[3].p90_ms"), "{warnings}");
        assert_eq!(c.execute(groups, vec![]).await.unwrap(), json!(0), "the one-pass loader read it");
        eval_until(&c, &format!("return {shown}")).await;
    })
    .await;
    for f in ["files/big-clean.json", "files/big-warned.json"] {
        let _ = std::fs::remove_file(env().root.join(f));
    }
}
