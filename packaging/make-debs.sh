#!/usr/bin/env bash
# Builds the Debian packages (edgecompiler, edgecompiler-workbench, python3-edgecompiler)
# from an optimised build: packaging/make-debs.sh [BUILD_DIR]   (default build/release)
# They land in BUILD_DIR/debs; install them with
#   sudo apt install ./BUILD_DIR/debs/edgecompiler_*.deb ./BUILD_DIR/debs/edgecompiler-workbench_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
bash packaging/install-deps.sh
if [ "$build" = build/release ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release
else
  cmake --build "$build" -j2
fi
(cd "$build" && cpack -G DEB -B debs)
ls -1 "$build"/debs/*.deb
