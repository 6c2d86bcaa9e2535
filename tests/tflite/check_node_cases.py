#!/usr/bin/env python3
"""Every ONNX node conformance case (Debian's libonnx-testdata, data/node/) that
`edgecompile convert` turns into a float .tflite is run by the real TFLite
interpreter on test_data_set_0's inputs and compared with the case's expected
outputs: float within 1e-4 x max|expected| (NaN where expected), integers and
bools exactly. A case with more than one input is also run with its inputs after
the first made constants (initializers holding the case's data), as weights,
shapes and axes are in real models: the writer's paths for constant operands. A
float64 case (TFLite computes in no float64: the writer refuses it) is also run
as its float32 twin, expected outputs rounded to float32. A written file the interpreter refuses, fails to run, or
computes wrongly is a writer bug: the test fails on any of them.

An output the interpreter cannot hand back (int64, uint64, uint16, float16:
tfjs-tflite's runner reads none of them) is observed through a Cast to int32
(float32) appended to the ONNX model before converting; its expected values
must fit. A case whose input the file cannot be fed (float16, uint64, strings,
...) is skipped with the reason counted.

usage: check_node_cases.py EDGECOMPILE NODE_DIR INTERPRETER_DIR [--only SUBSTRING] [--keep DIR]"""
import argparse
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys
import atexit
import tempfile
import time
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_util as tu  # noqa: E402

# Cases whose written file is known to differ, each with the reason. Keep it short.
KNOWN_GAPS = {
}

# ONNX element types the interpreter's runner feeds (int64 feeds the file's int32 input).
FEEDABLE = {"float32", "float64", "int32", "int64", "uint8", "int8", "bool", "int16"}
# Output types it cannot read, and the type a probe Cast turns them into.
PROBE = {"int64": "int32", "uint64": "int32", "uint16": "int32", "uint32": "int32", "float16": "float32"}
CONVERT_TIMEOUT = 60
WORKERS = 2


def load_case(case_dir, onnx, numpy_helper):
    model = onnx.load(os.path.join(case_dir, "model.onnx"))
    inits = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    data_dir = os.path.join(case_dir, "test_data_set_0")
    def read(kind, n):
        out = []
        for k in range(n):
            p = os.path.join(data_dir, f"{kind}_{k}.pb")
            if not os.path.exists(p):
                break
            t = onnx.TensorProto()
            t.ParseFromString(open(p, "rb").read())
            out.append(numpy_helper.to_array(t))
        return out
    return model, inputs, read("input", len(inputs)), read("output", len(model.graph.output))


def elem_name(onnx, value_info):
    if not value_info.type.HasField("tensor_type"):
        return "non-tensor"
    et = value_info.type.tensor_type.elem_type
    if et == onnx.TensorProto.BFLOAT16:
        return "bfloat16"
    np_type = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE.get(et)  # onnx 1.12 (Debian): no helper.tensor_dtype_to_np_dtype
    return np_type.name if np_type is not None else f"onnx type {et}"


def probed_model(onnx, model, work):
    """The model with a Cast after each output the runner cannot read (None: none needed)."""
    probes = []
    for o in model.graph.output:
        dt = elem_name(onnx, o)
        if dt in PROBE:
            probes.append((o, dt))
    if not probes:
        return None, {}
    m = onnx.ModelProto()
    m.CopyFrom(model)
    to = {"int32": onnx.TensorProto.INT32, "float32": onnx.TensorProto.FLOAT}
    for o, dt in probes:
        wide = o.name + "__probe_" + dt
        for n in m.graph.node:
            n.output[:] = [wide if x == o.name else x for x in n.output]
            n.input[:] = [wide if x == o.name else x for x in n.input]
        m.graph.node.append(onnx.helper.make_node("Cast", [wide], [o.name], to=to[PROBE[dt]], name=o.name + "__probe"))
        for out in m.graph.output:
            if out.name == o.name:
                out.type.tensor_type.elem_type = to[PROBE[dt]]
    path = os.path.join(work, "probed.onnx")
    onnx.save(m, path)
    return path, {o.name: PROBE[dt] for o, dt in probes}


def constant_inputs(onnx, numpy_helper, model, inputs, in_data, work):
    """The model with every input after the first made an initializer holding the case's data
    (as weights, shapes and axes are in real models): the writer's constant-input paths."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    names = {vi.name for vi in inputs[1:]}
    keep = [vi for vi in m.graph.input if vi.name not in names]
    del m.graph.input[:]
    m.graph.input.extend(keep)
    for vi, a in zip(inputs[1:], in_data[1:]):
        m.graph.initializer.append(numpy_helper.from_array(a, vi.name))
    path = os.path.join(work, "constant_inputs.onnx")
    onnx.save(m, path)
    return path


def float32_twin(onnx, numpy_helper, model, work):
    """The model with every float64 tensor (inputs, outputs, initializers, Constant and
    ConstantOfShape values) made float32: TFLite computes in no float64, so a float64 case's
    ops are checked on this twin (None when the model has no float64 or casts types itself)."""
    D, F = onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT
    if any(n.op_type in ("Cast", "CastLike") for n in model.graph.node):
        return None
    m = onnx.ModelProto()
    m.CopyFrom(model)
    found = False
    for vi in list(m.graph.input) + list(m.graph.output) + list(m.graph.value_info):
        if vi.type.tensor_type.elem_type == D:
            vi.type.tensor_type.elem_type = F
            found = True
    def narrow(t):
        a = numpy_helper.to_array(t).astype(np.float32)
        t.CopyFrom(numpy_helper.from_array(a, t.name))
    for t in m.graph.initializer:
        if t.data_type == D:
            narrow(t)
            found = True
    for n in m.graph.node:
        for at in n.attribute:
            if at.type == onnx.AttributeProto.TENSOR and at.t.data_type == D:
                narrow(at.t)
                found = True
    if not found:
        return None
    path = os.path.join(work, "float32.onnx")
    onnx.save(m, path)
    return path


def prepare(variant, node_dir, exe, root, onnx, numpy_helper):
    """Converts one case (or its constant-input variant); returns a dict describing it (and
    its interpreter job when written)."""
    case, kind = variant
    const, f32 = kind == "const", kind == "f32"
    case_dir = os.path.join(node_dir, case)
    work = os.path.join(root, case + ("." + kind if kind else ""))
    os.makedirs(work, exist_ok=True)
    res = {"case": case + (" [constant inputs]" if const else " [float32 twin]" if f32 else "")}
    try:
        model, inputs, in_data, out_data = load_case(case_dir, onnx, numpy_helper)
    except Exception as e:  # noqa: BLE001 -- a case onnx cannot read is not ours to judge
        res["skip"] = f"onnx cannot read the case ({type(e).__name__})"
        return res
    source = os.path.join(case_dir, "model.onnx")
    if const:
        if len(in_data) != len(inputs):
            return res
        source = constant_inputs(onnx, numpy_helper, model, inputs, in_data, work)
        model = onnx.load(source)
        inputs, in_data = inputs[:1], in_data[:1]
    if f32:
        source = float32_twin(onnx, numpy_helper, model, work)
        if not source:
            return res
        model = onnx.load(source)
        in_data = [a.astype(np.float32) if a.dtype == np.float64 else a for a in in_data]
        out_data = [a.astype(np.float32) if a.dtype == np.float64 else a for a in out_data]
    out = os.path.join(work, "model.tflite")
    r = subprocess.run([exe, "convert", source, "--output", out],
                       capture_output=True, text=True, timeout=CONVERT_TIMEOUT)
    if r.returncode != 0:
        res["refused"] = (r.stderr.strip().splitlines() or ["?"])[-1]
        return res
    res["written"] = True
    if len(in_data) != len(inputs) or len(out_data) != len(model.graph.output):
        res["skip"] = "test_data_set_0 lacks an input or output"
        return res
    for vi in inputs:
        dt = elem_name(onnx, vi)
        if dt not in FEEDABLE:
            res["skip"] = f"an input of type {dt} (the runner cannot feed it)"
            return res
    probe, probed = probed_model(onnx, model, work)
    if probe:
        for o, want in zip(model.graph.output, out_data):
            if o.name in probed and want.size and np.issubdtype(want.dtype, np.integer) and \
                    (want.max() > np.iinfo(np.int32).max or want.min() < np.iinfo(np.int32).min):
                res["skip"] = "an output beyond int32 (read through an int32 probe)"
                return res
        r = subprocess.run([exe, "convert", probe, "--output", out], capture_output=True, text=True, timeout=CONVERT_TIMEOUT)
        if r.returncode != 0:
            res["error"] = "the case converts, its int32-probed copy does not: " + (r.stderr.strip().splitlines() or ["?"])[-1]
            return res
        res["probed"] = True
    job_inputs = []
    for k, (vi, a) in enumerate(zip(inputs, in_data)):
        p = os.path.join(work, f"in{k}.npy")
        np.save(p, np.ascontiguousarray(a))
        job_inputs.append([vi.name, p])
    res["job"] = {"model": out, "outputDir": os.path.join(work, "out"), "inputs": job_inputs}
    res["expected"] = [(o.name, a) for o, a in zip(model.graph.output, out_data)]
    return res


def compare(expected, manifest, out_dir):
    """'' when every output matches, else what differs."""
    if len(manifest) != len(expected):
        return f"{len(manifest)} outputs, expected {len(expected)}"
    by_name = {m["name"]: m for m in manifest}
    problems = []
    for k, (name, want) in enumerate(expected):
        m = by_name.get(name, manifest[k])
        got = np.load(os.path.join(out_dir, m["file"]))
        if tuple(got.shape) != tuple(want.shape):
            problems.append(f"{name}: shape {list(got.shape)}, expected {list(want.shape)}")
            continue
        if want.dtype.kind == "f":
            w = want.astype(np.float64)
            g = got.astype(np.float64)
            nan = np.isnan(w)
            if (np.isnan(g) != nan).any():
                problems.append(f"{name}: NaN where none is expected, or none where one is")
                continue
            finite = ~nan
            scale = float(np.abs(w[finite & np.isfinite(w)]).max()) if (finite & np.isfinite(w)).any() else 0.0
            tol = max(1e-4 * scale, 1e-6)
            inf = np.isinf(w)
            if (g[inf] != w[inf]).any():
                problems.append(f"{name}: an infinity differs")
                continue
            fin = finite & ~inf
            err = float(np.abs(g[fin] - w[fin]).max()) if fin.any() else 0.0
            if not err <= tol:
                problems.append(f"{name}: max |diff| {err:.3g} > {tol:.3g}")
        else:
            if not np.array_equal(got.astype(np.int64), want.astype(np.int64)):
                bad = int((got.astype(np.int64) != want.astype(np.int64)).sum())
                problems.append(f"{name}: {bad} of {want.size} values differ")
    return "; ".join(problems)


def run_batches(script, jobs, root):
    """Runs the jobs in WORKERS node processes; returns one result dict per job."""
    results = [None] * len(jobs)
    chunks = [list(range(k, len(jobs), WORKERS)) for k in range(WORKERS)]
    def run_chunk(w, idx):
        pending = idx
        while pending:
            path = os.path.join(root, f"jobs{w}.json")
            json.dump([jobs[i] for i in pending], open(path, "w"))
            r = subprocess.run(["node", script, "--batch", path], capture_output=True, text=True, timeout=900)
            done = 0
            for line in r.stdout.splitlines():
                line = line.strip()
                if not line.startswith("{"):
                    continue
                d = json.loads(line)
                results[pending[d["job"]]] = d
                done = d["job"] + 1
            if done < len(pending):
                # the process died inside job `done`: record it and go on after it
                err = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
                results[pending[done]] = {"ok": False, "error": f"the interpreter process died: {err}"}
                done += 1
            pending = pending[done:]
    with cf.ThreadPoolExecutor(WORKERS) as ex:
        list(ex.map(lambda a: run_chunk(*a), enumerate(chunks)))
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("node_dir")
    ap.add_argument("interpreter_dir")
    ap.add_argument("--only", default="", help="only cases whose name contains this")
    ap.add_argument("--keep", default="", help="keep the work files in this directory")
    a = ap.parse_args()
    script = tu.interpreter_or_skip(a.interpreter_dir)
    if not os.path.isdir(a.node_dir):
        print(f"SKIP: {a.node_dir} does not exist (Debian's libonnx-testdata)")
        sys.exit(tu.SKIP)
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        print("SKIP: the onnx Python package is not installed (Debian's python3-onnx)")
        sys.exit(tu.SKIP)
    t0 = time.time()
    root = a.keep or tempfile.mkdtemp(prefix="tflite_node_cases_")
    if not a.keep:
        atexit.register(shutil.rmtree, root, True)  # no scratch left in /tmp
    os.makedirs(root, exist_ok=True)
    cases = sorted(c for c in os.listdir(a.node_dir)
                   if a.only in c and os.path.exists(os.path.join(a.node_dir, c, "model.onnx")))
    variants = []
    for c in cases:
        variants.append((c, ""))
        try:
            m = onnx.load(os.path.join(a.node_dir, c, "model.onnx"), load_external_data=False)
            inits = {i.name for i in m.graph.initializer}
            if sum(1 for i in m.graph.input if i.name not in inits) > 1:
                variants.append((c, "const"))
            if any(vi.type.tensor_type.elem_type == onnx.TensorProto.DOUBLE for vi in list(m.graph.input) + list(m.graph.output)):
                variants.append((c, "f32"))
        except Exception:  # noqa: BLE001 -- prepare() reports it
            pass
    with cf.ThreadPoolExecutor(WORKERS) as ex:
        prepared = list(ex.map(lambda v: prepare(v, a.node_dir, a.exe, root, onnx, numpy_helper), variants))
    t1 = time.time()
    to_run = [p for p in prepared if "job" in p]
    results = run_batches(script, [p["job"] for p in to_run], root)
    t2 = time.time()

    written = sum(1 for p in prepared if p.get("written"))
    skipped = Counter(p["skip"] for p in prepared if p.get("written") and "skip" in p)
    errors, mismatched, matched, known = [], [], [], []
    for p in prepared:
        if "error" in p:
            errors.append((p["case"], p["error"]))
    for p, r in zip(to_run, results):
        if not r["ok"]:
            (known if p["case"] in KNOWN_GAPS else errors).append((p["case"], r["error"]))
            continue
        why = compare(p["expected"], r["outputs"], p["job"]["outputDir"])
        if not why:
            matched.append(p["case"])
        elif p["case"] in KNOWN_GAPS:
            known.append((p["case"], why))
        else:
            mismatched.append((p["case"], why))
    n_const = sum(1 for _, k in variants if k == "const")
    n_f32 = sum(1 for _, k in variants if k == "f32")
    print(f"node cases: {len(cases)} (+ {n_const} with their inputs after the first made constants, "
          f"+ {n_f32} float64 ones as float32 twins); "
          f"written as float .tflite: {written}; run: {len(to_run)} "
          f"({sum(1 for p in to_run if p.get('probed'))} through an int32/float32 probe Cast); "
          f"matched: {len(matched)}; mismatched: {len(mismatched)}; interpreter errors: {len(errors)}; "
          f"known gaps: {len(known)}")
    print(f"skipped (written, not run): {sum(skipped.values())}")
    for why, n in sorted(skipped.items()):
        print(f"  {n:4d}  {why}")
    for c, why in mismatched:
        print(f"MISMATCH {c}: {why}")
    for c, why in errors:
        print(f"ERROR {c}: {why}")
    for c, why in known:
        print(f"known gap {c} ({KNOWN_GAPS[c]}): {why}")
    stale = sorted(set(KNOWN_GAPS) - {c for c, _ in known})
    for c in stale:
        print(f"NOTE: known gap {c} no longer fails (or is no longer run): drop it from KNOWN_GAPS")
    print(f"time: convert {t1 - t0:.0f} s, interpreter {t2 - t1:.0f} s")
    if not a.keep:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(1 if mismatched or errors else 0)


if __name__ == "__main__":
    main()
