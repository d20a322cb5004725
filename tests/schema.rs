#![cfg(not(target_arch = "wasm32"))]
//! The JSON Schema in public/schema/bundle-v1.schema.json is generated from the bundle types and
//! kept in step with them; it declares the definitions and top-level required fields we promise.
//! Run `UPDATE_SCHEMA=1 cargo test --test schema` to rewrite the file after changing the types.

use serde_json::Value;
use std::path::PathBuf;

const TITLE: &str = "runlens bundle, format version 1";

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("public/schema/bundle-v1.schema.json")
}

/// The schema as generated from the types, with our title.
fn generated() -> Value {
    let mut schema = schemars::schema_for!(runlens::bundle::Bundle);
    schema.insert("title".into(), Value::String(TITLE.into()));
    schema.to_value()
}

fn generated_text() -> String {
    let mut text = serde_json::to_string_pretty(&generated()).unwrap();
    text.push('\n');
    text
}

#[test]
fn committed_schema_matches_the_types() {
    let path = schema_path();
    let want = generated_text();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is out of date with src/bundle/types.rs; rerun with UPDATE_SCHEMA=1 \
         (UPDATE_SCHEMA=1 cargo test --test schema) to rewrite it, then review the diff",
        path.display()
    );
}

#[test]
fn schema_has_title_and_top_level_requirements() {
    let s = generated();
    assert_eq!(s["title"], TITLE);
    assert_eq!(s["type"], "object");
    let required: Vec<&str> =
        s["required"].as_array().expect("required list").iter().map(|v| v.as_str().unwrap()).collect();
    for field in ["format", "version", "report", "runs"] {
        assert!(required.contains(&field), "{field} is not required at top level: {required:?}");
    }
    assert!(!required.contains(&"comparisons"), "comparisons must stay optional");
}

#[test]
fn schema_defines_the_main_objects() {
    let s = generated();
    let defs = s["$defs"].as_object().expect("$defs");
    for name in ["Report", "Run", "Transaction", "Histogram", "IndexStats", "ByteSize", "Resource", "Comparison"] {
        assert!(defs.contains_key(name), "no definition for {name}; have {:?}", defs.keys().collect::<Vec<_>>());
    }
    let run_required = defs["Run"]["required"].as_array().unwrap();
    assert!(run_required.contains(&Value::from("id")) && run_required.contains(&Value::from("label")));
    assert_eq!(defs["Transaction"]["required"], serde_json::json!(["name"]));
    // The _cat/indices sizes accept integers and human strings.
    let byte_size = serde_json::to_string(&defs["ByteSize"]).unwrap();
    assert!(byte_size.contains("oneOf") && byte_size.contains("122.9gb"), "{byte_size}");
}
