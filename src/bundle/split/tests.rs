use super::*;
use proptest::prelude::*;
use serde_json::{json, Value};

fn examples() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("index.json"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 4);
    out
}

/// `run_separators` of text that arrives `piece` bytes at a time.
fn fed_in_pieces(bytes: &[u8], piece: usize) -> Option<Vec<usize>> {
    let mut s = Scanner::default();
    let mut end = 0;
    while end < bytes.len() {
        end = (end + piece).min(bytes.len());
        s.feed(&bytes[..end]);
    }
    s.finish(bytes)
}

/// Checks the separators against serde_json: each element parses to the bundle's run, the fast
/// scan agrees with the byte-by-byte one, and every cut into groups puts the runs back together.
fn assert_agrees(bytes: &[u8]) {
    let whole: Value = serde_json::from_slice(bytes).unwrap();
    let runs = whole["runs"].as_array().unwrap();
    let seps = run_separators(bytes).expect("the runs are found");
    assert_eq!(scan_slowly(bytes).as_ref(), Some(&seps), "the fast scan differs from the byte loop");
    for piece in [1, 63, 64, 100, 4096] {
        assert_eq!(fed_in_pieces(bytes, piece).as_ref(), Some(&seps), "fed {piece} bytes at a time");
    }
    if runs.is_empty() {
        // An empty array reads as one element of nothing but whitespace, which `split` refuses.
        assert_eq!(seps.len(), 2);
        assert!(bytes[seps[0] + 1..seps[1]].iter().all(u8::is_ascii_whitespace));
        assert_eq!(split(bytes, 2), None);
        return;
    }
    assert_eq!(seps.len(), runs.len() + 1);
    for (i, run) in runs.iter().enumerate() {
        let element: Value = serde_json::from_slice(&bytes[seps[i] + 1..seps[i + 1]]).unwrap();
        assert_eq!(&element, run, "run {i}");
    }
    if let Some(cut) = Cut::new(bytes, &seps, 2) {
        let (head, replaced) = cut.head(bytes.to_vec());
        assert_eq!(Cut::restore(head, replaced), bytes, "the head gives the whole file back");
    }
    for groups in 2..5 {
        let Some(cut) = split(bytes, groups) else {
            assert!(runs.len() < 2);
            continue;
        };
        let mut head: Value = serde_json::from_slice(&cut.head).unwrap();
        let mut together = head["runs"].as_array().unwrap().clone();
        assert!(!together.is_empty());
        assert_eq!(cut.parts.len(), groups.min(runs.len()) - 1);
        for (first, part) in &cut.parts {
            assert_eq!(*first, together.len(), "a part starts where the previous ended");
            let part: Vec<Value> = serde_json::from_slice(part).unwrap();
            assert!(!part.is_empty());
            together.extend(part);
        }
        assert_eq!(&together, runs);
        head["runs"] = whole["runs"].clone();
        assert_eq!(head, whole, "the head keeps everything around the runs");
    }
}

#[test]
fn finds_the_runs_of_every_example_compact_and_pretty() {
    for (name, bytes) in examples() {
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        eprintln!("{name}");
        assert_agrees(&bytes);
        assert_agrees(serde_json::to_string(&v).unwrap().as_bytes());
        assert_agrees(serde_json::to_string_pretty(&v).unwrap().as_bytes());
    }
}

#[test]
fn refuses_what_it_cannot_cut() {
    let one =
        json!({"format": "runlens-bundle", "version": 1, "report": {"title": "t"}, "runs": [{"id": "a"}]}).to_string();
    assert_eq!(split(one.as_bytes(), 2), None, "one run");
    let two = r#"{"report": {"runs": [1, 2]}, "runs": [{"id": "a"}, {"id": "b"}]}"#;
    let at = |pat: &str| two.find(pat).unwrap();
    let expected = vec![at("[{"), at("}, {") + 1, two.len() - 2];
    assert_eq!(run_separators(two.as_bytes()), Some(expected), "a nested runs key is not the bundle's");
    assert!(split(two.as_bytes(), 2).is_some());
    for bad in [
        r#"{"runs": [{"id": "a"}, {"id": "b"}], "runs": [{"id": "c"}, {"id": "d"}]}"#,
        r#"{"runs": {"a": 1, "b": 2}}"#,
        r#"{"runs": "[1, 2]"}"#,
        r#"{"runs": 12}"#,
        r#"{"other": [1, 2]}"#,
        r#"{"runs": [{"id": "a"}, {"id": "b"}"#,
        r#"{"runs": [{"id": "a"}, {"id": "b"}]}]"#,
        r#"[{"runs": [{"id": "a"}, {"id": "b"}]}]"#,
        "\u{feff}{\"runs\": [{\"id\": \"a\"}, {\"id\": \"b\"}]}",
        r#"{"runs": [{"id": "a", "x": NaN}, {"id": "b"}]}"#,
        r#"{"runs": [{"id": "a", "x": -Infinity}, {"id": "b"}]}"#,
    ] {
        assert_eq!(split(bad.as_bytes(), 2), None, "{bad}");
    }
}

/// Text with what makes a scan go wrong: quotes, backslashes, brackets, commas and colons inside
/// strings, and multi-byte characters.
fn awkward_string() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("\""),
            Just("\\"),
            Just("["),
            Just("]"),
            Just("{"),
            Just("}"),
            Just(","),
            Just(":"),
            Just("runs"),
            Just("é"),
            Just("😀"),
            Just(" "),
            Just("a")
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

fn run_value() -> impl Strategy<Value = Value> {
    (awkward_string(), awkward_string(), proptest::collection::vec((awkward_string(), 0u32..100_000, proptest::collection::vec(0u32..1000, 0..20)), 0..6))
        .prop_map(|(id, label, txs)| {
            let txs: Vec<Value> = txs
                .into_iter()
                .map(|(name, n, counts)| json!({"name": name, "samples": n, "histogram": {"upper_bounds_ms": counts.iter().map(|c| *c as f64 + 0.5).collect::<Vec<_>>(), "counts": counts}}))
                .collect();
            json!({"id": id, "label": label, "transactions": txs, "notes": [[], {}, "]"]})
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn agrees_with_serde_json_on_awkward_bundles(
        runs in proptest::collection::vec(run_value(), 0..7),
        before in awkward_string(),
        pretty in any::<bool>(),
        runs_last in any::<bool>(),
    ) {
        let mut bundle = serde_json::Map::new();
        bundle.insert("format".into(), json!("runlens-bundle"));
        bundle.insert("report".into(), json!({"title": before, "runs": [{"id": "not a run"}]}));
        if runs_last {
            bundle.insert("zz".into(), json!({"x": "runs"}));
        }
        bundle.insert("runs".into(), Value::Array(runs));
        let v = Value::Object(bundle);
        let text = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { serde_json::to_string(&v).unwrap() };
        assert_agrees(text.as_bytes());
    }

    #[test]
    fn a_nan_cut_between_pieces_is_found(piece in 1usize..12, at in 0usize..40) {
        let text = br#"{"runs": [{"id": "a", "x": 1}, {"id": "b", "x": 2}]}"#.to_vec();
        prop_assert!(run_separators(&text).is_some());
        let at = at.min(text.len() - 10);
        for token in [&b"NaN"[..], b"Infinity"] {
            let mut bad = text.clone();
            bad.splice(at..at, token.iter().copied());
            prop_assert_eq!(fed_in_pieces(&bad, piece), None);
        }
    }

    #[test]
    fn any_bytes_are_refused_or_cut_never_a_panic(bytes in proptest::collection::vec(prop_oneof![Just(b'"'), Just(b'\\'), Just(b'['), Just(b']'), Just(b'{'), Just(b'}'), Just(b','), Just(b':'), Just(b'r'), Just(b' '), any::<u8>()], 0..200), prefix in any::<bool>()) {
        let mut text = if prefix { br#"{"runs": ["#.to_vec() } else { Vec::new() };
        text.extend(bytes);
        let fast = run_separators(&text);
        prop_assert_eq!(&fast, &scan_slowly(&text));
        prop_assert_eq!(&fast, &fed_in_pieces(&text, 7));
        if let Some(cut) = split(&text, 3) {
            prop_assert!(cut.parts.iter().all(|(_, p)| p.first() == Some(&b'[') && p.last() == Some(&b']')));
        }
    }
}
