#!/usr/bin/env bash
# Step "gate", after publishing: fails the job when the comparison failed a criterion (input
# fail-on-regression) or could not be made (bad input: always), with the comparison's exit code.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"

code=$(cat "$WORK/exit-code")
case "$code" in
  0) exit 0 ;;
  1)
    if truthy "${RUNLENS_FAIL_ON_REGRESSION:-true}"; then
      printf '::error::runlens: a criterion failed against the baseline (the job summary says which)\n' >&2
      exit 1
    fi
    say "a criterion failed; fail-on-regression is off"
    ;;
  *)
    printf '::error::runlens: the comparison could not be made (runlens compare exit %s)\n' "$code" >&2
    exit "$code"
    ;;
esac
