//! `runlens compare` as a CI job runs it, one file per subject: exit codes and criteria
//! (`gate`), every output format against the golden files in `tests/golden/`
//! (`RUNLENS_BLESS=1 cargo test -p runlens-cli` rewrites them), raw files against their imported
//! bundle and hostile names escaped (`formats`), label rules and the viewer's link read back by
//! `UrlState::parse` (`labels`), and histories (`history`). This file holds what they share.

mod formats;
mod gate;
mod history;
mod labels;

use std::path::Path;
use std::process::{Command, Output};
use tempfile::TempDir;

fn runlens(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runlens")).current_dir(dir).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

/// Transaction names no output may interpret.
const HOSTILE: [&str; 3] = ["Search <script>alert(1)</script>", "pay|ment ]]> `x` [a](http://e.x)", "multi\nline"];

/// A JTL of `Login` and the hostile names, 200 samples each; `slow` scales the second name's
/// times and `failing` of the third's 200 samples fail.
fn jtl(slow: f64, failing: u64) -> String {
    let mut out = String::from("timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n");
    for i in 0..200u64 {
        for (j, label) in ["Login", HOSTILE[0], HOSTILE[1], HOSTILE[2]].iter().enumerate() {
            let base = 100.0 + (i % 50) as f64 + 40.0 * j as f64;
            let ms = if j == 1 { base * slow } else { base };
            let ok = !(j == 2 && i < failing);
            let label = label.replace('"', "\"\"");
            out += &format!(
                "{},{},\"{label}\",200,OK,T 1-1,{ok},{}\n",
                1_700_000_000_000u64 + i * 4 + j as u64,
                ms as u64,
                i
            );
        }
    }
    out
}

/// A directory with `base.jtl` and `cand.jtl` (the second name 50 % slower, 10 % of the third
/// failing) and the files given.
fn setup(files: &[(&str, &str)]) -> TempDir {
    let d = tempfile::Builder::new().prefix("runlens-compare-").tempdir().unwrap();
    std::fs::write(d.path().join("base.jtl"), jtl(1.0, 0)).unwrap();
    std::fs::write(d.path().join("cand.jtl"), jtl(1.5, 20)).unwrap();
    for (name, content) in files {
        std::fs::write(d.path().join(name), content).unwrap();
    }
    d
}

const CRITERIA_TOML: &str = r#"min_samples = 100
ignore = ["Log*"]

[[fail]]
when = "p95 > +10%"

[[fail]]
when = "error_rate > 1%"

[[fail]]
when = "p99 > 200 ms"
transactions = "multi*"
"#;

/// Compares `actual` with `tests/golden/NAME`, or writes it there under `RUNLENS_BLESS=1`.
fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("RUNLENS_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}; run with RUNLENS_BLESS=1", path.display()));
    assert_eq!(actual, expected, "{name} differs from its golden file; RUNLENS_BLESS=1 rewrites it after a review");
}
