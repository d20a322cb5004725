#![cfg(not(target_arch = "wasm32"))]
//! The bad-input corpus: broken and hostile files through the import entry (`import::import`, the
//! one the UI uses), each with the exact place and the words a user gets. Small inputs live in
//! `tests/bad-input/`; large ones (a 10 MB line, nesting 100,000 deep, 2 GB streams) are made
//! here and never stored. The inputs that once crashed a fuzz target are replayed from
//! `tests/bad-input/fuzz/<target>/` through the same checks the fuzz targets run.

#[path = "../fuzz/src/lib.rs"]
mod fuzz_checks;

use runlens::bundle::LoadErrorKind::{self, *};
use runlens::import::{import, import_bytes, Format};
use std::io::Read;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-input")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What a file must give: a refusal (kind, the place as the message shows it, words of the
/// message) or a load with warnings (place, words).
enum Expect {
    Refused(LoadErrorKind, &'static str, &'static str),
    Loaded(&'static [(&'static str, &'static str)]),
}
use Expect::*;

const STORED: &[(&str, Expect)] = &[
    ("empty.json", Refused(Empty, "empty.json", "the file is empty")),
    ("binary-garbage.bin", Refused(UnknownFormat, "binary-garbage.bin", "runlens does not recognise this file")),
    (
        "truncated.json",
        Refused(
            Syntax,
            "truncated.json, line 23, column 21",
            "the JSON ends before it is complete; the file looks cut off",
        ),
    ),
    (
        "wrong-types.json",
        Refused(
            Schema,
            "wrong-types.json, line 27, column 32, at runs[1].transactions[0].samples",
            "invalid type: string \"a hundred\", expected u64",
        ),
    ),
    ("unknown-format.json", Refused(UnknownFormat, "unknown-format.json", "runlens does not recognise this file")),
    (
        "unknown-version.json",
        Refused(UnsupportedVersion, "unknown-version.json, at version", "bundle version 9 is not supported"),
    ),
    ("duplicate-ids.json", Refused(Invalid, "duplicate-ids.json, at runs[1].id", "duplicate run id \"base\"")),
    (
        "latin1.json",
        Refused(
            Syntax,
            "latin1.json, line 5, column 40",
            "not UTF-8 (byte 0xEA here; the file looks like windows-1252)",
        ),
    ),
    ("gbk.json", Refused(Syntax, "gbk.json, line 5, column 15", "not UTF-8 (byte 0xBD here; the file looks like GBK)")),
    (
        "nan-infinity-negative.json",
        Loaded(&[
            ("line 28", "NaN is not a number JSON allows; read as a missing value"),
            ("line 30", "Infinity is not a number JSON allows; read as a missing value"),
            ("runs[0].transactions[0].p95_ms", "percentiles out of order: median_ms = 120 > p95_ms = -250"),
            ("runs[0].transactions[0].p95_ms", "negative latency"),
        ]),
    ),
    (
        "percentiles-out-of-order.json",
        Loaded(&[("runs[1].transactions[0].p99_ms", "percentiles out of order: p95_ms = 400 > p99_ms = 290")]),
    ),
    ("utf16-bom.json", Loaded(&[])),
    ("latin1.jtl", Loaded(&[("encoding", "its text was read as windows-1252")])),
    ("gbk.jtl", Loaded(&[("encoding", "its text was read as GBK")])),
    ("utf16-bom.jtl", Loaded(&[])),
    (
        "ragged.jtl",
        Loaded(&[
            ("line 3", "the row has 2 fields where the columns need 9; the sample is skipped"),
            ("line 5", "the row has 1 fields where the columns need 9; the sample is skipped"),
        ]),
    ),
];

fn check(name: &str, bytes: &[u8], expect: &Expect) {
    match (import_bytes(name, bytes), expect) {
        (Err(e), Refused(kind, place, words)) => {
            let shown = e.to_string();
            assert_eq!(e.kind, *kind, "{name}: {shown}");
            assert!(shown.starts_with(&format!("{place}: ")), "{name}: the place is {place:?}: {shown}");
            assert!(e.message.contains(words), "{name}: {shown}");
        }
        (Ok(imported), Loaded(warnings)) => {
            let got: Vec<(String, String)> =
                imported.warnings.iter().map(|w| (w.path.clone(), w.message.clone())).collect();
            assert_eq!(got.len(), warnings.len(), "{name}: {got:?}");
            for ((path, message), (want_path, want_words)) in got.iter().zip(warnings.iter()) {
                assert_eq!(path, want_path, "{name}");
                assert!(message.contains(want_words), "{name}: {message}");
            }
        }
        (Ok(_), Refused(..)) => panic!("{name} loaded but should be refused"),
        (Err(e), Loaded(_)) => panic!("{name} should load: {e}"),
    }
}

#[test]
fn every_stored_bad_input_gives_its_message() {
    let mut on_disk: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "good.json")
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = STORED.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "every file in tests/bad-input has an entry here");
    for (name, expect) in STORED {
        check(name, &read(name), expect);
    }
}

#[test]
fn legacy_encodings_of_raw_files_are_decoded_not_garbled() {
    let labels = |name: &str| -> Vec<String> {
        let imported = import_bytes(name, &read(name)).unwrap();
        imported.bundle.runs[0].transactions.iter().map(|t| t.name.clone()).collect()
    };
    assert_eq!(labels("latin1.jtl"), ["Requête échouée", "Élément supprimé"]);
    assert_eq!(labels("gbk.jtl"), ["登录页面", "搜索结果"]);
    assert_eq!(labels("utf16-bom.jtl"), ["Вход"]);
    let utf16 = import_bytes("utf16-bom.json", &read("utf16-bom.json")).unwrap();
    assert_eq!(utf16.bundle.report.title, "Checkout latency (UTF-16)");
}

#[test]
fn a_csv_with_a_10_mb_line_is_refused_at_that_line() {
    let mut jtl = b"timeStamp,elapsed,label,success\n1551783627191,351,Login,true\n1551783627291,35,".to_vec();
    jtl.extend(std::iter::repeat_n(b'x', 10 << 20));
    jtl.extend(b",true\n1551783627391,12,Login,true\n");
    check(
        "long-line.jtl",
        &jtl,
        &Refused(Syntax, "long-line.jtl, line 3", "a line is longer than 4 MiB, the most runlens reads as one line"),
    );
}

#[test]
fn json_nested_100000_deep_never_overflows_the_stack() {
    let deep = |open: &str, close: &str| format!("{}{}", open.repeat(100_000), close.repeat(100_000));
    // A document that is only nesting: no format names it.
    check("deep.json", deep("[", "]").as_bytes(), &Refused(UnknownFormat, "deep.json", "does not recognise"));
    let e = runlens::bundle::load_bundle("deep.json", deep("[", "]").as_bytes()).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (NotABundle, "expected a JSON object with \"format\": \"runlens-bundle\"")
    );
    // Nesting where the loader reads a value: the depth is named.
    let in_format =
        format!("{{\"format\": \"runlens-bundle\", \"version\": 1, \"x\": 1, \"format\": {}}}", deep("[", "]"));
    check(
        "deep-format.json",
        in_format.as_bytes(),
        &Refused(Syntax, "deep-format.json, line 1, column 188", "nested more than 128 levels deep"),
    );
    // Nesting in a field the loader skips: it loads, with a warning.
    let good = String::from_utf8(read("good.json")).unwrap();
    let end = good.rfind('}').unwrap();
    let in_unknown = format!("{}, \"extra\": {}1{}}}", &good[..end], "[".repeat(100_000), "]".repeat(100_000));
    check("deep-unknown.json", in_unknown.as_bytes(), &Loaded(&[("extra", "unknown field, ignored")]));
}

/// 2 GiB of input made on the fly: `head` first, then `fill` repeated. Counts what was read.
struct Generated {
    head: std::io::Cursor<Vec<u8>>,
    fill: Vec<u8>,
    at: usize,
    left: u64,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl Generated {
    fn new(head: &[u8], fill: &[u8]) -> (Generated, std::rc::Rc<std::cell::Cell<u64>>) {
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let g = Generated {
            head: std::io::Cursor::new(head.to_vec()),
            fill: fill.to_vec(),
            at: 0,
            left: 2 << 30,
            read: read.clone(),
        };
        (g, read)
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = self.head.read(buf)?;
        while n < buf.len() && self.left > 0 {
            let k = (self.fill.len() - self.at).min(buf.len() - n).min(self.left as usize);
            buf[n..n + k].copy_from_slice(&self.fill[self.at..self.at + k]);
            self.at = (self.at + k) % self.fill.len();
            self.left -= k as u64;
            n += k;
        }
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

#[test]
fn two_gigabyte_inputs_are_streamed_and_refused_early() {
    let limit = runlens::limits::MAX_DOCUMENT_BYTES;
    // A bundle that goes on for 2 GiB: read whole up to the document limit, then refused.
    let (input, read) = Generated::new(
        b"{\"format\": \"runlens-bundle\", \"version\": 1, \"runs\": [",
        b"{\"id\": \"r\", \"label\": \"r\"},\n",
    );
    let e = import("huge.json", input, None, &mut |_, _| {}).unwrap_err();
    assert_eq!(e.kind, TooLarge, "{e}");
    assert!(
        e.to_string().starts_with("huge.json: this kind of file is read whole, and it is over the 256 MiB limit"),
        "{e}"
    );
    assert!(read.get() <= limit + (1 << 20), "read {} bytes of 2 GiB", read.get());
    // A JTL whose third line never ends: refused at that line after the line limit.
    let (input, read) = Generated::new(b"timeStamp,elapsed,label,success\n1,2,a,true\n3,", b"x");
    let e = import("endless.jtl", input, None, &mut |_, _| {}).unwrap_err();
    assert!(
        e.to_string().starts_with("endless.jtl, line 3: the CSV cannot be read further: a line is longer than 4 MiB"),
        "{e}"
    );
    assert!(read.get() <= (runlens::limits::MAX_LINE_BYTES + (2 << 20)) as u64, "read {} bytes", read.get());
    // 2 GiB of binary: only the head is read to tell it is nothing runlens knows.
    let (input, read) = Generated::new(b"\x00\x01\x02", &(0..=255u8).collect::<Vec<_>>());
    let e = import("disk.img", input, None, &mut |_, _| {}).unwrap_err();
    assert_eq!(e.kind, UnknownFormat, "{e}");
    assert!(read.get() <= runlens::import::HEAD_BYTES as u64 + 4096, "read {} bytes", read.get());
    // Even when told the format, a 2 GiB JTL of one endless line stops at the line limit.
    let (input, read) = Generated::new(b"timeStamp,elapsed,label,success\n", b"y");
    assert!(import("forced.jtl", input, Some(Format::JmeterCsv), &mut |_, _| {}).is_err());
    assert!(read.get() < 16 << 20, "read {} bytes", read.get());
}

#[test]
fn inputs_that_once_crashed_a_fuzz_target_and_the_bad_input_corpus_pass_the_fuzz_checks() {
    let root = dir().join("fuzz");
    let mut n = 0;
    for target in ["bundle", "import", "jmeter_csv"] {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else { continue };
        for e in entries.filter_map(|e| e.ok()) {
            let data = std::fs::read(e.path()).unwrap();
            match target {
                "bundle" => fuzz_checks::check_bundle(&data),
                "import" => fuzz_checks::check_import_target(&data),
                _ => fuzz_checks::check_import("results.jtl", &data, Some(Format::JmeterCsv)),
            }
            n += 1;
        }
    }
    // No fuzz run has crashed yet, so the list above may be empty: the bad-input corpus goes
    // through the same checks, so this test always checks something.
    for e in std::fs::read_dir(dir()).unwrap().filter_map(|e| e.ok()).filter(|e| e.path().is_file()) {
        let data = std::fs::read(e.path()).unwrap();
        fuzz_checks::check_bundle(&data);
        fuzz_checks::check_import_target(&data);
        n += 1;
    }
    assert!(n >= 17, "replayed only {n} inputs");
}

#[test]
fn a_hundred_thousand_nans_make_a_capped_list_of_warnings() {
    let nans = vec!["NaN"; 100_000].join(",\n");
    let text = format!("{{\"format\": \"runlens-bundle\", \"version\": 1, \"report\": {{\"title\": \"t\"}}, \"runs\": [{{\"id\": \"a\", \"label\": \"a\", \"resources\": [{{\"service\": \"s\", \"metric\": \"cpu\", \"unit\": \"percent\", \"series\": {{\"t_s\": [], \"values\": [{nans}]}}}}]}}]}}");
    let e = import_bytes("nans.json", text.as_bytes());
    // NaN in a list of numbers is null, which `values` (numbers) refuses: the place is named.
    let e = e.unwrap_err();
    assert_eq!(e.kind, Schema, "{e}");
    assert!(e.to_string().starts_with("nans.json, line 1, column"), "{e}");
    // Where NaN is allowed (optional numbers), 100,000 of them load with 201 warnings.
    let tx = vec!["{\"name\": \"t\", \"p95_ms\": NaN}"; 100_000].join(",\n");
    let runs = format!("{{\"format\": \"runlens-bundle\", \"version\": 1, \"report\": {{\"title\": \"t\"}}, \"runs\": [{{\"id\": \"a\", \"label\": \"a\", \"transactions\": [{tx}]}}]}}");
    let imported = import_bytes("nans.json", runs.as_bytes()).unwrap();
    assert_eq!(imported.warnings.len(), runlens::limits::MAX_WARNINGS + 1);
    let last = imported.warnings.last().unwrap();
    // 99,800 more NaNs, and 99,999 duplicate names ("t" appears 100,000 times).
    assert_eq!(last.to_string(), "…: 199,799 more warnings not listed (only the first 200 are kept)");
}

#[test]
fn a_bundle_of_more_runs_than_the_limit_is_refused_with_the_count() {
    let runs: Vec<String> =
        (0..=runlens::limits::MAX_RUNS).map(|i| format!("{{\"id\": \"r{i}\", \"label\": \"r{i}\"}}")).collect();
    let text = format!(
        "{{\"format\": \"runlens-bundle\", \"version\": 1, \"report\": {{\"title\": \"t\"}}, \"runs\": [{}]}}",
        runs.join(",")
    );
    let e = import_bytes("many.json", text.as_bytes()).unwrap_err();
    assert_eq!(e.kind, TooLarge);
    assert_eq!(e.to_string(), "many.json, at runs: the bundle has 1,001 runs; runlens shows at most 1,000 at once");
}
