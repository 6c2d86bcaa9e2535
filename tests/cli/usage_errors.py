#!/usr/bin/env python3
"""One rule for every subcommand (issue 13, item 7): a wrong request is a usage error (exit 2), a
file or model that is refused is an input error (exit 1); each says so in one line a person can
read, naming the option or the file. Help texts name every format the frontends read.

usage: usage_errors.py EDGECOMPILE SAMPLE_MODEL"""
import os
import re
import subprocess
import sys
import atexit
import shutil
import tempfile

import numpy as np


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, model = sys.argv[1], sys.argv[2]
    d = tempfile.mkdtemp(prefix="ec_usage_")
    atexit.register(shutil.rmtree, d, True)  # no scratch left in /tmp
    wrong = os.path.join(d, "wrong.npy")
    np.save(wrong, np.zeros((1, 3, 8, 8), np.float32))
    cases = [  # (label, args, exit code, regex of the one stderr line)
        ("bench --iterations 0", ["bench", model, "--iterations", "0"], 2,
         r"^edgecompile: --iterations: must be at least 1 \(got 0\) \(run 'edgecompile bench --help'\)$"),
        ("bench --iterations x", ["bench", model, "--iterations", "x"], 2, r"--iterations: must be a whole number of at least 1"),
        ("bench --warmup -1", ["bench", model, "--warmup", "-1"], 2, r"--warmup: must be at least 0 \(got -1\)"),
        ("bench --threads -1", ["bench", model, "--threads", "-1"], 2, r"--threads: must be at least 0 \(got -1\)"),
        ("run --threads -1", ["run", model, "--threads", "-1"], 2, r"--threads: must be at least 0 \(got -1\)"),
        ("quantize --threads -1", ["quantize", model, "--strategy", "dynamic", "--threads", "-1"], 2,
         r"--threads: must be at least 0 \(got -1\)"),
        ("quantize --num-calibration-samples 0", ["quantize", model, "--strategy", "dynamic", "--num-calibration-samples", "0"], 2,
         r"--num-calibration-samples: must be at least 1"),
        ("quantize --calibration-percentile 0", ["quantize", model, "--strategy", "dynamic", "--calibration-percentile", "0"], 2,
         r"--calibration-percentile: must be a percentile above 0 and at most 100"),
        ("quantize unknown strategy", ["quantize", model, "--strategy", "magic"], 2,
         r"unknown strategy 'magic'; valid strategies: ptq, qat, dynamic"),
        ("optimize unknown pass", ["optimize", model, "--passes", "nope"], 2, r"unknown pass 'nope'"),
        ("inspect without MODEL", ["inspect"], 2, r"model is required.*edgecompile inspect --help"),
        ("run unknown option", ["run", model, "--frobnicate"], 2, r"--frobnicate"),
        ("no subcommand", [], 2, r"subcommand"),
        ("run missing model file", ["run", os.path.join(d, "nope.onnx")], 1, r"nope\.onnx: no such file"),
        ("run input of the wrong shape", ["run", model, "--input", "image=" + wrong, "--output-dir", d], 1,
         r"input 'image': expected f32\[.*64,64\]"),
        ("run input the model lacks", ["run", model, "--input", "pixels=" + wrong, "--output-dir", d], 1,
         r"input 'pixels': the model has no such input \(its inputs: image\)"),
    ]
    failed = 0
    for label, args, code, pattern in cases:
        p = subprocess.run([exe] + args, capture_output=True, text=True, timeout=120)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        ok = p.returncode == code and len(lines) == 1 and re.search(pattern, lines[0]) and len(lines[0]) < 300
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{label}: exit {p.returncode} (want {code}): {p.stderr.strip()[:300]}")
    # Help texts: MODEL names every readable format, .eir included.
    for sub in ("inspect", "run", "bench", "optimize", "quantize"):
        p = subprocess.run([exe, sub, "--help"], capture_output=True, text=True, timeout=60)
        ok = p.returncode == 0 and re.search(r"Model file \(.*\.onnx.*\.eir", p.stdout)
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{sub} --help names .onnx and .eir")
    # inspect of a quantised .eir says what it is: its file format, where it came from, int8.
    q = os.path.join(d, "q.eir")
    p = subprocess.run([exe, "quantize", model, "--strategy", "dynamic", "--output", q], capture_output=True, text=True,
                       timeout=300)
    p = subprocess.run([exe, "inspect", q], capture_output=True, text=True, timeout=60)
    ok = (p.returncode == 0 and re.search(r"format\s+eir \(from onnx\)", p.stdout)
          and re.search(r"quantised\s+i8: [1-9]\d* tensors \(\d+ per channel\); outputs of \d+ of \d+ ops", p.stdout))
    failed += not ok
    print(("ok   " if ok else "FAIL ") + "inspect of an int8 .eir names its format and int8: " +
          " | ".join(l for l in p.stdout.splitlines() if "format" in l or "quantised" in l) + p.stderr.strip())
    total = len(cases) + 6
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
