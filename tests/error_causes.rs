#![cfg(not(target_arch = "wasm32"))]
//! Errors by cause of the corpus files, against counts made here from the raw rows.
//!
//! - JMeter CSV: every failed row grouped by (label, code, message) read with the `csv` crate,
//!   the message being the assertion's failure message where the code is a success (or empty)
//!   and one is given, as JMeter's dashboard keys errors; then normalised. The run's entries must
//!   be exactly these groups and counts, with first and last occurrence from the rows' times.
//! - Every raw-sample file (JMeter CSV and XML, Gatling logs, k6 points): per transaction, the
//!   failures of its causes add up to the transaction's errors, counted by the aggregator apart
//!   (Gatling groups aside: the failed request inside is the cause).

use runlens::bundle::Run;
use runlens::import::common::causes::normalise;
use runlens::import::import_bytes;
use std::collections::BTreeMap;
use std::path::Path;

fn corpus(folder: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(folder);
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// The first run of a file runlens reads (`None` for those it refuses, e.g. binary Gatling logs).
fn import(path: &Path) -> Option<Run> {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    import_bytes(&name, &bytes).ok().map(|mut i| i.bundle.runs.remove(0))
}

type Key = (String, String, String);
/// Count, first and last epoch ms of a cause.
type Seen = (u64, i64, i64);

/// (label, code, normalised message) → (count, first ms, last ms) of the failed rows of a JTL
/// with a header; `None` when the file has no header or no timeStamp in epoch ms.
fn brute_force(text: &str) -> Option<(BTreeMap<Key, Seen>, i64)> {
    let delim = if text.lines().next()?.matches('\t').count() > 2 { b'\t' } else { b',' };
    let mut r = csv::ReaderBuilder::new().delimiter(delim).flexible(true).from_reader(text.as_bytes());
    let head: Vec<String> = r.headers().ok()?.iter().map(str::to_string).collect();
    let col = |n: &str| head.iter().position(|h| h == n);
    let (ts, label, ok) = (col("timeStamp")?, col("label")?, col("success")?);
    let (code, msg, fail) = (col("responseCode"), col("responseMessage"), col("failureMessage"));
    let mut out: BTreeMap<Key, Seen> = BTreeMap::new();
    let mut origin = i64::MAX;
    for rec in r.records() {
        let rec = rec.ok()?;
        let t: i64 = rec.get(ts)?.parse().ok()?;
        origin = origin.min(t);
        if rec.get(ok)? != "false" {
            continue;
        }
        let get = |i: Option<usize>| i.and_then(|i| rec.get(i)).unwrap_or("").to_string();
        let (c, m, f) = (get(code), get(msg), get(fail));
        let assertion = !f.is_empty() && (c.is_empty() || c.starts_with(['2', '3']));
        let m = if assertion && !m.starts_with("Number of samples in transaction") { f } else { m };
        let m = match normalise(&m) {
            n if n.is_empty() => "(no message)".to_string(),
            n => n,
        };
        let e = out.entry((rec.get(label)?.to_string(), c.trim().to_string(), m)).or_insert((0, t, t));
        *e = (e.0 + 1, e.1.min(t), e.2.max(t));
    }
    Some((out, origin))
}

#[test]
fn jtl_causes_equal_a_count_of_the_raw_rows() {
    let mut checked = 0;
    for path in corpus("jmeter-csv") {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let Some((want, origin)) = brute_force(&text) else { continue };
        let run = import(&path).unwrap();
        let got: BTreeMap<Key, Seen> = run
            .errors
            .iter()
            .map(|e| {
                let key =
                    (e.transaction.clone().unwrap_or_default(), e.code.clone().unwrap_or_default(), e.message.clone());
                let ms = |s: Option<f64>| origin + (s.unwrap() * 1000.0).round() as i64;
                (key, (e.count.unwrap(), ms(e.first_s), ms(e.last_s)))
            })
            .collect();
        assert_eq!(got, want, "{}", path.display());
        checked += usize::from(!want.is_empty());
    }
    assert!(checked >= 8, "only {checked} corpus JTLs with failures were checked");
}

#[test]
fn causes_add_up_to_each_transactions_errors() {
    let mut checked = 0;
    let files = ["jmeter-csv", "jmeter-xml", "gatling", "k6"].into_iter().flat_map(corpus);
    for path in files {
        let Some(run) = import(&path) else { continue };
        // Raw-sample files only: their errors carry transactions.
        if !run.errors.iter().any(|e| e.transaction.is_some()) {
            continue;
        }
        let mut by_txn: BTreeMap<&str, u64> = BTreeMap::new();
        for e in run.errors.iter().filter(|e| !e.message.starts_with("check failed: ")) {
            if let Some(t) = &e.transaction {
                *by_txn.entry(t).or_insert(0) += e.count.unwrap_or(0);
            }
        }
        // Gatling groups fail with a request of theirs, which is the cause listed.
        for t in run.transactions.iter().filter(|t| !t.note.as_deref().unwrap_or("").starts_with("Gatling group")) {
            let errors = t.errors.unwrap_or(0);
            assert_eq!(by_txn.get(t.name.as_str()).copied().unwrap_or(0), errors, "{}: {}", path.display(), t.name);
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} files with errors by cause");
}
