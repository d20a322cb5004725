//! The end-to-end harness: serves the release build under /runlens/ (as a GitHub Pages project
//! site does) with Python's static server, starts ChromeDriver once, and opens a fresh headless
//! Chromium session per test. A test body runs in a task so the browser closes even when it panics.

use fantoccini::{Client, ClientBuilder, Locator};
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
    _children: Vec<ChildGuard>,
}

struct ChildGuard(Child);
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_for_port(port: u16) {
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t0.elapsed() < Duration::from_secs(20), "port {port} did not open");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn serve(dir: &std::path::Path) -> (u16, ChildGuard) {
    let port = free_port();
    let child = Command::new("python3")
        .args(["-m", "http.server", "--bind", "127.0.0.1", &port.to_string(), "--directory"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 serves the build");
    wait_for_port(port);
    (port, ChildGuard(child))
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
        let (site_port, site) = serve(&root);
        let host_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("host");
        let (other_port, other) = serve(&host_dir);
        let wd_port = free_port();
        let driver = Command::new(std::env::var("CHROMEDRIVER").unwrap_or("/usr/bin/chromedriver".into()))
            .arg(format!("--port={wd_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        wait_for_port(wd_port);
        Env {
            site: format!("http://127.0.0.1:{site_port}/runlens/"),
            other_origin: format!("http://localhost:{other_port}"),
            webdriver: format!("http://127.0.0.1:{wd_port}"),
            _children: vec![site, other, ChildGuard(driver)],
        }
    })
}

async fn client(width: u32, height: u32) -> Client {
    let profile = std::env::temp_dir().join(format!("runlens-chrome-{}-{}", std::process::id(), free_port()));
    let caps = serde_json::json!({
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display())
            ]
        }
    });
    let caps = caps.as_object().unwrap().clone().into_iter().collect();
    ClientBuilder::rustls()
        .expect("tls")
        .capabilities(caps)
        .connect(&env().webdriver)
        .await
        .expect("a WebDriver session")
}

/// Runs `body` with a fresh browser session; closes it whatever happens, then re-raises a panic.
pub async fn with_browser<F, Fut>(body: F)
where
    F: FnOnce(Client) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let c = client(1280, 900).await;
    let c2 = c.clone();
    let result = tokio::spawn(body(c2)).await;
    let _ = c.close().await;
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
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

/// The page's current query string (without '?').
pub async fn query(c: &Client) -> String {
    c.execute("return location.search.slice(1)", vec![]).await.unwrap().as_str().unwrap_or("").to_string()
}

pub fn site(path_and_query: &str) -> String {
    format!("{}{}", env().site, path_and_query)
}
