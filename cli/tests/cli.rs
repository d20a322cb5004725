//! The `runlens` binary as a CI job runs it: exit codes, messages on standard error, and bundles
//! that load back with the viewer's loader (`runlens::bundle::load_bundle`). The large-input tests
//! run the binary under a data-segment limit (`ulimit -d`) a quarter of the input, so that holding
//! the input whole would fail (a control run that reads it whole shows the limit bites).

use runlens::bundle::{load_bundle, Bundle};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use support::jtl::{rows, HEADER};
use tempfile::TempDir;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_runlens")
}

/// A file of the main crate (`tests/corpus/…`, `tests/bad-input/…`).
fn repo(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

const JTL: &str = "tests/corpus/jmeter-csv/ehrbase-2022-05-13.jtl";
const INDICES: &str = "tests/fixtures/import/opensearch-cat-indices/es8-dataset-size.txt";
const OTHER_JTL: &str = "tests/corpus/jmeter-csv/taurus-tranctl.jtl";
/// Three `docker stats` readings, 10 s apart from 2023-10-01T10:18:00Z (1696155480 s).
const DOCKER: &str = "tests/fixtures/import/docker-stats/format-csv-epoch.csv";

/// A directory of its own per test, removed with what is in it (large generated files too) when
/// the `TempDir` drops.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("runlens-cli-{name}-")).tempdir().unwrap()
}

/// The path of `name` in `d`, as an argument.
fn file_in(d: &TempDir, name: &str) -> String {
    d.path().join(name).to_string_lossy().into_owned()
}

fn runlens(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn load(path: &str) -> Bundle {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_bundle(path, &bytes).unwrap_or_else(|e| panic!("{e}")).bundle
}

#[test]
fn a_jtl_becomes_the_bundle_the_viewer_makes_of_it() {
    let d = temp_dir("one");
    let out = file_in(&d, "out.json");
    let o = runlens(&["import", &repo(JTL), "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "the bundle goes to the file");
    assert!(
        stderr(&o).contains("ehrbase-2022-05-13.jtl: JMeter CSV results (JTL), 225 records, 1 run"),
        "{}",
        stderr(&o)
    );
    let viewer = runlens::import::import_bytes(&repo(JTL), &std::fs::read(repo(JTL)).unwrap()).unwrap();
    assert_eq!(load(&out), viewer.bundle);
    // Without -o the bundle goes to standard output; --summary prints the text dump instead.
    let o = runlens(&["import", "-q", &repo(JTL)]);
    assert_eq!(load_bundle("stdout", &o.stdout).unwrap().bundle, viewer.bundle);
    assert!(o.stderr.is_empty(), "-q: {}", stderr(&o));
    let o = runlens(&["import", "--summary", &repo(JTL)]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("report: \"ehrbase-2022-05-13\"\nrun \"ehrbase-2022-05-13\""), "{text}");
    assert!(text.contains("  kpi \"Samples\" = 225 count"), "{text}");
}

#[test]
fn runs_are_grouped_labelled_compared_and_gzipped() {
    let d = temp_dir("groups");
    let out = file_in(&d, "report.json.gz");
    let o = runlens(&[
        "import",
        "--title",
        "Orchid vs Poppy",
        "--run",
        "orchid",
        "--label",
        "Test #1 (Orchid)",
        "--dim",
        "release=Orchid",
        &repo(JTL),
        &repo(INDICES),
        "--run",
        "poppy",
        "--dim",
        "release=Poppy",
        &repo(OTHER_JTL),
        "--baseline",
        "orchid",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap()[..2], [0x1f, 0x8b], "gzip");
    let b = load(&out);
    assert_eq!(b.report.title, "Orchid vs Poppy");
    let runs: Vec<(&str, &str, Option<&str>)> = b
        .runs
        .iter()
        .map(|r| (r.id.as_str(), r.label.as_str(), r.dimensions.get("release").map(String::as_str)))
        .collect();
    assert_eq!(runs, vec![("orchid", "Test #1 (Orchid)", Some("Orchid")), ("poppy", "poppy", Some("Poppy"))]);
    let orchid = &b.runs[0];
    assert!(!orchid.transactions.is_empty() && !orchid.indices.is_empty(), "the JTL and the indices in one run");
    assert_eq!(
        (b.comparisons[0].baseline.as_str(), b.comparisons[0].candidates.clone()),
        ("orchid", vec!["poppy".to_string()])
    );
}

#[test]
fn nightly_runs_append_to_a_history_with_unique_ids() {
    let d = temp_dir("append");
    let hist = file_in(&d, "history.json");
    let night = |id: &str, file: &str, extra: &[&str]| {
        let mut args = vec!["import", "--run", id, "--dim", "date=2024-05-01", file, "-o", &hist];
        args.extend_from_slice(extra);
        runlens(&args)
    };
    assert!(night("release", &repo(JTL), &[]).status.success());
    let o = night("nightly-1", &repo(OTHER_JTL), &["--append", &hist, "--baseline", "release"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = night("nightly-1", &repo(OTHER_JTL), &["--append", &hist, "--baseline", "release"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("warning: run nightly-1: run id \"nightly-1\" is already taken; this run is \"nightly-1~2\""),
        "{}",
        stderr(&o)
    );
    let b = load(&hist);
    let ids: Vec<&str> = b.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, vec!["release", "nightly-1", "nightly-1~2"]);
    assert_eq!(b.comparisons.len(), 1, "tonight's comparison replaces last night's");
    assert_eq!(b.comparisons[0].candidates, vec!["nightly-1~2".to_string()]);
    assert!(
        !d.path().read_dir().unwrap().any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp")),
        "no temporary file left"
    );
}

#[test]
fn a_refused_file_exits_2_naming_its_place_and_writes_nothing() {
    let d = temp_dir("bad");
    let out = file_in(&d, "out.json");
    let o = runlens(&["import", &repo("tests/bad-input/truncated.json"), &repo(JTL), "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("truncated.json, line 23, column 21: the JSON ends before it is complete"), "{err}");
    assert!(!Path::new(&out).exists(), "no bundle when an input is refused");
    // A JTL whose third line never ends (over the 4 MiB line limit).
    let jtl = file_in(&d, "endless.jtl");
    let mut f = std::fs::File::create(&jtl).unwrap();
    f.write_all(b"timeStamp,elapsed,label,success\n1,2,a,true\n3,").unwrap();
    f.write_all(&vec![b'x'; runlens::limits::MAX_LINE_BYTES + 1]).unwrap();
    drop(f);
    let o = runlens(&["import", &jtl, "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("endless.jtl, line 3: the CSV cannot be read further: a line is longer than 4 MiB"),
        "{}",
        stderr(&o)
    );
    // Warnings name the file and the line, and do not fail the import.
    let o = runlens(&["import", &repo("tests/bad-input/ragged.jtl"), "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: ")
            && stderr(&o).contains("ragged.jtl, line 3: the row has 2 fields where the columns need 9"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_3_and_help_follows_clap() {
    for args in [
        &["import"][..],
        &["import", "--label", "x", "a.jtl"],
        &["import", "--dim", "release", "a.jtl"],
        &["import", "a.jtl", "--run", "x"],
        &["import", "--format", "nope", "a.jtl"],
    ] {
        let o = runlens(args);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("error: ") && stderr(&o).contains("For more information, try '--help'."),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = runlens(&["import", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && help.contains("Usage: runlens import [OPTIONS] <FILES>..."), "{help}");
    assert!(help.contains("docker-stats            docker stats output"), "--help lists the format slugs");
    for args in [&["--help"][..], &["--version"], &["compare", "--help"]] {
        let o = runlens(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    let help = String::from_utf8_lossy(&runlens(&["--help"]).stdout).into_owned();
    assert!(help.contains("Exit codes: 0 nothing failed, 1 a criterion failed"), "{help}");
    assert_eq!(runlens(&[]).status.code(), Some(3), "no subcommand");
    let o = runlens(&["detect", &repo(JTL), &repo("tests/bad-input/binary-garbage.bin")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("ehrbase-2022-05-13.jtl: jmeter-csv (JMeter CSV results (JTL)), UTF-8"));
    assert!(stderr(&o).contains("binary-garbage.bin: runlens does not recognise this file"), "{}", stderr(&o));
}

/// Data segment the binary may use (`ulimit -d`, KiB).
const LIMIT_KIB: u64 = 32 << 10;

/// The input size: four times the limit, so that the tests take seconds in a debug build (about
/// 30 MB/s); `RUNLENS_CLI_INPUT_MIB=4096` makes them multi-GB.
fn input_bytes() -> u64 {
    std::env::var("RUNLENS_CLI_INPUT_MIB")
        .ok()
        .and_then(|m| m.parse::<u64>().ok())
        .map_or(4 * LIMIT_KIB * 1024, |m| m << 20)
}

/// `runlens ARGS` under the data limit.
fn limited(args: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c").arg(format!("ulimit -d {LIMIT_KIB} && exec \"$0\" \"$@\"")).arg(bin()).args(args);
    c
}

fn samples(b: &Bundle) -> f64 {
    b.runs[0].kpis.iter().find(|k| k.name == "Samples").map_or(0.0, |k| k.value)
}

#[test]
fn a_file_larger_than_the_memory_limit_is_streamed() {
    let d = temp_dir("big");
    let (jtl, out) = (file_in(&d, "big.jtl"), file_in(&d, "big.json"));
    let chunk = rows(10_000);
    let chunks = input_bytes().div_ceil(chunk.len() as u64);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&jtl).unwrap());
    f.write_all(HEADER).unwrap();
    for _ in 0..chunks {
        f.write_all(&chunk).unwrap();
    }
    f.into_inner().unwrap().sync_all().unwrap();
    assert!(std::fs::metadata(&jtl).unwrap().len() > LIMIT_KIB * 1024, "larger than the limit");
    // Control: read whole (a bundle is), the same file fails under the same limit.
    let o = limited(&["import", "--format", "bundle", &jtl, "-o", &out]).output().unwrap();
    // (Without the limit this would read the whole file and then refuse it as not JSON.)
    let out_of_memory =
        stderr(&o).contains("big.jtl: the file could not be read (out of memory)") || o.status.code().is_none();
    assert!(out_of_memory, "the limit must bite: {:?} {}", o.status, stderr(&o));
    // Streamed in two byte ranges on two threads, it is imported exactly.
    let o = limited(&["import", "--threads", "2", &jtl, "-o", &out]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(samples(&load(&out)), (chunks * 10_000) as f64);
}

#[test]
fn a_stream_on_standard_input_is_read_with_bounded_memory() {
    let d = temp_dir("stdin");
    let out = file_in(&d, "stream.json");
    let mut child = limited(&["import", "-q", "--run", "piped", "-", "-o", &out])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let chunk = rows(10_000);
    let chunks = input_bytes().div_ceil(chunk.len() as u64);
    let writer = std::thread::spawn(move || {
        stdin.write_all(HEADER)?;
        for _ in 0..chunks {
            stdin.write_all(&chunk)?;
        }
        Ok::<(), std::io::Error>(())
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let b = load(&out);
    assert_eq!((b.runs[0].id.as_str(), samples(&b)), ("piped", (chunks * 10_000) as f64));
}

/// The `t_s` of mod-search's CPU in the one run of `runlens import --run t JTL DOCKER` with
/// `--clock-offset` naming the docker file by its file name.
fn docker_cpu_with_offset(d: &TempDir, seconds: &str) -> (Bundle, Vec<f64>) {
    let out = file_in(d, &format!("offset{seconds}.json"));
    let offset = format!("format-csv-epoch.csv={seconds}");
    let o = runlens(&["import", "--clock-offset", &offset, "--run", "t", &repo(JTL), &repo(DOCKER), "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let b = load(&out);
    let cpu = b.runs[0].resources.iter().find(|r| r.service == "folio-mod-search-1" && r.metric == "cpu").unwrap();
    let t_s = cpu.series.as_ref().unwrap().t_s.clone();
    (b, t_s)
}

#[test]
fn a_clock_offset_moves_a_files_resource_series_by_exactly_that_many_seconds() {
    let d = temp_dir("offset");
    // The JTL's first sample is at 1652430231.438 s; docker's first reading at 1696155480 s. This
    // offset puts that reading 5 s after the JTL's first sample: 1652430231.438 + 5 − 1696155480.
    let (b, t_s) = docker_cpu_with_offset(&d, "-43725243.562");
    assert_eq!(t_s, [5.0, 15.0, 25.0]);
    let run = &b.runs[0];
    assert_eq!(run.start.as_deref(), Some("2022-05-13T08:23:51.438Z"), "the run starts with the load");
    assert!(
        run.notes
            .iter()
            .any(|n| n == "Times of format-csv-epoch.csv moved by -43725243.562 s (runlens import --clock-offset)."),
        "{:?}",
        run.notes
    );
    let (_, later) = docker_cpu_with_offset(&d, "-43725153.562");
    assert_eq!(later, [95.0, 105.0, 115.0], "90 s more moves every point by 90 s");
    // Naming no input (or an ambiguous one) is a usage error.
    let o = runlens(&["import", "--clock-offset", "nope.csv=5", &repo(JTL), "-o", &file_in(&d, "x.json")]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("--clock-offset nope.csv=… names no input file"), "{}", stderr(&o));
    let o = runlens(&["import", "--clock-offset", "format-csv-epoch.csv=ten", &repo(DOCKER)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}
