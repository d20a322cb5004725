//! `runlens import` grouping files as the tools name them (and `--no-group`), and `runlens merge`
//! of bundles imported apart on two load generators: the merged run equals the bundle of the
//! concatenated results, and a merge that cannot be exact says so.

use runlens::bundle::{load_bundle, Bundle, Run, Transaction};
use std::path::Path;
use std::process::{Command, Output};
use tempfile::TempDir;

fn runlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runlens")).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn load(path: &Path) -> Bundle {
    let bytes = std::fs::read(path).unwrap();
    load_bundle(&path.to_string_lossy(), &bytes).unwrap().bundle
}

/// Writes `text` as `name` in `d`; its path as an argument.
fn put(d: &TempDir, name: &str, text: &[u8]) -> String {
    let p = d.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Imports `args` into `out` and returns the bundle; the command must succeed.
fn import(d: &TempDir, out: &str, args: &[&str]) -> Bundle {
    let path = d.path().join(out);
    let mut all = vec!["import", "-q"];
    all.extend_from_slice(args);
    all.extend(["-o", path.to_str().unwrap()]);
    let o = runlens(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    load(&path)
}

/// `all` (a header, then rows) split between two generators: even and odd rows, or (`halves`)
/// the first half and the second.
fn generators(all: Vec<u8>, halves: bool) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let text = String::from_utf8(all.clone()).unwrap();
    let mut lines = text.lines();
    let head = format!("{}\n", lines.next().unwrap());
    let n = text.lines().count() - 1;
    let (mut a, mut b) = (head.clone(), head);
    for (i, l) in lines.enumerate() {
        let first = if halves { i < n / 2 } else { i % 2 == 0 };
        let to = if first { &mut a } else { &mut b };
        to.push_str(l);
        to.push('\n');
    }
    (a.into_bytes(), b.into_bytes(), all)
}

/// Imports both generators' halves of `all` apart (run `nightly`), merges the bundles with
/// `runlens merge`, and returns the merged run, the run of `all` imported whole, and the merge's
/// standard error.
fn merge_halves(d: &TempDir, all: Vec<u8>) -> (Run, Run, String) {
    let (a, b, all) = generators(all, false);
    let (pa, pb, pall) = (put(d, "gen1.jtl", &a), put(d, "gen2.jtl", &b), put(d, "all.jtl", &all));
    import(d, "gen1.json", &["--run", "nightly", &pa]);
    import(d, "gen2.json", &["--run", "nightly", &pb]);
    let want = import(d, "want.json", &["--run", "nightly", &pall]);
    let p = |n: &str| d.path().join(n).to_string_lossy().into_owned();
    let o = runlens(&["merge", &p("gen1.json"), &p("gen2.json"), "-o", &p("merged.json")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = load(&d.path().join("merged.json"));
    assert_eq!(merged.runs.len(), 1);
    (merged.runs[0].clone(), run(&want, "nightly").clone(), stderr(&o))
}

/// `got`'s transaction of each of `want`'s, by name.
fn pairs<'a>(got: &'a Run, want: &'a Run) -> Vec<(&'a Transaction, &'a Transaction)> {
    assert_eq!(got.transactions.len(), want.transactions.len());
    want.transactions.iter().map(|w| (got.transactions.iter().find(|g| g.name == w.name).unwrap(), w)).collect()
}

fn run<'a>(b: &'a Bundle, id: &str) -> &'a Run {
    b.runs.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no run {id}"))
}

#[test]
fn files_outside_run_are_grouped_unless_no_group() {
    let d = tempfile::tempdir().unwrap();
    let stats = "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,90%,100%\nGET,/a,10,1,5,5.0,1,9,10,1.0,0.1,5,8,9\n,Aggregated,10,1,5,5.0,1,9,10,1.0,0.1,5,8,9\n";
    let fail = |who: &str| format!("Method,Name,Error,Occurrences\nGET,/a,\"HTTPError('500 for {who}')\",1\n");
    let files = [
        put(&d, "base_stats.csv", stats.as_bytes()),
        put(&d, "cand_failures.csv", fail("cand").as_bytes()),
        put(&d, "base_failures.csv", fail("base").as_bytes()),
        put(&d, "cand_stats.csv", stats.as_bytes()),
    ];
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let grouped = import(&d, "grouped.json", &args);
    assert_eq!(grouped.runs.len(), 2, "two Locust sets: two runs");
    for r in &grouped.runs {
        let who = if r.id.starts_with("base") { "base" } else { "cand" };
        assert_eq!(r.errors.len(), 1, "{}", r.id);
        assert!(r.errors[0].message.contains(&format!("for {who}")), "{}: {:?}", r.id, r.errors);
        assert_eq!(r.transactions.len(), 1);
    }
    let mut no = args.clone();
    no.push("--no-group");
    assert_eq!(import(&d, "apart.json", &no).runs.len(), 4, "--no-group: one run per file");
}

#[test]
fn runlens_merge_equals_importing_the_concatenated_file() {
    let d = tempfile::tempdir().unwrap();
    // One label: it spans each generator's run, so even its own throughput is exact.
    let (got, want, err) = merge_halves(&d, support::jtl::nightly(3000, 1, 1, 1.0));
    assert_eq!((&got.start, &got.end, &got.errors, &got.kpis), (&want.start, &want.end, &want.errors, &want.kpis));
    for (g, w) in pairs(&got, &want) {
        assert_eq!(g, w);
    }
    assert!(!err.contains("warning"), "{err}");
    // Three labels in turn: everything but each label's own throughput is exact, and that is said.
    let d = tempfile::tempdir().unwrap();
    let (got, want, err) = merge_halves(&d, support::jtl::nightly(3000, 3, 1, 1.0));
    assert_eq!((&got.errors, &got.kpis), (&want.errors, &want.kpis));
    for (g, w) in pairs(&got, &want) {
        let own = |t: &Transaction| Transaction { throughput_per_s: None, ..t.clone() };
        assert_eq!(own(g), own(w));
    }
    assert!(err.contains("throughput per label of") && err.contains("estimated window"), "{err}");
}

#[test]
fn a_merge_that_cannot_be_exact_says_so_and_runs_match_by_label() {
    let d = tempfile::tempdir().unwrap();
    // 300 distinct values per label in each half: histograms in buckets; 5,000 samples a label in
    // each half are also past what the timelines keep exactly (4,096 cells).
    let mut all = support::jtl::HEADER.to_vec();
    all.extend(support::jtl::rows(30000));
    let (a, b, _) = generators(all, true);
    let (pa, pb) = (put(&d, "gen1.jtl", &a), put(&d, "gen2.jtl", &b));
    import(&d, "gen1.json", &["--run", "one", "--label", "Night 1", &pa]);
    import(&d, "gen2.json", &["--run", "two", "--label", "Night 1", &pb]);
    let p = |n: &str| d.path().join(n).to_string_lossy().into_owned();
    let out = p("merged.json");
    let o = runlens(&["merge", &p("gen1.json"), &p("gen2.json"), "--by", "label", "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("within one histogram bucket"), "{}", stderr(&o));
    let merged = load(Path::new(&out));
    assert_eq!(merged.runs.len(), 1, "matched by label");
    assert_eq!(merged.runs[0].transactions.iter().filter_map(|t| t.samples).sum::<u64>(), 30000);
    let by_id = runlens(&["merge", &p("gen1.json"), &p("gen2.json"), "-o", &p("apart.json")]);
    assert!(by_id.status.success());
    assert_eq!(load(Path::new(&p("apart.json"))).runs.len(), 2, "by id they are two runs");
}
