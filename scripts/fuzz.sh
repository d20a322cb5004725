#!/usr/bin/env bash
# Fuzzes runlens' loaders with cargo-fuzz (libFuzzer) on the machine's stable Rust. Not part of
# setup.sh, test.sh or CI: cargo-fuzz is installed from crates.io at a pinned version into
# target/fuzz-tools, and RUSTC_BOOTSTRAP=1 lets stable rustc accept the -Z flags cargo-fuzz passes.
#
#   bash scripts/fuzz.sh                 # every target, 300 s each
#   bash scripts/fuzz.sh bundle 600      # one target, 600 s
#
# A crash leaves its input in fuzz/artifacts/<target>/; after the fix, copy it to
# tests/bad-input/fuzz/<target>/ so `cargo test --test bad_input` replays it for good.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO_FUZZ_VERSION=0.13.2
tools="$PWD/target/fuzz-tools"
if [ "$("$tools/bin/cargo-fuzz" --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
  cargo install --locked --root "$tools" "cargo-fuzz@$CARGO_FUZZ_VERSION"
fi
export PATH="$tools/bin:$PATH" RUSTC_BOOTSTRAP=1
secs=${2:-300}
if [ -n "${1:-}" ]; then targets=("$1"); else mapfile -t targets < <(cd fuzz && cargo fuzz list); fi

# Seeds: the fixtures and real tool output, so the fuzzer starts from inputs that parse.
seeds=fuzz/seeds
mkdir -p "$seeds"
find tests/fixtures tests/bad-input public/examples tests/corpus -type f -size -256k -exec cp -n {} "$seeds/" \; 2>/dev/null || true

for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  echo "== $t ($secs s)"
  # -timeout: an input that takes 10 s is a hang worth fixing; -rss_limit_mb: a tab's budget.
  (cd fuzz && cargo fuzz run --sanitizer "${FUZZ_SANITIZER:-none}" "$t" "corpus/$t" seeds -- \
      -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" -print_final_stats=1)
done
