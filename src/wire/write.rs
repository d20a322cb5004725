//! What the page asks of the writer worker (`ui::writer` sends, `worker::write` answers): bundles
//! written as JSON text (Save bundle, links that carry runs) and the import panel's groups of files
//! made into runs (`assemble::group::bundle_of`). Both were the page's own work; here they keep
//! serde's JSON writer and the merging code out of the page's binary (docs/decisions/0014-writer-worker.md). A request
//! is borsh's binary of `Request`; the answer to a merge is the merged bundle in `Pieces`, as an
//! import's, with its compact JSON (what the page remembers for a reload).

use super::{encode_pieces, Done, Pieces};
use crate::assemble::group::{self, Group, GroupRef};
use crate::assemble::session::unmerged;
use crate::bundle::{self, Bundle, BundleRef, Run};
use borsh::{BorshDeserialize, BorshSerialize};

/// A request as the worker reads it.
#[derive(Debug, Clone, PartialEq, BorshDeserialize)]
pub enum Request {
    /// Each bundle as JSON text, indented when `pretty` (`bundle::to_json`).
    Json { bundles: Vec<Bundle>, pretty: bool },
    /// The import panel's files, grouped into runs, as one bundle titled `title`.
    Merge { groups: Vec<Group>, title: String },
    /// The fragment of a link that carries the bundle (`share::fragment` of its gzip JSON).
    /// Boxed (as in `RequestRef`) so the other variants are not the size of a bundle; borsh
    /// writes a box as what it holds.
    Link { bundle: Box<Bundle> },
}

/// A request as the page writes it, borrowed from the page's runs: borsh writes it as the
/// `Request` it stands for (the same variants, in the same order).
#[derive(Debug, Clone, BorshSerialize)]
pub enum RequestRef<'a> {
    Json { bundles: Vec<BundleRef<'a>>, pretty: bool },
    Merge { groups: Vec<GroupRef<'a>>, title: &'a str },
    Link { bundle: Box<BundleRef<'a>> },
}

/// What the worker answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// One UTF-8 JSON text per bundle asked for.
    Json(Vec<Vec<u8>>),
    /// The merged bundle and the warnings of merging (`Done::warnings`), and its compact JSON.
    Merged { pieces: Pieces, json: Vec<u8> },
    /// The compact JSON of a merge whose bundle is the session's `unmerged` one, without warnings:
    /// the page shows that bundle already, so it is not sent back.
    Shown { json: Vec<u8> },
    /// `bundle=…` for a link, or `Err` with the size of the gzip JSON when a link cannot carry it.
    Link(Result<String, u64>),
}

/// What the answer to a merge says about its format (`Done::format`).
pub const MERGED: &str = "merged";

impl RequestRef<'_> {
    /// Its runs, in the order the worker reads their transactions.
    fn runs(&self) -> Vec<&Run> {
        let bundles: Vec<&BundleRef> = match self {
            RequestRef::Json { bundles, .. } => bundles.iter().collect(),
            RequestRef::Merge { groups, .. } => groups.iter().flat_map(|g| g.files.iter().map(|f| &f.bundle)).collect(),
            RequestRef::Link { bundle } => vec![&**bundle],
        };
        bundles.into_iter().flat_map(|b| b.runs.iter().copied()).collect()
    }
}

impl Request {
    /// Its bundles, in the order `RequestRef::runs` gives their runs.
    fn bundles_mut(&mut self) -> Vec<&mut Bundle> {
        match self {
            Request::Json { bundles, .. } => bundles.iter_mut().collect(),
            Request::Link { bundle } => vec![&mut **bundle],
            Request::Merge { groups, .. } => {
                groups.iter_mut().flat_map(|g| g.files.iter_mut().map(|f| &mut f.bundle)).collect()
            }
        }
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Appends a `u32` length, then what `write` appends, and sets the length to that.
fn put(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    write(out);
    let len = u32_of(out.len() - at - 4).to_le_bytes();
    out[at..at + 4].copy_from_slice(&len);
}

/// About how many bytes a request takes, rather more than less: its runs' timelines (per bucket
/// its samples, errors, sum and cell count, and its values, 8 bytes a word; its cells 4 or 8,
/// `bundle::words::write_lists`), and an eighth more for the rest of the runs, which is small
/// beside them. The request is written into one buffer of that size, which then never grows: a
/// 1M-row run's is several megabytes, and writing it into a buffer grown by doubling, then copying
/// it, cost the page about 8 ms of a drop and left its wasm memory 14 MB larger (decision 0052,
/// sixth round).
pub fn capacity_for(request: &RequestRef) -> usize {
    let bytes = request.runs().into_iter().flat_map(|r| &r.timeline).flat_map(|t| &t.transactions).map(|x| {
        let cells: usize = x.cells.iter().map(Vec::len).sum();
        8 * (4 * x.samples.len() + x.values_ms.len() + x.cells.len())
            + crate::bundle::words::lists_width(&x.cells) * cells
    });
    65_536 + bytes.sum::<usize>() * 9 / 8
}

/// The request as the page sends it: borsh's binary of the request (which leaves runs'
/// transactions out, `#[borsh(skip)]`), then each run's transactions in the flat binary the
/// worker's answers use (`transactions`), each part after its `u32` length.
pub fn encode_request(request: &RequestRef) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity_for(request));
    // Writing to a `Vec` fails only on NaN, which no bundle on the page holds (the worker's
    // answers follow JSON's rule, `finite`); the head is then empty, and the worker says it
    // cannot read the request.
    put(&mut out, |out| {
        if request.serialize(out).is_err() {
            out.truncate(4);
        }
    });
    for run in request.runs() {
        put(&mut out, |out| super::transactions::encode(&run.transactions, out));
    }
    out
}

/// Reads what `encode_request` wrote.
pub fn decode_request(bytes: &[u8]) -> Result<Request, String> {
    let unreadable = |e: String| format!("the writer could not read its request ({e})");
    let mut at = 0usize;
    let mut next = || -> Result<&[u8], String> {
        let len = bytes
            .get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_le_bytes)
            .ok_or("it ends early")? as usize;
        let part = bytes.get(at + 4..(at + 4).saturating_add(len)).ok_or("it ends early")?;
        at += 4 + len;
        Ok(part)
    };
    let head = next().map_err(unreadable)?;
    let mut request = borsh::from_slice::<Request>(head).map_err(|e| unreadable(e.to_string()))?;
    for b in request.bundles_mut() {
        for (i, run) in b.runs.iter_mut().enumerate() {
            run.transactions = super::transactions::decode(next().map_err(unreadable)?)
                .map_err(|e| unreadable(format!("{e} of runs[{i}]")))?;
        }
    }
    Ok(request)
}

/// Does what a request asks. `Err` says, in plain words, why it could not.
pub fn answer(bytes: &[u8]) -> Result<Answer, String> {
    respond(decode_request(bytes)?)
}

/// Does what a read request asks (`answer` without the reading: the writer drops the request's
/// bytes first, as large as the runs they carry, decision 0062).
pub fn respond(request: Request) -> Result<Answer, String> {
    match request {
        Request::Json { bundles, pretty } => bundles
            .iter()
            .map(|b| bundle::to_json(b, pretty).map(String::into_bytes))
            .collect::<Result<_, _>>()
            .map(Answer::Json),
        Request::Merge { groups, title } => {
            let shown =
                unmerged(groups.iter().map(|g| (g.run.as_ref(), g.files.iter().map(|f| &f.bundle).collect())), &title);
            let options = group::Options { title: Some(title), baseline: None };
            let (bundle, warnings) = group::bundle_of(None, groups, &options)?;
            let same = warnings.is_empty() && shown.is_some_and(|s| s == bundle);
            let json = bundle::to_json(&bundle, false)?.into_bytes();
            if same {
                return Ok(Answer::Shown { json });
            }
            let done = Done { format: MERGED.into(), format_title: String::new(), bundle, warnings, records: 0 };
            Ok(Answer::Merged { pieces: encode_pieces(done), json })
        }
        Request::Link { bundle } => {
            let gz = gzip(bundle::to_json(&bundle, false)?.as_bytes())?;
            Ok(Answer::Link(crate::share::fragment(&gz).ok_or(gz.len() as u64)))
        }
    }
}

/// gzip at the default level, as the browser's `CompressionStream` wrote links before.
fn gzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).and_then(|_| gz.finish()).map_err(|e| format!("the runs could not be compressed ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble::session::Session;

    fn imported(file: &str) -> (String, crate::import::Imported) {
        let bytes = crate::import::common::test_support::file(file);
        let imp = crate::import::import_bytes(file, &bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        (file.rsplit('/').next().unwrap_or(file).to_string(), imp)
    }

    /// A session of a JTL and a `_cat/indices` put into one run, a second JTL and a Locust file (a
    /// run each), the first run renamed and given a dimension, as the import panel would make it.
    fn session() -> Session {
        let mut s = Session::default();
        for (batch, file) in [
            (1, "tests/corpus/jmeter-csv/ehrbase-2022-05-13.jtl"),
            (1, "tests/fixtures/import/opensearch-cat-indices/es8-dataset-size.txt"),
            (1, "tests/corpus/jmeter-csv/taurus-tranctl.jtl"),
            (2, "tests/corpus/locust/grpc-custom-pct_stats.csv"),
        ] {
            let (name, imp) = imported(file);
            s.add(batch, &name, imp.format.title(), imp.records, imp.bundle);
        }
        s.move_file(1, Some(0)).unwrap();
        s.rename(0, "Poppy run");
        s.set_dimension(0, "release", "Poppy");
        s
    }

    #[test]
    fn a_merge_in_the_worker_gives_the_bundle_and_json_the_page_made_itself() {
        let s = session();
        assert!(s.runs.len() >= 3, "the test needs several runs: {:?}", s.runs);
        let (want, want_warnings) = s.bundle().expect("the session makes a bundle");
        let request =
            encode_request(&RequestRef::Merge { groups: s.groups_ref(), title: crate::assemble::session::TITLE });
        let Answer::Merged { pieces, json } = answer(&request).unwrap() else { panic!("not a merge's answer") };
        let done = crate::wire::decode_done(&pieces).unwrap();
        assert_eq!(done.format, MERGED);
        assert_eq!(done.bundle, want);
        assert_eq!(done.warnings().collect::<Vec<_>>(), want_warnings);
        assert_eq!(String::from_utf8(json).unwrap(), bundle::to_json(&want, false).unwrap());
    }

    #[test]
    fn a_session_the_page_shows_already_comes_back_as_its_json_alone() {
        let mut s = session();
        let merged = s.files.iter().position(|f| f.run == 0).unwrap();
        s.remove_file(merged);
        s.remove_file(s.files.iter().position(|f| f.run == 0).unwrap());
        let shown = s.unmerged().expect("no run merges files now");
        let request =
            encode_request(&RequestRef::Merge { groups: s.groups_ref(), title: crate::assemble::session::TITLE });
        let Answer::Shown { json } = answer(&request).unwrap() else { panic!("the runs came back") };
        assert_eq!(String::from_utf8(json).unwrap(), bundle::to_json(&shown, false).unwrap());
        // A run the page would show otherwise than the merge makes it (here a duration the merge
        // takes from the start and end) comes back whole.
        let run = &mut s.files[0].bundle.runs[0];
        (run.start, run.end, run.duration_s) =
            (Some("2024-05-01T10:00:00Z".into()), Some("2024-05-01T10:10:00Z".into()), Some(1.0));
        let request =
            encode_request(&RequestRef::Merge { groups: s.groups_ref(), title: crate::assemble::session::TITLE });
        let Answer::Merged { pieces, .. } = answer(&request).unwrap() else { panic!("the runs did not come back") };
        assert_eq!(crate::wire::decode_done(&pieces).unwrap().bundle.runs[0].duration_s, Some(600.0));
    }

    #[test]
    fn bundles_come_back_as_the_json_text_the_page_wrote() {
        let (want, _) = session().bundle().unwrap();
        let mut second = want.clone();
        second.runs.truncate(1);
        for pretty in [false, true] {
            let request = encode_request(&RequestRef::Json {
                bundles: vec![BundleRef::of(&want), BundleRef::of(&second)],
                pretty,
            });
            let Answer::Json(texts) = answer(&request).unwrap() else { panic!("not JSON") };
            let texts: Vec<String> = texts.into_iter().map(|t| String::from_utf8(t).unwrap()).collect();
            assert_eq!(texts, vec![bundle::to_json(&want, pretty).unwrap(), bundle::to_json(&second, pretty).unwrap()]);
            assert_eq!(
                bundle::load_bundle_str("t", &texts[0]).map(|l| l.bundle).ok(),
                Some(want.clone()),
                "the text loads back equal"
            );
        }
    }

    #[test]
    fn a_link_carries_the_bundle_it_fits_and_says_how_large_it_is_when_it_does_not() {
        let (want, _) = session().bundle().unwrap();
        let Answer::Link(Ok(fragment)) =
            answer(&encode_request(&RequestRef::Link { bundle: Box::new(BundleRef::of(&want)) })).unwrap()
        else {
            panic!("no fragment")
        };
        let gz = crate::share::from_fragment(&fragment).unwrap().unwrap();
        assert_eq!(gz[..2], [0x1f, 0x8b], "gzip");
        assert_eq!(bundle::load_bundle("link", &gz).map(|l| l.bundle).ok(), Some(want.clone()));
        // Notes of random text do not compress: too large for a link.
        let mut big = want;
        let mut x = 1u64;
        big.report.notes = (0..1000)
            .map(|_| {
                (0..500)
                    .map(|_| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        char::from(b'a' + (x >> 59) as u8 % 26)
                    })
                    .collect()
            })
            .collect();
        let Answer::Link(Err(size)) =
            answer(&encode_request(&RequestRef::Link { bundle: Box::new(BundleRef::of(&big)) })).unwrap()
        else {
            panic!("a fragment")
        };
        assert!(size as usize > crate::limits::MAX_SHARE_FRAGMENT_BYTES / 4 * 3, "{size}");
    }

    #[test]
    fn a_damaged_or_cut_request_is_an_error_in_words() {
        let b = session().bundle().unwrap().0;
        let request = encode_request(&RequestRef::Json { bundles: vec![BundleRef::of(&b)], pretty: false });
        for cut in [0, 1, 5, request.len() / 2, request.len() - 1] {
            let e = answer(&request[..cut]).unwrap_err();
            assert!(e.starts_with("the writer could not read its request"), "{e}");
        }
        let mut bad = request.clone();
        bad[4] = 7;
        assert!(answer(&bad).is_err(), "not a request kind");
    }

    #[test]
    fn a_merge_that_fails_says_why() {
        // A file of several runs cannot be one run's part.
        let (name, imp) =
            imported("tests/corpus/jmeter-aggregate-history/ballerina-h1_h1_passthrough-nightly-summary.csv");
        assert!(imp.bundle.runs.len() > 1);
        let spec = group::RunSpec { id: "r".into(), ..Default::default() };
        let groups = vec![GroupRef {
            run: Some(&spec),
            files: vec![group::FileRef { name: &name, bundle: BundleRef::of(&imp.bundle) }],
        }];
        let request = encode_request(&RequestRef::Merge { groups, title: "t" });
        assert!(answer(&request).is_err());
    }
}
