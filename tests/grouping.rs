#![cfg(not(target_arch = "wasm32"))]
//! Files dropped together grouped into runs as the tools name them (`assemble::sets`, through
//! the import panel's `Session`): every tool's output set in the corpus, and generated Locust,
//! Gatling and JMeter sets of a baseline and a candidate dropped together in a shuffled order,
//! which must give exactly two runs, each with its own files' data (the candidate's failures
//! never under the baseline).

use runlens::assemble::session::Session;
use runlens::assemble::sets::{group, Item};
use runlens::bundle::{Bundle, ErrorEntry, Run};
use runlens::import::import_bytes;
use std::path::Path;

fn corpus(rel: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

fn import(name: &str, bytes: &[u8]) -> Bundle {
    import_bytes(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}")).bundle
}

/// The groups of `files` (names, as the drop gives them), as lists of names, sorted.
fn grouped(files: &[(String, Bundle)]) -> Vec<Vec<String>> {
    let items: Vec<Item> = files.iter().map(|(n, b)| Item { name: n, bundle: b }).collect();
    let mut out: Vec<Vec<String>> = group(&items)
        .into_iter()
        .map(|g| {
            let mut names: Vec<String> = g.into_iter().map(|i| files[i].0.clone()).collect();
            names.sort();
            names
        })
        .collect();
    out.sort();
    out
}

fn sorted(groups: &[&[&str]]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            let mut v: Vec<String> = g.iter().map(|s| s.to_string()).collect();
            v.sort();
            v
        })
        .collect();
    out.sort();
    out
}

/// The files dropped into the import panel in the order `order` gives, and the runs it makes.
fn dropped(files: &[(String, Bundle)], order: &[usize]) -> Vec<Run> {
    let mut s = Session::default();
    for i in order {
        let (name, b) = &files[*i];
        s.add(1, name, "raw", 0, b.clone());
    }
    let (bundle, _) = s.bundle().unwrap();
    bundle.runs
}

/// A fixed shuffle of `0..n` (each test drops files in a different order than listed).
fn shuffled(n: usize, seed: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, (i * 7 + seed * 13) % (i + 1));
    }
    v
}

fn errors(runs: &[Run], message_part: &str) -> Vec<(String, Vec<ErrorEntry>)> {
    runs.iter()
        .filter(|r| r.errors.iter().any(|e| e.message.contains(message_part)))
        .map(|r| (r.id.clone(), r.errors.clone()))
        .collect()
}

#[test]
fn every_tool_s_set_in_the_corpus_is_one_run() {
    let names = [
        ("tests/corpus/locust/", "grpc-custom-pct_stats.csv"),
        ("tests/corpus/locust/", "grpc-custom-pct_stats_history.csv"),
        ("tests/corpus/gatling/", "apicurio-2021-10-20-baseline-simulation.log"),
        ("tests/corpus/gatling/", "apicurio-2021-10-20-baseline-global_stats.json"),
        ("tests/corpus/gatling/", "apicurio-2021-10-20-baseline-stats.json"),
        ("tests/corpus/gatling/", "apicurio-2021-10-21-candidate-simulation.log"),
        ("tests/corpus/gatling/", "apicurio-2021-10-21-candidate-global_stats.json"),
        ("tests/corpus/gatling/", "apicurio-2021-10-21-candidate-stats.json"),
        ("tests/corpus/jmeter-csv/", "ehrbase-2022-05-13.jtl"),
        ("tests/corpus/jmeter-statistics-json/", "ehrbase-2022-05-13.json"),
        ("tests/fixtures/import/locust/", "folio_failures.csv"),
        ("tests/fixtures/import/locust/", "folio_exceptions.csv"),
        ("tests/corpus/jmeter-statistics-json/", "artipie-bench-t1.json"),
    ];
    let files: Vec<(String, Bundle)> =
        names.iter().map(|(d, n)| (n.to_string(), import(n, &corpus(&format!("{d}{n}"))))).collect();
    let want = sorted(&[
        &["grpc-custom-pct_stats.csv", "grpc-custom-pct_stats_history.csv"],
        &[
            "apicurio-2021-10-20-baseline-simulation.log",
            "apicurio-2021-10-20-baseline-global_stats.json",
            "apicurio-2021-10-20-baseline-stats.json",
        ],
        &[
            "apicurio-2021-10-21-candidate-simulation.log",
            "apicurio-2021-10-21-candidate-global_stats.json",
            "apicurio-2021-10-21-candidate-stats.json",
        ],
        &["ehrbase-2022-05-13.jtl", "ehrbase-2022-05-13.json"],
        &["folio_failures.csv", "folio_exceptions.csv"],
        &["artipie-bench-t1.json"],
    ]);
    assert_eq!(grouped(&files), want);
    for seed in 0..4 {
        let runs = dropped(&files, &shuffled(files.len(), seed));
        assert_eq!(runs.len(), 6, "seed {seed}: {:?}", runs.iter().map(|r| &r.id).collect::<Vec<_>>());
        // Each Gatling run has its own log's errors: import each log alone for the answer.
        for (log, other) in [
            ("apicurio-2021-10-20-baseline-simulation.log", "apicurio-2021-10-21-candidate-simulation.log"),
            ("apicurio-2021-10-21-candidate-simulation.log", "apicurio-2021-10-20-baseline-simulation.log"),
        ] {
            let alone = &files.iter().find(|f| f.0 == log).unwrap().1.runs[0];
            let theirs = &files.iter().find(|f| f.0 == other).unwrap().1.runs[0];
            let run = runs.iter().find(|r| r.start == alone.start).expect("the log's run");
            assert_eq!(run.errors, alone.errors, "seed {seed}: {log}'s errors, and only those");
            assert_ne!(run.start, theirs.start);
            for t in &alone.transactions {
                let mine = run.transactions.iter().find(|x| x.name == t.name);
                assert_eq!(mine, Some(t), "seed {seed}: the log's transactions win over the summary's");
            }
        }
    }
}

/// A Locust `--csv PREFIX` set: stats, history, failures and exceptions, with one failure whose
/// message names the prefix.
fn locust_set(prefix: &str, t0: u64, failures: u64) -> Vec<(String, Bundle)> {
    let pct = "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";
    let stats = format!(
        "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,{pct}\n\
         GET,/home,1000,{failures},120,130.5,20,900,512,16.6,0.1,120,140,150,160,200,250,300,400,800,900,900\n\
         ,Aggregated,1000,{failures},120,130.5,20,900,512,16.6,0.1,120,140,150,160,200,250,300,400,800,900,900\n"
    );
    let mut history = format!(
        "Timestamp,User Count,Type,Name,Requests/s,Failures/s,{pct},Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average Content Size\n"
    );
    for i in 0..6 {
        let n = (i + 1) * 160;
        history.push_str(&format!(
            "{},10,GET,/home,16.0,0.1,120,140,150,160,200,250,300,400,800,900,900,{n},{},120,130.5,20,900,512\n{},10,,Aggregated,16.0,0.1,120,140,150,160,200,250,300,400,800,900,900,{n},{},120,130.5,20,900,512\n",
            t0 + i * 10,
            failures * (i + 1) / 6,
            t0 + i * 10,
            failures * (i + 1) / 6
        ));
    }
    let failures_csv =
        format!("Method,Name,Error,Occurrences\nGET,/home,\"HTTPError('500 Server Error for {prefix}')\",{failures}\n");
    let exceptions = format!("Count,Message,Traceback,Nodes\n1,ValueError in {prefix},\"Traceback: x\",worker-1\n");
    [
        ("stats.csv", stats),
        ("stats_history.csv", history),
        ("failures.csv", failures_csv),
        ("exceptions.csv", exceptions),
    ]
    .into_iter()
    .map(|(suffix, text)| {
        let name = format!("{prefix}_{suffix}");
        let b = import(&name, text.as_bytes());
        (name, b)
    })
    .collect()
}

#[test]
fn generated_locust_sets_of_a_baseline_and_a_candidate_are_two_runs() {
    let mut files = locust_set("baseline", 1_700_000_000, 7);
    files.extend(locust_set("candidate", 1_700_090_000, 40));
    for seed in 0..6 {
        let runs = dropped(&files, &shuffled(files.len(), seed));
        assert_eq!(runs.len(), 2, "seed {seed}");
        let base = errors(&runs, "for baseline");
        let cand = errors(&runs, "for candidate");
        assert_eq!((base.len(), cand.len()), (1, 1), "seed {seed}: each failure in one run");
        assert_ne!(base[0].0, cand[0].0, "seed {seed}: the candidate's failures are not filed under the baseline");
        assert!(base[0].1.iter().all(|e| !e.message.contains("candidate")), "seed {seed}");
        assert!(cand[0].1.iter().all(|e| !e.message.contains("baseline")), "seed {seed}");
        let failures = |id: &str| runs.iter().find(|r| r.id == id).unwrap().transactions[0].errors;
        assert_eq!((failures(&base[0].0), failures(&cand[0].0)), (Some(7), Some(40)), "seed {seed}");
    }
}

#[test]
fn generated_gatling_report_folders_are_one_run_each() {
    let mut files = vec![];
    for (dir, day) in
        [("reports/base-20211020", "2021-10-20-baseline"), ("reports/cand-20211021", "2021-10-21-candidate")]
    {
        for (name, src) in [
            ("simulation.log", "simulation.log"),
            ("js/stats.json", "stats.json"),
            ("js/global_stats.json", "global_stats.json"),
        ] {
            let path = format!("{dir}/{name}");
            let bytes = corpus(&format!("tests/corpus/gatling/apicurio-{day}-{src}"));
            files.push((path.clone(), import(&path, &bytes)));
        }
    }
    let want = sorted(&[
        &[
            "reports/base-20211020/simulation.log",
            "reports/base-20211020/js/stats.json",
            "reports/base-20211020/js/global_stats.json",
        ],
        &[
            "reports/cand-20211021/simulation.log",
            "reports/cand-20211021/js/stats.json",
            "reports/cand-20211021/js/global_stats.json",
        ],
    ]);
    assert_eq!(grouped(&files), want);
    assert_eq!(dropped(&files, &shuffled(files.len(), 3)).len(), 2);
}

#[test]
fn generated_jmeter_sets_with_their_test_s_files_are_one_run_each() {
    let stats = corpus("tests/corpus/jmeter-statistics-json/ehrbase-2022-05-13.json");
    let indices = corpus("tests/corpus/opensearch-cat-indices/opensearch-docs-h-columns.txt");
    let mut files = vec![];
    for (name, bytes) in [
        ("poppy.jtl", support::jtl::nightly(3000, 4, 1, 1.0)),
        ("poppy-gen2.jtl", support::jtl::nightly(2000, 4, 1, 1.1)),
        ("orchid.jtl", support::jtl::nightly(3000, 4, 2, 1.5)),
        ("poppy_statistics.json", stats.clone()),
        ("indices-orchid.txt", indices.clone()),
        ("indices-poppy.txt", indices),
    ] {
        files.push((name.to_string(), import(name, &bytes)));
    }
    let want = sorted(&[
        &["poppy.jtl", "poppy-gen2.jtl", "poppy_statistics.json", "indices-poppy.txt"],
        &["orchid.jtl", "indices-orchid.txt"],
    ]);
    assert_eq!(grouped(&files), want, "two load generators of one night (overlapping in time) are one run");
    let runs = dropped(&files, &shuffled(files.len(), 1));
    assert_eq!(runs.len(), 2);
    let poppy =
        runs.iter().find(|r| r.transactions.iter().any(|t| t.samples == Some(1250))).expect("merged generators");
    let samples =
        |r: &Run| r.transactions.iter().filter(|t| t.name.starts_with('T')).filter_map(|t| t.samples).sum::<u64>();
    assert_eq!(samples(poppy), 5000, "3000 + 2000 samples");
    let orchid = runs.iter().find(|r| r.id != poppy.id).unwrap();
    assert_eq!(samples(orchid), 3000);
    assert!(!orchid.indices.is_empty() && !poppy.indices.is_empty());
}

#[test]
fn moving_a_file_still_works_and_later_files_respect_it() {
    let mut files = locust_set("baseline", 1_700_000_000, 7);
    files.extend(locust_set("candidate", 1_700_090_000, 40));
    let mut s = Session::default();
    for (name, b) in &files[..6] {
        s.add(1, name, "raw", 0, b.clone());
    }
    assert_eq!(s.runs.len(), 2);
    let f = s.files.iter().position(|f| f.name == "baseline_exceptions.csv").unwrap();
    s.move_file(f, None).unwrap();
    assert_eq!(s.runs.len(), 3, "the user took the exceptions out");
    let (name, b) = &files[6];
    let r = s.add(1, name, "raw", 0, b.clone());
    assert_eq!(s.runs.len(), 3, "{name} joins its set's run; the user's move stays");
    assert!(s.files_of(r).any(|(_, f)| f.name == "candidate_stats.csv"));
    assert_eq!(s.files[f].name, "baseline_exceptions.csv");
    assert!(s.files_of(s.files[f].run).all(|(_, x)| x.name == "baseline_exceptions.csv"));
}
