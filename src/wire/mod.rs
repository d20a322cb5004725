//! What the ingest worker hands the page when a file is done: the bundle, its warnings, the format
//! and counts, as MessagePack (self-describing, so the bundle's optional fields round-trip; decoding
//! binary is several times cheaper than parsing the JSON again, and the page never links a JSON
//! bundle parser).

use crate::bundle::{Bundle, Warning};
use crate::import::Imported;
use serde::{Deserialize, Serialize};

/// A finished import, as it crosses from the worker to the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Done {
    /// `import::Format::slug()` of what the file was.
    pub format: String,
    pub format_title: String,
    pub bundle: Bundle,
    /// (place, message).
    pub warnings: Vec<(String, String)>,
    pub records: u64,
}

impl Done {
    pub fn warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        self.warnings.iter().map(|(p, m)| Warning { path: p.clone(), message: m.clone() })
    }
}

pub fn encode_done(imp: &Imported) -> Vec<u8> {
    let done = Done {
        format: imp.format.slug().into(),
        format_title: imp.format.title().into(),
        bundle: imp.bundle.clone(),
        warnings: imp.warnings.iter().map(|w| (w.path.clone(), w.message.clone())).collect(),
        records: imp.records,
    };
    rmp_serde::to_vec_named(&done).unwrap_or_default()
}

/// Reads the worker's answer on the page in two steps: MessagePack into a `serde_json::Value`
/// (one instance of rmp-serde's decoder), then the bundle types from that tree. serde's derived
/// code for each bundle type is then compiled against `Value`'s small, type-directed deserializer
/// only, instead of once per type with rmp-serde's decoder inlined (345 KB of the page's 1.6 MB of
/// wasm) or once per visitor behind erased-serde's 30-method vtables (139 KB more than this;
/// docs/size.md). The tree is the bundle's JSON data model, which is what a bundle is: a
/// non-finite number (which no bundle file can hold either) reads as a missing value, or fails
/// with a message where a number is required.
pub fn decode_done(bytes: &[u8]) -> Result<Done, String> {
    let value: serde_json::Value = rmp_serde::from_slice(bytes).map_err(|e| format!("the ingest worker's answer could not be read ({e})"))?;
    Done::deserialize(value).map_err(|e| format!("the ingest worker's answer could not be read ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_bundle_round_trips_through_the_wire() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|f| f == "index.json") || p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let imp = crate::import::import_bytes(&p.to_string_lossy(), &std::fs::read(&p).unwrap()).unwrap();
            let done = decode_done(&encode_done(&imp)).unwrap();
            assert_eq!(done.bundle, imp.bundle);
            assert_eq!(done.format, "bundle");
            n += 1;
        }
        assert!(n >= 4);
    }

    #[test]
    fn a_non_finite_number_reads_as_missing_or_as_an_error_never_a_panic() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
        let p = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).find(|p| {
            p.extension().is_some_and(|x| x == "json") && p.file_name().is_some_and(|f| f != "index.json")
        });
        let p = p.unwrap();
        let mut imp = crate::import::import_bytes(&p.to_string_lossy(), &std::fs::read(&p).unwrap()).unwrap();
        let run = &mut imp.bundle.runs[0];
        run.duration_s = Some(f64::NAN);
        let done = decode_done(&encode_done(&imp)).unwrap();
        assert_eq!(done.bundle.runs[0].duration_s, None);
        imp.bundle.runs[0].kpis.push(crate::bundle::Kpi { name: "x".into(), value: f64::INFINITY, ..Default::default() });
        let err = decode_done(&encode_done(&imp)).unwrap_err();
        assert!(err.contains("could not be read"), "{err}");
    }
}
