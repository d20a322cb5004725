#!/usr/bin/env bash
# Times runlens' JTL ingest against its peers in one run, on one generated file, and checks every
# tool's table against the generator's exact answers (bench/ingest/run.py does the measuring):
#   runlens natively (the same Rust code, 1 and 2 threads), runlens in headless Chromium through
#   the real drop path to the table on screen (1 and 2 workers, a fresh browser per run), the
#   DuckDB CLI, pandas, DuckDB-Wasm and Papa Parse in Chromium; and the importer alone on bytes in
#   memory, compiled to wasm in a Chromium worker and in Node, and natively (bench/ingest/parse).
#   For every browser tool it also gives the CPU time the browser's processes used in the timed
#   part (the page's renderer, the browser process that serves a File's bytes, the others).
#
#   bash scripts/bench-ingest.sh                       # 1,000,000 rows (≈ 200 MB), medians of 5
#   bash scripts/bench-ingest.sh --rows 200000 --reps 3 --quiet-budget-min 2   # a quick run
#   bash scripts/bench-ingest.sh --memory              # runlens' memory and main thread: 200 MB, 1 GB, 4.3 GB
#   bash scripts/bench-ingest.sh --help                # every option
#
# Installs what it needs, idempotently and at pinned versions: the Python peers into
# target/bench-venv (bench/ingest/requirements.txt), the browser peers into bench/ingest/node_modules
# (bench/ingest/package-lock.json); builds the native runner (examples/ingest_table.rs, the ingest
# worker's cargo profile) and the release build (`trunk build --release` into dist/, or
# RUNLENS_DIST) when it is missing or older than the sources.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '\033[1m[bench-ingest]\033[0m %s\n' "$*"; }
if [[ " $* " == *" --help "* || " $* " == *" -h "* ]]; then exec python3 bench/ingest/run.py --help; fi

bash scripts/setup.sh | tail -1
source scripts/env.sh
export CARGO_INCREMENTAL=0

VENV=target/bench-venv
source scripts/pinned-venv.sh
pinned_venv "$VENV" bench/ingest/requirements.txt

lock_sum=$(sha256sum bench/ingest/package-lock.json | cut -d' ' -f1)
if [ "$(cat bench/ingest/node_modules/.runlens-lock 2>/dev/null)" != "$lock_sum" ]; then
  say "installing the browser peers into bench/ingest/node_modules"
  (cd bench/ingest && npm ci --no-audit --no-fund --silent)
  echo "$lock_sum" > bench/ingest/node_modules/.runlens-lock
fi

say "building the native runner (cargo profile 'worker', as the ingest worker)"
cargo build --locked --quiet --profile worker --example ingest_table

say "building the importer on bytes in memory (bench/ingest/parse), natively and to wasm"
(cd bench/ingest/parse && CARGO_TARGET_DIR=../../../target/bench-parse cargo build --locked --quiet --release \
  && CARGO_TARGET_DIR=../../../target/bench-parse cargo build --locked --quiet --release --target wasm32-unknown-unknown --lib)
mkdir -p target/bench-ingest
# wasm-opt as Trunk runs it on the ingest worker (index.html: data-wasm-opt="3" and its params).
params=$(grep -o 'data-bin="ingest"[^>]*data-wasm-opt-params="[^"]*"' index.html | sed 's/.*data-wasm-opt-params="\([^"]*\)"/\1/')
# shellcheck disable=SC2086
wasm-opt -O3 $params target/bench-parse/wasm32-unknown-unknown/release/runlens_bench_parse.wasm -o target/bench-ingest/parse.wasm

DIST=${RUNLENS_DIST:-dist}
if [ ! -f "$DIST/index.html" ] || [ -n "$(find src index.html Cargo.toml -newer "$DIST/index.html" -print -quit)" ]; then
  say "building the release build into $DIST (trunk build --release)"
  trunk build --release --dist "$DIST"
fi

export RUNLENS_DIST BENCH_EXAMPLE BENCH_PYTHON BENCH_DUCKDB
RUNLENS_DIST=$(realpath "$DIST")
BENCH_EXAMPLE=$PWD/target/worker/examples/ingest_table
BENCH_PYTHON=$PWD/$VENV/bin/python
# duckdb-cli's wheel carries DuckDB's own shell; its `duckdb` script only starts it.
BENCH_DUCKDB=$("$BENCH_PYTHON" -c 'import duckdb_cli, os; print(os.path.join(os.path.dirname(duckdb_cli.__file__), "duckdb"))')
mkdir -p target/bench-ingest
python3 bench/ingest/run.py "$@" 2>&1 | tee target/bench-ingest/last-run.txt
