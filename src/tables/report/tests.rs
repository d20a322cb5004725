//! Tests of the report page and its three renderings.

use super::*;
use crate::bundle::load_bundle_str;
use crate::tables::{page_confluence, page_html, page_markdown};

fn seed000_page(charts: Vec<ReportChart>) -> ReportPage {
    let text = include_str!("../../../public/examples/folio-reindex-orchid-vs-poppy.json");
    let loaded = load_bundle_str("folio-reindex-orchid-vs-poppy.json", text).unwrap();
    let mut ws = Workspace::default();
    ws.add("folio-reindex-orchid-vs-poppy.json", loaded.bundle, vec![]);
    let ids = ["orchid", "poppy-t2"];
    let runs: Vec<&Run> = ids.iter().filter_map(|i| ws.run(i)).collect();
    let labels: Vec<String> = runs.iter().map(|r| r.label.clone()).collect();
    let th = ws.thresholds();
    let rows = crate::analysis::compare(&runs, &th);
    report_page(&ws, &runs, &rows, &labels, &th, charts)
}

const PNG: &str = "data:image/png;base64,iVBORw0KGgo=";

#[test]
fn seed000_page_has_the_summary_runs_and_only_changes_beyond_noise() {
    let p = seed000_page(vec![]);
    assert_eq!(p.summary.len(), 1);
    assert!(
        p.summary[0].starts_with("Poppy test #2 against Orchid (PERF-430): of 36 figures, 3 regressed and 8 improved beyond noise, 2 within noise"),
        "{}",
        p.summary[0]
    );
    assert!(p.summary[0].contains("Worst: Indexing latency max (+316.8%)"), "{}", p.summary[0]);
    let caps: Vec<&str> = p.results.iter().chain(&p.resources).map(|t| t.caption.as_str()).collect();
    assert_eq!(
        caps,
        ["Duration (beyond noise)", "KPIs (beyond noise)", "Resources (beyond noise)"],
        "no index table: Orchid has none"
    );
    let kpis = &p.results[1];
    let text: Vec<String> =
        kpis.rows.iter().map(|r| r.cells.iter().map(|c| c.plain()).collect::<Vec<_>>().join(" | ")).collect();
    assert_eq!(
        text[0],
        "Reindex duration | value | 11 h 10 min | 9 h 47 min (−12.4%, improved) | −1 h 23 min | improved: −12.4% is beyond the 5% duration threshold; no distribution to judge noise by"
    );
    assert_eq!(
        text.last().unwrap(),
        "Total | 3 compared: 1 regressed, 1 improved, 0 within noise, 1 not judged |  |  |  | "
    );
    let resources = p.resources[0].rows.iter().map(|r| r.cells[0].display()).collect::<Vec<_>>();
    assert!(
        !resources.iter().any(|k| k.contains("RDS")),
        "within noise or not comparable rows stay out: {resources:?}"
    );
    assert_eq!(p.runs.rows.len(), 2);
}

#[test]
fn markdown_mirrors_the_seed_layout_and_embeds_charts() {
    let md = page_markdown(&seed000_page(vec![ReportChart {
        title: "Biggest changes".into(),
        file_name: "runlens-changes.png".into(),
        png: Some(PNG.into()),
    }]));
    let order: Vec<usize> = [
        "# Reindexing",
        "## Summary",
        "## Test runs",
        "## Results",
        "## Resource utilization",
        "## Charts",
        "## Notes",
    ]
    .iter()
    .map(|h| md.find(h).unwrap_or_else(|| panic!("{h} missing:\n{md}")))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "sections in the seed reports' order");
    assert!(md.contains(&format!("![Biggest changes]({PNG})")));
    assert!(md.contains("| Run duration | value | 11 h 10 min | 9 h 47 min (−12.4%, improved) | −1 h 23 min | improved: −12.4% is beyond the 5% duration threshold; no distribution to judge noise by |"), "{md}");
}

#[test]
fn confluence_references_attachments_and_html_stands_alone() {
    let chart =
        ReportChart { title: "Changes [all]".into(), file_name: "runlens changes.png".into(), png: Some(PNG.into()) };
    let p = seed000_page(vec![chart]);
    let wiki = page_confluence(&p);
    assert!(
        wiki.starts_with("h1. Reindexing of instances: Orchid vs Poppy (FOLIO, PERF\\-637)\n\nh2. Summary\n"),
        "{wiki}"
    );
    assert!(wiki.contains("*Changes \\[all\\]*\n!runlens-changes.png!"), "{wiki}");
    assert!(wiki.contains("||Test||Role||"));
    let html = page_html(&p);
    assert!(
        html.starts_with("<!doctype html>") && html.contains(&format!("<img src=\"{PNG}\" alt=\"Changes [all]\">"))
    );
    assert!(html.contains("class=\"num improved\""), "verdict colours without a stylesheet from elsewhere");
    assert!(
        !html.contains("<script") && !html.contains("http://") && !html.contains("https://"),
        "nothing loaded from elsewhere"
    );
}

#[test]
fn bundle_strings_are_escaped_and_only_png_data_urls_embedded() {
    let mut p = seed000_page(vec![
        ReportChart { title: "x".into(), file_name: "x.png".into(), png: Some("javascript:alert(1)".into()) },
        ReportChart {
            title: "y".into(),
            file_name: "y.png".into(),
            png: Some("data:image/png;base64,AAA\" onerror=\"x".into()),
        },
    ]);
    p.title = "<script>*boom*</script>".into();
    p.summary = vec!["# not a heading | [link](http://x)".into()];
    let md = page_markdown(&p);
    assert!(md.starts_with("# \\<script\\>\\*boom\\*\\</script\\>\n"), "{md}");
    assert!(md.contains("\n\\# not a heading \\| \\[link\\](http://x)\n"), "{md}");
    assert!(!md.contains("javascript:") && !md.contains("onerror"), "{md}");
    let html = page_html(&p);
    assert!(html.contains("<h1>&lt;script&gt;*boom*&lt;/script&gt;</h1>") && !html.contains("onerror"));
    assert!(page_confluence(&p).contains("h1. &lt;script&gt;\\*boom\\*&lt;/script&gt;"));
}

#[test]
fn the_change_chart_takes_the_biggest_changes_beyond_noise() {
    let text = include_str!("../../../public/examples/folio-reindex-orchid-vs-poppy.json");
    let loaded = load_bundle_str("x.json", text).unwrap();
    let runs: Vec<&Run> =
        ["orchid", "poppy-t2"].iter().filter_map(|i| loaded.bundle.runs.iter().find(|r| r.id == *i)).collect();
    let rows = crate::analysis::compare(&runs, &Thresholds::default());
    let top: Vec<String> = biggest_changes(&rows, 3).iter().map(|r| r.label()).collect();
    // In units of each threshold: +316.8 % / 5 %, −168 pp / 5 pp, −55 pp / 5 pp.
    assert_eq!(top, ["Indexing latency max", "mod-search · cpu · peak", "mod-search · cpu · average (first 2 hours)"]);
}
