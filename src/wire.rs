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

/// Reads the worker's answer on the page. The MessagePack deserializer is erased
/// (`erased_serde`): serde's derived code for each bundle type is then compiled once, against one
/// `dyn` deserializer, instead of once per type with rmp-serde's decoder inlined into each; this
/// alone was 345 KB of the page's 1.6 MB of wasm (ARCHITECTURE.md, "Size"). Decoding costs a
/// virtual call per value, which a bundle of any size does not notice.
pub fn decode_done(bytes: &[u8]) -> Result<Done, String> {
    let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
    let mut erased = <dyn erased_serde::Deserializer>::erase(&mut de);
    erased_serde::deserialize(&mut erased).map_err(|e| format!("the ingest worker's answer could not be read ({e})"))
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
}
