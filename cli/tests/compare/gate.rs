//! Exit codes: 0 when the criteria pass (and `-q` prints nothing), 2 for criteria errors with
//! their places in TOML, YAML and a bundle, 3 for usage errors; criteria carried by a bundle.

use super::*;

#[test]
fn the_same_runs_pass_with_0_and_quiet_prints_nothing() {
    let d = setup(&[("criteria.yaml", "fail:\n  - when: p95 > +10%\n")]);
    let o = runlens(d.path(), &["compare", "base.jtl", "base.jtl", "--criteria", "criteria.yaml"]);
    assert_eq!(code(&o), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with("runlens compare passed: 1 candidate passed the criteria of criteria.yaml"));
    let o = runlens(d.path(), &["compare", "-q", "base.jtl", "cand.jtl", "-o", "out.md", "--format", "markdown"]);
    assert_eq!((code(&o), o.stdout.is_empty(), o.stderr.is_empty()), (Some(1), true, true), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(d.path().join("out.md")).unwrap().starts_with("❌ **runlens compare failed"));
}

/// Four errors in each format: a pattern that matches nothing, a bad `when`, an unknown key, a
/// unit that does not fit, and a second pattern that matches nothing.
const BAD_TOML: &str = r#"ignore = ["nothing*"]
[[fail]]
when = "p95 >> 10"
wehn = 3
[[fail]]
when = "latency > 5 MB"
[[fail]]
when = "p95 > +10%"
transactions = "serch*"
"#;

const BAD_YAML: &str = "ignore: [\"nothing*\"]
fail:
  - when: p95 >> 10
    wehn: 3
  - when: latency > 5 MB
  - when: p95 > +10%
    transactions: serch*
";

#[test]
fn criteria_errors_exit_2_and_say_where() {
    let bundle = bundle_with(serde_json::json!({
        "ignore": ["nothing*"],
        "fail": [{"when": "p95 >> 10", "wehn": 3}, {"when": "latency > 5 MB"}, {"when": "p95 > +10%", "transactions": "serch*"}],
    }));
    let d =
        setup(&[("bad.toml", BAD_TOML), ("bad.yml", BAD_YAML), ("bad.json", &bundle), ("syntax.toml", "fail = [\n")]);
    let messages = [
        "at fail[0].wehn: unknown key",
        "at fail[0].when: “> 10” is not a number with a unit (e.g. +10%, 500 ms, 1%)",
        "at fail[1].when: latency is a time, not a size in bytes",
        "at ignore[0]: “nothing*” matches no transaction or other figure of the compared runs",
        "at fail[2].transactions: “serch*” matches no transaction with figures that “p95 > +10%” covers",
    ];
    let expect = |stderr: &str, places: [&str; 5]| {
        let lines: Vec<&str> = stderr.lines().collect();
        let wanted: Vec<String> = places.iter().zip(messages).map(|(p, m)| format!("error: {p} {m}")).collect();
        assert_eq!(lines, wanted, "{stderr}");
    };
    let run = |args: &[&str]| {
        let o = runlens(d.path(), args);
        assert_eq!(code(&o), Some(2), "{args:?}: {}", text(&o.stderr));
        text(&o.stderr)
    };
    let file = |f: &str| run(&["compare", "base.jtl", "cand.jtl", "--criteria", f]);
    expect(&file("bad.toml"), ["bad.toml:4:8:", "bad.toml:3:8:", "bad.toml:6:8:", "bad.toml:1:11:", "bad.toml:9:16:"]);
    expect(&file("bad.yml"), ["bad.yml:4:11:", "bad.yml:3:11:", "bad.yml:5:11:", "bad.yml:1:10:", "bad.yml:7:19:"]);
    let json = run(&["compare", "bad.json"]).replace("bad.json: at thresholds.criteria.", "bad.json: at ");
    expect(&json, ["bad.json:", "bad.json:", "bad.json:", "bad.json:", "bad.json:"]);
    assert!(file("syntax.toml").starts_with("error: syntax.toml:1:9: "));
}

/// A bundle of runs `a` and `b` (p95 100 → 150 ms, 1,000 samples each) with `criteria` as its
/// `thresholds.criteria`.
fn bundle_with(criteria: serde_json::Value) -> String {
    let tx = |p95: f64| serde_json::json!([{"name": "search", "samples": 1000, "p95_ms": p95, "median_ms": p95 / 2.0}]);
    serde_json::json!({
        "format": "runlens-bundle", "version": 1, "report": {"title": "t"},
        "runs": [{"id": "a", "label": "A", "transactions": tx(100.0)}, {"id": "b", "label": "B", "transactions": tx(150.0)}],
        "thresholds": {"latency": 7.5, "criteria": criteria},
    })
    .to_string()
}

#[test]
fn criteria_in_a_bundle_gate_it_and_their_errors_name_the_json_path() {
    let good = bundle_with(serde_json::json!({"fail": [{"when": "p95 > +40%"}]}));
    let loose = bundle_with(serde_json::json!({"fail": [{"when": "p95 > +60%"}]}));
    let key = bundle_with(serde_json::json!({"fail": [{"when": "p95 > +40%", "beyond": false}]}));
    let when = bundle_with(serde_json::json!({"fail": [{"when": "p95 > 3 GB"}]}));
    let d = setup(&[("good.json", &good), ("loose.json", &loose), ("key.json", &key), ("when.json", &when)]);
    let o = runlens(d.path(), &["compare", "good.json"]);
    assert_eq!(code(&o), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("the criteria of good.json (thresholds.criteria)"), "{}", text(&o.stdout));
    assert_eq!(code(&runlens(d.path(), &["compare", "loose.json"])), Some(0));
    let o = runlens(d.path(), &["compare", "key.json#a", "key.json#b"]);
    assert_eq!(code(&o), Some(2));
    assert!(
        text(&o.stderr).contains("error: key.json: at thresholds.criteria.fail[0].beyond: unknown key"),
        "{}",
        text(&o.stderr)
    );
    let o = runlens(d.path(), &["compare", "when.json"]);
    assert_eq!(code(&o), Some(2));
    assert!(
        text(&o.stderr)
            .contains("error: when.json: at thresholds.criteria.fail[0].when: latency is a time, not a size in bytes"),
        "{}",
        text(&o.stderr)
    );
    // A criteria file wins over the bundle's.
    let d2 = setup(&[("good.json", &good), ("c.toml", "[[fail]]\nwhen = \"p95 > +90%\"\n")]);
    assert_eq!(code(&runlens(d2.path(), &["compare", "good.json", "--criteria", "c.toml"])), Some(0));
}

#[test]
fn usage_errors_exit_3_and_name_the_runs() {
    let two = bundle_with(serde_json::json!({"fail": [{"when": "p95 > +40%"}]}));
    let d = setup(&[("two.json", &two)]);
    let o = runlens(d.path(), &["compare", "two.json", "cand.jtl"]);
    assert_eq!(code(&o), Some(3), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("the baseline must be one run, and two.json has 2")
            && text(&o.stderr).contains("its runs: a, b")
    );
    let o = runlens(d.path(), &["compare", "two.json#nope", "cand.jtl"]);
    assert_eq!(code(&o), Some(3));
    assert!(text(&o.stderr).contains("two.json has no run “nope”; its runs: a, b"), "{}", text(&o.stderr));
    assert_eq!(code(&runlens(d.path(), &["compare", "base.jtl"])), Some(3), "one run alone");
    assert_eq!(code(&runlens(d.path(), &["compare", "base.jtl", "cand.jtl", "--format", "pdf"])), Some(3));
    assert_eq!(code(&runlens(d.path(), &["compare", "base.jtl", "--src", "x"])), Some(3), "--src needs --viewer");
    assert_eq!(code(&runlens(d.path(), &["compare", "missing.jtl", "cand.jtl"])), Some(2), "a file that is not there");
    // #first / #last pick a history's runs; a multi-run candidate gives every run.
    let o = runlens(d.path(), &["compare", "two.json#first", "two.json#last", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["baseline"]["id"].as_str(), v["candidates"][0]["id"].as_str()), (Some("a"), Some("b")));
    let o = runlens(d.path(), &["compare", "base.jtl", "two.json", "--format", "json"]);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["candidates"].as_array().map(Vec::len),
        Some(2)
    );
}
