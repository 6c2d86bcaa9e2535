#!/usr/bin/env python3
"""Installs ONNX Runtime (npm onnxruntime-node, pinned by bench/ort/package-lock.json)
into BUILD_DIR with `npm ci --ignore-scripts`, beside core/backends/onnx/test/ort_run.js.

usage: setup_ort.py LOCK_DIR RUNNER_JS BUILD_DIR

When npm or the registry is unreachable this writes BUILD_DIR/UNAVAILABLE with the
reason and exits 0: the checks that need ONNX Runtime then skip with that reason."""
import os
import shutil
import subprocess
import sys


def main():
    lock_dir, runner, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(dst, exist_ok=True)
    marker = os.path.join(dst, "UNAVAILABLE")
    if os.path.exists(marker):
        os.remove(marker)
    for f in ("package.json", "package-lock.json"):
        shutil.copy2(os.path.join(lock_dir, f), os.path.join(dst, f))
    shutil.copy2(runner, os.path.join(dst, "ort_run.js"))
    installed = os.path.join(dst, "node_modules", "onnxruntime-node", "package.json")
    if os.path.exists(installed):
        print("onnxruntime-node already installed in", dst)
        return 0
    npm = shutil.which("npm")
    if not npm or not shutil.which("node"):
        open(marker, "w").write("node/npm are not installed")
        print("SKIP: node/npm are not installed")
        return 0
    try:
        # --ignore-scripts: the CPU library ships in the package; its postinstall only
        # fetches GPU execution providers from nuget.org.
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=dst, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        open(marker, "w").write("npm ci timed out (registry unreachable?)")
        print("SKIP: npm ci timed out")
        return 0
    if r.returncode != 0 or not os.path.exists(installed):
        reason = "npm ci failed (registry unreachable?): " + (r.stderr.strip().splitlines() or ["?"])[-1]
        open(marker, "w").write(reason)
        print("SKIP:", reason)
        return 0
    print("installed onnxruntime-node in", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
