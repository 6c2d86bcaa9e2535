#!/usr/bin/env python3
"""Regression test for fuzz-repro ubsan_inspect_macs_overflow: `inspect` on models
whose dims make a MAC count exceed int64 must exit 0, never print a wrapped
(negative or too small) count, flag `compute.overflow` and list the op with the
reason. The models are built here with the onnx package.

usage: check_inspect_overflow.py EDGECOMPILE [REPRO_MODEL.onnx]
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

INT64_MAX = 2**63 - 1


def model(nodes, inputs, outputs, inits):
    g = helper.make_graph(nodes, "overflow", inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    return m


def matmul_huge_rows():
    # [2^63-1, 384] x [384, 64]: the MatMul alone exceeds int64
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [INT64_MAX, 384])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.zeros((384, 64), np.float32), "w")
    return model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], [x], [y], [w]), {"mm"}


def conv_huge_image():
    # a 2^40 x 2^40 image: the Conv output alone has 2^83 elements
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 2**40, 2**40])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.zeros((8, 3, 3, 3), np.float32), "w")
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])
    return model([node], [x], [y], [w]), {"conv"}


def total_exceeds():
    # two MatMuls of 2^62 MACs each: each fits, their sum does not
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2**56, 64])
    y1 = helper.make_tensor_value_info("y1", TensorProto.FLOAT, None)
    y2 = helper.make_tensor_value_info("y2", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.zeros((64, 1), np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y1"], name="first"),
             helper.make_node("MatMul", ["x", "w"], ["y2"], name="second")]
    return model(nodes, [x], [y1, y2], [w]), {"second"}


def main():
    exe = sys.argv[1]
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {what}")

    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for build in (matmul_huge_rows, conv_huge_image, total_exceeds):
            m, ops = build()
            path = os.path.join(tmp, build.__name__ + ".onnx")
            onnx.save(m, path)
            cases.append((build.__name__, path, ops))
        if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
            cases.append(("fuzz repro", sys.argv[2], set()))
        for name, path, ops in cases:
            proc = subprocess.run([exe, "inspect", "--json", path], capture_output=True, text=True, timeout=60)
            check(proc.returncode == 0, f"{name}: exit {proc.returncode}: {proc.stderr.strip()}")
            if proc.returncode != 0:
                continue
            c = json.loads(proc.stdout)["compute"]
            detail = c.get("ops_without_estimate_detail", [])
            print(f"{name}: macs {c['macs']}, flops {c['flops']}, overflow {c.get('overflow')}, "
                  f"without estimate {[(d['op'], d['reason']) for d in detail if 'range' in d['reason']]}")
            check(c.get("overflow") is True, f"{name}: overflow not flagged")
            for key in ("macs", "flops", "total_flops"):
                check(0 <= c.get(key, -1) <= INT64_MAX, f"{name}: {key} = {c.get(key)}")
            over = {d["op"] for d in detail if "64-bit" in d["reason"]}
            check(ops <= over, f"{name}: ops {sorted(ops - over)} not listed as overflowing ({detail})")
            if name == "total_exceeds":
                check(c["macs"] == 2**62, f"{name}: the first MatMul's 2^62 MACs should count, got {c['macs']}")
            text = subprocess.run([exe, "inspect", path], capture_output=True, text=True, timeout=60)
            check(text.returncode == 0 and "64-bit" in text.stdout,
                  f"{name}: text output exit {text.returncode} lacks the overflow note")
            check("-" not in text.stdout.split("MACs", 1)[-1].split("\n", 1)[0],
                  f"{name}: negative MAC count printed")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
