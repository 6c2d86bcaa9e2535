#!/usr/bin/env python3
"""Reading real TFLite files: the Edge TPU test models (tests/data/edgetpu, from
google-coral/edgetpu, Apache-2.0; see LICENSE there).

usage: check_edgetpu.py EDGECOMPILE DATA_DIR INTERPRETER_DIR

1. `inspect --json` on each original lists the op counts of DATA_DIR/README.md
   (as named in the file), keeps u8 asymmetric quantisation and shows
   min_runtime_version; on each *_edgetpu.tflite, edgetpu-custom-op is one
   opaque op ("Edge TPU executable", its byte size, inputs and outputs).
2. `run` on each original (u8) equals the TFLite interpreter within 1 LSB on
   the same random input; prints the share of bit-exact outputs."""
import json
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_util as tu  # noqa: E402


def readme_counts(path):
    counts = {}
    for line in open(path):
        m = re.match(r"- (\S+): (.*)$", line.strip())
        if m:
            counts[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\S+) (\d+)(?:,|$)", m.group(2))}
    return counts


def inspect(exe, path):
    r = tu.run([exe, "inspect", "--json", path], timeout=300)
    return json.loads(r.stdout)


def main():
    exe, data, idir = sys.argv[1], sys.argv[2], sys.argv[3]
    failures = []
    expected = readme_counts(os.path.join(data, "README.md"))
    assert len(expected) == 3, expected
    for model, counts in sorted(expected.items()):
        path = os.path.join(data, model + ".tflite")
        j = inspect(exe, path)
        got = j["source_ops_by_type"]
        status = "ok" if got == counts else "MISMATCH"
        print(f"{model}: {sum(got.values())} ops {got} -> {status}")
        if got != counts:
            failures.append(f"{model}: op counts {got} != README {counts}")
        q = [t for t in j["quantization"] if t["dtype"] == "u8"]
        if not q or all(z == 0 for t in q for z in t["zero_points"]):
            failures.append(f"{model}: no asymmetric u8 quantisation kept")
        if "tflite.min_runtime_version" not in j["file_metadata"]:
            failures.append(f"{model}: min_runtime_version missing from inspect")
        # The compiled twin: one opaque edgetpu-custom-op with its byte size.
        tpu = inspect(exe, os.path.join(data, model + "_edgetpu.tflite"))
        ops = [o for o in tpu["opaque_ops"] if o["op_type"] == "tflite::edgetpu-custom-op"]
        if len(ops) != 1 or "Edge TPU executable" not in ops[0]["detail"] or "bytes" not in ops[0]["detail"] \
                or not ops[0]["inputs"] or not ops[0]["outputs"]:
            failures.append(f"{model}_edgetpu: edgetpu-custom-op not shown as one opaque op: {ops}")
        else:
            cpu = {k: v for k, v in tpu["source_ops_by_type"].items() if k != "edgetpu-custom-op"}
            print(f"  {model}_edgetpu: 1 edgetpu-custom-op ({ops[0]['detail']}), on the CPU: {cpu}")

    script = tu.interpreter_or_skip(idir)
    total = exact = 0
    for model in sorted(expected):
        path = os.path.join(data, model + ".tflite")
        j = inspect(exe, path)
        rng = np.random.default_rng(0)
        inputs = {}
        for t in j["inputs"]:
            shape = [d if isinstance(d, int) else 1 for d in t["shape"]]
            inputs[t["name"]] = rng.integers(0, 256, size=shape, dtype=np.uint8)
        theirs = tu.interpreter(script, path, inputs)
        try:
            ours = tu.edgecompile_run(exe, path, inputs)
        except RuntimeError as e:
            msg = str(e)
            if "PosenetDecoderOp" in msg and "posenet" in model:
                # The custom decoder has no kernel: a one-line refusal naming it is the expected answer.
                print(f"{model}: run refused as expected: {msg.splitlines()[-1][:160]}")
                continue
            failures.append(f"{model}: run failed: {msg}")
            continue
        for name, a, b in tu.match_outputs(ours, theirs):
            if a.shape != b.shape or a.dtype != b.dtype:
                failures.append(f"{model}:{name}: {a.dtype}{a.shape} vs interpreter {b.dtype}{b.shape}")
                continue
            d = np.abs(a.astype(np.int64) - b.astype(np.int64))
            n_exact = int((d == 0).sum())
            total += d.size
            exact += n_exact
            print(f"{model}:{name}: max |diff| {int(d.max())} LSB, bit-exact {100.0 * n_exact / d.size:.2f}% of {d.size}")
            if d.max() > 1:
                failures.append(f"{model}:{name}: differs by {int(d.max())} LSB")
    if total:
        print(f"all outputs: bit-exact {100.0 * exact / total:.2f}% of {total}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
