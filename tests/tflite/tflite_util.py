"""Helpers shared by the TFLite end-to-end checks."""
import json
import re
import os
import subprocess
import sys
import tempfile

import numpy as np

SKIP = 77  # ctest SKIP_RETURN_CODE


def interpreter_or_skip(dir_):
    """The runner script, or exit SKIP with the setup's reason."""
    marker = os.path.join(dir_, "UNAVAILABLE")
    if os.path.exists(marker):
        print("SKIP: the TFLite interpreter is unavailable:", open(marker).read().strip())
        sys.exit(SKIP)
    script = os.path.join(dir_, "tflite_run.js")
    if not os.path.exists(os.path.join(dir_, "node_modules")):
        print("SKIP: the TFLite interpreter was not installed (run the tflite_interpreter_setup test first)")
        sys.exit(SKIP)
    return script


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({r.returncode}): {r.stderr.strip()}")
    return r


def interpreter(script, model, inputs):
    """inputs: name -> array. Returns the list of (name, array) outputs."""
    with tempfile.TemporaryDirectory() as d:
        args = ["node", script, model, "--output-dir", os.path.join(d, "out")]
        for k, (name, a) in enumerate(inputs.items()):
            p = os.path.join(d, f"in{k}.npy")
            np.save(p, a)
            args += ["--input", f"{name}={p}"]
        run(args, timeout=600)
        manifest = json.load(open(os.path.join(d, "out", "outputs.json")))
        return [(m["name"], np.load(os.path.join(d, "out", m["file"]))) for m in manifest]


def edgecompile_run(exe, model, inputs, env=None):
    """edgecompile run; returns name -> array."""
    with tempfile.TemporaryDirectory() as d:
        args = [exe, "run", model, "--output-dir", os.path.join(d, "out")]
        for k, (name, a) in enumerate(inputs.items()):
            p = os.path.join(d, f"in{k}.npy")
            np.save(p, a)
            args += ["--input", f"{name}={p}"]
        run(args, timeout=900, env=env)
        out = {}
        for f in sorted(os.listdir(os.path.join(d, "out"))):
            if f.endswith(".npy"):
                out[f[:-4]] = np.load(os.path.join(d, "out", f))
        return out


def match_outputs(ours, theirs):
    """Pairs edgecompile's outputs (files named after sanitised output names) with the interpreter's, in order."""
    keys = list(ours.keys())
    if len(keys) == len(theirs) == 1:
        return [(theirs[0][0], ours[keys[0]], theirs[0][1])]
    pairs = []
    for name, a in theirs:
        flat = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".") or "output"
        cand = [k for k in keys if k == flat]
        if not cand:
            raise RuntimeError(f"output '{name}' not among edgecompile's outputs {keys}")
        pairs.append((name, ours[cand[0]], a))
    return pairs
