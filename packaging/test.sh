#!/usr/bin/env bash
# The README's second command: install dependencies, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci -j2 "$@"
