#!/usr/bin/env python3
"""Ops with an axis on a rank-0 (scalar) input: found by hand after the fifteenth session's
fuzzing (Concat, Split, Gather, ArgMax, TopK, ReduceSum crashed the CPU runtime with SIGSEGV
on a crafted one-op model). Every such model must give `edgecompile run` exit 0 or a one-line
error with exit 1: never a signal.

usage: check_scalar_axes.py EDGECOMPILE"""
import os
import subprocess
import sys
import tempfile

import numpy as np

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:
    print("SKIP: the onnx Python package is not installed")
    sys.exit(77)


def i64(name, v):
    return numpy_helper.from_array(np.array(v, dtype=np.int64), name)


CASES = {
    "Concat": (lambda: helper.make_node("Concat", ["a", "b"], ["y"], axis=0),
               [numpy_helper.from_array(np.array(2.0, dtype=np.float32), "b")]),
    "Split": (lambda: helper.make_node("Split", ["a"], ["y", "z"], axis=0), []),
    "Gather": (lambda: helper.make_node("Gather", ["a", "i"], ["y"], axis=0), [i64("i", 0)]),
    "ArgMax": (lambda: helper.make_node("ArgMax", ["a"], ["y"], axis=0), []),
    "ArgMin": (lambda: helper.make_node("ArgMin", ["a"], ["y"], axis=0), []),
    "TopK": (lambda: helper.make_node("TopK", ["a", "k"], ["y", "z"], axis=0), [i64("k", [1])]),
    "ReduceSum": (lambda: helper.make_node("ReduceSum", ["a", "x"], ["y"]), [i64("x", [0])]),
    "ReduceMax": (lambda: helper.make_node("ReduceMax", ["a"], ["y"], axes=[0]), []),
    "CumSum": (lambda: helper.make_node("CumSum", ["a", "x"], ["y"]), [i64("x", 0)]),
    "Softmax": (lambda: helper.make_node("Softmax", ["a"], ["y"], axis=0), []),
    "LpNormalization": (lambda: helper.make_node("LpNormalization", ["a"], ["y"], axis=0), []),
    "Flatten": (lambda: helper.make_node("Flatten", ["a"], ["y"], axis=0), []),
    "Unsqueeze": (lambda: helper.make_node("Unsqueeze", ["a", "x"], ["y"]), [i64("x", [3])]),
    "Squeeze": (lambda: helper.make_node("Squeeze", ["a", "x"], ["y"]), [i64("x", [0])]),
}


def main():
    exe = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        x = os.path.join(d, "a.npy")
        np.save(x, np.array(1.0, dtype=np.float32))
        for name, (make, inits) in CASES.items():
            node = make()
            outs = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in node.output]
            g = helper.make_graph([node], name, [helper.make_tensor_value_info("a", TensorProto.FLOAT, [])], outs, inits)
            model = os.path.join(d, name + ".onnx")
            onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), model)
            r = subprocess.run([exe, "run", model, "--input", "a=" + x, "--output-dir", os.path.join(d, "out_" + name)],
                               capture_output=True, text=True, timeout=60)
            lines = [l for l in r.stderr.splitlines() if l.strip()]
            ok = r.returncode == 0 or (r.returncode == 1 and len(lines) == 1)
            print(f"{'ok  ' if ok else 'FAIL'} {name} on a scalar: exit {r.returncode} {lines[-1][:160] if lines else ''}")
            if not ok:
                failures.append(name)
    print(f"{len(CASES)} ops, {len(failures)} failures {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
