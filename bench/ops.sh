#!/usr/bin/env bash
# Per-op benchmark (issue 38): a one-op ONNX model for every op kind the CPU runtime has a
# kernel for (parsed from core/runtime/kernel_registry.cpp), at 2-3 shapes taken from real
# models (bench/export_bench_models.py, random weights; onnx shape inference), or the ONNX
# conformance case (Debian's libonnx-testdata) for kinds no real model has; each timed on
# edgecompile and ONNX Runtime 1.30 (bench/ort/ort_bench.js; CPU, sequential, same threads,
# same inputs), alternating, ROUNDS rounds. Prints op, shape, ours, ORT, ratio (worst first),
# the geometric mean (without the rows where ORT's per-call overhead dominates) and the op
# kinds above 1.5x per thread count, errors as rows, and the kinds with no case.
#
# usage: bench/ops.sh [BUILD_DIR] [ROUNDS]   (default build/release, 3 rounds)
#   OPS="Conv Resize" bench/ops.sh ...        only these op kinds
#   MODELS="unet lraspp_mnv3" bench/ops.sh ...  take shapes from these real models only
#   THREADS="1 2" bench/ops.sh ...            thread counts (default 1)
#   EXE=/path/to/edgecompile bench/ops.sh ... another build against the same peer
#   LIST=1 bench/ops.sh ...                   list the cases, time nothing
# Models, scans and one-op cases are cached under BUILD_DIR/bench-ops/ (delete it to redo).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
rounds=${2:-3}
py=/usr/bin/python3
exe=${EXE:-$build/app/cli/edgecompile}
[ -x "$exe" ] || { echo "bench/ops.sh: $exe not found (build the edgecompile target first)" >&2; exit 1; }
mkdir -p "$build/bench-ops/models"
if [ -z "${EXE:-}" ]; then
  # A copy taken now: a rebuild during the sweep (tens of minutes) cannot change the binary mid-table.
  cp "$exe" "$build/bench-ops/edgecompile.tmp" && mv "$build/bench-ops/edgecompile.tmp" "$build/bench-ops/edgecompile"
  exe=$build/bench-ops/edgecompile
fi
if [ ! -d bench/ort/node_modules/onnxruntime-node ]; then
  (cd bench/ort && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund >/dev/null)
fi
default_models="mobilenet_v2 mobilenet_v3_large resnet18 densenet121 convnext_tiny squeezenet1_1 googlenet
  shufflenet_v2_x1_0 efficientnet_b0 transformer gru_text lstm_text deeplabv3_mnv3 lraspp_mnv3 unet video3d
  audio1d mixer prenorm_text bigru80 bilstm100"
read -r -a names <<<"$(echo ${MODELS:-$default_models})"
# export_bench_models.py skips a model whose .onnx exists (the cache) and reports one torch cannot export.
$py bench/export_bench_models.py "$build/bench-ops/models" "${names[@]}" >/dev/null
MODELS="${names[*]}" EXE="$exe" exec $py bench/ops.py "$build" "$rounds"
