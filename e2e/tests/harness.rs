//! The end-to-end harness: serves the release build under /runlens/ (as a GitHub Pages project
//! site does, with `Access-Control-Allow-Origin: *`, see `e2e/serve.py`), starts ChromeDriver
//! once, and opens a fresh headless Chromium session per test. A test body runs in a task so the
//! browser closes even when it panics; then the browser's console is read and any
//! Content-Security-Policy violation fails the test.
//!
//! The servers and ChromeDriver are started from one thread that lives as long as the test
//! process, each with `PR_SET_PDEATHSIG`: when the process ends (all tests done, a panic, Ctrl-C,
//! SIGKILL) the kernel sends them SIGTERM, so no run leaves processes behind.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub struct Env {
    /// Base URL of the site, ending in `/runlens/`.
    pub site: String,
    /// A second origin (another port) serving `e2e/host/` for iframe tests.
    pub other_origin: String,
    pub webdriver: String,
    /// The directory the site's server serves (`runlens/` in it is the build): a test may put
    /// files of its own beside it, under `/files/`.
    #[allow(dead_code)] // read by ingest.rs (its own test target), not by e2e.rs
    pub root: PathBuf,
}

fn free_port() -> u16 {
    free_ports::<1>()[0]
}

/// `N` distinct free ports: every listener is held until all are chosen, since the kernel may
/// hand a just-closed port out again (two servers on one port: the site answered as WebDriver).
fn free_ports<const N: usize>() -> [u16; N] {
    let held: Vec<TcpListener> = (0..N).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    std::array::from_fn(|i| held[i].local_addr().unwrap().port())
}

fn wait_for_port(port: u16) {
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t0.elapsed() < Duration::from_secs(20), "port {port} did not open");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts `cmd` so that it gets SIGTERM when the thread that started it ends.
fn spawn_tied(mut cmd: Command) -> Child {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl and getppid are async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before prctl took effect.
            if libc::getppid() == 1 {
                libc::_exit(0);
            }
            Ok(())
        });
    }
    cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"))
}

fn serve_command(port: u16, dir: &std::path::Path) -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("serve.py")).arg(port.to_string()).arg(dir);
    cmd
}

pub fn env() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let dist = PathBuf::from(std::env::var("RUNLENS_DIST").expect(
            "RUNLENS_DIST must name a release build made with --public-url /runlens/ (scripts/test.sh does this)",
        ));
        assert!(dist.join("index.html").exists(), "no index.html in {}", dist.display());
        let root = std::env::temp_dir().join(format!("runlens-e2e-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::os::unix::fs::symlink(&dist, root.join("runlens")).unwrap();
        let host_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("host");
        let [site_port, other_port, wd_port] = free_ports::<3>();
        let driver = std::env::var("CHROMEDRIVER").unwrap_or("/usr/bin/chromedriver".into());
        let mut wd = Command::new(driver);
        wd.arg(format!("--port={wd_port}"));
        let commands = vec![serve_command(site_port, &root), serve_command(other_port, &host_dir), wd];
        // The thread that starts the children stays parked for the life of the process (see the
        // module comment): its end is the process's end.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let children: Vec<Child> = commands.into_iter().map(spawn_tied).collect();
            let _ = tx.send(());
            loop {
                std::thread::park();
                let _ = &children;
            }
        });
        rx.recv().expect("the harness starts its servers");
        for port in [site_port, other_port, wd_port] {
            wait_for_port(port);
        }
        Env {
            site: format!("http://127.0.0.1:{site_port}/runlens/"),
            other_origin: format!("http://localhost:{other_port}"),
            webdriver: format!("http://127.0.0.1:{wd_port}"),
            root,
        }
    })
}

/// The browser binary: `CHROME` if set (CI runners bring Google Chrome), else Debian's Chromium.
fn chrome_binary() -> String {
    std::env::var("CHROME").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

async fn client(profile: &std::path::Path, width: u32, height: u32, flags: &[&str]) -> Client {
    let mut caps = serde_json::json!({
        "goog:loggingPrefs": {"browser": "ALL"},
        "goog:chromeOptions": {
            "binary": chrome_binary(),
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display())
            ]
        }
    });
    if let Some(args) = caps["goog:chromeOptions"]["args"].as_array_mut() {
        args.extend(flags.iter().map(|f| serde_json::json!(f)));
    }
    let caps = caps.as_object().unwrap().clone().into_iter().collect();
    ClientBuilder::rustls()
        .expect("tls")
        .capabilities(caps)
        .connect(&env().webdriver)
        .await
        .expect("a WebDriver session")
}

/// ChromeDriver's console log of the session (`POST /session/{id}/se/log`), which fantoccini has
/// no method for. Reading it empties it.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.into()))
    }
}

/// A Chrome DevTools Protocol command through ChromeDriver (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(serde_json::Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// Runs `source` in every document the tab opens from now on, before the page's own scripts
/// (DevTools' `Page.addScriptToEvaluateOnNewDocument`; the page's Content-Security-Policy does not
/// apply to it). Benchmarks use it to observe a page from its first moment.
#[allow(dead_code)] // used by bench_ui.rs (its own test target)
pub async fn on_new_document(c: &Client, source: &str) {
    let cmd = serde_json::json!({"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": source}});
    c.issue_cmd(Cdp(cmd)).await.expect("ChromeDriver runs DevTools commands");
}

/// Writes `content` to `path` under the served root; returns its URL path (`/bench/big.json`).
#[allow(dead_code)] // used by bench_ui.rs (its own test target)
pub fn serve_file(path: &str, content: &[u8]) -> String {
    let file = env().root.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, content).unwrap();
    format!("/{path}")
}

/// The console messages of the session so far.
pub async fn console(c: &Client) -> Vec<String> {
    match c.issue_cmd(BrowserLog).await {
        Ok(serde_json::Value::Array(entries)) => {
            entries.iter().filter_map(|e| e["message"].as_str().map(str::to_string)).collect()
        }
        _ => vec![],
    }
}

/// Runs `body` with a fresh browser session; closes it whatever happens, then re-raises a panic.
/// A Content-Security-Policy violation logged while the body ran fails the test.
pub async fn with_browser<F, Fut>(body: F)
where
    F: FnOnce(Client) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    with_browser_flags(&[], body).await
}

/// `with_browser` with more command-line flags for Chromium.
pub async fn with_browser_flags<F, Fut>(flags: &[&str], body: F)
where
    F: FnOnce(Client) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let profile = std::env::temp_dir().join(format!("runlens-chrome-{}-{}", std::process::id(), free_port()));
    let c = client(&profile, 1280, 900, flags).await;
    let c2 = c.clone();
    let result = tokio::spawn(body(c2)).await;
    let violations: Vec<String> =
        console(&c).await.into_iter().filter(|m| m.contains("Content Security Policy")).collect();
    let _ = c.close().await;
    let _ = std::fs::remove_dir_all(&profile);
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
    assert!(violations.is_empty(), "the page broke its Content-Security-Policy: {violations:#?}");
}

/// Waits until `css` matches an element whose text contains `needle`; returns that text.
pub async fn wait_text(c: &Client, css: &str, needle: &str) -> String {
    let t0 = Instant::now();
    loop {
        if let Ok(els) = c.find_all(Locator::Css(css)).await {
            for e in els {
                if let Ok(t) = e.text().await {
                    if t.contains(needle) {
                        return t;
                    }
                }
            }
        }
        if t0.elapsed() > Duration::from_secs(15) {
            let body = c.find(Locator::Css("body")).await.ok();
            let text = match body {
                Some(b) => b.text().await.unwrap_or_default(),
                None => String::new(),
            };
            panic!("no {css} containing {needle:?} within 15 s; page text:\n{}", &text[..text.len().min(3000)]);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The page's current query string (without '?'). The page writes the address bar a task after a
/// change (`browser::replace_query_soon`): after a click, use [`wait_query`] or [`settled_query`].
pub async fn query(c: &Client) -> String {
    c.execute("return location.search.slice(1)", vec![]).await.unwrap().as_str().unwrap_or("").to_string()
}

/// Waits until the query contains every one of `parts`; returns it.
pub async fn wait_query(c: &Client, parts: &[&str]) -> String {
    let t0 = Instant::now();
    loop {
        let q = query(c).await;
        if parts.iter().all(|p| q.contains(p)) {
            return q;
        }
        assert!(t0.elapsed() < Duration::from_secs(15), "the query never held all of {parts:?}: {q}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The query once it has stopped changing: the same in two reads 200 ms apart.
pub async fn settled_query(c: &Client) -> String {
    let t0 = Instant::now();
    let mut last = query(c).await;
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let q = query(c).await;
        if q == last {
            return q;
        }
        assert!(t0.elapsed() < Duration::from_secs(15), "the query kept changing: {last} then {q}");
        last = q;
    }
}

pub fn site(path_and_query: &str) -> String {
    format!("{}{}", env().site, path_and_query)
}

/// Drops a file with `content` on the page, as a user dragging it from the desktop would.
pub async fn drop_file(c: &Client, name: &str, content: &str) {
    c.execute(
        "const dt = new DataTransfer(); dt.items.add(new File([arguments[1]], arguments[0], {type: 'application/json'}));
         document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));",
        vec![json!(name), json!(content)],
    )
    .await
    .unwrap();
}

/// Drops a file of raw bytes (binary, legacy encodings) on the page.
pub async fn drop_bytes(c: &Client, name: &str, bytes: &[u8]) {
    c.execute(
        "const dt = new DataTransfer(); dt.items.add(new File([new Uint8Array(arguments[1])], arguments[0]));
         document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));",
        vec![json!(name), json!(bytes)],
    )
    .await
    .unwrap();
}

/// Runs `script` every 100 ms until it returns neither null nor false (at most 15 s); its value.
pub async fn eval_until(c: &Client, script: &str) -> serde_json::Value {
    let t0 = Instant::now();
    loop {
        let v = c.execute(script, vec![]).await.unwrap();
        if !v.is_null() && v != json!(false) {
            return v;
        }
        assert!(t0.elapsed() < Duration::from_secs(15), "timed out waiting for: {script}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Percent-encodes every byte but ASCII letters, digits and `-_.~` (a URL query value).
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
