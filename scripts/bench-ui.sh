#!/usr/bin/env bash
# The UI figures, as medians over repeated runs in real time (the release build in
# headless Chromium through WebDriver, e2e/tests/bench_ui.rs; never --virtual-time-budget), each
# beside its target and its previous value (bench/ui/previous.txt):
#   1. a generated 50 MB bundle (50 runs × 2,000 transactions with histograms) opened by ?src=:
#      overview ready and latency view ready, each less the small example's; the longest
#      main-thread task (Long Tasks API, observed from the document's first moment)
#   2. switching the baseline on 3 runs × 2,000 transactions, without and with histograms
#   3. sorting and filtering the latency table of 10,000 transactions
#   4. four embeds on a page of another origin: each one ready after the first; the dist's file
#      names (what Trunk hashes) and the e2e server's cache headers
#   5. gzip sizes: the app wasm and the first view (HTML, boot.js, JS glue, wasm, CSS)
#
#   bash scripts/bench-ui.sh                  # 5 repetitions
#   BENCH_REPS=3 bash scripts/bench-ui.sh     # quicker
#
# Uses the release build in RUNLENS_DIST (default target/e2e-dist); builds it with
# `trunk build --release --public-url /runlens/` only when it is missing. The table also goes to
# target/bench-ui/last-run.txt, the benchmarks' raw output to target/bench-ui/raw.txt. The machine's
# load (uptime) before and after is printed with the numbers: a busy machine slows every figure.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '\033[1m[bench-ui]\033[0m %s\n' "$*" >&2; }
source scripts/env.sh
export CARGO_INCREMENTAL=0

DIST=${RUNLENS_DIST:-target/e2e-dist}
if [ ! -f "$DIST/index.html" ]; then
  say "no build in $DIST: trunk build --release --public-url /runlens/ --dist $DIST"
  trunk build --release --public-url /runlens/ --dist "$DIST"
fi
export RUNLENS_DIST
RUNLENS_DIST=$(realpath "$DIST")

OUT=target/bench-ui
mkdir -p "$OUT"
RAW=$OUT/raw.txt
: > "$RAW"
say "building the benchmarks (the e2e crate)"
cargo test --locked -p runlens-e2e --test bench_ui --no-run 2>&1 | tail -1 >&2
load_before=$(uptime)
say "figures 1, 3, 4 (e2e/tests/bench_ui.rs)"
cargo test --locked -p runlens-e2e --test bench_ui -- --ignored --nocapture --test-threads=1 --skip bench_switch_time 2>&1 | tee -a "$RAW" | grep -E 'BENCH|panicked|test result' >&2 || true
say "figure 2 (the switch benchmarks of e2e/tests/bench_ui.rs)"
cargo test --locked -p runlens-e2e --test bench_ui -- --ignored --nocapture --test-threads=1 bench_switch_time 2>&1 | tee -a "$RAW" | grep -E 'switch baseline|panicked|test result' >&2 || true
load_after=$(uptime)
python3 bench/ui/report.py "$RAW" "$RUNLENS_DIST" "$load_before" "$load_after"
