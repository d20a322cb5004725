#!/usr/bin/env bash
# Step "compare": imports tonight's result files into one run ($WORK/tonight.json) and compares it
# with the baseline in the history on the Pages branch (`runlens compare`, its Markdown summary
# into $WORK/summary.md and $GITHUB_STEP_SUMMARY). Sets the outputs verdict (pass, fail,
# no-baseline, error), summary-file and exit-code (runlens compare's: 0 pass, 1 a criterion
# failed, 2 bad input, 3 usage); the step itself succeeds, so the history is published before the
# gate step fails the job.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
shopt -s nullglob globstar

cd "${GITHUB_WORKSPACE:-.}"
files=()
read -r -d '' -a patterns <<< "${RUNLENS_RESULTS:?input results is empty}" || true
for pattern in "${patterns[@]}"; do
  # shellcheck disable=SC2206 # the pattern is expanded as a glob on purpose
  matched=($pattern)
  [ "${#matched[@]}" -gt 0 ] || fail "results: nothing matches $pattern"
  files+=("${matched[@]}")
done

id=$(run_id)
args=(--run "$id" --label "Run ${GITHUB_RUN_NUMBER:-$id}")
read -r -d '' -a dims <<< "${RUNLENS_DIMS:-}" || true
# date= and commit= unless the input dims give them.
if [[ " ${dims[*]} " != *" date="* ]]; then dims+=("date=$(date -u +%F)"); fi
if [ -n "${GITHUB_SHA:-}" ] && [[ " ${dims[*]} " != *" commit="* ]]; then dims+=("commit=${GITHUB_SHA:0:12}"); fi
for dim in "${dims[@]}"; do args+=(--dim "$dim"); done
if [ -n "${RUNLENS_TITLE:-}" ]; then args+=(--title "$RUNLENS_TITLE"); fi
"$RUNLENS" import "${args[@]}" "${files[@]}" -o "$WORK/tonight.json"

summary="$WORK/summary.md"
history="$PAGES/$HISTORY"
baseline="${RUNLENS_BASELINE-last}"
code=0
if [ ! -f "$history" ] || [ -z "$baseline" ]; then
  verdict=no-baseline
  {
    printf '## runlens: %s\n\n' "${RUNLENS_TITLE:-$id}"
    # shellcheck disable=SC2016 # the backquotes are Markdown's
    if [ -f "$history" ]; then
      printf 'Run `%s` was not compared (no baseline asked for).\n' "$id"
    else
      printf 'Run `%s` is the first: there is no history at `%s` on branch `%s` to compare it with yet.\n' \
        "$id" "$HISTORY" "$PAGES_BRANCH"
    fi
  } > "$summary"
else
  # --history: the summary also lists the history's persistent shifts (change points).
  compare=("$history#$baseline" "$WORK/tonight.json" --history "$history" --format markdown -o "$summary")
  if [ -n "${RUNLENS_CRITERIA:-}" ]; then compare+=(--criteria "$RUNLENS_CRITERIA"); fi
  if [ -n "${RUNLENS_VIEWER_URL:-}" ]; then
    compare+=(--viewer "$RUNLENS_VIEWER_URL" --src "${RUNLENS_VIEWER_URL%/}/$HISTORY")
  fi
  "$RUNLENS" compare "${compare[@]}" || code=$?
  case "$code" in
    0) verdict=pass ;;
    1) verdict=fail ;;
    *) verdict=error ;;
  esac
  if [ ! -s "$summary" ]; then
    printf '## runlens: %s\n\nThe comparison could not be made (runlens compare exit %s); the log says why.\n' \
      "$id" "$code" > "$summary"
  fi
fi

printf '%s\n' "$code" > "$WORK/exit-code"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$summary" >> "$GITHUB_STEP_SUMMARY"; fi
output verdict "$verdict"
output summary-file "$summary"
output exit-code "$code"
say "run $id: $verdict (exit code $code)"
