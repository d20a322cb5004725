# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this file
# What the action's steps share (sourced by each of them): the directories, the runlens binary, the
# inputs with their defaults, and writing to the runner's files. Inputs reach the scripts as
# RUNLENS_* environment variables (action.yml maps them), so the steps run without GitHub too.
set -euo pipefail

ACTION_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Between the steps: tonight's bundle, the summary, the comparison's exit code, the Pages worktree.
WORK="${RUNNER_TEMP:?RUNNER_TEMP is not set}/runlens"
PAGES="$WORK/pages"
CLI_ROOT="${RUNLENS_CLI_ROOT:-$HOME/.runlens-cli}"
RUNLENS="$CLI_ROOT/bin/runlens"
HISTORY="${RUNLENS_HISTORY:-history.json}"
PAGES_BRANCH="${RUNLENS_PAGES_BRANCH:-gh-pages}"
mkdir -p "$WORK"

say() { printf 'runlens: %s\n' "$*" >&2; }
fail() { printf '::error::runlens: %s\n' "$*" >&2; exit 2; }

# Sets a step output (GITHUB_OUTPUT, when there is one).
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; fi; }

# "true" or "false" of a boolean input, or a usage error.
truthy() {
  case "${1,,}" in
    true | yes | 1) return 0 ;;
    false | no | 0 | "") return 1 ;;
    *) fail "expected true or false, got '$1'" ;;
  esac
}

# Whether tonight's run is added to the history: input `append` (auto: not on pull requests).
appending() {
  case "${RUNLENS_APPEND:-auto}" in
    auto) [[ "${GITHUB_EVENT_NAME:-}" != pull_request* ]] ;;
    *) truthy "$RUNLENS_APPEND" ;;
  esac
}

# The run id: input `run-id`, else the date and the workflow's run number (2024-05-01-run412),
# chosen once by the compare step (a job that runs past midnight keeps its id).
run_id() {
  if [ -n "${RUNLENS_RUN_ID:-}" ]; then
    printf '%s' "$RUNLENS_RUN_ID"
  elif [ -f "$WORK/run-id" ]; then
    cat "$WORK/run-id"
  else
    printf '%s-run%s' "$(date -u +%F)" "${GITHUB_RUN_NUMBER:-0}" | tee "$WORK/run-id"
  fi
}
