//! The steady-state window end to end: a baseline and a candidate that differ only in their
//! ramp-up (the candidate is three times as slow while users climb). Judged whole, the candidate
//! regresses; dragged to the steady state on the Timeline view, or set to runlens' own steady
//! state, every latency verdict is re-judged and none regresses.

use crate::harness::{serve_file, site, wait_query, wait_text, with_browser};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, Locator};
use std::time::Duration;

/// Both runs imported from generated JTLs by runlens' own importer, as one bundle.
fn bundle() -> String {
    let run = |id: &str, slowdown: f64, night: u64| {
        let jtl = support::jtl::ramped(600, 120, slowdown, night, 3);
        let imported = runlens::import::import_bytes(&format!("{id}.jtl"), &jtl).unwrap();
        let mut run = imported.bundle.runs.into_iter().next().unwrap();
        assert!(run.usable_timeline().is_some(), "the JTL importer writes a timeline");
        run.id = id.into();
        run.label = id.into();
        run
    };
    let mut b = runlens::import::bundle_around("ramp", runlens::import::Format::JmeterCsv, vec![]);
    b.runs = vec![run("base", 1.0, 0), run("cand", 3.0, 1)];
    runlens::bundle::to_json(&b, false).unwrap()
}

/// Latency deltas judged worse than the baseline, once `ok` holds of their count (at most 15 s).
async fn regressed_latency_cells(c: &Client, ok: impl Fn(usize) -> bool) -> usize {
    wait_text(c, "table[data-table='latency']", "T01").await;
    let t0 = std::time::Instant::now();
    loop {
        let n = c.find_all(Locator::Css("table[data-table='latency'] .delta.v-worse")).await.unwrap().len();
        if ok(n) || t0.elapsed() > Duration::from_secs(15) {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn dragging_a_window_on_the_timeline_re_judges_every_view() {
    let path = serve_file("window/ramp.json", bundle().as_bytes());
    with_browser(move |c| async move {
        c.goto(&site(&format!("?src=..{path}&view=latency&base=base&cand=cand"))).await.unwrap();
        let whole = regressed_latency_cells(&c, |n| n >= 3).await;
        assert!(whole >= 3, "judged whole, the slow ramp-up regresses the candidate ({whole} cells)");
        c.find(Locator::Css("button.tab[data-view='timeline']")).await.unwrap().click().await.unwrap();
        wait_text(&c, "[data-testid='window-bar']", "Whole run").await;
        // Plotly's drag layer of the top panel; drag from 45 % to 95 % of its width.
        let layer = loop {
            if let Ok(el) = c.find(Locator::Css(".timeline .nsewdrag")).await {
                break el;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let width = c
            .execute("return document.querySelector('.timeline .nsewdrag').getBoundingClientRect().width", vec![])
            .await
            .unwrap()
            .as_f64()
            .unwrap();
        let drag = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement { element: layer, duration: None, x: -0.05 * width, y: 0.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(300)), x: 0.25 * width, y: 0.0 })
            .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(300)), x: 0.25 * width, y: 0.0 })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        c.perform_actions(drag).await.unwrap();
        let q = wait_query(&c, &["window="]).await;
        let bar = wait_text(&c, "[data-testid='window-bar']", "of test time").await;
        assert!(bar.contains("samples"), "{bar}");
        c.find(Locator::Css("button.tab[data-view='latency']")).await.unwrap().click().await.unwrap();
        let windowed = regressed_latency_cells(&c, |n| n == 0).await;
        assert_eq!(windowed, 0, "in the steady state ({q}) the candidate is the baseline's equal");
        // runlens' own steady state (the plateau of users) agrees.
        c.find(Locator::Css("[data-testid='window-bar'] button:nth-of-type(1)")).await.unwrap().click().await.unwrap();
        wait_query(&c, &["view=latency"]).await;
        assert!(regressed_latency_cells(&c, |n| n >= 3).await >= 3, "back to the whole run");
        c.find(Locator::Css("[data-testid='window-bar'] button:nth-of-type(2)")).await.unwrap().click().await.unwrap();
        wait_query(&c, &["window=auto"]).await;
        wait_text(&c, "[data-testid='window-bar']", "the plateau of active users").await;
        assert_eq!(regressed_latency_cells(&c, |n| n == 0).await, 0);
    })
    .await;
}
