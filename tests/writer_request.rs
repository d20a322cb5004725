#![cfg(not(target_arch = "wasm32"))]
//! The page's request to the writer worker (`wire::write::encode_request`) is written into one
//! buffer sized beforehand (`capacity_for`): the buffer never has to grow (a grown one cost the
//! page a copy of the run and kept memory, decision 0052), and it is not much larger than the
//! request, on every corpus file with a timeline and on generated JTLs.

use runlens::bundle::{Bundle, BundleRef};
use runlens::import::import_bytes;
use runlens::wire::write::{capacity_for, encode_request, RequestRef};

/// The request's length and the room it was given, checked against each other.
fn check(name: &str, bundles: &[&Bundle]) -> (usize, usize) {
    let request = RequestRef::Json { bundles: bundles.iter().map(|b| BundleRef::of(b)).collect(), pretty: false };
    let (len, room) = (encode_request(&request).len(), capacity_for(&request));
    assert!(len <= room, "{name}: a request of {len} B was given {room} B");
    assert!(room <= len + len / 4 + 131_072, "{name}: a request of {len} B was given {room} B");
    (len, room)
}

#[test]
fn a_request_fits_the_room_it_is_given_on_corpus_files() {
    let mut with_timelines = Vec::new();
    for (name, path) in support::corpus::files(&["gatling", "jmeter-csv", "jmeter-xml", "k6", "locust"]) {
        let Ok(imp) = import_bytes(&name, &std::fs::read(&path).unwrap()) else { continue };
        if imp.bundle.runs.iter().any(|r| r.timeline.is_some()) {
            check(&name, &[&imp.bundle]);
            with_timelines.push(imp.bundle);
        }
    }
    assert!(with_timelines.len() >= 5, "{} corpus files with timelines", with_timelines.len());
    // All of them in one request, as Save bundle asks for several.
    check("all corpus files", &with_timelines.iter().collect::<Vec<_>>());
}

#[test]
fn a_request_fits_the_room_it_is_given_on_generated_runs() {
    for (seconds, labels) in [(60, 3), (900, 7), (3600, 50)] {
        let imp = import_bytes("gen.jtl", &support::jtl::ramped(seconds, 30, 1.5, 0, labels)).unwrap();
        let (len, _) = check(&format!("{seconds} s, {labels} labels"), &[&imp.bundle]);
        if seconds == 3600 {
            assert!(len > 300_000, "the hour's request is large enough to matter: {len} B");
        }
    }
}
