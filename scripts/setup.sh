#!/usr/bin/env bash
# Brings a fresh machine to a working state for runlens, idempotently: every tool is installed from
# a package registry at a pinned version, and skipped when already present at that version.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen in Cargo.lock (Cargo.toml pins it with "=").
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The formatter and the linter, which scripts/test.sh runs first (a minimal toolchain lacks them).
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding the $component component"
    rustup component add "$component"
  fi
done

# Crates, fetched while the registry is in reach: Trunk builds offline (Trunk.toml), so the app's
# crates for every target must be in Cargo's cache first. A quick no-op once they are there.
cargo fetch --locked --quiet

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (a few minutes)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lockfile names a webpki-roots release the registry does not serve.
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# npm parts: Plotly.js (copied into dist/ by Trunk) and binaryen's wasm-opt, from package-lock.json.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.runlens-lock 2>/dev/null)" != "$lock_sum" ]; then
  say "installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund
  echo "$lock_sum" > node_modules/.runlens-lock
fi

# `--build-only` (the GitHub Action's viewer build): the tools of a release build are enough.
if [ "${1:-}" = "--build-only" ]; then
  say "ready to build: trunk $TRUNK_VERSION, wasm-bindgen $WASM_BINDGEN_VERSION, $(node_modules/.bin/wasm-opt --version)"
  exit 0
fi

# A browser and a ChromeDriver of the same major version, in this order: $CHROME/$CHROMEDRIVER if
# set; ones already on the machine (GitHub's ubuntu-24.04 runners bring Google Chrome, with its
# ChromeDriver in $CHROMEWEBDRIVER; Debian machines have chromium + chromium-driver); else Debian's
# packages. Ubuntu's `chromium` apt package is only a snap stub, so it is never installed, and a
# binary that resolves into /snap is not used. The choice goes to .tools/browser.env, which
# scripts/env.sh reads (the e2e harness reads CHROME and CHROMEDRIVER, wasm-bindgen-test a
# webdriver.json naming the same binary).
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
usable() { [ -n "$1" ] && [ -x "$1" ] && [[ "$(readlink -f "$1")" != /snap/* ]] && "$1" --version >/dev/null 2>&1; }
major() { "$1" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9.]+' | head -1 | cut -d. -f1; }
find_browser() {
  local c
  for c in "${CHROME:-}" "$(command -v google-chrome || true)" "$(command -v google-chrome-stable || true)" \
           "$(command -v chromium || true)" "$(command -v chromium-browser || true)"; do
    if usable "$c"; then echo "$c"; return; fi
  done
}
find_driver() {
  local d
  for d in "${CHROMEDRIVER:-}" "${CHROMEWEBDRIVER:+$CHROMEWEBDRIVER/chromedriver}" "$(command -v chromedriver || true)"; do
    if usable "$d" && [ "$(major "$d")" = "$(major "$1")" ]; then echo "$d"; return; fi
  done
}
browser=$(find_browser)
driver=${browser:+$(find_driver "$browser")}
if [ -z "$browser" ] || [ -z "$driver" ]; then
  if [ -f /etc/debian_version ] && ! grep -qi ubuntu /etc/os-release; then
    say "installing Chromium and ChromeDriver (Debian packages)"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -qq
    as_root apt-get install -y -qq chromium chromium-driver >/dev/null
    browser=$(find_browser); driver=${browser:+$(find_driver "$browser")}
  fi
fi
if [ -z "$browser" ] || [ -z "$driver" ]; then
  say "no Chrome/Chromium with a ChromeDriver of the same version found: set CHROME and CHROMEDRIVER"
  exit 1
fi
mkdir -p .tools
sed "s#\"binary\": \"[^\"]*\"#\"binary\": \"$browser\"#" webdriver.json > .tools/webdriver.json
cat > .tools/browser.env <<ENV
export CHROME="$browser" CHROMEDRIVER="$driver" WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/.tools/webdriver.json"
ENV
say "ready: trunk $TRUNK_VERSION, wasm-bindgen $WASM_BINDGEN_VERSION, $(node_modules/.bin/wasm-opt --version), $("$browser" --version 2>/dev/null | head -c 60) with $driver"
