#!/usr/bin/env bash
# CPU runtime benchmark: edgecompile against ONNX Runtime (npm onnxruntime-node,
# CPU, sequential execution, same thread count, same input), alternating A/B
# rounds so both see the same machine state. Prints median latency ratios
# (ours / ORT) per model at 1 and 2 threads; < 1 means we are faster.
#
# usage: bench/runtime.sh [BUILD_DIR] [ROUNDS]   (default build/release, 5 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
rounds=${2:-5}
py=/usr/bin/python3
exe=$build/app/cli/edgecompile
models=$build/test-models
work=$build/bench-runtime
mkdir -p "$work"
[ -f "$models/expected.json" ] || $py tests/models/export_models.py "$models" >/dev/null
if [ ! -d bench/ort/node_modules/onnxruntime-node ]; then
  # The package's postinstall fetches GPU binaries from a host that cannot be reached;
  # the CPU library ships inside the npm tarball itself.
  (cd bench/ort && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund >/dev/null)
fi

declare -A shape=([mobilenet_v2]="1,3,224,224" [resnet18]="1,3,224,224" [transformer]="1,16,64")
declare -A iters=([mobilenet_v2]=20 [resnet18]=10 [transformer]=200)

printf '%-14s %7s %12s %12s %8s\n' model threads ours_p50_ms ort_p50_ms ratio
for m in mobilenet_v2 resnet18 transformer; do
  in=$work/$m.input.npy
  $py -c "import numpy as np,sys; np.save(sys.argv[1], np.random.default_rng(0).standard_normal(tuple(map(int,sys.argv[2].split(',')))).astype(np.float32))" "$in" "${shape[$m]}"
  for t in 1 2; do
    ours=() theirs=()
    for ((r = 0; r < rounds; ++r)); do
      ours+=("$("$exe" bench "$models/$m.onnx" --input "input=$in" --iterations "${iters[$m]}" --warmup 3 --threads "$t" --no-profile --no-record --json | $py -c 'import json,sys; print(json.load(sys.stdin)["p50_ms"])')")
      theirs+=("$(node bench/ort/ort_bench.js "$models/$m.onnx" "$in" "${iters[$m]}" 3 "$t" | $py -c 'import json,sys; print(json.load(sys.stdin)["p50_ms"])')")
    done
    $py - "$m" "$t" "${ours[*]}" "${theirs[*]}" <<'PY'
import statistics, sys
m, t, a, b = sys.argv[1], sys.argv[2], list(map(float, sys.argv[3].split())), list(map(float, sys.argv[4].split()))
oa, ob = statistics.median(a), statistics.median(b)
print(f"{m:<14} {t:>7} {oa:12.2f} {ob:12.2f} {oa/ob:8.2f}")
PY
  done
done
echo "(median over $rounds alternating rounds of each run's p50; ratio = ours / ORT)"
