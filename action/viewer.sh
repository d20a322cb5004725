#!/usr/bin/env bash
# Step "viewer": puts the runlens viewer next to the history on the Pages branch (input
# deploy-viewer). Built from this action's sources with the project's own pinned setup
# (scripts/setup.sh --build-only: trunk from crates.io, Plotly.js from npm), or copied from
# RUNLENS_VIEWER_DIST (input viewer-dist: a dist/ built before). The files of the previous deploy
# (listed in .runlens-viewer) are removed first, so old hashed files do not pile up.
# .nojekyll at the branch's root: GitHub Pages serves the files as they are.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"

if ! truthy "${RUNLENS_DEPLOY_VIEWER:-false}" || ! appending; then
  exit 0
fi
dist="${RUNLENS_VIEWER_DIST:-}"
if [ -z "$dist" ]; then
  bash "$ACTION_DIR/scripts/setup.sh" --build-only
  dist="$WORK/viewer-dist"
  # shellcheck source=SCRIPTDIR/../scripts/env.sh
  (cd "$ACTION_DIR" && source scripts/env.sh && trunk build --release --dist "$dist")
fi
[ -f "$dist/index.html" ] || fail "viewer: $dist has no index.html"
site="$PAGES/$(dirname "$HISTORY")"
mkdir -p "$site"
if [ -f "$site/.runlens-viewer" ]; then
  while IFS= read -r old; do rm -f "$site/$old"; done < "$site/.runlens-viewer"
fi
cp -R "$dist/." "$site/"
(cd "$dist" && find . -type f | sed 's#^\./##' | sort) > "$site/.runlens-viewer"
touch "$PAGES/.nojekyll"
say "viewer from $dist deployed next to $HISTORY"
