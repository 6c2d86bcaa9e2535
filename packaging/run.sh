#!/usr/bin/env bash
# The README's first command: install dependencies, build, and open the
# workbench on the bundled sample model (or, with no display, show the CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
sample=build/release/resources/sample_cnn.onnx
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/release/app/workbench/edgecompiler-workbench ]; then
  exec build/release/app/workbench/edgecompiler-workbench "$sample" "$@"
fi
echo "No display found, so the workbench cannot open a window here."
echo "Use the CLI instead, e.g.:"
echo "  build/release/app/cli/edgecompile inspect $sample"
echo "  build/release/app/cli/edgecompile inspect --json $sample"
echo "  build/release/app/cli/edgecompile optimize --diff $sample"
echo "  build/release/app/cli/edgecompile bench $sample --profile"
echo "  build/release/app/cli/edgecompile quantize $sample --strategy ptq --calibration-data calib.npy"
echo "(or run the workbench under a virtual display: xvfb-run -a build/release/app/workbench/edgecompiler-workbench $sample --screenshot shot.png)"
echo
exec build/release/app/cli/edgecompile inspect "$sample"
