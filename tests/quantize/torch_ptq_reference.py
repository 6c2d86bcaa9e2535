#!/usr/bin/env python3
"""PyTorch's own post-training quantisation of the test architectures, for comparison.

usage: torch_ptq_reference.py OUT_DIR [--samples N] [--models a,b] [--json FILE] [--tiny-eps]

For each model (export_models.build_model: random weights, seed 0), writes the
calibration images OUT_DIR/calib_<N>.npy (N x 3 x 224 x 224, uniform [0, 1),
numpy default_rng(seed 7)) if missing -- the same file edgecompile quantize is
given -- then runs torch.ao.quantization FX PTQ (prepare_fx with the default
QConfigMapping of the "onednn" engine, Debian's torch having no FBGEMM:
per-channel symmetric int8 weights, histogram observer on quint8 activations), calibrates on the N images, converts, and prints the
output SQNR of the int8 model against the float model over the same images:
    SQNR = 10 log10(sum y^2 / sum (y - y_q)^2)     (all samples together)
This is the figure docs/QUANTISATION.md puts beside ours. --tiny-eps adds a run
with the observers' scale floor lowered from float32 eps to 1e-30 (see torch_ptq).
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from export_models import build_model  # noqa: E402

SEED = 7


def calibration_images(out_dir, n):
    path = os.path.join(out_dir, f"calib_{n}.npy")
    if not os.path.exists(path):
        x = np.random.default_rng(SEED).random((n, 3, 224, 224), dtype=np.float32)
        np.save(path + ".tmp.npy", x)
        os.replace(path + ".tmp.npy", path)
    return path, np.load(path)


def sqnr_db(ref, approx):
    noise = float(np.sum((ref.astype(np.float64) - approx) ** 2))
    signal = float(np.sum(ref.astype(np.float64) ** 2))
    return 200.0 if noise == 0 else 10 * np.log10(signal / noise)


def torch_ptq(name, images, tiny_eps=False):
    import torch
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    # Debian's torch has no FBGEMM: oneDNN is its x86 engine (its default qconfig:
    # per-channel symmetric int8 weights, histogram observer on quint8 activations).
    engine = "onednn" if "onednn" in torch.backends.quantized.supported_engines else "qnnpack"
    torch.backends.quantized.engine = engine
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    model, example = build_model(name)
    x = torch.from_numpy(images)
    with torch.no_grad():
        ref = torch.cat([model(x[i:i + 1]) for i in range(len(x))]).numpy()
        mapping = get_default_qconfig_mapping(engine)
        if tiny_eps:
            # The observers floor every scale at float32 eps (1.2e-7); random-weight
            # mobilenet_v2's activations fall far below that, so the default run
            # rounds its output to zero. Same observers with the floor lowered.
            from torch.ao.quantization import QConfig, QConfigMapping
            from torch.ao.quantization.observer import HistogramObserver, PerChannelMinMaxObserver
            qc = QConfig(activation=HistogramObserver.with_args(reduce_range=False, eps=1e-30),
                         weight=PerChannelMinMaxObserver.with_args(dtype=torch.qint8,
                                                                   qscheme=torch.per_channel_symmetric,
                                                                   eps=1e-30))
            mapping = QConfigMapping().set_global(qc)
        prepared = prepare_fx(model, mapping, (example,))
        for i in range(len(x)):
            prepared(x[i:i + 1])
        q = convert_fx(prepared)
        out = torch.cat([q(x[i:i + 1]) for i in range(len(x))]).numpy()
    top1 = float(np.mean(ref.argmax(axis=1) == out.argmax(axis=1)))
    return {"sqnr_db": sqnr_db(ref, out), "top1_agreement": top1}


def main():
    args = [a for a in sys.argv[1:]]
    if not args:
        sys.exit(__doc__)
    out_dir = args[0]
    n = int(args[args.index("--samples") + 1]) if "--samples" in args else 32
    models = args[args.index("--models") + 1].split(",") if "--models" in args else ["mobilenet_v2", "resnet18"]
    os.makedirs(out_dir, exist_ok=True)
    path, images = calibration_images(out_dir, n)
    results = {"calibration": path, "samples": n, "models": {}}
    for name in models:
        for tiny in ([False, True] if "--tiny-eps" in args else [False]):
            r = torch_ptq(name, images, tiny)
            results["models"][name + (":tiny_eps" if tiny else "")] = r
            print(f"{name}: PyTorch FX PTQ (onednn, per-channel weights, {n} images"
                  f"{', scale floor 1e-30' if tiny else ''}): output SQNR "
                  f"{r['sqnr_db']:.2f} dB, top-1 agreement {100 * r['top1_agreement']:.1f}%", flush=True)
    if "--json" in args:
        with open(args[args.index("--json") + 1], "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
