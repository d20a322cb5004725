//! Raw files of one test dropped together become one run: a JTL, a CloudWatch export
//! and `_cat/indices` text are grouped in the import panel, the run is named, compared with an
//! example's run, saved as a bundle, and the saved bundle loads back equal.

use crate::harness::{drop_file, eval_until, site, wait_text, with_browser};
use fantoccini::{Client, Locator};
use serde_json::json;

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../tests/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Drops several files at once, as one drag of a selection from the desktop.
async fn drop_files(c: &Client, files: &[(&str, String)]) {
    let list: Vec<serde_json::Value> = files.iter().map(|(n, t)| json!([n, t])).collect();
    c.execute(
        "const dt = new DataTransfer(); for (const [n, t] of arguments[0]) dt.items.add(new File([t], n));
         document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));",
        vec![json!(list)],
    )
    .await
    .unwrap();
}

/// The workspace as "Save bundle" writes it (the download is caught in the page).
async fn saved_bundle(c: &Client) -> serde_json::Value {
    c.execute(
        "window.__blobs = []; window.__url = URL.createObjectURL; window.__revoke = URL.revokeObjectURL;
         URL.createObjectURL = (b) => { if (b.type !== 'application/json') return window.__url.call(URL, b); window.__blobs.push(b); return 'blob:stub'; };
         URL.revokeObjectURL = (u) => { if (u !== 'blob:stub') window.__revoke.call(URL, u); };",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Css("[data-testid='export-bundle']")).await.unwrap().click().await.unwrap();
    // Written by the writer worker: the download follows a moment later. (Other blobs, such as
    // the script that starts a worker, go to the browser.)
    eval_until(c, "return window.__blobs.length === 1").await;
    let text =
        c.execute_async("const done = arguments[0]; window.__blobs[0].text().then(done);", vec![]).await.unwrap();
    c.execute("URL.createObjectURL = window.__url; URL.revokeObjectURL = window.__revoke;", vec![]).await.unwrap();
    serde_json::from_str(text.as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn files_dropped_together_make_one_named_run_that_saves_and_loads_back() {
    with_browser(|c| async move {
        c.goto(&site("?src=examples/folio-mod-search-eureka.json")).await.unwrap();
        wait_text(&c, ".report h1", "mod-search").await;
        drop_files(
            &c,
            &[
                // Named as one test's files: grouped by their name stem (the fixtures' times do not
                // overlap, so names are what groups them).
                ("poppy-20u.jtl", fixture("corpus/jmeter-csv/perfplugin-transactions.csv")),
                ("poppy-20u-cpu.json", fixture("fixtures/import/cloudwatch/get-metric-data-two-pages.json")),
                ("poppy-20u-indices.txt", fixture("corpus/opensearch-cat-indices/opensearch-docs-h-columns.txt")),
            ],
        )
        .await;
        wait_text(&c, ".import-panel", "3 files into 1 run").await;
        // The name suggested users=20.
        wait_text(&c, ".import-run", "users=20").await;
        // Name the run: its id follows the name.
        let name = c.find(Locator::Css("[data-testid='import-run-name']")).await.unwrap();
        name.clear().await.unwrap();
        name.send_keys("Poppy 20 users\n").await.unwrap();
        c.execute("document.querySelector('[data-testid=import-run-name]').dispatchEvent(new Event('change'))", vec![]).await.unwrap();
        wait_text(&c, ".import-run code", "poppy-20-users").await;
        // Compare it with the example's 20-user non-Eureka run, in the same page.
        c.execute(
            "const s = document.querySelector('[data-testid=baseline]'); s.value = 'non-eureka-20u'; s.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
        let chip = eval_until(&c, "return document.querySelector(\"input[data-run='poppy-20-users']\") !== null").await;
        assert_eq!(chip, json!(true));
        c.execute("const i = document.querySelector(\"input[data-run='poppy-20-users']\"); if (!i.checked) i.click();", vec![]).await.unwrap();
        c.find(Locator::Css("[data-view='compare']")).await.unwrap().click().await.unwrap();
        wait_text(&c, "main.view table", "Poppy 20 users").await;
        let saved = saved_bundle(&c).await;
        let run = saved["runs"].as_array().unwrap().iter().find(|r| r["id"] == "poppy-20-users").expect("the named run is saved").clone();
        assert_eq!(run["label"], "Poppy 20 users");
        assert_eq!(run["dimensions"]["users"], "20");
        assert!(run["transactions"].as_array().unwrap().len() >= 3, "the JTL's transactions: {run}");
        assert!(!run["resources"].as_array().unwrap().is_empty(), "the CloudWatch series: {run}");
        assert_eq!(run["indices"][0]["index"], "opensearch_dashboards_sample_data_ecommerce");
        assert!(saved["runs"].as_array().unwrap().iter().any(|r| r["id"] == "non-eureka-20u"), "the example's runs are saved too");
        // The saved bundle, opened in a fresh page (after Close all), saves again to the same bundle.
        c.execute("[...document.querySelectorAll('button')].find(b => b.textContent === 'Close all').click();", vec![]).await.unwrap();
        wait_text(&c, ".landing", "Drop result files").await;
        drop_file(&c, "saved.json", &saved.to_string()).await;
        wait_text(&c, ".report-title", "mod-search").await;
        let again = saved_bundle(&c).await;
        assert_eq!(again["runs"], saved["runs"], "loads back equal");
    })
    .await;
}

#[tokio::test]
async fn a_summary_file_is_counted_in_transactions_not_in_rows_it_has_none_of() {
    with_browser(|c| async move {
        c.goto(&site("")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_files(&c, &[("stats.json", fixture("corpus/jmeter-statistics-json/artipie-bench-t1.json"))]).await;
        let notice = wait_text(&c, ".notice", "stats.json: read as").await;
        assert!(notice.contains("stats.json: read as JMeter dashboard statistics.json, 1 transaction."), "{notice}");
    })
    .await;
}
