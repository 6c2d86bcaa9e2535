#!/usr/bin/env bash
# int8 runtime benchmark: the int8 graph `edgecompile quantize` writes against our own
# fp32 on the same model, same input, 1 thread, alternating A/B rounds so both see the
# same machine state (the machine may be shared). Prints the median p50 of each and the
# ratio int8 / fp32 per CNN (< 0.5 is the goal of issue 18) and their geometric mean,
# then the end-to-end time of `edgecompile quantize` on mobilenet_v2 with 100 samples
# at 2 threads (goal < 4 s). The CPU model is printed first: figures depend on it.
#
# usage: bench/int8.sh [BUILD_DIR] [ROUNDS] [MODELS...]
#        (default build/release, 5 rounds, the six CNNs of issue 18)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
rounds=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(mobilenet_v2 mobilenet_v3_large resnet18 resnet50 densenet121 convnext_tiny)
py=/usr/bin/python3
exe=$build/app/cli/edgecompile
work=$build/bench-int8
mkdir -p "$work"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); ISA flags: $(grep -m1 -o -w -E 'avx512_vnni|avx512vnni' /proc/cpuinfo || echo 'no VNNI') $(grep -m1 -o -w avx512bw /proc/cpuinfo || true) $(grep -m1 -o -w avx2 /proc/cpuinfo || true)"

# Models from Debian's torchvision, fixed seed, random weights (nothing downloaded);
# one input of 1x3x224x224 and the calibration samples (standard normal, fixed seed).
$py - "$work" "${models[@]}" <<'PY'
import os, sys
import numpy as np
out, names = sys.argv[1], sys.argv[2:]
rng = np.random.default_rng(0)
if not os.path.exists(f"{out}/input.npy"):
    np.save(f"{out}/input.npy", rng.standard_normal((1, 3, 224, 224)).astype(np.float32))
    np.save(f"{out}/calib100.npy", rng.standard_normal((100, 3, 224, 224)).astype(np.float32))
for name in names:
    path = f"{out}/{name}.onnx"
    if os.path.exists(path):
        continue
    import torch, torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, input_names=["input"], output_names=["output"],
                      opset_version=13)
PY

# Parsed after the run ends (see bench/runtime.sh: a reader in a pipe shares the cores).
# ISA=avx2 p50 ... runs with every kernel family and oneDNN capped to AVX2 (EC_ISA).
p50() {
  local out
  out=$(env ${ISA:+EC_ISA=$ISA} "$exe" bench "$1" --input "input=$work/input.npy" --iterations "$2" --warmup 2 --threads 1 --json)
  $py -c 'import json,sys; print(json.load(sys.stdin)["p50_ms"])' <<<"$out"
}

# On an AVX-512 machine each model is measured again with EC_ISA=avx2 (row MODEL@avx2):
# the column an AVX2-only laptop sees, from the same machine.
isas=("")
if grep -q -w avx512f /proc/cpuinfo; then isas+=(avx2); fi
printf '%-20s %12s %12s %8s  %s\n' model fp32_p50_ms int8_p50_ms ratio "ops left in float"
ratios=()
for ISA in "${isas[@]}"; do
for m in "${models[@]}"; do
  int8=$work/$m.int8.eir
  if [ ! -f "$int8" ]; then
    "$exe" quantize "$work/$m.onnx" --calibration-data "$work/calib100.npy" --num-calibration-samples 16 \
      --threads 2 --output "$int8" --json > "$work/$m.quant.json"
  fi
  floats=$($py -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["float_ops"]))' "$work/$m.quant.json")
  iters=20
  case $m in resnet50|densenet121|convnext_tiny) iters=8 ;; esac
  f=() q=()
  for ((r = 0; r < rounds; ++r)); do
    f+=("$(p50 "$work/$m.onnx" $iters)")
    q+=("$(p50 "$int8" $iters)")
  done
  ratios+=("$($py - "$m${ISA:+@$ISA}" "${f[*]}" "${q[*]}" "$floats" <<'PY'
import statistics, sys
m, f, q, floats = sys.argv[1], list(map(float, sys.argv[2].split())), list(map(float, sys.argv[3].split())), sys.argv[4]
mf, mq = statistics.median(f), statistics.median(q)
print(f"{m:<20} {mf:12.2f} {mq:12.2f} {mq/mf:8.2f}  {floats}", file=sys.stderr)
print(mq / mf)
PY
)")
done 2>&1
done
$py -c 'import math,sys; r=list(map(float,sys.argv[1:])); print(f"geometric mean int8/fp32: {math.exp(sum(map(math.log,r))/len(r)):.2f} over {len(r)} models")' "${ratios[@]}"
echo "(1 thread; median over $rounds alternating rounds of each run's p50; ratio = int8 / fp32, < 1: int8 faster)"

# quantize end to end: mobilenet_v2, 100 calibration samples, 2 threads (median of 3).
if [ -f "$work/mobilenet_v2.onnx" ]; then
  t=()
  for r in 1 2 3; do
    t+=("$($py - "$exe" "$work" <<'PY'
import resource, subprocess, sys, time
exe, work = sys.argv[1], sys.argv[2]
t0 = time.monotonic()
subprocess.run([exe, "quantize", f"{work}/mobilenet_v2.onnx", "--calibration-data", f"{work}/calib100.npy",
                "--num-calibration-samples", "100", "--threads", "2", "--output", f"{work}/q.eir"],
               check=True, stdout=subprocess.DEVNULL)
print(f"{time.monotonic() - t0},{resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime}")
PY
)")
  done
  # wall, and user CPU time (less sensitive to other load on a shared machine)
  $py -c 'import statistics,sys; w=[float(a.split(",")[0]) for a in sys.argv[1:]]; u=[float(a.split(",")[1]) for a in sys.argv[1:]]; print(f"quantize mobilenet_v2, 100 samples, 2 threads, end to end: {statistics.median(w):.2f} s wall, {statistics.median(u):.2f} s user CPU (medians of 3)")' "${t[@]}"
fi
