#!/usr/bin/env python3
"""Bad requests to `edgecompile quantize`: exit 1, exactly one line on stderr
naming the file/tensor/op and what to do, nothing on stdout, no output file.

usage: bad_inputs.py EDGECOMPILE WORK_DIR
"""
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def tiny_model(path):
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
                           helper.make_node("Relu", ["c"], ["y"], name="relu")], "tiny",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])], [w])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    model = os.path.join(d, "tiny.onnx")
    tiny_model(model)
    good = os.path.join(d, "good.npy")
    np.save(good, np.random.default_rng(1).random((4, 3, 8, 8), dtype=np.float32))
    np.save(os.path.join(d, "wrong_shape.npy"), np.zeros((4, 3, 16, 16), np.float32))
    np.save(os.path.join(d, "f64.npy"), np.zeros((4, 3, 8, 8), np.float64))
    ragged = np.empty(2, dtype=object)  # samples of different shapes: an object array
    ragged[0], ragged[1] = np.zeros((3, 8, 8), np.float32), np.zeros((3, 4), np.float32)
    np.save(os.path.join(d, "ragged.npy"), ragged, allow_pickle=True)
    os.makedirs(os.path.join(d, "empty_dir"), exist_ok=True)
    cases = [  # (label, extra args, regex of the one line)
        ("missing calibration file", ["--calibration-data", os.path.join(d, "nope.npy")], r"nope\.npy: no such file"),
        ("ragged calibration file", ["--calibration-data", os.path.join(d, "ragged.npy")], r"ragged\.npy: holds a ragged object array"),
        ("wrong sample shape", ["--calibration-data", os.path.join(d, "wrong_shape.npy")],
         r"wrong_shape\.npy: samples are \[3,16,16\] but input 'x' is f32\[1,3,8,8\]"),
        ("wrong dtype", ["--calibration-data", os.path.join(d, "f64.npy")], r"f64\.npy: holds f64 values but input 'x' is f32"),
        ("directory without the input's file", ["--calibration-data", os.path.join(d, "empty_dir")],
         r"x\.npy: missing: the model's input 'x'"),
        ("unknown op in --keep-float", ["--calibration-data", good, "--keep-float", "relu,Frobnicate"],
         r"--keep-float: the model has no op named or of type 'Frobnicate'"),
        ("qat on a model without QDQ", ["--strategy", "qat", "--calibration-data", good], r"no QuantizeLinear/DequantizeLinear pairs"),
    ]
    failed = 0
    for label, extra, pattern in cases:
        out = os.path.join(d, "out.eir")
        if os.path.exists(out):
            os.remove(out)
        p = subprocess.run([exe, "quantize", model, "--output", out] + extra, capture_output=True, text=True, timeout=120)
        lines = p.stderr.strip().splitlines()
        ok = (p.returncode == 1 and len(lines) == 1 and re.search(pattern, lines[0]) and not p.stdout
              and not os.path.exists(out) and not os.path.exists(out + ".tmp"))
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{label}: exit {p.returncode}: {p.stderr.strip()}")
    # An output named for another format is refused before any work (usage error, exit 2).
    onnx_out = os.path.join(d, "int8.tflite")
    if os.path.exists(onnx_out):
        os.remove(onnx_out)
    p = subprocess.run([exe, "quantize", model, "--calibration-data", good, "--output", onnx_out],
                       capture_output=True, text=True, timeout=120)
    lines = p.stderr.strip().splitlines()
    ok = (p.returncode == 2 and len(lines) == 1 and re.search(r"int8\.tflite: the output is the IR text form", lines[0])
          and not os.path.exists(onnx_out))
    failed += not ok
    print(("ok   " if ok else "FAIL ") + f"--output not .eir/.onnx: exit {p.returncode}: {p.stderr.strip()}")
    # And the good request works, writing the output.
    out = os.path.join(d, "out.eir")
    p = subprocess.run([exe, "quantize", model, "--calibration-data", good, "--output", out], capture_output=True,
                       text=True, timeout=120)
    ok = p.returncode == 0 and os.path.exists(out)
    failed += not ok
    print(("ok   " if ok else "FAIL ") + f"good request: exit {p.returncode} {p.stderr.strip()}")
    print(f"{len(cases) + 2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
