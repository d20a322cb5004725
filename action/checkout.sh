#!/usr/bin/env bash
# Step "checkout": the Pages branch as a worktree of the workspace's repository at $PAGES (the
# credentials actions/checkout left there push it later). A branch that does not exist yet starts
# empty: the first night creates it.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"

repo="${GITHUB_WORKSPACE:?GITHUB_WORKSPACE is not set}"
rm -rf "$PAGES"
git -C "$repo" worktree prune
status=0
git -C "$repo" ls-remote --exit-code origin "refs/heads/$PAGES_BRANCH" > /dev/null || status=$?
if [ "$status" = 0 ]; then
  git -C "$repo" fetch --quiet --no-tags --depth=1 origin "+refs/heads/$PAGES_BRANCH:refs/remotes/origin/$PAGES_BRANCH"
  git -C "$repo" worktree add --quiet --detach "$PAGES" "origin/$PAGES_BRANCH"
elif [ "$status" = 2 ]; then
  say "no branch $PAGES_BRANCH on origin yet: it starts with this run"
  git -C "$repo" worktree add --quiet --detach "$PAGES"
  git -C "$PAGES" checkout --quiet --orphan "runlens-pages-$$"
  git -C "$PAGES" rm -r --quiet --force --ignore-unmatch .
else
  fail "origin could not be asked for branch $PAGES_BRANCH (git ls-remote exit $status)"
fi
