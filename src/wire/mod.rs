//! What the ingest worker hands the page when a file is done: the bundle, its warnings, the format
//! and counts, in pieces (`Pieces`): the answer without its runs, then each run: its transactions
//! in the flat binary of `transactions` (most of a big bundle, read in one pass, 3 times as fast
//! as borsh reads them) and the rest in borsh's binary. borsh's derived readers are a fraction of
//! the size of serde's, so the page links no serde deserializer of the bundle types at all
//! (`docs/decisions/0002-borsh-on-the-wire.md`). Numbers follow JSON's rule first (`finite`).

mod finite;
mod transactions;
pub mod write;

use crate::bundle::{Bundle, Run, Warning};
use crate::import::Imported;
use borsh::{BorshDeserialize, BorshSerialize};

/// A finished import, as it crosses from the worker to the page.
#[derive(Debug, Clone, PartialEq, BorshSerialize, BorshDeserialize)]
pub struct Done {
    /// `import::Format::slug()` of what the file was.
    pub format: String,
    pub format_title: String,
    pub bundle: Bundle,
    pub warnings: Vec<Warning>,
    pub records: u64,
}

impl Done {
    pub fn warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        self.warnings.iter().cloned()
    }
}

/// A finished import in pieces: the answer without its runs (`head`), then each run on its own,
/// so the page reads a big bundle run by run in short tasks instead of one long one. The head is
/// borsh's `Result<Done, String>`; a run is a `u32` length, borsh's `Result<Run, String>` of the
/// run without its transactions, then its transactions in the flat binary of `transactions`.
/// `Err` says why the worker could not hand that part over.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pieces {
    pub head: Vec<u8>,
    pub runs: Vec<Vec<u8>>,
}

pub fn encode_done(imp: Imported) -> Pieces {
    encode_pieces(done_of(imp))
}

fn done_of(imp: Imported) -> Done {
    Done {
        format: imp.format.slug().into(),
        format_title: imp.format.title().into(),
        bundle: imp.bundle,
        warnings: imp.warnings,
        records: imp.records,
    }
}

/// `encode_done` of an answer that is not an import (the writer's merged runs, `write`).
pub fn encode_pieces(mut done: Done) -> Pieces {
    let runs = std::mem::take(&mut done.bundle.runs);
    Pieces { head: encode_done_head(done), runs: runs.into_iter().map(encode_run).collect() }
}

/// The answer without its runs (`imp.bundle.runs` is left out: pieces of runs are made apart).
pub fn encode_head(imp: Imported) -> Vec<u8> {
    encode_done_head(done_of(imp))
}

fn encode_done_head(mut done: Done) -> Vec<u8> {
    done.bundle.runs.clear();
    if let Some(t) = &mut done.bundle.thresholds {
        finite::thresholds(t);
    }
    encode(Ok(&done))
}

pub fn encode_run(mut run: Run) -> Vec<u8> {
    encode_run_ref(&mut run)
}

/// `encode_run` of a run that is kept (its other non-finite numbers are made missing in place;
/// its transactions are left to the flat binary's reader, which applies the rule itself).
pub fn encode_run_ref(run: &mut Run) -> Vec<u8> {
    let txs = std::mem::take(&mut run.transactions);
    let checked = finite::run(run);
    run.transactions = txs;
    match checked {
        Ok(()) => run_piece(run),
        Err(e) => piece::<Run>(Err(e), &[]),
    }
}

/// A run's piece as it is (its numbers already follow JSON's rule: the page's runs came from the
/// worker): the `u32` length of the borsh run without its transactions, that, then the
/// transactions in the flat binary.
pub(crate) fn run_piece(run: &Run) -> Vec<u8> {
    // borsh leaves the transactions out (`#[borsh(skip)]` on `Run::transactions`).
    piece(Ok(run), &run.transactions)
}

/// The piece written straight into one buffer of the right size: a run's borsh (its timeline
/// mostly, 6 MB for a 1M-row JTL) written apart and then copied took three times its size at
/// its peak, in a wasm memory that keeps its largest size (decision 0062).
fn piece<T: BorshSerialize>(head: Result<&T, String>, txs: &[crate::bundle::Transaction]) -> Vec<u8> {
    // Writing fails only on NaN, which `finite` has taken out; the head is then empty, as the
    // reader expects of an unreadable piece.
    let len = borsh::object_length(&head).ok().and_then(|n| u32::try_from(n).ok());
    // The transactions first, apart (small beside a timeline), so that the piece is allocated once.
    let mut tail = Vec::with_capacity(txs.len() * 128);
    transactions::encode(txs, &mut tail);
    let mut out = Vec::with_capacity(4 + len.unwrap_or(0) as usize + tail.len());
    out.extend_from_slice(&len.unwrap_or(0).to_le_bytes());
    if len.is_some() && borsh::to_writer(&mut out, &head).is_err() {
        out.truncate(0);
        out.extend_from_slice(&0u32.to_le_bytes());
    }
    out.extend_from_slice(&tail);
    out
}

fn encode<T: BorshSerialize>(piece: Result<&T, String>) -> Vec<u8> {
    // Writing to a `Vec` fails only on NaN, which `finite` has taken out.
    borsh::to_vec(&piece).unwrap_or_default()
}

fn unreadable(e: impl std::fmt::Display) -> String {
    format!("the ingest worker's answer could not be read ({e})")
}

/// Reads a piece that `encode` wrote.
fn decode<T: BorshDeserialize>(bytes: &[u8]) -> Result<T, String> {
    borsh::from_slice::<Result<T, String>>(bytes).map_err(unreadable)?.map_err(unreadable)
}

/// The answer without its runs.
pub fn decode_head(bytes: &[u8]) -> Result<Done, String> {
    decode(bytes)
}

/// One run of the answer; `i` is its place in the bundle (for the message).
pub fn decode_run(bytes: &[u8], i: usize) -> Result<Run, String> {
    let at = |e: String| format!("{e} at runs[{i}]");
    let len = bytes
        .get(..4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map(u32::from_le_bytes)
        .ok_or_else(|| at(unreadable("it ends early")))? as usize;
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

    use super::transactions::tests::{full, variants};
    use crate::bundle::{Histogram, Transaction};

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
            // Each piece is allocated once, at its size (a run's can be megabytes, decision 0062).
            assert!(pieces.runs.iter().all(|r| r.capacity() == r.len()), "{}", p.display());
            let done = decode_done(&pieces).unwrap();
            assert_eq!(done.bundle, imp.bundle);
            assert_eq!(done.format, "bundle");
            n += 1;
        }
        assert!(n >= 4);
    }

    fn run_of(transactions: Vec<Transaction>) -> Run {
        Run { id: "r".into(), label: "R".into(), transactions, ..Default::default() }
    }

    #[test]
    fn every_transaction_field_and_every_absence_round_trips_in_a_run_and_in_a_tenant() {
        // A run's transactions travel in the flat binary, a tenant's in borsh.
        let mut run = run_of(variants());
        run.tenants.push(crate::bundle::TenantResult {
            tenant: "t".into(),
            transactions: variants(),
            ..Default::default()
        });
        let back = decode_run(&encode_run(run.clone()), 0).unwrap();
        assert_eq!(back, run);
        let bits = |txs: &[Transaction]| txs.iter().map(|t| t.min_ms.map(f64::to_bits)).collect::<Vec<_>>();
        assert_eq!(bits(&back.transactions), bits(&run.transactions), "bit for bit (−0 stays −0)");
        assert_eq!(bits(&back.tenants[0].transactions), bits(&run.tenants[0].transactions));
    }

    #[test]
    fn truncated_or_damaged_data_is_an_error_never_a_panic() {
        let bytes = encode_run(run_of(vec![full(), full()]));
        for cut in 0..bytes.len() {
            let e = decode_run(&bytes[..cut], 3).unwrap_err();
            assert!(
                e.starts_with("the ingest worker's answer could not be read") && e.ends_with("at runs[3]"),
                "cut at {cut}: {e}"
            );
        }
        // Every byte flipped in turn: an error or a run, never a panic.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xff;
            let _ = decode_run(&b, 0);
        }
        assert!(decode_head(&bytes).is_err(), "a run is not a head");
    }

    #[test]
    fn a_non_finite_transaction_number_reads_as_missing_a_non_finite_bound_is_an_error() {
        let mut nan = full();
        nan.p95_ms = Some(f64::NAN);
        nan.max_ms = Some(f64::NEG_INFINITY);
        nan.percentiles.insert("p50".into(), f64::INFINITY);
        let back = decode_run(&encode_run(run_of(vec![nan])), 0).unwrap();
        let t = &back.transactions[0];
        assert_eq!(
            (t.p95_ms, t.max_ms, t.percentiles.get("p50"), t.p90_ms),
            (None, None, None, Some(3.0)),
            "not finite reads as missing"
        );
        let mut bad = full();
        bad.histogram = Some(Histogram { upper_bounds_ms: vec![f64::NAN], counts: vec![1] });
        let mut tenant = run_of(vec![]);
        tenant.tenants.push(crate::bundle::TenantResult {
            tenant: "t".into(),
            transactions: vec![full(), bad],
            ..Default::default()
        });
        let e = decode_run(&encode_run(tenant), 2).unwrap_err();
        assert_eq!(e, "the ingest worker's answer could not be read (a histogram bound of tenants[0].transactions[1] is NaN, which is not a number) at runs[2]");
        let mut resources = run_of(vec![]);
        let phase = crate::bundle::Phase { label: "p".into(), average: Some(f64::NAN), peak: Some(2.0) };
        let series = crate::bundle::TimeSeries { t_s: vec![0.0, 1.0], values: vec![1.0, 2.0] };
        resources.resources.push(crate::bundle::Resource {
            peak: Some(f64::INFINITY),
            min: Some(1.0),
            phases: vec![phase],
            series: Some(series),
            ..Default::default()
        });
        let back = decode_run(&encode_run(resources.clone()), 0).unwrap();
        let r = &back.resources[0];
        assert_eq!((r.peak, r.min, r.phases[0].average, r.phases[0].peak), (None, Some(1.0), None, Some(2.0)));
        resources.resources[0].series.as_mut().unwrap().values[1] = f64::INFINITY;
        let e = decode_run(&encode_run(resources), 0).unwrap_err();
        assert!(e.contains("a value of resources[0].series is inf"), "{e}");
    }

    #[test]
    fn a_non_finite_number_reads_as_missing_or_as_an_error_never_a_panic() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/examples");
        let p = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "json") && p.file_name().is_some_and(|f| f != "index.json"));
        let p = p.unwrap();
        let mut imp = crate::import::import_bytes(&p.to_string_lossy(), &std::fs::read(&p).unwrap()).unwrap();
        let run = &mut imp.bundle.runs[0];
        run.duration_s = Some(f64::NAN);
        imp.bundle.thresholds.get_or_insert_default().cpu = Some(f64::INFINITY);
        let done = decode_done(&encode_done(imp.clone())).unwrap();
        assert_eq!(done.bundle.runs[0].duration_s, None);
        assert_eq!(done.bundle.thresholds.and_then(|t| t.cpu), None);
        imp.bundle.runs[0].kpis.push(crate::bundle::Kpi {
            name: "x".into(),
            value: f64::INFINITY,
            ..Default::default()
        });
        let err = decode_done(&encode_done(imp)).unwrap_err();
        assert!(err.contains("could not be read") && err.ends_with("at runs[0]"), "{err}");
    }
}
