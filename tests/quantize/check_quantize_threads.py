#!/usr/bin/env python3
"""Concurrent calibration and report give exactly the serial result on a real model (issue 18).

usage: check_quantize_threads.py EDGECOMPILE MODELS_DIR WORK_DIR

`edgecompile quantize` runs whole samples on lanes (one sample per lane, each lane's
sessions single-threaded; core/quantize/sample_lanes.h): observers count runs and
choose histogram ranges in sample order, lanes bin into histograms of their own, and
each sample's SQNR sums are added in sample order. On mobilenet_v2 (export_models.py,
torchvision, random weights, seed 0) with 12 fixed-seed calibration images, for
  - ptq, min/max ranges;
  - ptq, --calibration-percentile 99.9, --per-tensor (ranges read off the histograms);
  - --strategy dynamic with data;
  - --strategy qat on check_qat.py's PyTorch QAT model (observers run beside the report);
the int8 graph written (.eir: every scale, zero point and int8 weight) and the whole
JSON report (every tensor's range, histogram, clip fraction and SQNR, every layer's
SQNR, the outputs' SQNR, max error and top-1 agreement) at --threads 2 and 3 must be
byte for byte those of --threads 1 (one lane: all on the calling thread, in order).
The only field allowed to differ is calibration_seconds (a wall time).
"""
import json
import os
import subprocess
import sys

import numpy as np

CONFIGS = {
    "minmax": [],
    "percentile_per_tensor": ["--calibration-percentile", "99.9", "--per-tensor"],
    "dynamic": ["--strategy", "dynamic"],
}


def quantize(exe, model, calib, out_dir, name, threads, extra):
    eir = os.path.join(out_dir, f"{name}.t{threads}.eir")
    rep = os.path.join(out_dir, f"{name}.t{threads}.json")
    cmd = [exe, "quantize", model, "--calibration-data", calib, "--threads", str(threads), "--output", eir,
           "--report", rep] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    with open(eir, "rb") as f:
        graph = f.read()
    with open(rep) as f:
        report = json.load(f)
    report.pop("calibration_seconds", None)
    report.pop("output", None)  # the .eir path, different per run
    return graph, report


def first_difference(a, b, path="report"):
    if type(a) is not type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in one report"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} entries"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b or (a != a and b != b) else f"{path}: {a!r} vs {b!r}"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, models_dir, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    model = os.path.join(models_dir, "mobilenet_v2.onnx")
    calib = os.path.join(work, "calib12.npy")
    np.save(calib, np.random.default_rng(18).standard_normal((12, 3, 224, 224)).astype(np.float32))
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        passed += bool(ok)
        failed += not ok
        print(("ok    " if ok else "FAIL  ") + what)

    for name, extra in CONFIGS.items():
        serial_graph, serial = quantize(exe, model, calib, work, name, 1, extra)
        # The serial result is a real one: measured on every sample, histograms filled
        # (dynamic keeps activations float: int8 weights only, no activation tensors).
        tensors_ok = (len(serial["tensors"]) > 50 and all(sum(t["histogram"]) > 0 for t in serial["tensors"])
                      if name != "dynamic" else not serial["tensors"])
        check(serial["measured_samples"] == 12 and tensors_ok and len(serial["layers"]) > 50 and
              serial["outputs"][0]["sqnr_db"] is not None,
              f"{name}: --threads 1 report measured on 12 samples, {len(serial['tensors'])} int8 tensors with "
              f"histograms, {len(serial['layers'])} layers")
        for threads in (2, 3):
            graph, report = quantize(exe, model, calib, work, name, threads, extra)
            check(graph == serial_graph, f"{name}: int8 graph at --threads {threads} byte for byte the serial one "
                                         f"({len(graph)} bytes)")
            d = first_difference(serial, report)
            check(d is None, f"{name}: report at --threads {threads} equal to the serial one" + (f" ({d})" if d else ""))
    # qat: the scales come from the model's QDQ pairs; the observers (ranges for the
    # report) run beside the report's runs. check_qat.py's small PyTorch QAT model.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from check_qat import build_and_export  # noqa: E402
    qat = os.path.join(work, "qat.onnx")
    build_and_export(qat)
    qat_calib = os.path.join(work, "qat_calib.npy")
    np.save(qat_calib, np.random.default_rng(18).random((9, 3, 8, 8), dtype=np.float32))
    serial_graph, serial = quantize(exe, qat, qat_calib, work, "qat", 1, ["--strategy", "qat"])
    check(serial["measured_samples"] == 9 and serial["tensors"] and
          all(sum(t["histogram"]) > 0 for t in serial["tensors"]),
          f"qat: --threads 1 report measured on 9 samples, {len(serial['tensors'])} tensors with histograms")
    for threads in (2, 3):
        graph, report = quantize(exe, qat, qat_calib, work, "qat", threads, ["--strategy", "qat"])
        check(graph == serial_graph, f"qat: int8 graph at --threads {threads} byte for byte the serial one")
        d = first_difference(serial, report)
        check(d is None, f"qat: report at --threads {threads} equal to the serial one" + (f" ({d})" if d else ""))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
