#!/usr/bin/env python3
"""Installs a pinned npm package (a reference runtime for the tests: ONNX Runtime,
the TFLite interpreter) into BUILD_DIR with `npm ci` from a lockfile.

usage: npm_install.py LOCK_DIR BUILD_DIR --check REL_PATH [--copy FILE[:NAME]]... [--ignore-scripts]

LOCK_DIR holds package.json and package-lock.json; they and each --copy file (a
runner script) are copied into BUILD_DIR, so the source tree stays clean. --check
names a file below BUILD_DIR whose presence means the package is installed. When
node/npm or the registry is unreachable this writes BUILD_DIR/UNAVAILABLE with
the reason and exits 0: the tests that need the package then skip (exit 77) with
that reason instead of failing."""
import argparse
import os
import shutil
import subprocess
import sys


def unavailable(marker, reason):
    with open(marker, "w") as f:
        f.write(reason)
    print("SKIP:", reason)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lock_dir")
    ap.add_argument("build_dir")
    ap.add_argument("--check", required=True, help="file below BUILD_DIR present once installed")
    ap.add_argument("--copy", action="append", default=[], help="FILE or FILE:NAME copied into BUILD_DIR")
    ap.add_argument("--ignore-scripts", action="store_true", help="pass --ignore-scripts to npm ci")
    args = ap.parse_args()

    dst = args.build_dir
    os.makedirs(dst, exist_ok=True)
    marker = os.path.join(dst, "UNAVAILABLE")
    if os.path.exists(marker):
        os.remove(marker)
    for f in ("package.json", "package-lock.json"):
        shutil.copy2(os.path.join(args.lock_dir, f), os.path.join(dst, f))
    for spec in args.copy:
        src, _, name = spec.partition(":")
        shutil.copy2(src, os.path.join(dst, name or os.path.basename(src)))
    installed = os.path.join(dst, args.check)
    if os.path.exists(installed):
        print("already installed in", dst)
        return 0
    npm = shutil.which("npm")
    if not npm or not shutil.which("node"):
        return unavailable(marker, "node/npm are not installed")
    cmd = [npm, "ci", "--no-audit", "--no-fund"] + (["--ignore-scripts"] if args.ignore_scripts else [])
    try:
        r = subprocess.run(cmd, cwd=dst, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return unavailable(marker, "npm ci timed out (registry unreachable?)")
    if r.returncode != 0 or not os.path.exists(installed):
        return unavailable(marker, "npm ci failed (registry unreachable?): " + (r.stderr.strip().splitlines() or ["?"])[-1])
    print("installed in", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
