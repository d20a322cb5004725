//! Label rules (`--label`, a bundle's `label_rules`) and the viewer's link, read back as the
//! viewer reads it.

use super::*;

#[test]
fn the_viewer_link_selects_the_comparison() {
    let d = setup(&[]);
    let args = [
        "compare",
        "base.jtl",
        "cand.jtl",
        "--format",
        "markdown",
        "--viewer",
        "https://x.github.io/runlens/",
        "--src",
        "https://x.github.io/runlens/history.json",
    ];
    let md = text(&runlens(d.path(), &args).stdout);
    let link = md.lines().find_map(|l| l.strip_prefix("[Open this comparison in runlens](")).unwrap();
    let query = link.trim_end_matches(')').strip_prefix("https://x.github.io/runlens/?").unwrap();
    let (state, notices) = runlens::urlstate::UrlState::parse(query);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(state.src, vec!["https://x.github.io/runlens/history.json".to_string()]);
    assert_eq!((state.base.as_deref(), state.cand.as_deref()), (Some("base"), Some("cand")));
}

/// A JTL of two transactions whose labels carry an id (`GET /orders/{id0}`, `POST /cart/{id1}`),
/// 200 samples each; `slow` scales the orders' times.
fn jtl_with_ids(id0: u64, id1: u64, slow: f64) -> String {
    let mut out = String::from("timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n");
    for i in 0..200u64 {
        for (j, label) in [format!("GET /orders/{id0}"), format!("POST /cart/{id1}")].iter().enumerate() {
            let ms = (100 + i % 50 + 40 * j as u64) as f64 * if j == 0 { slow } else { 1.0 };
            out +=
                &format!("{},{},{label},200,OK,T 1-1,true,{i}\n", 1_700_000_000_000u64 + i * 4 + j as u64, ms as u64);
        }
    }
    out
}

/// Two runs whose labels differ only by an id: without a rule nothing matches and the gate has
/// nothing to fail on; with `--label ids` (or the same rule in the baseline bundle's
/// `label_rules`) the orders match and their +50 % fails `p95 > +10%`, as the viewer would judge.
#[test]
fn labels_that_differ_by_an_id_match_with_a_label_rule_and_not_without() {
    let d = setup(&[
        ("ids-base.jtl", &jtl_with_ids(1234, 77, 1.0)),
        ("ids-cand.jtl", &jtl_with_ids(98765, 78, 1.5)),
        ("p95.toml", "[[fail]]\nwhen = \"p95 > +10%\"\n"),
    ]);
    let keys = |o: &Output| -> Vec<String> {
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let checks = json["candidates"][0]["checks"].as_array().cloned().unwrap_or_default();
        checks.iter().filter_map(|c| c["key"].as_str().map(str::to_string)).collect()
    };
    let args = ["compare", "ids-base.jtl", "ids-cand.jtl", "--criteria", "p95.toml", "--format", "json"];
    let without = runlens(d.path(), &args);
    assert_eq!(code(&without), Some(0), "{}", text(&without.stderr));
    assert!(keys(&without).iter().all(|k| !k.contains("{id}")), "{:?}", keys(&without));
    let with: Vec<&str> = args.iter().copied().chain(["--label", "ids"]).collect();
    let o = runlens(d.path(), &with);
    assert_eq!(code(&o), Some(1), "{}", text(&o.stderr));
    assert_eq!(keys(&o), ["GET /orders/{id}", "POST /cart/{id}"]);
    let text_args: Vec<&str> =
        ["compare", "ids-base.jtl", "ids-cand.jtl", "--label", "ids", "--criteria", "p95.toml"].to_vec();
    golden("compare-labels.txt", &text(&runlens(d.path(), &text_args).stdout));

    // The same rule carried by the baseline's bundle.
    let o = runlens(d.path(), &["import", "ids-base.jtl", "-o", "ids-base.json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut bundle: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("ids-base.json")).unwrap()).unwrap();
    bundle["label_rules"] = serde_json::json!([{ "kind": "ids" }]);
    std::fs::write(d.path().join("ids-base.json"), bundle.to_string()).unwrap();
    let o =
        runlens(d.path(), &["compare", "ids-base.json", "ids-cand.jtl", "--criteria", "p95.toml", "--format", "json"]);
    assert_eq!((code(&o), keys(&o)), (Some(1), vec!["GET /orders/{id}".to_string(), "POST /cart/{id}".to_string()]));

    // A rule the viewer's link could not carry is a usage error, before any file is read.
    let o = runlens(d.path(), &["compare", "nowhere.jtl", "ids-cand.jtl", "--label", "collapse:x"]);
    assert_eq!(code(&o), Some(3), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--label \"collapse:x\" is not a label rule"), "{}", text(&o.stderr));
}

/// The comparison `runlens compare base.jtl cand.jtl --viewer https://x/ EXTRA` links to, read
/// back as the viewer reads it.
fn viewer_link(extra: &[&str]) -> runlens::urlstate::UrlState {
    let d = setup(&[]);
    let mut args = vec!["compare", "base.jtl", "cand.jtl", "--format", "markdown", "--viewer", "https://x/"];
    args.extend(extra);
    let md = text(&runlens(d.path(), &args).stdout);
    let link = md.lines().find_map(|l| l.strip_prefix("[Open this comparison in runlens](")).unwrap();
    let (state, notices) =
        runlens::urlstate::UrlState::parse(link.trim_end_matches(')').strip_prefix("https://x/?").unwrap());
    assert!(notices.is_empty(), "{notices:?}");
    state
}

#[test]
fn the_viewer_link_carries_the_label_rules() {
    let state = viewer_link(&["--label", "ids:GET *", "--label", "exclude:multi*"]);
    let back: Vec<String> = state.labels.iter().filter_map(runlens::urlstate::label_param).collect();
    assert_eq!(back, ["ids:GET *", "exclude:multi*"]);
    assert_eq!((state.base.as_deref(), state.cand.as_deref()), (Some("base"), Some("cand")));
}
