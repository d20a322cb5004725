//! Entry point: mounts the app (wasm32) and nothing else.
#[cfg(target_arch = "wasm32")]
fn main() {
    runlens::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("runlens is a web app: build it with `trunk build` (see README.md)");
}
