#!/usr/bin/env python3
"""An op whose int8 kernel refuses it stays in float; the rest of the model is quantised.

usage: check_quantize_kept_float.py EDGECOMPILE WORK_DIR

Two small fixed-seed PyTorch models exported as ONNX opset 13:
- a 3-D convolution net (Conv3d + BatchNorm3d + ReLU + MaxPool3d + AdaptiveAvgPool3d(1) +
  Linear on 1x3x8x32x32): the int8 pools take 1-D and 2-D pooling only, a refusal the
  kernel used to make only when it ran, which failed the whole quantisation;
- a 1-D convolution audio net (Conv1d + BatchNorm1d + ReLU, Conv1d + ReLU,
  AdaptiveAvgPool1d(1), Linear on 1x1x16000).
For each: `edgecompile quantize X.onnx --strategy ptq --calibration-data calib.npy
--output x.int8.eir --json` succeeds; every op the report lists in float_ops has a reason
(the 3-D net's pools are among them, with the kernel's reason); `edgecompile run
x.int8.eir` runs, and its output is within 20 dB SQNR of the float model's
(`edgecompile run X.onnx` on the same input). Prints a closing "N passed, N failed" line.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

EDGECOMPILE, WORK = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("ok    " if ok else "FAIL  ") + what)
    if ok:
        passed += 1
    else:
        failed += 1


def run(*args):
    p = subprocess.run([EDGECOMPILE, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def export(path, kind):
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    if kind == "conv3d":
        model = nn.Sequential(nn.Conv3d(3, 8, 3, padding=1), nn.BatchNorm3d(8), nn.ReLU(), nn.MaxPool3d(2),
                              nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(8, 5))
        shape = (1, 3, 8, 32, 32)
    else:
        model = nn.Sequential(nn.Conv1d(1, 16, 9, stride=2, padding=4), nn.BatchNorm1d(16), nn.ReLU(),
                              nn.Conv1d(16, 32, 5, stride=2, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
                              nn.Flatten(), nn.Linear(32, 10))
        shape = (1, 1, 16000)
    for m in model.modules():  # running statistics that are not the identity
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    model.eval()
    torch.onnx.export(model, torch.randn(*shape), path, opset_version=13, input_names=["x"], output_names=["y"])
    return shape


def sqnr_db(ref, got):
    noise = np.sum((ref.astype(np.float64) - got) ** 2)
    return float("inf") if noise == 0 else 10 * np.log10(np.sum(ref.astype(np.float64) ** 2) / noise)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
rng = np.random.default_rng(1)
for kind in ("conv3d", "audio1d"):
    model = os.path.join(WORK, kind + ".onnx")
    shape = export(model, kind)
    calib = os.path.join(WORK, kind + "_calib.npy")
    np.save(calib, rng.standard_normal((8,) + shape[1:]).astype(np.float32))
    x = os.path.join(WORK, kind + "_x.npy")
    np.save(x, rng.standard_normal(shape).astype(np.float32))
    int8 = os.path.join(WORK, kind + ".int8.eir")
    code, text, err = run("quantize", model, "--strategy", "ptq", "--calibration-data", calib, "--output", int8, "--json")
    check(code == 0 and os.path.exists(int8), f"{kind}: quantize exit {code} {err.strip()[:300]}")
    if code != 0:
        continue
    report = json.loads(text)
    floats = report.get("float_ops", [])
    for f in floats:
        print(f"  {kind}: kept float {f['op']} ({f['op_type']}): {f['reason']}")
    check(all(f.get("reason") for f in floats), f"{kind}: every float op has a reason")
    if kind == "conv3d":
        pools = [f for f in floats if f["op_type"] in ("MaxPool", "GlobalAveragePool", "AveragePool")]
        check(len(pools) >= 1 and all("rank 5" in f["reason"] for f in pools),
              f"{kind}: the 3-D pools stay float with the kernel's reason: {[(f['op_type'], f['reason']) for f in pools]}")
    layers = report.get("layers", [])
    check(len(layers) >= 1, f"{kind}: the rest is quantised: int8 weights in {[l['op_type'] for l in layers]}")
    outs = {}
    for name, path in (("float", model), ("int8", int8)):
        d = os.path.join(WORK, kind + "_" + name)
        os.makedirs(d, exist_ok=True)
        code, _, err = run("run", path, "--input", "x=" + x, "--output-dir", d)
        check(code == 0 and os.path.exists(os.path.join(d, "y.npy")), f"{kind}: run {name}: exit {code} {err.strip()[:300]}")
        if code == 0:
            outs[name] = np.load(os.path.join(d, "y.npy"))
    if len(outs) == 2:
        db = sqnr_db(outs["float"], outs["int8"])
        check(db > 20, f"{kind}: int8 output SQNR {db:.1f} dB against float (> 20)")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
