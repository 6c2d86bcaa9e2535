#!/usr/bin/env python3
"""Checks the CPU runtime against PyTorch's own outputs on real architectures.

usage: check_runtime.py EDGECOMPILE MODELS_DIR

For mobilenet_v2, resnet18, the transformer, efficientnet_b0 and shufflenet_v2
exported by export_models.py,
the model is rebuilt here with the same seed and construction
(export_models.build_model), fed a fixed-seed input, and PyTorch's output is
computed. Both are saved next to the model (<name>.input.npy,
<name>.torch_output.npy); then `edgecompile run MODEL --input input=X.npy
--output-dir D` runs it on the CPU runtime and the check is
    max |ours - torch| <= 1e-4 * max |torch|,
once as a user runs it (float convolutions channels-last on oneDNN) and once with
EC_CONV=own (our own NCHW kernels, the fallback).
Prints the figures per model and a closing "N passed, N failed" line.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_models import MODEL_NAMES, build_model  # noqa: E402

REL_TOL = 1e-4


def torch_reference(name, models_dir):
    import torch
    model, example = build_model(name)
    gen = torch.Generator().manual_seed(1234)
    x = torch.randn(example.shape, generator=gen)
    with torch.no_grad():
        y = model(x).numpy().astype(np.float32)
    x = x.numpy().astype(np.float32)
    for suffix, arr in (("input", x), ("torch_output", y)):
        path = os.path.join(models_dir, f"{name}.{suffix}.npy")
        np.save(path + ".tmp.npy", arr)
        os.replace(path + ".tmp.npy", path)
    return os.path.join(models_dir, f"{name}.input.npy"), y


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, models_dir = sys.argv[1], sys.argv[2]
    passed = failed = 0
    for name in MODEL_NAMES + ("efficientnet_b0", "shufflenet_v2_x1_0"):
        model = os.path.join(models_dir, f"{name}.onnx")
        x_path, want = torch_reference(name, models_dir)
        for conv in ("onednn", "own"):
            label = f"{name} (EC_CONV={conv})"
            with tempfile.TemporaryDirectory() as out_dir:
                proc = subprocess.run([exe, "run", model, "--input", f"input={x_path}", "--output-dir", out_dir],
                                      capture_output=True, text=True, timeout=300,
                                      env=dict(os.environ, EC_CONV=conv))
                if proc.returncode != 0:
                    failed += 1
                    print(f"FAIL {label}: edgecompile run exited {proc.returncode}: {proc.stderr.strip()}")
                    continue
                got = np.load(os.path.join(out_dir, "output.npy"))
            if got.shape != want.shape:
                failed += 1
                print(f"FAIL {label}: output shape {got.shape}, torch {want.shape}")
                continue
            diff = float(np.max(np.abs(got.astype(np.float64) - want)))
            mag = float(np.max(np.abs(want)))
            ok = diff <= REL_TOL * mag
            passed += ok
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {label}: output {list(want.shape)}, max |torch| {mag:.4g}, "
                  f"max abs diff {diff:.3g} = {diff / mag if mag else 0:.2g} of max |torch| (bound {REL_TOL:g})")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
