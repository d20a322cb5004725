#!/usr/bin/env bash
# Sets up the machine, builds runlens and serves it at http://127.0.0.1:8080/ (examples included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
exec trunk serve --release --address 127.0.0.1 --port 8080 "$@"
