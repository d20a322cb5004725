//! `runlens compare` as a CI job runs it: every exit code, every output format against the golden
//! files in `tests/golden/` (`RUNLENS_BLESS=1 cargo test -p runlens-cli` rewrites them), criteria
//! errors with their places in TOML, YAML and a bundle, raw files against their imported bundle,
//! hostile names escaped, and the viewer's link read back by `UrlState::parse`.

use std::path::Path;
use std::process::{Command, Output};
use tempfile::TempDir;

fn runlens(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runlens")).current_dir(dir).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

/// Transaction names no output may interpret.
const HOSTILE: [&str; 3] = ["Search <script>alert(1)</script>", "pay|ment ]]> `x` [a](http://e.x)", "multi\nline"];

/// A JTL of `Login` and the hostile names, 200 samples each; `slow` scales the second name's
/// times and `failing` of the third's 200 samples fail.
fn jtl(slow: f64, failing: u64) -> String {
    let mut out = String::from("timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n");
    for i in 0..200u64 {
        for (j, label) in ["Login", HOSTILE[0], HOSTILE[1], HOSTILE[2]].iter().enumerate() {
            let base = 100.0 + (i % 50) as f64 + 40.0 * j as f64;
            let ms = if j == 1 { base * slow } else { base };
            let ok = !(j == 2 && i < failing);
            let label = label.replace('"', "\"\"");
            out += &format!(
                "{},{},\"{label}\",200,OK,T 1-1,{ok},{}\n",
                1_700_000_000_000u64 + i * 4 + j as u64,
                ms as u64,
                i
            );
        }
    }
    out
}

/// A directory with `base.jtl` and `cand.jtl` (the second name 50 % slower, 10 % of the third
/// failing) and the files given.
fn setup(files: &[(&str, &str)]) -> TempDir {
    let d = tempfile::Builder::new().prefix("runlens-compare-").tempdir().unwrap();
    std::fs::write(d.path().join("base.jtl"), jtl(1.0, 0)).unwrap();
    std::fs::write(d.path().join("cand.jtl"), jtl(1.5, 20)).unwrap();
    for (name, content) in files {
        std::fs::write(d.path().join(name), content).unwrap();
    }
    d
}

const CRITERIA_TOML: &str = r#"min_samples = 100
ignore = ["Log*"]

[[fail]]
when = "p95 > +10%"

[[fail]]
when = "error_rate > 1%"

[[fail]]
when = "p99 > 200 ms"
transactions = "multi*"
"#;

/// Compares `actual` with `tests/golden/NAME`, or writes it there under `RUNLENS_BLESS=1`.
fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("RUNLENS_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}; run with RUNLENS_BLESS=1", path.display()));
    assert_eq!(actual, expected, "{name} differs from its golden file; RUNLENS_BLESS=1 rewrites it after a review");
}

#[test]
fn every_format_matches_its_golden_file_and_fails_with_1() {
    let d = setup(&[("criteria.toml", CRITERIA_TOML)]);
    for (format, file) in
        [("text", "compare.txt"), ("markdown", "compare.md"), ("junit", "compare.xml"), ("json", "compare.json")]
    {
        let o =
            runlens(d.path(), &["compare", "base.jtl", "cand.jtl", "--criteria", "criteria.toml", "--format", format]);
        assert_eq!(code(&o), Some(1), "{format}: {}", text(&o.stderr));
        golden(file, &text(&o.stdout));
    }
    // Without criteria: the viewer's summary is the gate.
    let o = runlens(d.path(), &["compare", "base.jtl", "cand.jtl", "--format", "markdown"]);
    assert_eq!(code(&o), Some(1), "{}", text(&o.stderr));
    golden("compare-no-criteria.md", &text(&o.stdout));
    let o = runlens(d.path(), &["compare", "base.jtl", "cand.jtl"]);
    assert!(text(&o.stdout).contains("no criteria given: the gate fails on any regression beyond noise (5 found)"));
}

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

#[test]
fn raw_files_give_what_their_imported_bundles_give() {
    let d = setup(&[("criteria.toml", CRITERIA_TOML)]);
    for f in ["base", "cand"] {
        let o = runlens(d.path(), &["import", "-q", &format!("{f}.jtl"), "-o", &format!("{f}.json")]);
        assert_eq!(code(&o), Some(0), "{}", text(&o.stderr));
    }
    let args = |b: &'static str, c: &'static str| ["compare", b, c, "--criteria", "criteria.toml", "--format", "json"];
    let raw = runlens(d.path(), &args("base.jtl", "cand.jtl"));
    let imported = runlens(d.path(), &args("base.json", "cand.json"));
    assert_eq!(code(&raw), Some(1));
    assert_eq!(text(&raw.stdout), text(&imported.stdout));
}

#[test]
fn hostile_names_stay_text_in_every_format() {
    let d = setup(&[("criteria.toml", CRITERIA_TOML)]);
    let run = |format: &str| {
        let o =
            runlens(d.path(), &["compare", "base.jtl", "cand.jtl", "--criteria", "criteria.toml", "--format", format]);
        text(&o.stdout)
    };
    let md = run("markdown");
    for raw in ["<script>", "pay|ment", "](http", "`x`", "\nline"] {
        assert!(!md.contains(raw), "markdown holds {raw:?}:\n{md}");
    }
    assert!(md.contains("Search &lt;script&gt;alert\\(1\\)&lt;/script&gt;"), "{md}");
    let txt = run("text");
    assert!(txt.contains("multi\\nline") && !txt.contains("multi\nline"), "{txt}");
    // JUnit: well-formed, and the names read back as they were.
    let xml = run("junit");
    assert!(!xml.contains("<script>") && !xml.contains("]]>"), "{xml}");
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut names = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)
                if e.name().as_ref() == "testcase" =>
            {
                let name = e.try_get_attribute("name").unwrap().unwrap();
                names.push(name.normalized_value(quick_xml::XmlVersion::Explicit1_0).unwrap().into_owned());
            }
            _ => {}
        }
    }
    for h in HOSTILE {
        assert!(names.iter().any(|n| n == h), "{h:?} in {names:?}");
    }
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let keys: Vec<&str> =
        json["candidates"][0]["checks"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
    assert!(HOSTILE.iter().all(|h| keys.contains(h)), "{keys:?}");
}

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

/// A history from the corpus (tests/corpus/SOURCES.md): its first night against its last.
#[test]
fn a_corpus_history_first_against_last() {
    let history = format!(
        "{}/../tests/corpus/jmeter-aggregate-history/ballerina-h1_h1_passthrough-nightly-summary.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let d = setup(&[
        ("tput.toml", "[[fail]]\nwhen = \"throughput < -5%\"\n"),
        ("lat.toml", "[[fail]]\nwhen = \"latency > 10 s\"\n"),
    ]);
    let first = format!("{history}#first");
    let last = format!("{history}#last");
    let o = runlens(d.path(), &["compare", &first, &last, "--criteria", "tput.toml"]);
    assert_eq!(code(&o), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("HTTP Request · throughput: 5,510/s → 3,743/s (−32.1%)"), "{}", text(&o.stdout));
    assert_eq!(code(&runlens(d.path(), &["compare", "-q", &first, &last, "--criteria", "lat.toml"])), Some(0));
}

#[test]
fn history_lists_its_change_points_and_leaves_the_exit_code_alone() {
    // The example history: search shifts +12% at nightly-26; checkout at nightly-31, annotated as
    // an expected change; a one-night spike in browse is no change point.
    let history = Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/examples/nightly-history.json");
    let h = history.to_str().unwrap();
    let dir = TempDir::new().unwrap();
    let (base, cand) = (format!("{h}#nightly-24"), format!("{h}#nightly-25"));
    let plain = runlens(dir.path(), &["compare", &base, &cand, "--format", "json"]);
    let with = runlens(dir.path(), &["compare", &base, &cand, "--format", "json", "--history", h]);
    assert_eq!(code(&with), code(&plain), "{}", text(&with.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    let shifts = doc["history"]["shifts"].as_array().unwrap();
    let found: Vec<(&str, &str, &str)> = shifts
        .iter()
        .map(|s| (s["metric"].as_str().unwrap(), s["run_id"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    assert!(found.contains(&("p95 of search", "nightly-26", "regression")), "{found:?}");
    assert!(found.contains(&("p95 of checkout", "nightly-31", "expected")), "{found:?}");
    assert!(found.iter().all(|f| !f.0.contains("browse")), "a one-night spike is no shift: {found:?}");
    assert_eq!(doc["history"]["runs"], 40);
    let md = runlens(dir.path(), &["compare", &base, &cand, "--format", "markdown", "--history", h]);
    let md = text(&md.stdout);
    assert!(md.contains("**Persistent shifts over the 40 runs of"), "{md}");
    assert!(md.contains("- p95 of search · shifted \\+13"), "{md}");
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
