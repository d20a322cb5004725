//! What the ingest worker hands the page when a file is done: the bundle, its warnings, the format
//! and counts, in pieces (`Pieces`): the answer without its runs, then each run, its transactions
//! in the flat binary of `transactions` (the bulk of a big bundle, read in one pass) and the rest
//! as JSON text, which the page reads through a `serde_json::Value` with the JSON parser it links
//! anyway (remembered files) rather than a second decoder (`docs/size.md`).

mod transactions;

use crate::bundle::{Bundle, Run, Warning};
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

/// A finished import in pieces: the answer without its runs (`head`), then each run on its own,
/// so the page reads a big bundle run by run in short tasks instead of one long one. A run is a
/// `u32` length, the run without its transactions as JSON, then its transactions in the flat
/// binary of `transactions` (most of a big bundle, read with no second parse).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pieces {
    pub head: Vec<u8>,
    pub runs: Vec<Vec<u8>>,
}

pub fn encode_done(mut imp: Imported) -> Pieces {
    let runs = std::mem::take(&mut imp.bundle.runs);
    Pieces { head: encode_head(imp), runs: runs.into_iter().map(encode_run).collect() }
}

/// The answer without its runs (`imp.bundle.runs` is left out: pieces of runs are made apart).
pub fn encode_head(mut imp: Imported) -> Vec<u8> {
    imp.bundle.runs.clear();
    let done = Done {
        format: imp.format.slug().into(),
        format_title: imp.format.title().into(),
        bundle: imp.bundle,
        warnings: imp.warnings.iter().map(|w| (w.path.clone(), w.message.clone())).collect(),
        records: imp.records,
    };
    serde_json::to_vec(&done).unwrap_or_default()
}

pub fn encode_run(mut run: Run) -> Vec<u8> {
    encode_run_ref(&mut run)
}

/// `encode_run` of a run that is kept (its transactions are taken out while its head is written,
/// then put back).
pub fn encode_run_ref(run: &mut Run) -> Vec<u8> {
    let txs = std::mem::take(&mut run.transactions);
    let head = serde_json::to_vec(&*run).unwrap_or_default();
    let mut out = Vec::with_capacity(4 + head.len() + txs.len() * 128);
    out.extend_from_slice(&u32::try_from(head.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&head);
    transactions::encode(&txs, &mut out);
    run.transactions = txs;
    out
}

fn unreadable(e: impl std::fmt::Display) -> String {
    format!("the ingest worker's answer could not be read ({e})")
}

/// Reads a piece of the worker's answer on the page in two steps: JSON text into a
/// `serde_json::Value`, then the bundle types from that tree. serde's derived code for each bundle
/// type is then compiled against `Value`'s small, type-directed deserializer only, instead of once
/// per type with a decoder inlined (345 KB of the page's 1.6 MB of wasm for MessagePack) or once per
/// visitor behind erased-serde's 30-method vtables (docs/size.md). The tree is the bundle's JSON
/// data model, which is what a bundle is: a non-finite number (which no bundle file can hold
/// either; the worker writes it as `null`) reads as a missing value, or fails with a message where
/// a number is required.
fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(bytes).map_err(unreadable)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(unreadable)?;
    T::deserialize(value).map_err(unreadable)
}

/// The answer without its runs.
pub fn decode_head(bytes: &[u8]) -> Result<Done, String> {
    decode(bytes)
}

/// One run of the answer; `i` is its place in the bundle (for the message).
pub fn decode_run(bytes: &[u8], i: usize) -> Result<Run, String> {
    let at = |e: String| format!("{e} at runs[{i}]");
    let len = bytes.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map(u32::from_le_bytes).ok_or_else(|| at(unreadable("it ends early")))? as usize;
    let head = bytes.get(4..4usize.saturating_add(len)).ok_or_else(|| at(unreadable("it ends early")))?;
    let mut run: Run = decode(head).map_err(at)?;
    run.transactions = transactions::decode(&bytes[4 + len..]).map_err(|e| at(unreadable(e)))?;
    Ok(run)
}

/// The whole answer at once (the page reads it piece by piece, `ui::ingest`).
pub fn decode_done(pieces: &Pieces) -> Result<Done, String> {
    let mut done = decode_head(&pieces.head)?;
    for (i, r) in pieces.runs.iter().enumerate() {
        done.bundle.runs.push(decode_run(r, i)?);
    }
    Ok(done)
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
            let pieces = encode_done(imp.clone());
            assert_eq!(pieces.runs.len(), imp.bundle.runs.len(), "one piece per run");
            let done = decode_done(&pieces).unwrap();
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
        let done = decode_done(&encode_done(imp.clone())).unwrap();
        assert_eq!(done.bundle.runs[0].duration_s, None);
        imp.bundle.runs[0].kpis.push(crate::bundle::Kpi { name: "x".into(), value: f64::INFINITY, ..Default::default() });
        let err = decode_done(&encode_done(imp)).unwrap_err();
        assert!(err.contains("could not be read") && err.ends_with("at runs[0]"), "{err}");
    }
}
