#!/usr/bin/env bash
# Sets up the machine and runs every test tier of runlens, failing on the first failure:
#   1. formatting (`cargo fmt --check`); host `cargo test`: bundle format, model, analysis, tables,
#      URL state, examples, fixtures, schema; the command line (`cargo test -p runlens-cli`)
#   Every tier lints as it builds: clippy with -D warnings on every workspace crate it compiles
#   (see RUSTC_WORKSPACE_WRAPPER below).
#   2. wasm-bindgen-test in headless Chromium: components (tables, chart wrapper)
#   3. end-to-end: the release build served under /runlens/ (as GitHub Pages serves a project site),
#      driven through WebDriver in headless Chromium
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh

tier() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
timed() { local t0=$SECONDS; "$@"; echo "   ($(( SECONDS - t0 )) s)"; }

# Lints while building: `cargo clippy -- -D warnings` is `cargo check` with clippy-driver as
# cargo's RUSTC_WORKSPACE_WRAPPER. The same wrapper on the builds below lints every workspace
# crate they compile (host lib, bins, tests, examples and benches; the CLI; the support and e2e
# crates; the wasm32 page and worker in the component tests and the release build) with
# -D warnings, without compiling everything a second time for `cargo clippy`
# (docs/decisions/0044-lints-while-building.md). Dependencies are never linted (cargo caps them).
export RUSTC_WORKSPACE_WRAPPER="$(command -v clippy-driver)" CLIPPY_ARGS="-Dwarnings"

# The builds below need several GB in target/: say so in plain words rather than let the linker die
# of "No space left on device" halfway through.
free_gb=$(df -Pk . | awk 'NR==2 {print int($4 / 1048576)}')
if [ "$free_gb" -lt 6 ]; then
  echo "scripts/test.sh: only $free_gb GB free on this disk; the builds need about 6 GB (target/)." >&2
  exit 1
fi

tier "1/3 format, lints, host tests"
timed cargo fmt --check
timed cargo test --locked
# The benches are built (and linted), not run: they measure, they do not test.
timed cargo test --locked --benches --no-run
# The command-line importer (cli/): success, refused files, inputs larger than its memory limit;
# and the test-support crate (support/) the tests, benches and e2e tests share.
timed cargo test --locked -p runlens-cli -p runlens-test-support
# The crates outside the workspace (bench/ingest/parse, fuzz) have lockfiles of their own: a
# dependency that leaves the app must leave them too, or their --locked builds stop working.
# The benchmark's crate needs nothing the app's lockfile lacks, so it is checked offline, for the
# host only (the host tests above fetched its crates; another platform's, e.g. an Android-only
# dependency of chrono, are not on a fresh machine, and cargo metadata reads every package it lists).
(cd bench/ingest/parse && cargo metadata --locked --offline --format-version 1 \
    --filter-platform "$(rustc -vV | sed -n 's/^host: //p')" >/dev/null)

tier "2/3 component tests (wasm, headless Chromium)"
timed cargo test --locked --target wasm32-unknown-unknown --test components

tier "3/3 end-to-end tests (release build under /runlens/)"
timed trunk build --release --public-url /runlens/ --dist target/e2e-dist
# The page must not grow: app wasm and first view, gzipped, against their budgets (docs/decisions/README.md).
timed bash scripts/check-size.sh target/e2e-dist
RUNLENS_DIST="$PWD/target/e2e-dist" timed cargo test --locked -p runlens-e2e -- --test-threads=2
