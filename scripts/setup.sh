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

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Chromium and ChromeDriver (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
say "ready: trunk $TRUNK_VERSION, wasm-bindgen $WASM_BINDGEN_VERSION, $(node_modules/.bin/wasm-opt --version), $(chromium --version 2>/dev/null | head -c 40)"
