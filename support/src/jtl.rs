//! JMeter results (JTL, CSV) as text: rows written here, or a file with exact answers written by
//! `scripts/gen_jtl.py`.

use std::path::Path;
use std::process::Command;

/// The header of [`rows`].
pub const HEADER: &[u8] = b"timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n";

/// `n` JTL rows (after [`HEADER`]) of three labels, `Login`, `Search` and `Open` in turn: row `i`
/// at 1,700,000,000,000 + `i` ms, `100 + i % 900` ms elapsed, successful, `i` bytes.
pub fn rows(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            format!(
                "{},{},{},200,OK,Thread 1-{},true,{}\n",
                1_700_000_000_000u64 + i as u64,
                100 + i % 900,
                ["Login", "Search", "Open"][i % 3],
                i % 20,
                i
            )
            .into_bytes()
        })
        .collect()
}

/// Milliseconds in a day.
const DAY_MS: u64 = 86_400_000;

/// One night of a nightly test: [`HEADER`] and `n` rows over `labels` labels (`T01`, `T02`, …,
/// in turn), starting at 1,700,000,000,000 ms plus `night` days, one row a millisecond. Row `i`
/// takes `(100 + label·10 + (i·7919 + night·104729) mod 200) · slow` ms (rounded), so nights
/// differ a little and `slow` 1.5 is a regression of half as much again; every 97th row fails.
pub fn nightly(n: usize, labels: usize, night: u64, slow: f64) -> Vec<u8> {
    let labels = labels.max(1);
    let start = 1_700_000_000_000 + night * DAY_MS;
    let mut out = HEADER.to_vec();
    for i in 0..n {
        let label = i % labels;
        let jitter = (i as u64 * 7_919 + night * 104_729) % 200;
        let elapsed = ((100 + label as u64 * 10 + jitter) as f64 * slow).round();
        let ok = i % 97 != 0;
        let (code, message) = if ok { ("200", "OK") } else { ("500", "Internal Server Error") };
        out.extend_from_slice(
            format!(
                "{},{elapsed},T{:02},{code},{message},Thread 1-{},{ok},{}\n",
                start + i as u64,
                label + 1,
                i % 20,
                1_000 + i % 500
            )
            .as_bytes(),
        );
    }
    out
}

/// Runs `python3 scripts/gen_jtl.py ROWS OUT [--answers ANSWERS]`: `rows` rows into `out`, and,
/// when `answers` is given, the exact statistics it computed by sorting every label's values,
/// written there and returned parsed. `None` when there is no python3 to run it; panics when the
/// script fails.
pub fn gen_jtl_py(rows: u64, out: &Path, answers: Option<&Path>) -> Option<Option<serde_json::Value>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/gen_jtl.py");
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(rows.to_string()).arg(out);
    if let Some(a) = answers {
        cmd.arg("--answers").arg(a);
    }
    let status = match cmd.status() {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("python3 could not be started: {e}"),
    };
    assert!(status.success(), "scripts/gen_jtl.py failed: {status}");
    Some(answers.map(|a| serde_json::from_slice(&std::fs::read(a).unwrap()).unwrap()))
}

/// A test with a ramp-up, as JMeter writes it (`allThreads`): [`RAMPED_HEADER`] and one row every
/// 50 ms for `seconds` seconds over `labels` labels (`T01`, `T02`, …, in turn), starting at
/// 1,700,000,000,000 ms plus `night` days. Users climb from 1 to 20 over the first `ramp_s`
/// seconds and stay there. Row `i` takes `100 + label·10 + (i·7919 + night·104729) mod 200` ms,
/// times `ramp_slowdown` while users climb; every 97th row fails.
pub fn ramped(seconds: u64, ramp_s: u64, ramp_slowdown: f64, night: u64, labels: u64) -> Vec<u8> {
    let start = 1_700_000_000_000 + night * DAY_MS;
    let mut out = RAMPED_HEADER.to_vec();
    for i in 0..seconds * 20 {
        let t_ms = i * 50;
        let users = if t_ms >= ramp_s * 1000 { 20 } else { 1 + t_ms * 19 / (ramp_s * 1000).max(1) };
        let label = (i % labels.max(1)) as usize;
        let jitter = (i * 7_919 + night * 104_729) % 200;
        let slow = if t_ms < ramp_s * 1000 { ramp_slowdown } else { 1.0 };
        let elapsed = ((100 + label as u64 * 10 + jitter) as f64 * slow).round();
        let ok = i % 97 != 0;
        let (code, message) = if ok { ("200", "OK") } else { ("500", "Internal Server Error") };
        out.extend_from_slice(
            format!(
                "{},{elapsed},T{:02},{code},{message},Thread 1-{},{ok},1000,{users},{users}\n",
                start + t_ms,
                label + 1,
                i % users.max(1)
            )
            .as_bytes(),
        );
    }
    out
}

/// The header of [`ramped`].
pub const RAMPED_HEADER: &[u8] =
    b"timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes,grpThreads,allThreads\n";
