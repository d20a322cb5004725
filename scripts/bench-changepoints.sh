#!/usr/bin/env bash
# Compares runlens' change points (analysis::changepoint) with apache-otava 0.8.0 on the same
# series: generated ones with known shifts, and the example nightly history. Prints precision,
# recall, false detections, the agreement between the detectors and their times
# (bench/changepoints/compare.py does the measuring) and writes them to
# target/bench-changepoints/last-run.md.
#
#   bash scripts/bench-changepoints.sh
#
# Installs Otava at the pinned versions of bench/changepoints/requirements.txt into
# target/changepoints-venv (idempotently) and builds examples/changepoints.rs with the worker profile.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '\033[1m[bench-changepoints]\033[0m %s\n' "$*"; }

VENV=target/changepoints-venv
source scripts/pinned-venv.sh
pinned_venv "$VENV" bench/changepoints/requirements.txt

say "building examples/changepoints.rs"
cargo build --locked --quiet --profile worker --example changepoints
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p target/bench-changepoints
"$VENV/bin/python" bench/changepoints/compare.py --runner "$target_dir/worker/examples/changepoints" \
  --out target/bench-changepoints/last-run.md
