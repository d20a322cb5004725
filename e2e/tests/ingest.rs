//! Raw JMeter results end to end: a generated JTL (scripts/gen_jtl.py, whose `--answers` are exact
//! statistics computed by sorting every label's values) dropped on the page through the real drop
//! path, its latency table checked against those answers as the table shows them; a large file
//! cancelled midway with the earlier workspace intact; a JTL opened by `?src=`.
//!
//! Run: `trunk build --release --public-url /runlens/ --dist target/e2e-dist &&
//! RUNLENS_DIST=$PWD/target/e2e-dist cargo test -p runlens-e2e --test ingest`.

#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
mod harness;

use fantoccini::{Client, Locator};
use harness::{env, settled_query, site, wait_query, wait_text, with_browser};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SEED001: &str = "examples/folio-mod-search-eureka.json";

/// A generated JTL (and its answers) in the served root's `files/`, deleted when dropped.
struct Jtl {
    path: PathBuf,
    answers: Option<Value>,
}

impl Drop for Jtl {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_file(self.path.with_extension("answers.json"));
    }
}

/// `rows` rows from scripts/gen_jtl.py (with its answers when asked) as `files/NAME` of the site's
/// server; `None` (after a printed notice) when there is no python3 to run the generator.
fn generate(name: &str, rows: u64, answers: bool) -> Option<Jtl> {
    let dir = env().root.join("files");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let answers_path = path.with_extension("answers.json");
    let Some(answers) = support::jtl::gen_jtl_py(rows, &path, answers.then_some(answers_path.as_path())) else {
        eprintln!("SKIPPED: python3 is missing, so scripts/gen_jtl.py cannot make the JTL of this test");
        return None;
    };
    Some(Jtl { path, answers })
}

/// Drops the file at `path` on the page as a user would: the browser holds it as a File (read
/// through a file input of the test's own, outside the app), dispatched in a `drop` on `.app`.
async fn drop_path(c: &Client, path: &Path) {
    c.execute(
        "const i = document.createElement('input'); i.type = 'file'; i.id = 'e2e-file'; document.body.append(i);",
        vec![],
    )
    .await
    .unwrap();
    let input = c.find(Locator::Css("#e2e-file")).await.unwrap();
    input.send_keys(path.to_str().unwrap()).await.unwrap();
    c.execute(
        "const i = document.getElementById('e2e-file'); const dt = new DataTransfer(); dt.items.add(i.files[0]); i.remove();
         document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));",
        vec![],
    )
    .await
    .unwrap();
}

/// Waits up to `secs` for a notice containing `needle` (a large import takes longer than
/// `wait_text` waits); an error notice ends the wait at once.
async fn wait_notice(c: &Client, needle: &str, secs: u64) -> String {
    let t0 = Instant::now();
    loop {
        let found = c
            .execute(
                "const n = [...document.querySelectorAll('.notice')].map(e => e.textContent);
                 return {hit: n.find(t => t.includes(arguments[0])) || null, errors: n.filter((t, i) => document.querySelectorAll('.notice')[i].matches('.error'))};",
                vec![json!(needle)],
            )
            .await
            .unwrap();
        if let Some(t) = found["hit"].as_str() {
            return t.to_string();
        }
        let errors = found["errors"].as_array().cloned().unwrap_or_default();
        assert!(errors.is_empty(), "an error instead of {needle:?}: {errors:?}");
        assert!(t0.elapsed() < Duration::from_secs(secs), "no notice {needle:?} within {secs} s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The latency table as its CSV export (Export › Copy CSV, the clipboard stubbed): every row,
/// whatever page the table shows.
async fn latency_csv(c: &Client) -> String {
    c.execute(
        "window.__copied = null; navigator.clipboard.writeText = (t) => { window.__copied = t; return Promise.resolve(); };",
        vec![],
    )
    .await
    .unwrap();
    let block = "//div[contains(@class,'table-block')][.//table[@data-table='latency']]";
    c.find(Locator::XPath(&format!("{block}//summary"))).await.unwrap().click().await.unwrap();
    c.find(Locator::XPath(&format!("{block}//button[normalize-space()='Copy CSV']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let t0 = Instant::now();
    loop {
        if let Some(s) = c.execute("return window.__copied", vec![]).await.unwrap().as_str() {
            return s.to_string();
        }
        assert!(t0.elapsed() < Duration::from_secs(15), "the CSV export did not arrive");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A number as runlens shows it (README: thousands separated; whole numbers and values from 100
/// on without decimals, from 10 on one, below that two, trailing zeros dropped).
fn shown(v: f64) -> String {
    let a = v.abs();
    let decimals = if a == a.trunc() || a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    };
    let s = format!("{a:.decimals$}");
    let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(i, f)| (i, f));
    let mut out = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    let frac = frac.trim_end_matches('0');
    if !frac.is_empty() {
        out = format!("{out}.{frac}");
    }
    if v < 0.0 {
        format!("−{out}")
    } else {
        out
    }
}

/// Every label of the answers (but TOTAL) has one row whose shown statistics equal the answers'.
fn check_table(csv_text: &str, answers: &Value) {
    let mut rdr = csv::Reader::from_reader(csv_text.as_bytes());
    let headers = rdr.headers().unwrap().clone();
    let col = |name: &str| {
        headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name:?} in {headers:?}"))
    };
    let columns = [
        ("Samples", "count"),
        ("Errors", "errors"),
        ("Mean (ms)", "mean"),
        ("Median (ms)", "p50"),
        ("p90 (ms)", "p90"),
        ("p95 (ms)", "p95"),
        ("p99 (ms)", "p99"),
        ("Min (ms)", "min"),
        ("Max (ms)", "max"),
    ];
    let labels = answers["labels"].as_object().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let label = &rec[col("Transaction")];
        assert!(seen.insert(label.to_string()), "{label:?} twice");
        let a = labels.get(label).unwrap_or_else(|| panic!("{label:?} is not a label of the file"));
        for (column, key) in columns {
            assert_eq!(&rec[col(column)], shown(a[key].as_f64().unwrap()), "{label:?} {column}");
        }
    }
    let want: std::collections::BTreeSet<String> = labels.keys().filter(|k| *k != "TOTAL").cloned().collect();
    assert_eq!(seen, want, "every label once");
}

#[tokio::test]
async fn a_dropped_200000_row_jtl_shows_the_exact_latency_table() {
    let Some(jtl) = generate("dropped-200k.jtl", 200_000, true) else { return };
    let path = jtl.path.clone();
    let answers = jtl.answers.clone().unwrap();
    with_browser(move |c| async move {
        c.goto(&site("?view=latency")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_path(&c, &path).await;
        let notice = wait_notice(&c, "dropped-200k.jtl: read as", 120).await;
        assert!(notice.contains("dropped-200k.jtl: read as JMeter CSV results (JTL), 200,000 records."), "{notice}");
        wait_text(&c, "table[data-table='latency']", "MSF_GET").await;
        check_table(&latency_csv(&c).await, &answers);
    })
    .await;
    drop(jtl);
}

/// A wasm memory never shrinks: a worker and a writer that grew past what the page keeps a worker
/// with (12 MiB, `ui::ingest::pool::SPENT_BYTES`) are ended once the file is in, and the next file
/// starts them again and is read as usual.
#[tokio::test]
async fn workers_that_grew_large_are_ended_and_the_next_file_is_read() {
    // The writer answers a file the page shows already with its JSON alone: 600,000 rows left it
    // at 11.3 MB, kept; a million leave it past 12 MiB.
    let Some(big) = generate("grown-1m.jtl", 1_000_000, false) else { return };
    let Some(small) = generate("after-retire.jtl", 2_000, false) else { return };
    let (path, small_path) = (big.path.clone(), small.path.clone());
    with_browser(move |c| async move {
        c.goto(&site("?view=latency&workers=1")).await.unwrap();
        wait_text(&c, ".gallery .card", "Reindexing").await;
        drop_path(&c, &path).await;
        wait_notice(&c, "grown-1m.jtl: read as JMeter CSV results (JTL), 1,000,000 records", 120).await;
        let workers =
            wait_workers(&c, |w| w["retired"].as_f64() == Some(1.0) && w["writerRetired"].as_f64() == Some(1.0)).await;
        assert!(workers["memory0"].as_f64().unwrap() >= f64::from(12u32 << 20), "{workers}");
        let runs_before = run_ids(&c).await;
        drop_path(&c, &small_path).await;
        wait_notice(&c, "after-retire.jtl: read as JMeter CSV results (JTL), 2,000 records", 60).await;
        wait_one_more_run(&c, runs_before.len()).await;
    })
    .await;
    drop((big, small));
}

/// `window.runlensWorkers` (`ui::ingest::pool::diagnose`: the workers' memory as they said it,
/// and how many were ended for it) once `done` holds of it, within 30 s.
async fn wait_workers(c: &Client, done: impl Fn(&Value) -> bool) -> Value {
    let t0 = Instant::now();
    loop {
        let v = c.execute("return window.runlensWorkers || null", vec![]).await.unwrap();
        if done(&v) {
            return v;
        }
        assert!(t0.elapsed() < Duration::from_secs(30), "the workers were not ended: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn cancelling_a_large_jtl_midway_keeps_the_workspace_as_it_was() {
    let Some(big) = generate("cancelled-2m.jtl", 2_000_000, false) else { return };
    let Some(small) = generate("after-cancel.jtl", 2_000, false) else { return };
    let (big_path, small_path) = (big.path.clone(), small.path.clone());
    with_browser(move |c| async move {
        // One worker: the file is read in one pass, so it takes long enough to stop it midway.
        c.goto(&site(&format!("?src={SEED001}&view=latency&base=non-eureka-20u&cand=eureka-20u&workers=1")))
            .await
            .unwrap();
        wait_text(&c, "table[data-table='latency']", "MSF_GET").await;
        let runs_before = run_ids(&c).await;
        let query_before = settled_query(&c).await;
        drop_path(&c, &big_path).await;
        // Midway: the busy bar shows some bytes read and not all.
        let t0 = Instant::now();
        loop {
            let text = c
                .execute("const b = document.querySelector('.busy-text'); return b ? b.textContent : null", vec![])
                .await
                .unwrap();
            let pct = text.as_str().and_then(|t| t.split_once("… ")?.1.split_once('%')?.0.parse::<u32>().ok());
            if pct.is_some_and(|p| (1..90).contains(&p)) {
                break;
            }
            assert!(pct.is_none_or(|p| p < 90), "the file was read before it could be stopped: {text}");
            assert!(t0.elapsed() < Duration::from_secs(120), "no progress shown: {text}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        c.find(Locator::Css("[data-testid='cancel-load']")).await.unwrap().click().await.unwrap();
        wait_notice(&c, "Stopped reading cancelled-2m.jtl; nothing was changed.", 30).await;
        assert!(c.find_all(Locator::Css(".busy")).await.unwrap().is_empty(), "the busy bar is gone");
        assert_eq!(run_ids(&c).await, runs_before, "the same runs, and no new one");
        assert_eq!(settled_query(&c).await, query_before, "the same view and selection");
        wait_text(&c, "main.view[data-view='latency'] table[data-table='latency']", "MSF_GET").await;
        let all = c.find(Locator::Css("body")).await.unwrap().text().await.unwrap();
        assert!(!all.contains("read as JMeter CSV"), "nothing of the cancelled file was added");
        // The workers were started again: the next file is read.
        drop_path(&c, &small_path).await;
        wait_notice(&c, "after-cancel.jtl: read as JMeter CSV results (JTL), 2,000 records", 60).await;
        wait_one_more_run(&c, runs_before.len()).await;
    })
    .await;
    drop((big, small));
}

/// Waits until the picker offers one run more than `before`: a file's notice comes when it is read,
/// and its run joins the picker once the writer worker has assembled it, a moment later.
async fn wait_one_more_run(c: &Client, before: usize) {
    let t0 = Instant::now();
    while run_ids(c).await.len() == before && t0.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(run_ids(c).await.len(), before + 1, "the next file adds its run");
}

/// The ids of the runs the picker offers.
async fn run_ids(c: &Client) -> Vec<String> {
    let v = c
        .execute("return [...document.querySelectorAll('[data-testid=baseline] option')].map(o => o.value)", vec![])
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn a_jtl_opens_by_src_like_a_bundle() {
    let Some(jtl) = generate("by-src.jtl", 20_000, true) else { return };
    let answers = jtl.answers.clone().unwrap();
    with_browser(move |c| async move {
        c.goto(&site("?src=../files/by-src.jtl&view=latency")).await.unwrap();
        let notice = wait_notice(&c, "by-src.jtl: read as", 60).await;
        assert!(notice.contains("../files/by-src.jtl: read as JMeter CSV results (JTL), 20,000 records."), "{notice}");
        wait_text(&c, "table[data-table='latency']", "MSF_GET").await;
        check_table(&latency_csv(&c).await, &answers);
        // The link names the file, so a reload opens it again from there.
        wait_query(&c, &["src=..%2Ffiles%2Fby-src.jtl"]).await;
        c.refresh().await.unwrap();
        wait_notice(&c, "by-src.jtl: read as", 60).await;
        wait_text(&c, "table[data-table='latency']", "MSF_GET").await;
    })
    .await;
    drop(jtl);
}

/// A JTL large enough to be read in byte ranges (over 16 MB), opened by `?src=`: read in ranges
/// while it downloads (the first worker posts every range's bytes but the last's on ports and
/// parses the last range itself, `worker::feed`), with one worker, two, and three (a middle range,
/// which gets the bytes past its end for its last record; range 0 from the file's start, its
/// header skipped, on a port), the table equals the generator's exact answers every time.
#[tokio::test]
async fn a_large_jtl_by_src_is_read_in_ranges_while_it_downloads_exactly() {
    let Some(jtl) = generate("by-src-ranges.jtl", 100_000, true) else { return };
    let size = std::fs::metadata(&jtl.path).unwrap().len();
    assert!(size > 16 << 20, "{size} bytes: too small to be read in ranges");
    let answers = jtl.answers.clone().unwrap();
    with_browser(move |c| async move {
        for workers in [2, 1, 3] {
            c.goto(&site(&format!("?src=../files/by-src-ranges.jtl&view=latency&workers={workers}"))).await.unwrap();
            let notice = wait_notice(&c, "by-src-ranges.jtl: read as", 60).await;
            assert!(
                notice.contains("read as JMeter CSV results (JTL), 100,000 records."),
                "{workers} workers: {notice}"
            );
            wait_text(&c, "table[data-table='latency']", "MSF_GET").await;
            check_table(&latency_csv(&c).await, &answers);
        }
    })
    .await;
    drop(jtl);
}
