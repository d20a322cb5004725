//! End-to-end tests of verdicts as a release manager meets them: the report page export of seed
//! 000, a failed run that is not a win, the latency view offering the runs that have latency, and
//! the trend over all runs.

use super::harness::{eval_until, site, wait_query, wait_text, with_browser};
use fantoccini::Locator;

const SEED000: &str = "examples/folio-reindex-orchid-vs-poppy.json";
const SEED001: &str = "examples/folio-mod-search-eureka.json";
/// Keeps text downloads in `window.__blobs` instead of saving them; other blobs (Plotly's own,
/// while it renders a chart to PNG) work as usual.
const STUB_DOWNLOADS: &str = "window.__blobs = []; const make = URL.createObjectURL, revoke = URL.revokeObjectURL; URL.createObjectURL = (b) => { if (!b.type.startsWith('text/') || b.type === 'text/javascript') return make.call(URL, b); window.__blobs.push(b); return 'blob:stub'; }; URL.revokeObjectURL = (u) => { if (u !== 'blob:stub') revoke.call(URL, u); };";

#[tokio::test]
async fn seed000_report_page_has_the_summary_line_and_the_tables() {
    with_browser(|c| async move {
        c.goto(&site(&format!("?src={SEED000}&base=orchid&cand=poppy-t2"))).await.unwrap();
        let summary = wait_text(&c, "[data-testid='summary']", "Poppy test #2 against Orchid").await;
        assert!(summary.contains("of 36 figures, 3 regressed and 8 improved beyond noise"), "{summary}");
        c.execute(STUB_DOWNLOADS, vec![])
            .await
            .unwrap();
        c.find(Locator::Css("[data-testid='report-md']")).await.unwrap().click().await.unwrap();
        eval_until(&c, "return window.__blobs.length === 1").await;
        let md = c.execute_async("const done = arguments[0]; window.__blobs[0].text().then(done);", vec![]).await.unwrap();
        let md = md.as_str().unwrap();
        assert!(md.starts_with("# Reindexing of instances: Orchid vs Poppy"), "{}", &md[..200.min(md.len())]);
        assert!(
            md.contains("## Summary\n\nPoppy test #2 against Orchid (PERF-430): of 36 figures, 3 regressed and 8 improved beyond noise, 2 within noise, 23 not in both runs. Worst: Indexing latency max (+316.8%)"),
            "{}",
            &md[..600.min(md.len())]
        );
        assert!(
            md.contains("**KPIs (beyond noise)**\n\n| KPI | Metric | Orchid (PERF-430) | Poppy test #2 | Δ | Verdict |\n|---|---|---:|---:|---:|---|\n| Reindex duration | value | 11 h 10 min | 9 h 47 min (−12.4%, improved) | −1 h 23 min | improved: "),
            "the KPI table: {md}"
        );
        assert!(md.contains("## Charts\n\n![Changes beyond noise](data:image/png;base64,"), "the chart embedded as a PNG");
        assert!(md.contains("## Notes\n\n- Thresholds: latency 5%"), "{md}");
    })
    .await;
}

#[tokio::test]
async fn a_failed_run_is_not_comparable_and_its_arrows_follow_the_change() {
    with_browser(|c| async move {
        c.goto(&site(&format!("?src={SEED000}&view=compare&base=orchid&cand=poppy-t3"))).await.unwrap();
        let d = wait_text(&c, "table[data-table='compare-duration']", "Run duration").await;
        assert!(
            d.contains("not comparable") && !d.contains("91"),
            "a run that failed after an hour is no −91 % win: {d}"
        );
        let title = c
            .find(Locator::Css("table[data-table='compare-duration'] td.v-nocompare"))
            .await
            .unwrap()
            .attr("title")
            .await
            .unwrap();
        assert_eq!(title.as_deref(), Some("this run failed; its figures are not comparable"));
        // Throughput-like figures that rise are improvements with an upward arrow.
        c.goto(&site(&format!("?src={SEED000}&view=compare&base=orchid&cand=poppy-t2"))).await.unwrap();
        wait_text(&c, "table[data-table='compare-duration']", "improved").await;
        let down = c.find_all(Locator::Css("table[data-table='compare-duration'] .delta.v-better.down")).await.unwrap();
        assert_eq!(down.len(), 1, "a shorter duration: ▼ and green");
    })
    .await;
}

#[tokio::test]
async fn seed001_latency_offers_the_runs_that_have_it_in_one_click() {
    with_browser(|c| async move {
        c.goto(&site(&format!("?src={SEED001}&view=latency"))).await.unwrap();
        wait_text(&c, "[data-testid='no-data']", "These runs have per-transaction latency").await;
        c.find(Locator::XPath("//button[normalize-space()='Show 20 users: non-Eureka vs Eureka']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_text(&c, "table[data-table='latency']", "MSF_GET /search/authorities").await;
        wait_text(&c, ".table-tools .count", "46 rows").await;
        wait_query(&c, &["base=non-eureka-20u", "cand=eureka-20u"]).await;
        // Seed 001's 20-user statement, on the overview.
        c.find(Locator::Css("[data-view='overview']")).await.unwrap().click().await.unwrap();
        wait_text(
            &c,
            "[data-testid='summary']",
            "none of 46 transactions can be judged: 20 users, Eureka (qep1) has no per-transaction latency",
        )
        .await;
    })
    .await;
}

#[tokio::test]
async fn trends_show_every_run_in_order_with_the_baseline_marked() {
    with_browser(|c| async move {
        c.goto(&site(&format!("?src={SEED000}&view=trends&order=test"))).await.unwrap();
        let t = wait_text(&c, "table[data-table='trend']", "Orchid (PERF-430) (baseline)").await;
        assert!(t.contains("Poppy test #3") && t.contains("not comparable"), "failed runs are shown, not judged: {t}");
        let rows = c.find_all(Locator::Css("table[data-table='trend'] tbody tr")).await.unwrap();
        assert_eq!(rows.len(), 6);
        let caption = c.find(Locator::Css(".caption-text")).await.unwrap().text().await.unwrap();
        assert_eq!(caption, "Run duration by test");
        eval_until(&c, "return !!(window.Plotly && document.querySelector('.trends .chart .main-svg'))").await;
    })
    .await;
}
