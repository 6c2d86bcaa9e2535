#!/usr/bin/env python3
"""`edgecompile convert` against a real TFLite interpreter, on models exported
in the test run (tests/models/export_models.py: random weights, seed 0).

usage: check_convert.py EDGECOMPILE MODELS_DIR INTERPRETER_DIR TESTS_MODELS_DIR

Float: mobilenet_v2, resnet18, transformer (.onnx) -> convert -> the
interpreter's output equals PyTorch's within 1e-4 x max|output| (and so does
`edgecompile run` on the same .tflite).
Quantised: mobilenet_v2, resnet18 -> quantize (ptq, 8 calibration images) ->
convert --int8-io -> the interpreter's int8 output equals `edgecompile run` on
the same .tflite within 1 LSB; prints the share of bit-exact values. The float
I/O form (QUANTIZE/DEQUANTIZE kept) is checked to load and run too."""
import json
import os
import sys
import atexit
import shutil
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_util as tu  # noqa: E402

FLOAT = ["mobilenet_v2", "resnet18", "transformer", "efficientnet_b0", "shufflenet_v2_x1_0"]
QUANT = ["mobilenet_v2", "resnet18"]


def main():
    exe, models, idir, tmodels = sys.argv[1:5]
    script = tu.interpreter_or_skip(idir)
    sys.path.insert(0, tmodels)
    import export_models  # noqa: E402
    import torch  # noqa: E402
    failures = []
    work = tempfile.mkdtemp(prefix="tflite_convert_")
    atexit.register(shutil.rmtree, work, True)  # no scratch left in /tmp
    for name in FLOAT:
        onnx = os.path.join(models, name + ".onnx")
        out = os.path.join(work, name + ".tflite")
        tu.run([exe, "convert", onnx, "--output", out], timeout=900)
        model, x = export_models.build_model(name)
        with torch.no_grad():
            ref = model(x).numpy()
        xin = x.numpy().astype(np.float32)
        (oname, got), = tu.interpreter(script, out, {"input": xin})
        tol = 1e-4 * float(np.abs(ref).max())
        err = float(np.abs(got.reshape(ref.shape) - ref).max()) if got.size == ref.size else float("inf")
        print(f"{name} float: interpreter vs PyTorch max |diff| {err:.3g} (tolerance {tol:.3g}), "
              f"{os.path.getsize(out)} bytes")
        if not err <= tol:
            failures.append(f"{name} float: interpreter differs from PyTorch by {err:.3g} > {tol:.3g}")
        ours = tu.edgecompile_run(exe, out, {"input": xin})
        e2 = float(np.abs(list(ours.values())[0].reshape(ref.shape) - ref).max())
        print(f"{name} float: edgecompile run on the .tflite vs PyTorch max |diff| {e2:.3g}")
        if not e2 <= tol:
            failures.append(f"{name} float: edgecompile run on the .tflite differs by {e2:.3g}")

    rng = np.random.default_rng(3)
    calib = os.path.join(work, "calib.npy")
    np.save(calib, rng.random((8, 3, 224, 224), dtype=np.float32))
    for name in QUANT:
        onnx = os.path.join(models, name + ".onnx")
        eir = os.path.join(work, name + ".int8.eir")
        tu.run([exe, "quantize", onnx, "--strategy", "ptq", "--calibration-data", calib, "--output", eir], timeout=900)
        for io in ("int8", "float"):
            out = os.path.join(work, f"{name}.{io}.tflite")
            tu.run([exe, "convert", eir, "--output", out] + (["--int8-io"] if io == "int8" else []), timeout=900)
            j = json.loads(tu.run([exe, "inspect", "--json", out]).stdout)
            x = rng.random((1, 3, 224, 224), dtype=np.float32)
            if io == "int8":
                q = {t["tensor"]: t for t in j["quantization"]}[j["inputs"][0]["name"]]
                s, z = q["scales"][0], q["zero_points"][0]
                x = np.clip(np.round(x / s) + z, -128, 127).astype(np.int8)
            inp = {j["inputs"][0]["name"]: x}
            (oname, theirs), = tu.interpreter(script, out, inp)
            # Both integer arithmetic modes of our runtime (see check_edgetpu.py):
            # TFLite's reference fixed-point kernels, and XNNPACK's fp32 requantisation.
            best = None
            for mode in ("reference", "fp32"):
                ours = list(tu.edgecompile_run(exe, out, inp, env=dict(os.environ, EC_INT8_REQUANT=mode)).values())[0]
                if io == "int8":
                    d = np.abs(ours.astype(np.int64) - theirs.reshape(ours.shape).astype(np.int64))
                    exact = 100.0 * float((d == 0).mean())
                    print(f"{name} int8 (--int8-io), {mode:9s} arithmetic: edgecompile run vs interpreter max |diff| "
                          f"{int(d.max())} LSB, bit-exact {exact:.2f}% of {d.size}, {os.path.getsize(out)} bytes")
                    best = int(d.max()) if best is None else min(best, int(d.max()))
                else:
                    d = float(np.abs(ours - theirs.reshape(ours.shape)).max())
                    print(f"{name} int8 (float I/O), {mode:9s} arithmetic: edgecompile run vs interpreter max |diff| {d:.4g}")
            if io == "int8" and best > 1:
                failures.append(f"{name} int8: differs from the interpreter by {best} LSB in both arithmetic modes")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
