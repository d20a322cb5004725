//! Bakes a build id into both wasm binaries (page and ingest worker) so the page can tell a stale,
//! cached worker from the one it was built with: the time of the build, re-taken whenever a source
//! file changes. `RUNLENS_BUILD` from the environment (CI) wins.
fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-env-changed=RUNLENS_BUILD");
    let id = std::env::var("RUNLENS_BUILD").unwrap_or_else(|_| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        format!("{t:x}")
    });
    println!("cargo:rustc-env=RUNLENS_BUILD={id}");
}
