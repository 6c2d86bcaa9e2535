#!/usr/bin/env python3
"""Feeds malformed models to `edgecompile inspect` and checks the refusal:
exit code 1, exactly one line on stderr naming the file and the problem,
nothing on stdout, no crash, no hang.

usage: bad_inputs.py EDGECOMPILE SAMPLE_MODEL
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def tiny_graph(nodes, inputs=("x",), outputs=("y",), initializers=()):
    vi = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4])
    g = helper.make_graph(nodes, "bad", [vi(i) for i in inputs], [vi(o) for o in outputs],
                          list(initializers))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def make_cases(d, sample):
    cases = []  # (label, path, regex the message must match)

    def add(label, name, data, pattern):
        path = os.path.join(d, name)
        if data is not None:
            with open(path, "wb") as f:
                f.write(data)
        cases.append((label, path, pattern))

    add("empty file", "empty.onnx", b"", r"empty")
    rng = np.random.default_rng(7)
    add("random bytes (.onnx)", "random.onnx", rng.bytes(4096), r"not a valid ONNX|not a model")
    add("random bytes (no extension)", "random.bin", rng.bytes(4096), r"not a model file")
    with open(sample, "rb") as f:
        data = f.read()
    add("truncated ONNX", "truncated.onnx", data[: len(data) // 2], r"truncated|not a valid ONNX")
    os.makedirs(os.path.join(d, "a_directory.onnx"), exist_ok=True)
    cases.append(("directory", os.path.join(d, "a_directory.onnx"), r"directory"))
    cases.append(("missing path", os.path.join(d, "no_such_model.onnx"), r"no such file"))

    # a cycle: y1 = Relu(y2), y2 = Relu(y1)
    cyc = tiny_graph([helper.make_node("Add", ["x", "b"], ["a"], name="add"),
                      helper.make_node("Relu", ["a"], ["b"], name="relu"),
                      helper.make_node("Relu", ["a"], ["y"], name="out")])
    add("graph with a cycle", "cycle.onnx", cyc.SerializeToString(), r"cycle")
    # a dangling tensor: 'ghost' is produced by nothing
    dang = tiny_graph([helper.make_node("Add", ["x", "ghost"], ["y"], name="add_ghost")])
    add("dangling tensor", "dangling.onnx", dang.SerializeToString(), r"ghost")
    # external data whose file is gone
    w = numpy_helper.from_array(np.ones((1, 4), np.float32) * 3, "w")
    ext = tiny_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add_w")],
                     initializers=[w])
    ext_path = os.path.join(d, "external.onnx")
    onnx.save_model(ext, ext_path, save_as_external_data=True, all_tensors_to_one_file=True,
                    location="external.onnx.data", size_threshold=0)
    os.remove(os.path.join(d, "external.onnx.data"))
    cases.append(("missing external data", ext_path, r"external data.*external\.onnx\.data"))
    # a text file that claims to be ONNX
    add("text file named .onnx", "readme.onnx", b"this is not a model\n" * 20,
        r"not a valid ONNX|not a model")
    return cases


def main():
    exe, sample = sys.argv[1], sys.argv[2]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        for label, path, pattern in make_cases(d, sample):
            try:
                p = subprocess.run([exe, "inspect", path], capture_output=True, text=True,
                                   timeout=30)
            except subprocess.TimeoutExpired:
                print(f"FAIL {label}: hung for 30 s")
                failed += 1
                continue
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            problems = []
            if p.returncode != 1:
                problems.append(f"exit code {p.returncode}, want 1")
            if len(lines) != 1:
                problems.append(f"{len(lines)} stderr lines, want 1")
            msg = lines[0] if lines else ""
            if os.path.basename(path) not in msg:
                problems.append("message does not name the file")
            if not re.search(pattern, msg, re.IGNORECASE):
                problems.append(f"message does not match /{pattern}/")
            if p.stdout:
                problems.append("printed to stdout")
            if problems:
                failed += 1
                print(f"FAIL {label}: {'; '.join(problems)}\n     stderr: {p.stderr.strip()!r}")
            else:
                passed += 1
                print(f"ok   {label}: {msg}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
