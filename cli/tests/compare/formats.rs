//! Every output format against its golden file, raw files against their imported bundles, and
//! hostile transaction names kept as text in every format.

use super::*;

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
