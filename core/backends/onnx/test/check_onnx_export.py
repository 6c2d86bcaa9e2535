#!/usr/bin/env python3
"""ONNX export round trips (issue 41): for each model, `convert --output m.onnx`
(float), `optimize --output m.onnx` and `quantize --output m.onnx` (QDQ), then
  - onnx.checker.check_model (Debian's python3-onnx) passes on every file;
  - ONNX Runtime (npm onnxruntime-node, tests/tools/npm_install.py) runs them to
    our own outputs: float within 1e-5 of the largest |output| (relative); QDQ against
    our int8 run of the same graph in LSBs of the output's DequantizeLinear scale (the
    bounds and why: the comment at the check);
  - our own re-import gives the same op counts: the float file's as the model's, the
    optimised file's as the optimised graph's (FullyConnected written as Gemm, plus the
    ops the writer adds, named after their op).
ONNX Runtime's checks skip (and the test exits 77 when nothing else failed) when
npm could not install it.

usage: check_onnx_export.py EDGECOMPILE MODELS_DIR ORT_DIR SAMPLE_MODEL WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

MODELS = ("mobilenet_v2", "resnet18", "transformer", "lstm_text")
FLOAT_RTOL = 1e-5


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    return p


def inputs_of(path):
    m = onnx.load(path, load_external_data=False)
    inits = {i.name for i in m.graph.initializer}
    out = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        t = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else 1 for d in t.shape.dim]
        out.append((vi.name, t.elem_type, dims))
    return out


def make_inputs(model, work, samples=1, seed=0):
    rng = np.random.default_rng(seed)
    feeds = []
    for name, et, dims in inputs_of(model):
        if et == onnx.TensorProto.INT64:
            x = rng.integers(0, 1000, size=[samples] + dims[1:], dtype=np.int64)
        else:
            x = rng.uniform(-1, 1, size=[samples] + dims[1:]).astype(np.float32)
        safe = "".join(c if c.isalnum() else "_" for c in name)
        path = os.path.join(work, f"{safe}_{samples}.npy")
        np.save(path, x)
        feeds.append((name, path))
    return feeds


def op_counts(exe, model):
    p = run([exe, "inspect", model, "--json"])
    if p.returncode != 0:
        raise RuntimeError(f"inspect {model}: {p.stderr.strip()}")
    return json.loads(p.stdout)["ops"]["by_type"]


def our_outputs(exe, model, feeds, out_dir):
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    cmd = [exe, "run", model, "--output-dir", out_dir]
    for name, path in feeds:
        cmd += ["--input", f"{name}={path}"]
    p = run(cmd)
    if p.returncode != 0:
        raise RuntimeError(f"run {model}: {p.stderr.strip()}")
    return out_dir


def ort_outputs(ort_dir, model, feeds, out_dir, optimize=True):
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = ["node", os.path.join(ort_dir, "ort_run.js"), model, out_dir]
    if not optimize:
        cmd.append("--no-optimize")
    cmd += [f"{n}={p}" for n, p in feeds]
    p = run(cmd, cwd=ort_dir)
    if p.returncode != 0:
        raise RuntimeError(f"ONNX Runtime on {os.path.basename(model)}: {p.stderr.strip()}")
    names = json.load(open(os.path.join(out_dir, "outputs.json")))
    return {n: np.load(os.path.join(out_dir, f"{i}.npy")) for i, n in enumerate(names)}


def file_for(tensor):
    s = "".join(c if (c.isalnum() or c in ".-_") else "_" for c in tensor).lstrip(".")
    return (s or "output") + ".npy"


def output_scales(onnx_path):
    """Graph output -> the scale of the DequantizeLinear producing it (1 LSB)."""
    m = onnx.load(onnx_path)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    producer = {o: n for n in m.graph.node for o in n.output}
    scales = {}
    for o in m.graph.output:
        n = producer.get(o.name)
        if n is not None and n.op_type == "DequantizeLinear":
            scales[o.name] = float(np.max(inits[n.input[1]]))
    return scales


def main():
    exe, models_dir, ort_dir, sample, work = (os.path.abspath(a) for a in sys.argv[1:6])
    os.makedirs(work, exist_ok=True)
    ort_ok = os.path.exists(os.path.join(ort_dir, "node_modules", "onnxruntime-node", "package.json"))
    ort_reason = ""
    if not ort_ok:
        marker = os.path.join(ort_dir, "UNAVAILABLE")
        ort_reason = open(marker).read().strip() if os.path.exists(marker) else "not installed"
    failed = 0
    skipped = 0

    def report(ok, what):
        nonlocal failed
        failed += not ok
        print(("ok   " if ok else "FAIL ") + what, flush=True)

    models = [(n, os.path.join(models_dir, n + ".onnx")) for n in MODELS] + [("sample", sample)]
    for name, model in models:
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        feeds = make_inputs(model, d)
        calib = make_inputs(model, d, samples=4, seed=1)
        ref = our_outputs(exe, model, feeds, os.path.join(d, "ours_float"))
        want = op_counts(exe, model)

        # --- float
        f_onnx = os.path.join(d, "float.onnx")
        p = run([exe, "convert", model, "--output", f_onnx])
        report(p.returncode == 0, f"{name}: convert --output float.onnx: {(p.stdout or p.stderr).strip()}")
        if p.returncode != 0:
            continue
        try:
            onnx.checker.check_model(onnx.load(f_onnx))
            report(True, f"{name}: float.onnx passes onnx.checker ({os.path.getsize(f_onnx)} bytes)")
        except Exception as e:
            report(False, f"{name}: float.onnx fails onnx.checker: {str(e).splitlines()[0]}")
        got = op_counts(exe, f_onnx)
        report(got == want, f"{name}: float.onnx re-imports with the same op counts ({sum(want.values())} ops)"
               + ("" if got == want else f": {got} != {want}"))

        # --- optimised
        o_eir, o_onnx = os.path.join(d, "opt.eir"), os.path.join(d, "opt.onnx")
        p1 = run([exe, "optimize", model, "--output", o_eir])
        p2 = run([exe, "optimize", model, "--output", o_onnx])
        report(p1.returncode == 0 and p2.returncode == 0,
               f"{name}: optimize --output opt.onnx: exit {p2.returncode} {p2.stderr.strip()}")
        if p2.returncode == 0:
            try:
                onnx.checker.check_model(onnx.load(o_onnx))
                report(True, f"{name}: opt.onnx passes onnx.checker ({os.path.getsize(o_onnx)} bytes)")
            except Exception as e:
                report(False, f"{name}: opt.onnx fails onnx.checker: {str(e).splitlines()[0]}")
            # Our re-import of opt.onnx holds every op of the optimised graph once (FullyConnected as
            # Gemm, the writer's table) plus the ops the writer added, which it names after the op
            # they serve ("<op>/Reshape", "<op>/Clip" for a fused activation).
            m = onnx.load(o_onnx, load_external_data=False)
            names = {n.name for n in m.graph.node}
            added = {}
            for n in m.graph.node:
                if "/" in n.name and n.name.rsplit("/", 1)[0] in names:
                    added[n.op_type] = added.get(n.op_type, 0) + 1
            want_opt = dict(op_counts(exe, o_eir))
            if "FullyConnected" in want_opt:
                want_opt["Gemm"] = want_opt.get("Gemm", 0) + want_opt.pop("FullyConnected")
            for k, v in added.items():
                want_opt[k] = want_opt.get(k, 0) + v
            got_opt = op_counts(exe, o_onnx)
            report(got_opt == want_opt,
                   f"{name}: opt.onnx re-imports with the optimised graph's op counts ({sum(op_counts(exe, o_eir).values())} ops"
                   f" + {sum(added.values())} the writer added: {added})" + ("" if got_opt == want_opt else f": {got_opt} != {want_opt}"))

        # --- quantised (QDQ)
        q_eir, q_onnx = os.path.join(d, "int8.eir"), os.path.join(d, "int8.onnx")
        calib_arg = calib[0][1] if len(calib) == 1 else None
        if calib_arg is None:
            cdir = os.path.join(d, "calib")
            os.makedirs(cdir, exist_ok=True)
            for n, path in calib:
                shutil.copy(path, os.path.join(cdir, n + ".npy"))
            calib_arg = cdir
        p1 = run([exe, "quantize", model, "--calibration-data", calib_arg, "--output", q_eir])
        p2 = run([exe, "quantize", model, "--calibration-data", calib_arg, "--output", q_onnx])
        report(p1.returncode == 0 and p2.returncode == 0,
               f"{name}: quantize --output int8.onnx: exit {p2.returncode} {p2.stderr.strip()}")
        q_ok = p2.returncode == 0
        if q_ok:
            try:
                onnx.checker.check_model(onnx.load(q_onnx))
                m = onnx.load(q_onnx)
                nq = sum(n.op_type == "QuantizeLinear" for n in m.graph.node)
                ndq = sum(n.op_type == "DequantizeLinear" for n in m.graph.node)
                per_ch = sum(n.op_type == "DequantizeLinear" and any(a.name == "axis" for a in n.attribute)
                             for n in m.graph.node)
                report(nq > 0 and ndq > 0, f"{name}: int8.onnx passes onnx.checker ({os.path.getsize(q_onnx)} bytes, "
                       f"{nq} QuantizeLinear, {ndq} DequantizeLinear, {per_ch} per-channel)")
            except Exception as e:
                report(False, f"{name}: int8.onnx fails onnx.checker: {str(e).splitlines()[0]}")

        if not ort_ok:
            print(f"SKIP {name}: ONNX Runtime checks: {ort_reason}")
            skipped += 1
            continue
        ours = {}
        try:
            for label, path in (("float.onnx", f_onnx), ("opt.onnx", o_onnx)):
                res = ort_outputs(ort_dir, path, feeds, os.path.join(d, "ort_" + label))
                worst = 0.0
                for out, y in res.items():
                    r = np.load(os.path.join(ref, file_for(out)))
                    scale = max(float(np.max(np.abs(r))), 1e-30)
                    worst = max(worst, float(np.max(np.abs(y.astype(np.float64) - r))) / scale)
                report(worst <= FLOAT_RTOL, f"{name}: ONNX Runtime on {label} vs our run: max |diff| / max |ours| = {worst:.2e}"
                       f" (bound {FLOAT_RTOL:g})")
            if q_ok:
                qref = our_outputs(exe, q_eir, feeds, os.path.join(d, "ours_int8"))
                scales = output_scales(q_onnx)
                # The file's tensors are the int8 graph's; only the arithmetic inside each op
                # differs. Without graph optimisations ONNX Runtime runs each op in float between
                # its QuantizeLinear/DequantizeLinear (round half to even), our runtime TFLite's
                # integer kernels (fixed-point, half away from zero): a tie rounds apart at one
                # layer and may carry on, so deep models are held to 1 LSB on 98% of the outputs
                # and 2 LSB at most, the sample to 1 LSB. ORT's own integer kernels (QDQ pairs
                # fused, float requantisation) drift further through deep models: printed only.
                for opt in (False, True):
                    res = ort_outputs(ort_dir, q_onnx, feeds, os.path.join(d, f"ort_int8_{opt}"), optimize=opt)
                    for out, y in res.items():
                        r = np.load(os.path.join(qref, file_for(out)))
                        lsb = scales.get(out)
                        diff = np.abs(y.astype(np.float64) - r)
                        if lsb is None:  # a float output (an op kept float at the end)
                            rel = float(np.max(diff)) / max(float(np.max(np.abs(r))), 1e-30)
                            report(rel <= 1e-3, f"{name}: int8.onnx output {out} (float) ORT vs ours: {rel:.2e} relative")
                            continue
                        lsbs = diff / lsb
                        worst, within = float(np.max(lsbs)), float(np.mean(lsbs <= 1.0001))
                        what = (f"{name}: ONNX Runtime ({'its integer kernels' if opt else 'no graph optimisation'}) on "
                                f"int8.onnx vs our int8 run: max {worst:.2f} LSB, {100 * within:.2f}% within 1 LSB (LSB {lsb:.3g})")
                        if opt and name != "sample":
                            print("info " + what, flush=True)
                        elif name == "sample":
                            report(worst <= 1.0001, what + " (bound 1 LSB)")
                        else:
                            report(worst <= 2.0001 and within >= 0.98, what + " (bound: 1 LSB on 98%, 2 LSB max)")
        except RuntimeError as e:
            report(False, f"{name}: {e}")

    print(f"{failed} failed" + (f", ONNX Runtime skipped for {skipped} models" if skipped else ""))
    if failed:
        return 1
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
