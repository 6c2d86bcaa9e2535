#!/usr/bin/env python3
"""TRANSPOSE_CONV end to end: a float PyTorch model of ConvTranspose2d layers
(random weights, seed 0) exported to ONNX, `edgecompile convert` to .tflite, run
by the real TFLite interpreter; its output equals PyTorch's within
1e-4 x max|output| (and so does `edgecompile run` on the .tflite).

Layers: k 4 stride 2 padding 1 (TFLite SAME), k 3 stride 1 padding 1 (SAME),
k 2 stride 2 padding 0 (VALID), with and without bias.

usage: check_conv_transpose.py EDGECOMPILE INTERPRETER_DIR"""
import os
import sys
import atexit
import shutil
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_util as tu  # noqa: E402


def main():
    exe, idir = sys.argv[1:3]
    script = tu.interpreter_or_skip(idir)
    try:
        import torch  # noqa: E402
    except ImportError:
        print("SKIP: PyTorch is not installed")
        sys.exit(tu.SKIP)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.ConvTranspose2d(3, 8, 4, stride=2, padding=1),
        torch.nn.ConvTranspose2d(8, 4, 3, stride=1, padding=1, bias=False),
        torch.nn.ConvTranspose2d(4, 2, 2, stride=2, padding=0),
    ).eval()
    x = torch.rand(1, 3, 7, 5)
    with torch.no_grad():
        ref = model(x).numpy()
    work = tempfile.mkdtemp(prefix="tflite_conv_transpose_")
    atexit.register(shutil.rmtree, work, True)  # no scratch left in /tmp
    onnx = os.path.join(work, "conv_transpose.onnx")
    torch.onnx.export(model, x, onnx, input_names=["input"], output_names=["output"], opset_version=13)
    out = os.path.join(work, "conv_transpose.tflite")
    tu.run([exe, "convert", onnx, "--output", out], timeout=300)
    xin = x.numpy().astype(np.float32)
    tol = 1e-4 * float(np.abs(ref).max())
    failures = []
    (oname, got), = tu.interpreter(script, out, {"input": xin})
    err = float(np.abs(got.reshape(ref.shape) - ref).max()) if got.size == ref.size else float("inf")
    print(f"conv_transpose float: interpreter vs PyTorch max |diff| {err:.3g} (tolerance {tol:.3g})")
    if not err <= tol:
        failures.append(f"interpreter differs from PyTorch by {err:.3g} > {tol:.3g}")
    ours = list(tu.edgecompile_run(exe, out, {"input": xin}).values())[0]
    e2 = float(np.abs(ours.reshape(ref.shape) - ref).max()) if ours.size == ref.size else float("inf")
    print(f"conv_transpose float: edgecompile run on the .tflite vs PyTorch max |diff| {e2:.3g}")
    if not e2 <= tol:
        failures.append(f"edgecompile run on the .tflite differs by {e2:.3g}")
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
