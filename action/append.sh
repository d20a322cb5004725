#!/usr/bin/env bash
# Step "append": adds tonight's run to the history in the Pages worktree and bounds it
# (`runlens import --append … --keep N`). Skipped on pull requests (input `append`: auto).
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"

if ! appending; then
  say "not appended to the history (event ${GITHUB_EVENT_NAME:-none}, append ${RUNLENS_APPEND:-auto})"
  exit 0
fi
history="$PAGES/$HISTORY"
mkdir -p "$(dirname "$history")"
args=()
if [ -f "$history" ]; then args+=(--append "$history"); fi
if [ -n "${RUNLENS_KEEP:-}" ] && [ "$RUNLENS_KEEP" != 0 ]; then
  args+=(--keep "$RUNLENS_KEEP" --keep-thinned "${RUNLENS_KEEP_THINNED:-365}" --sparse-days "${RUNLENS_SPARSE_DAYS:-7}")
fi
if [ -n "${RUNLENS_TITLE:-}" ]; then args+=(--title "$RUNLENS_TITLE"); fi
log="$WORK/append.log"
status=0
"$RUNLENS" import "${args[@]}" "$WORK/tonight.json" -o "$history" 2> "$log" || status=$?
cat "$log" >&2
[ "$status" = 0 ] || exit "$status"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  # shellcheck disable=SC2016 # the backquotes are Markdown's
  printf '\nRun `%s` added to `%s` on branch `%s`.' "$(run_id)" "$HISTORY" "$PAGES_BRANCH" >> "$GITHUB_STEP_SUMMARY"
  if bounded=$(grep -m1 '^history bounded: ' "$log"); then
    printf ' %s.' "${bounded#history bounded: }" >> "$GITHUB_STEP_SUMMARY"
  fi
  printf '\n' >> "$GITHUB_STEP_SUMMARY"
fi
