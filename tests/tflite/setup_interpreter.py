#!/usr/bin/env python3
"""Installs the TFLite oracle (npm @tensorflow/tfjs-tflite, pinned by
tests/tflite/interpreter/package-lock.json) into BUILD_DIR with `npm ci`.

usage: setup_interpreter.py SOURCE_DIR BUILD_DIR

The package files are copied to BUILD_DIR and installed there (the source tree
stays clean). When npm or the registry is unreachable this writes
BUILD_DIR/UNAVAILABLE with the reason and exits 0: the tests that need the
interpreter then skip with that reason instead of failing."""
import os
import shutil
import subprocess
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    marker = os.path.join(dst, "UNAVAILABLE")
    if os.path.exists(marker):
        os.remove(marker)
    for f in ("package.json", "package-lock.json", "tflite_run.js"):
        shutil.copy2(os.path.join(src, f), os.path.join(dst, f))
    wasm = os.path.join(dst, "node_modules", "@tensorflow", "tfjs-tflite", "wasm", "tflite_web_api_cc.wasm")
    if os.path.exists(wasm):
        print("tfjs-tflite already installed in", dst)
        return 0
    npm = shutil.which("npm")
    if not npm or not shutil.which("node"):
        open(marker, "w").write("node/npm are not installed")
        print("SKIP: node/npm are not installed")
        return 0
    try:
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=dst, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        open(marker, "w").write("npm ci timed out (registry unreachable?)")
        print("SKIP: npm ci timed out")
        return 0
    if r.returncode != 0 or not os.path.exists(wasm):
        reason = "npm ci failed (registry unreachable?): " + (r.stderr.strip().splitlines() or ["?"])[-1]
        open(marker, "w").write(reason)
        print("SKIP:", reason)
        return 0
    print("installed tfjs-tflite in", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
