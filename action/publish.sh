#!/usr/bin/env bash
# Step "publish": commits the Pages worktree (the history, the viewer) and pushes it to the Pages
# branch. Nothing to commit (a pull request) is no error. Two jobs pushing at once: the second is
# refused and fails here; a `concurrency` group on the workflow prevents it.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"

if ! appending; then
  exit 0
fi
cd "$PAGES"
git add --all
if git diff --cached --quiet; then
  say "nothing to publish"
  exit 0
fi
git -c user.name="github-actions[bot]" -c user.email="41898283+github-actions[bot]@users.noreply.github.com" \
  commit --quiet -m "runlens: run $(run_id)"
git push --quiet origin "HEAD:refs/heads/$PAGES_BRANCH"
say "published to $PAGES_BRANCH"
