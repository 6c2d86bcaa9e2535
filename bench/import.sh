#!/usr/bin/env bash
# Import benchmark: edgecompiler's ONNX import against the onnx package's
# onnx.load (the peer), same files, same run. Prints time and peak-memory ratios.
#
# usage: bench/import.sh [BUILD_DIR]   (default build/release; build it first)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
work=$build/bench-models
mkdir -p "$work"
py=/usr/bin/python3
[ -f "$work/resnet50.onnx" ] || $py tests/models/export_models.py "$work" --large >/dev/null
[ -f "$work/synthetic_300mb.onnx" ] || $py bench/make_synthetic_model.py "$work/synthetic_300mb.onnx" 300
[ -f "$work/synthetic_300mb_ext.onnx" ] || $py bench/make_synthetic_model.py "$work/synthetic_300mb_ext.onnx" 300 --external

peer() {  # the peer: onnx.load in a fresh interpreter; peak RSS minus the interpreter's own
  $py - "$1" <<'PY'
import json, resource, sys, time
import onnx
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
times = []
for _ in range(3):
    t0 = time.perf_counter(); m = onnx.load(sys.argv[1]); times.append((time.perf_counter() - t0) * 1e3); del m
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"best_ms": min(times), "peak_rss_bytes": peak, "baseline_rss_bytes": base}))
PY
}

printf '%-26s %9s %10s %10s %8s %11s %11s %8s\n' model file_MB ours_ms onnx_ms ratio ours_peakMB onnx_peakMB ratio
for m in mobilenet_v2 resnet50 synthetic_300mb synthetic_300mb_ext; do
  f=$work/$m.onnx
  [ -f "$f" ] || f=$build/test-models/$m.onnx
  ours=$("$build/bench/import_bench" "$f" 3)
  theirs=$(peer "$f")
  $py - "$m" "$ours" "$theirs" <<'PY'
import json, os, sys
name, o, t = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
data = o["file_bytes"] + (os.path.getsize(o["model"] + ".data") if os.path.exists(o["model"] + ".data") else 0)
mb = lambda b: b / 2**20
print(f"{name:<26} {mb(data):9.1f} {o['best_ms']:10.1f} {t['best_ms']:10.1f} {o['best_ms']/t['best_ms']:8.2f} "
      f"{mb(o['peak_rss_bytes']):11.1f} {mb(t['peak_rss_bytes']-t['baseline_rss_bytes']):11.1f} "
      f"{o['peak_rss_bytes']/max(1,t['peak_rss_bytes']-t['baseline_rss_bytes']):8.2f}")
PY
done
echo "(ratio = ours / onnx.load; peak = process peak RSS, the peer's minus its interpreter's baseline)"
