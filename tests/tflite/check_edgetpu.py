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
import atexit
import shutil
import tempfile

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


def cut_model(exe, path, work):
    """The model without its final custom op or ArgMax: their inputs become the outputs."""
    dump = tu.run([exe, "inspect", "--dump-full", path], timeout=300).stdout.splitlines()
    name = r'%(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_./-]+)'
    keep, outs = [], []
    for line in dump:
        m = re.match(r"^  (.*?) = (\S+?)\((.*?)\)", line)
        if m and (m.group(2).startswith('"tflite::') or m.group(2) == "ArgMax"):
            outs += re.findall(name, m.group(3))
            continue
        if line.startswith("  output "):
            continue
        keep.append(line)
    if not outs:
        return path
    while keep and keep[-1].strip() == "}":
        keep.pop()
    keep += [f"  output {o}" for o in outs] + ["}"]
    eir = os.path.join(work, os.path.basename(path) + ".cut.eir")
    open(eir, "w").write("\n".join(keep) + "\n")
    out = os.path.join(work, os.path.basename(path) + ".cut.tflite")
    tu.run([exe, "convert", eir, "--output", out], timeout=300)
    return out


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
    work = tempfile.mkdtemp(prefix="tflite_edgetpu_")
    atexit.register(shutil.rmtree, work, True)  # no scratch left in /tmp
    exact = {}  # mode -> [exact, total]
    for model in sorted(expected):
        path = os.path.join(data, model + ".tflite")
        j = inspect(exe, path)
        rng = np.random.default_rng(0)
        inputs = {}
        for t in j["inputs"]:
            shape = [d if isinstance(d, int) else 1 for d in t["shape"]]
            inputs[t["name"]] = rng.integers(0, 256, size=shape, dtype=np.uint8)
        # The whole model on our runtime: a custom op is a one-line refusal naming it.
        try:
            full = tu.edgecompile_run(exe, path, inputs)
        except RuntimeError as e:
            msg = str(e).strip().splitlines()[-1]
            if "PosenetDecoderOp" in msg and "posenet" in model and "tflite::PosenetDecoderOp" in msg:
                print(f"{model}: run refuses the custom op in one line: {msg[msg.find('error:'):][:200]}")
                full = None
            else:
                failures.append(f"{model}: run failed: {msg}")
                continue
        # What the interpreter can run and hand back: the model up to its custom op
        # (PosenetDecoderOp has no kernel there either) or its int64 ArgMax (the
        # JavaScript API cannot read int64 tensors) -- cut with our own writer.
        cut = cut_model(exe, path, work)
        theirs = tu.interpreter(script, cut, inputs)
        # tfjs-tflite runs a graph on XNNPACK when its delegate takes every op
        # (fp32 requantisation) and on TFLite's builtin kernels otherwise (the
        # reference fixed-point arithmetic): compare with both of our modes.
        best = None
        for mode in ("reference", "fp32"):
            env = dict(os.environ, EC_INT8_REQUANT=mode)
            ours = tu.edgecompile_run(exe, cut, inputs, env=env)
            worst, n_exact, n = 0, 0, 0
            for name, a, b in tu.match_outputs(ours, theirs):
                d = np.abs(a.astype(np.int64) - b.reshape(a.shape).astype(np.int64))
                worst, n_exact, n = max(worst, int(d.max())), n_exact + int((d == 0).sum()), n + d.size
            print(f"{model} (cut at {', '.join(n for n, _ in theirs)}): {mode:9s} arithmetic: max |diff| {worst} LSB, "
                  f"bit-exact {100.0 * n_exact / n:.2f}% of {n}")
            e = exact.setdefault(mode, [0, 0])
            e[0] += n_exact
            e[1] += n
            if best is None or worst < best[0]:
                best = (worst, mode)
        if best[0] > 1:
            failures.append(f"{model}: differs from the interpreter by {best[0]} LSB in both arithmetic modes")
        if full is not None and "ArgMax" in full:
            logits = theirs[0][1]
            agree = float((np.argmax(logits, axis=-1) == full["ArgMax"].reshape(logits.shape[:-1])).mean())
            print(f"{model}: our ArgMax vs argmax of the interpreter's logits: {100 * agree:.3f}% agree")
            if agree < 0.999:
                failures.append(f"{model}: ArgMax agrees on only {100 * agree:.3f}%")
    for mode, (e, n) in exact.items():
        print(f"all compared outputs, {mode} arithmetic: bit-exact {100.0 * e / n:.2f}% of {n}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
