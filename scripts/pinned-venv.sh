# Sourced by the benchmark scripts: `pinned_venv VENV REQUIREMENTS` makes VENV a Python venv with
# exactly REQUIREMENTS installed, again only when that file changed (its hash is kept in the venv).
pinned_venv() {
  local venv=$1 req=$2 sum
  sum=$(sha256sum "$req" | cut -d' ' -f1)
  if [ "$(cat "$venv/.runlens-req" 2>/dev/null)" != "$sum" ]; then
    printf 'installing %s into %s\n' "$req" "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --disable-pip-version-check -q -r "$req"
    echo "$sum" > "$venv/.runlens-req"
  fi
}
