#![cfg(not(target_arch = "wasm32"))]
//! The compact timeline a bundle carries (`cell_steps`, `value_steps`, derived samples and sums;
//! decision 0061) reads back as the timeline the importer held, bit for bit, on every corpus file
//! with a timeline and on generated JTLs; and the writer does use it for them.

use runlens::bundle::{load_bundle_str, to_json, Bundle, Timeline};
use runlens::import::import_bytes;

/// Every float of a timeline as bits, so that 0.0 and −0.0 or a last-bit change differ.
fn float_bits(t: &Timeline) -> Vec<u64> {
    t.transactions
        .iter()
        .flat_map(|x| x.sum_ms.iter().chain(&x.values_ms).chain(&x.relative_error))
        .map(|v| v.to_bits())
        .collect()
}

/// Writes the bundle, reads it back, and checks every timeline against the one held; returns how
/// many transactions were written in steps and how many in all.
fn round_trip(name: &str, bundle: &Bundle) -> (usize, usize) {
    let text = to_json(bundle, false).unwrap();
    let back = load_bundle_str(name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}")).bundle;
    assert_eq!(back.runs.len(), bundle.runs.len(), "{name}");
    for (a, b) in bundle.runs.iter().zip(&back.runs) {
        assert_eq!(a.timeline, b.timeline, "{name}: run {}", a.id);
        if let (Some(x), Some(y)) = (&a.timeline, &b.timeline) {
            assert_eq!(float_bits(x), float_bits(y), "{name}: run {}", a.id);
        }
    }
    assert_eq!(&back, bundle, "{name}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let txs: Vec<&serde_json::Value> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["timeline"]["transactions"].as_array())
        .flatten()
        .collect();
    (txs.iter().filter(|t| t.get("cell_steps").is_some()).count(), txs.len())
}

#[test]
fn corpus_timelines_read_back_as_imported() {
    let (mut stepped, mut all, mut files) = (0, 0, 0);
    for (name, path) in support::corpus::files(&["gatling", "jmeter-csv", "jmeter-xml", "k6", "locust"]) {
        let Ok(imp) = import_bytes(&name, &std::fs::read(&path).unwrap()) else { continue };
        if imp.bundle.runs.iter().all(|r| r.timeline.is_none()) {
            continue;
        }
        let (s, a) = round_trip(&name, &imp.bundle);
        stepped += s;
        all += a;
        files += 1;
    }
    assert!(files >= 5, "{files} corpus files with timelines");
    // Locust's history has no cells; the others are written in steps.
    assert!(stepped * 2 > all, "{stepped} of {all} transactions in steps");
}

#[test]
fn generated_jtls_read_back_as_imported() {
    for (seconds, labels, slowdown) in [(60, 3, 1.0), (900, 7, 2.5), (3600, 50, 1.5)] {
        let jtl = support::jtl::ramped(seconds, 30, slowdown, 0, labels);
        let imp = import_bytes("gen.jtl", &jtl).unwrap();
        let (stepped, all) = round_trip("gen.jtl", &imp.bundle);
        assert_eq!((stepped, all), (labels as usize, labels as usize), "{seconds} s");
    }
    // The hour (50 labels, 20 users): log-bucketed values (fractional) and sums that are
    // not the cells' are written as they are, next to the steps.
    let dir = std::env::temp_dir().join(format!("runlens-timeline-encoding-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gen.jtl");
    if support::jtl::gen_jtl_py(72_000, &path, None).is_some() {
        let imp = import_bytes("gen.jtl", &std::fs::read(&path).unwrap()).unwrap();
        let tl = imp.bundle.runs[0].timeline.as_ref().unwrap();
        assert!(tl.transactions.iter().any(|t| t.relative_error.is_some()), "a log-bucketed transaction");
        assert_eq!(round_trip("gen_jtl.py", &imp.bundle), (50, 50));
    }
    std::fs::remove_dir_all(&dir).ok();
}
