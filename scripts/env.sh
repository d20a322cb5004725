# Sourced by the scripts: puts cargo's and npm's tools first on PATH (Trunk finds wasm-opt there).
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# The browser and ChromeDriver scripts/setup.sh found (CHROME, CHROMEDRIVER, the webdriver.json).
if [ -f "$PWD/.tools/browser.env" ]; then source "$PWD/.tools/browser.env"; fi

# Trunk, as every script runs it: the wasm binaries are built with the standard library compiled
# with them (-Zbuild-std, from the toolchain's rust-src) and a panic that aborts at once
# (panic=immediate-abort: no panic message formatting, no unwinding tables, no location strings).
# The page's wasm is 31.5 KB gzip smaller (docs/size.md). These are unstable options of the
# pinned stable compiler; RUSTC_BOOTSTRAP=1 lets it take them, for these builds only (host tests
# and the wasm component tests keep the ordinary standard library and its panics). The target's
# other flags come from .cargo/config.toml: Cargo adds these to them. A panic in the page then
# traps, and public/boot.js shows the error box that src/ui/panic.rs shows in other builds.
with_release_wasm_options() {
  RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort" \
    "$@"
}
trunk() { with_release_wasm_options command trunk "$@"; }
