use super::deserialize;
use crate::bundle::Bundle;
use serde::Deserialize;
use serde_json::Value;
use std::cell::Cell;

/// The flag's answer and `serde_ignored`'s for the same text: whether anything was skipped, or
/// None when the text does not parse as a bundle.
fn both(text: &str) -> (Option<bool>, Option<bool>) {
    let skipped = Cell::new(false);
    let mut json = serde_json::Deserializer::from_str(text);
    let flag = deserialize::<Bundle, _>(&mut json, &skipped).ok().map(|_| skipped.get());
    let mut reported = false;
    let mut json = serde_json::Deserializer::from_str(text);
    let mut note = |_: serde_ignored::Path<'_>| reported = true;
    let parsed = Bundle::deserialize(serde_ignored::Deserializer::new(&mut json, &mut note)).is_ok();
    let ignored = parsed.then_some(reported);
    (flag, ignored)
}

fn examples() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Bundles only: not the gallery's index, nor SOURCES.md.
        if name != "index.json" && name.ends_with(".json") {
            out.push((name, serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()));
        }
    }
    assert!(out.len() >= 4, "the example bundles are missing");
    out
}

/// Every object in `v`, by a path of indices (object members in their order, array elements).
fn objects(v: &Value, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    match v {
        Value::Object(m) => {
            out.push(at.clone());
            for (i, x) in m.values().enumerate() {
                at.push(i);
                objects(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i);
                objects(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn object_at<'v>(v: &'v mut Value, path: &[usize]) -> &'v mut serde_json::Map<String, Value> {
    let mut v = v;
    for &i in path {
        v = match v {
            Value::Object(m) => m.values_mut().nth(i).unwrap(),
            Value::Array(a) => &mut a[i],
            _ => unreachable!(),
        };
    }
    v.as_object_mut().unwrap()
}

#[test]
fn the_examples_skip_nothing() {
    for (name, v) in examples() {
        assert_eq!(both(&v.to_string()), (Some(false), Some(false)), "{name}");
    }
}

#[test]
fn a_field_put_into_any_object_raises_the_flag_where_serde_ignored_reports_it() {
    let mut raised = 0;
    for (name, v) in examples() {
        let mut paths = Vec::new();
        objects(&v, &mut Vec::new(), &mut paths);
        // Every object of the small examples; a spread of the bigger ones'.
        let step = (paths.len() / 600).max(1);
        for (k, path) in paths.iter().enumerate().filter(|(k, _)| k % step == 0) {
            for extra in [Value::from(1), serde_json::json!({"deep": [{"x": null}]})] {
                let mut w = v.clone();
                object_at(&mut w, path).insert(format!("zz_unknown_{k}"), extra);
                let (flag, ignored) = both(&w.to_string());
                assert_eq!(flag, ignored, "{name}: a field added at object {path:?}");
                raised += usize::from(flag == Some(true));
            }
        }
    }
    // Most objects are bundle structs (a few are free maps, where a number is a known value).
    assert!(raised > 200, "only {raised} added fields were noticed");
}

#[test]
fn a_value_of_the_wrong_type_fails_as_it_does_without_the_flag() {
    let (_, v) = examples().remove(0);
    let mut w = v.clone();
    w["runs"][0]["id"] = Value::from(5);
    assert_eq!(both(&w.to_string()), (None, None));
}
