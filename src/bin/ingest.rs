//! Entry point of the ingest Web Worker (a second wasm binary built by Trunk): starts the message
//! loop in `runlens::worker` and nothing else.
#[cfg(target_arch = "wasm32")]
fn main() {
    runlens::worker::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the ingest worker runs in the browser; natively, use the runlens CLI (see README.md)");
}
