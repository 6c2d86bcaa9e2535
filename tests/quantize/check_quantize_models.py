#!/usr/bin/env python3
"""Per-channel PTQ of real architectures against float, through the CLI.

usage: check_quantize_models.py EDGECOMPILE MODELS_DIR [--samples N] [--torch]

For mobilenet_v2 and resnet18 (export_models.py: random weights, seed 0), with N
(default 16) calibration images from a fixed-seed generator (uniform [0, 1),
torch_ptq_reference.calibration_images), runs
    edgecompile quantize MODEL --calibration-data calib_N.npy --json --output M.eir
per channel and --per-tensor, and checks:
  - per-channel output SQNR >= 25 dB against the float model, per tensor strictly lower;
  - the .eir written opens (edgecompile inspect);
  - when the CPU runtime runs the int8 graph (edgecompile run), its output against
    the float model's reaches 25 dB too (skipped with a note until it can).
--torch also computes PyTorch FX PTQ's figure on the same images (slow: minutes).
Prints the figures and a closing "N passed, N failed" line.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_ptq_reference import calibration_images, sqnr_db  # noqa: E402

MIN_SQNR_DB = 25.0


def quantize(exe, model, calib, n, out, per_tensor):
    cmd = [exe, "quantize", model, "--calibration-data", calib, "--num-calibration-samples", str(n),
           "--json", "--output", out] + (["--per-tensor"] if per_tensor else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def run(exe, model, x_path, out_dir):
    p = subprocess.run([exe, "run", model, "--input", f"input={x_path}", "--output-dir", out_dir],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return np.load(os.path.join(out_dir, "output.npy")), ""


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    exe, models_dir = args[0], args[1]
    n = int(args[args.index("--samples") + 1]) if "--samples" in args else 16
    calib, images = calibration_images(models_dir, n)
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        passed += ok
        failed += not ok
        print(("ok   " if ok else "FAIL ") + what, flush=True)

    torch_figures = {}
    if "--torch" in args:
        from torch_ptq_reference import torch_ptq
        for name in ("mobilenet_v2", "resnet18"):
            torch_figures[name] = torch_ptq(name, images)["sqnr_db"]
    with tempfile.TemporaryDirectory() as tmp:
        x_path = os.path.join(tmp, "x.npy")
        np.save(x_path, images[:1])
        for name in ("mobilenet_v2", "resnet18"):
            model = os.path.join(models_dir, f"{name}.onnx")
            figures = {}
            for mode in ("per-channel", "per-tensor"):
                out = os.path.join(tmp, f"{name}.{mode}.eir")
                try:
                    r = quantize(exe, model, calib, n, out, mode == "per-tensor")
                except Exception as e:  # noqa: BLE001
                    check(False, f"{name} {mode}: {e}")
                    continue
                o = r["outputs"][0]
                figures[mode] = o["sqnr_db"]
                print(f"     {name} {mode}: output SQNR {o['sqnr_db']:.2f} dB, max abs error {o['max_abs_error']:.3g}, "
                      f"top-1 agreement {100 * o['top1_agreement']:.1f}% over {r['calibration_samples']} samples, "
                      f"calibration {r['calibration_seconds']:.2f} s", flush=True)
                p = subprocess.run([exe, "inspect", out], capture_output=True, text=True, timeout=300)
                check(p.returncode == 0, f"{name} {mode}: the .eir written opens ({p.stderr.strip()[:200]})")
                if mode == "per-channel":
                    with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
                        want, err = run(exe, model, x_path, d1)
                        got, err = run(exe, out, x_path, d2)
                        if got is None:
                            print(f"     note: edgecompile run on the int8 graph: {err[:300]}")
                        else:
                            s = sqnr_db(want, got)
                            check(s >= MIN_SQNR_DB, f"{name}: int8 graph run by the CPU runtime: {s:.2f} dB")
            if "per-channel" in figures:
                check(figures["per-channel"] >= MIN_SQNR_DB,
                      f"{name}: per-channel SQNR {figures['per-channel']:.2f} dB >= {MIN_SQNR_DB} dB")
            if len(figures) == 2:
                check(figures["per-tensor"] < figures["per-channel"],
                      f"{name}: per-tensor {figures['per-tensor']:.2f} dB < per-channel {figures['per-channel']:.2f} dB")
            if name in torch_figures:
                print(f"     {name}: PyTorch FX PTQ on the same {n} images: {torch_figures[name]:.2f} dB")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
