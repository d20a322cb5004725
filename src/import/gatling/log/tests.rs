//! Tests of the Gatling simulation.log importer: the same run in every version's layout (as
//! gatling-core's LogFileDataWriter writes them), groups, errors, run records, hostile lines.

use crate::bundle::{LoadErrorKind, Run};
use crate::import::{detect, import_bytes, Format};

/// One run: two `home` requests (100 ms OK, 200 ms KO), `login` in group `auth` (50 ms), one user.
fn layouts() -> Vec<(&'static str, String)> {
    let t = |ms: u64| (1_600_000_000_000u64 + ms).to_string();
    let l21 = [
        format!("Sim\tsimid\tRUN\t{}\tdesc here\t2.0", t(0)),
        format!("scn\t1\tUSER\tSTART\t{}\t{}", t(0), t(0)),
        format!("scn\t1\tREQUEST\t\thome\t{}\t{}\t{}\t{}\tOK\t ", t(10), t(11), t(100), t(110)),
        format!("scn\t1\tREQUEST\t\thome\t{}\t{}\t{}\t{}\tKO\tstatus 500", t(200), t(201), t(300), t(400)),
        format!("scn\t1\tREQUEST\tauth\tlogin\t{}\t{}\t{}\t{}\tOK\t ", t(500), t(501), t(540), t(550)),
        format!("scn\t1\tGROUP\tauth\t{}\t{}\t50\t1\t0\tOK", t(490), t(560)),
        format!("scn\t1\tUSER\tEND\t{}\t{}", t(0), t(600)),
    ];
    let l22 = [
        format!("RUN\tSim\t\tsimid\t{}\tdesc here\t2.0", t(0)),
        format!("USER\tscn\t1\tSTART\t{}\t{}", t(0), t(0)),
        format!("REQUEST\tscn\t1\t\thome\t{}\t{}\tOK\t ", t(10), t(110)),
        format!("REQUEST\tscn\t1\t\thome\t{}\t{}\tKO\tstatus 500", t(200), t(400)),
        format!("REQUEST\tscn\t1\tauth\tlogin\t{}\t{}\tOK\t ", t(500), t(550)),
        format!("GROUP\tscn\t1\tauth\t{}\t{}\t50\tOK", t(490), t(560)),
        format!("USER\tscn\t1\tEND\t{}\t{}", t(0), t(600)),
    ];
    let l30 = [
        format!("RUN\tSim\tsimid\t{}\tdesc here\t3.3.1", t(0)),
        format!("USER\tscn\t1\tSTART\t{}\t{}", t(0), t(0)),
        format!("REQUEST\t1\t\thome\t{}\t{}\tOK\t ", t(10), t(110)),
        format!("REQUEST\t1\t\thome\t{}\t{}\tKO\tstatus 500", t(200), t(400)),
        format!("REQUEST\t1\tauth\tlogin\t{}\t{}\tOK\t ", t(500), t(550)),
        format!("GROUP\t1\tauth\t{}\t{}\t50\tOK", t(490), t(560)),
        format!("USER\tscn\t1\tEND\t{}\t{}", t(0), t(600)),
    ];
    let l34 = [
        format!("RUN\tSim\tsimid\t{}\tdesc here\t3.5.1", t(0)),
        format!("USER\tscn\tSTART\t{}", t(0)),
        format!("REQUEST\t\thome\t{}\t{}\tOK\t ", t(10), t(110)),
        format!("REQUEST\t\thome\t{}\t{}\tKO\tstatus 500", t(200), t(400)),
        format!("REQUEST\tauth\tlogin\t{}\t{}\tOK\t ", t(500), t(550)),
        format!("GROUP\tauth\t{}\t{}\t50\tOK", t(490), t(560)),
        format!("USER\tscn\tEND\t{}", t(600)),
    ];
    [("2.1", l21), ("2.2", l22), ("3.3", l30), ("3.4", l34)]
        .into_iter()
        .map(|(v, l)| (v, l.join("\n") + "\n"))
        .collect()
}

fn import(name: &str, text: &str) -> (Run, Vec<String>) {
    let (format, run, warnings) = crate::import::common::test_support::import_run(name, text.as_bytes());
    assert_eq!(format, Format::GatlingLog);
    (run, warnings)
}

#[test]
fn every_versions_layout_reads_the_same() {
    let runs: Vec<(&str, Run)> = layouts()
        .into_iter()
        .map(|(v, text)| {
            let (run, warnings) = import("simulation.log", &text);
            assert!(warnings.is_empty(), "{v}: {warnings:?}");
            (v, run)
        })
        .collect();
    let (_, first) = &runs[0];
    let names: Vec<&str> = first.transactions.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["home", "auth / login", "auth"]);
    let home = &first.transactions[0];
    assert_eq!(
        (home.samples, home.errors, home.mean_ms, home.min_ms, home.max_ms),
        (Some(2), Some(1), Some(150.0), Some(100.0), Some(200.0))
    );
    assert_eq!(
        first.transactions[2].note.as_deref(),
        Some("Gatling group: cumulated response time of its requests (Gatling's default group metric)")
    );
    let kpis: Vec<(&str, f64)> = first.kpis.iter().map(|k| (k.name.as_str(), k.value)).collect();
    assert_eq!(&kpis[..2], [("Samples", 3.0), ("Error rate", 100.0 / 3.0)], "groups are not counted as requests");
    assert_eq!(kpis.last(), Some(&("Users started", 1.0)));
    assert_eq!((first.start.as_deref(), first.duration_s), (Some("2020-09-13T12:26:40Z"), Some(0.6)));
    assert_eq!((first.id.as_str(), first.label.as_str()), ("simid-202009131226", "Sim 2020-09-13 12:26 UTC"));
    assert_eq!(first.conditions, ["desc here"]);
    for (v, run) in &runs[1..] {
        assert_eq!(run.transactions, first.transactions, "{v}");
        assert_eq!(run.kpis, first.kpis, "{v}");
        assert_eq!(
            (&run.start, &run.end, &run.id, &run.label),
            (&first.start, &first.end, &first.id, &first.label),
            "{v}"
        );
        assert_eq!(run.errors, first.errors, "{v}");
    }
    assert_eq!(
        first.errors.iter().map(|e| (e.message.as_str(), e.count)).collect::<Vec<_>>(),
        [("status 500", Some(1))]
    );
}

#[test]
fn error_records_of_every_version() {
    // Gatling 2.2 wrote errors with a GROUP header; 3.x with ERROR.
    let text = "RUN\tSim\tsimid\t1600000000000\t \t3.5.1\nREQUEST\t\ta\t1600000000000\t1600000000005\tOK\t \n\
        GROUP\tFailed to build request a: No attribute named 'x' is defined \t1600000000006\n\
        ERROR\tFailed to build request a: No attribute named 'x' is defined \t1600000000007\nERROR\tsomething else\n";
    let (run, warnings) = import("crash.log", text);
    assert!(warnings.is_empty(), "{warnings:?}");
    let errors: Vec<(&str, Option<u64>)> = run.errors.iter().map(|e| (e.message.as_str(), e.count)).collect();
    assert_eq!(
        errors,
        [("Failed to build request a: No attribute named 'x' is defined", Some(2)), ("something else", Some(1))]
    );
    assert!(run.conditions.is_empty(), "a blank description is no condition");
    assert_eq!(run.id, "crash", "a file with its own name keeps it as the id");
}

#[test]
fn odd_but_valid_records() {
    // CRLF, an unmatched incoming message (end = Long.MinValue: 0 ms in Gatling), a group named
    // like a request, nested groups.
    let text = "REQUEST\t\tx\t1600000000000\t1600000000010\tOK\t \r\n\
        REQUEST\t\tx\t1600000000020\t-9223372036854775808\tOK\t \r\n\
        REQUEST\tx,y\tz\t1600000000030\t1600000000040\tOK\t \r\n\
        GROUP\tx,y\t1600000000030\t1600000000041\t10\tOK\r\n\
        GROUP\tx\t1600000000000\t1600000000041\t20\tKO\r\n";
    let (run, warnings) = import("odd.log", text);
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<(&str, Option<u64>, Option<f64>)> =
        run.transactions.iter().map(|t| (t.name.as_str(), t.samples, t.min_ms)).collect();
    assert_eq!(
        names,
        [
            ("x", Some(2), Some(0.0)),
            ("x / y / z", Some(1), Some(10.0)),
            ("x / y", Some(1), Some(10.0)),
            ("x (group)", Some(1), Some(20.0))
        ]
    );
    assert_eq!(run.transactions[3].errors, Some(1));
}

#[test]
fn hostile_lines_are_warned_about() {
    let text = "REQUEST\t\ta\t1600000000000\t1600000000010\tOK\t \n\
        REQUEST\t\ta\t1600000000010\t1600000000000\tOK\t \n\
        REQUEST\t\ta\t999999999999999999\t999999999999999999\tOK\n\
        REQUEST\t\ta\tx\ty\tOK\n\
        REQUEST\n\
        REQUEST\tOK\tOK\tOK\tOK\n\
        GROUP\ta\tOK\n\
        GROUP\n\
        USER\tscn\n\
        USER\n\
        RUN\n\
        ERROR\n\
        hello\tworld\n\
        \u{0}\u{1}binary junk\n";
    let (run, warnings) = import("bad.log", text);
    assert_eq!(run.transactions[0].samples, Some(1));
    let lines: Vec<&str> = warnings.iter().map(|w| w.split(':').next().unwrap_or("")).collect();
    assert_eq!(
        lines,
        [
            "line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9", "line 10", "line 13",
            "line 14"
        ]
    );
    // Nothing usable.
    let e =
        crate::import::import("simulation.log", &b"RUN\tSim\tid\t1600000000000\t \t3.5.1\n"[..], None, &mut |_, _| {})
            .unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Empty);
    assert_eq!(import_bytes("simulation.log", b"").unwrap_err().kind, LoadErrorKind::Empty);
    // A file without line breaks is not read into memory whole.
    let mut endless = b"REQUEST\t".to_vec();
    endless.resize(crate::import::MAX_LINE_BYTES as usize + 10, b'x');
    let e = import_bytes("simulation.log", &endless).unwrap_err();
    assert_eq!((e.kind, e.line), (LoadErrorKind::TooLarge, Some(1)));
    // A headerless tab-separated JTL with a sampler labelled REQUEST is no Gatling 2.1 log.
    let jtl = b"1393227741256	1425	REQUEST	200	OK	Thread Group 1-1	text	true	3478	1016
";
    assert_ne!(crate::import::detect_by_content(jtl), Some(Format::GatlingLog));
}

#[test]
fn the_binary_log_is_refused_by_name_content_or_request() {
    let binary = crate::import::common::test_support::file("tests/corpus/gatling/taurus-gatling-6-314-simulation.log");
    assert_eq!(detect("simulation.log", &binary), Ok(Format::GatlingBinaryLog));
    assert_eq!(detect("simulation.log", b"RUN\tSim\tid\t1600000000000\t \t3.5.1\n"), Ok(Format::GatlingLog));
    for format in [None, Some(Format::GatlingLog), Some(Format::GatlingBinaryLog)] {
        let e = crate::import::import("simulation.log", &binary[..], format, &mut |_, _| {}).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Unsupported, "{format:?}");
        assert!(e.message.contains("Gatling 3.14.3") && e.message.contains("js/stats.json"), "{}", e.message);
    }
    // Truncated headers are not taken for it.
    assert_ne!(detect("x", &binary[..6]), Ok(Format::GatlingBinaryLog));
}
