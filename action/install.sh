#!/usr/bin/env bash
# Step "install": puts the runlens command line at $CLI_ROOT/bin/runlens, built from this action's
# own sources by `cargo install --locked` (crates from crates.io, nothing else downloaded). Skipped
# when the binary there was built from the same sources (a hash of them beside it), so caching
# $CLI_ROOT (~/.runlens-cli) saves the build. RUNLENS_CLI_BINARY (input `cli-binary`) uses a
# prebuilt binary instead.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"

mkdir -p "$CLI_ROOT/bin"
if [ -n "${RUNLENS_CLI_BINARY:-}" ]; then
  [ -x "$RUNLENS_CLI_BINARY" ] || fail "cli-binary $RUNLENS_CLI_BINARY is not an executable file"
  cp "$RUNLENS_CLI_BINARY" "$RUNLENS"
else
  sources=$(cd "$ACTION_DIR" && find Cargo.toml Cargo.lock build.rs src cli/Cargo.toml cli/src -type f -print0 \
    | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
  if [ -x "$RUNLENS" ] && [ "$(cat "$CLI_ROOT/.runlens-sources" 2>/dev/null)" = "$sources" ]; then
    say "runlens already built from these sources"
  else
    say "building the runlens command line (cargo install --locked, a few minutes)"
    cargo install --locked --quiet --path "$ACTION_DIR/cli" --root "$CLI_ROOT" --force
    printf '%s\n' "$sources" > "$CLI_ROOT/.runlens-sources"
  fi
fi
"$RUNLENS" --version
