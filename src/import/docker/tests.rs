//! Tests of the docker stats importer: docker's units, the three capture shapes, and lines that
//! are not what they should be.

use super::*;
use crate::bundle::Resource;
use crate::import::{import_bytes, Format, Imported};

fn imp(name: &str, text: &str) -> Imported {
    import_bytes(name, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn res<'a>(run: &'a Run, service: &str, metric: &str) -> &'a Resource {
    run.resources
        .iter()
        .find(|r| r.service == service && r.metric == metric)
        .unwrap_or_else(|| panic!("no {service} {metric}"))
}

#[test]
fn binary_memory_and_decimal_io_units() {
    assert_eq!(size("107.6MiB"), Some(112_826_778.0));
    assert_eq!(size("7.549GiB"), Some(8_105_677_029.0));
    assert_eq!(size("1.2kB"), Some(1200.0));
    assert_eq!(size("648B"), Some(648.0));
    assert_eq!(size("4.11MB"), Some(4_110_000.0));
    assert_eq!((size("12 parsecs"), size("MiB"), size("")), (None, None, None));
    assert_eq!(usage("107.6MiB / 7.549GiB"), Some((112_826_778.0, Some(8_105_677_029.0))));
    assert_eq!(usage("220.3MiB"), Some((231_001_293.0, None)), "Windows prints the working set alone");
    assert_eq!((percent("9.26%"), percent("--"), percent("1e400%")), (Some(9.26), None, None));
}

#[test]
fn times_of_loops_and_escapes_of_the_live_view() {
    assert_eq!(time_ms("2023-10-01T10:18:00Z"), Some(1_696_155_480_000));
    assert_eq!(time_ms("1696155480"), Some(1_696_155_480_000));
    assert_eq!(time_ms("Sun Oct  1 10:18:00 UTC 2023"), Some(1_696_155_480_000));
    assert_eq!(time_ms("Sun Oct  1 10:18:00 CEST 2023"), None, "an unknown zone is not guessed");
    assert_eq!(strip_ansi("\u{1b}[2J\u{1b}[HCONTAINER ID"), "CONTAINER ID");
}

#[test]
fn a_table_pasted_by_name_pasted_text() {
    let text = "CONTAINER ID   NAME      CPU %     MEM USAGE / LIMIT     MEM %     NET I/O       BLOCK I/O   PIDS\n\
b95a83497c91   search    9.26%     107.6MiB / 7.549GiB   1.39%     1.2kB / 648B  0B / 0B     25\n\
67b2525d8ad1   broken    1.00%\n";
    let i = imp("pasted text", text);
    assert_eq!(i.format, Format::DockerStats);
    let run = &i.bundle.runs[0];
    let mem = res(run, "search", "memory");
    assert_eq!(
        (mem.unit, mem.peak, mem.note.as_deref()),
        (Unit::Bytes, Some(112_826_778.0), Some("memory limit 8105677029 bytes"))
    );
    assert_eq!(res(run, "search", "cpu").peak, Some(9.26));
    assert_eq!(i.warnings.len(), 1, "the short row: {:?}", i.warnings);
    assert!(run.resources.iter().all(|r| r.service != "broken"));
}

#[test]
fn csv_with_template_names_as_header() {
    let text = ".Name;.CPUPerc;.MemUsage\nweb;150.5%;1GiB / 2GiB\nweb;50.5%;3GiB / 4GiB\n";
    let run = imp("s.csv", text).bundle.runs.remove(0);
    let cpu = res(&run, "web", "cpu");
    assert_eq!((cpu.peak, cpu.average, cpu.min, cpu.series.is_some()), (Some(150.5), Some(100.5), Some(50.5), false));
    assert_eq!(res(&run, "web", "memory").peak, Some(3.0 * 1073741824.0));
}

#[test]
fn hostile_lines_do_not_panic() {
    let text = "web,1.0%,1MiB / 2MiB\nweb,\"unterminated,1%\nweb,2%,99999999999999999999999999999GiB / 1GiB\n,,\n";
    let i = imp("x.csv", text);
    assert_eq!(res(&i.bundle.runs[0], "web", "cpu").peak, Some(1.0));
    let e = import_bytes("x.txt", b"CONTAINER ID   NAME   CPU %\n").unwrap_err();
    assert!(e.message.contains("no docker stats rows"), "{e}");
    let i = imp("j.jsonl", "{\"Name\":\"a\",\"CPUPerc\":\"5%\"}\n{\"Name\":\n[1,2]\n");
    assert_eq!((i.bundle.runs[0].resources.len(), i.warnings.len()), (1, 2));
}
