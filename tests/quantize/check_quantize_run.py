#!/usr/bin/env python3
"""Every artefact `edgecompile quantize` writes runs, and the figures it prints are
the ones `edgecompile run` gives (issue 13, items 1, 2 and 5).

usage: check_quantize_run.py EDGECOMPILE MODELS_DIR WORK_DIR [--samples N] [--only NAME,...]

For every torchvision classification model export_models.py exports (CLASSIFIERS:
random weights, seed 0) and for the LSTM text model (int64 token ids):
  1. writes a fixed calibration .npy (N samples: images uniform in [0, 1) from
     numpy.random.default_rng(7); token ids uniform in [0, 1000) from the same
     generator), runs `edgecompile quantize MODEL --calibration-data calib.npy
     --json --output M.eir`: exit 0, no warning that the runtime cannot run the
     int8 graph, every op left in float listed with a reason;
  2. runs `edgecompile run` on the float model and on M.eir for each sample: both
     exit 0; computes SQNR = 10 log10(sum y^2 / sum (y - y_q)^2) over the samples
     from the .npy outputs and checks it equals the SQNR `quantize` printed
     (--json) within 0.1 dB, and the printed max abs error and top-1 agreement
     too;
  3. EfficientNet-B0: the SE blocks' Conv with a fused SIGMOID (no int8 kernel
     takes it) is listed in float with the kernel's reason, and --keep-float
     Sigmoid keeps it in float by the user's choice;
  4. --strategy dynamic with no data: the text says "not measured (no data", prints
     no SQNR, no "200.00 dB", no "0.0%"; --json has sqnr_db null and a
     not_measured reason; the .eir runs. With data, its figures match `run`'s.
  5. the image models' int8 graphs give the same outputs bit for bit with
     `run --int8-nchw` (our NCHW int8 kernels) as by default (channels-last, the int8
     Convs on oneDNN's VNNI convolutions; issue 18).
Prints one line per check and a closing "N passed, N failed".
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
from export_models import CLASSIFIERS  # noqa: E402

TOLERANCE_DB = 0.1


def sqnr_db(ref, approx):
    ref = np.asarray(ref, dtype=np.float64)
    err = ref - np.asarray(approx, dtype=np.float64)
    s, n = float(np.sum(ref * ref)), float(np.sum(err * err))
    if n == 0:
        return 200.0
    return 10 * math.log10(s / n) if s > 0 else -200.0


def calibration(work, name, n):
    rng = np.random.default_rng(7)
    if name == "lstm_text":
        x = rng.integers(0, 1000, size=(n, 32), dtype=np.int64)
    else:
        x = rng.random((n, 3, 224, 224), dtype=np.float32)
    path = os.path.join(work, f"calib_{name}_{n}.npy")
    np.save(path, x)
    # One file per sample for `run` (batch of one, the model's input shape).
    singles = []
    for i in range(n):
        p = os.path.join(work, f"x_{name}_{i}.npy")
        np.save(p, x[i:i + 1])
        singles.append(p)
    return path, singles


def cli(exe, *args, timeout=900):
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)


def run_model(exe, model, x_path, out_dir, extra=()):
    os.makedirs(out_dir, exist_ok=True)
    p = cli(exe, "run", model, "--input", f"input={x_path}", "--output-dir", out_dir, *extra)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return np.load(os.path.join(out_dir, "output.npy")), ""


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    exe, models_dir, work = args[0], args[1], args[2]
    n = int(args[args.index("--samples") + 1]) if "--samples" in args else 4
    names = list(CLASSIFIERS) + ["lstm_text"]
    if "--only" in args:
        names = args[args.index("--only") + 1].split(",")
    os.makedirs(work, exist_ok=True)
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        return ok

    def compare(name, label, model, eir, report, singles):
        """run float and int8 on each sample; the printed figures must be run's."""
        floats, quants = [], []
        for i, x in enumerate(singles):
            f, err = run_model(exe, model, x, os.path.join(work, f"out_{name}_{label}_f{i}"))
            if not check(f is not None, f"{name} {label}: run on the float model, sample {i} ({err[:200]})"):
                return
            q, err = run_model(exe, eir, x, os.path.join(work, f"out_{name}_{label}_q{i}"))
            if not check(q is not None, f"{name} {label}: run executes the written int8 artefact, sample {i} ({err[:300]})"):
                return
            floats.append(f)
            quants.append(q)
        if name != "lstm_text":
            # The int8 graph in NCHW on our own int8 kernels (the default runs it channels-last,
            # its Convs on oneDNN's VNNI convolutions): the same integers, so the same outputs.
            c, err = run_model(exe, eir, singles[0], os.path.join(work, f"out_{name}_{label}_nchw"),
                               ("--int8-nchw",))
            check(c is not None and np.array_equal(c, quants[0]),
                  f"{name} {label}: run --int8-nchw gives the channels-last outputs bit for bit "
                  f"({err[:200] if c is None else f'max diff {float(np.max(np.abs(c - quants[0]))):.3g}'})")
        measured = sqnr_db(np.stack(floats), np.stack(quants))
        o = report["outputs"][0]
        printed = o["sqnr_db"]
        check(printed is not None and abs(printed - measured) <= TOLERANCE_DB,
              f"{name} {label}: SQNR printed {printed} dB, measured from run's outputs {measured:.3f} dB "
              f"(over {len(singles)} samples, tolerance {TOLERANCE_DB} dB)")
        max_err = float(np.max(np.abs(np.stack(floats).astype(np.float64) - np.stack(quants))))
        check(o["max_abs_error"] is not None and abs(o["max_abs_error"] - max_err) <= 1e-6 + 1e-3 * max_err,
              f"{name} {label}: max abs error printed {o['max_abs_error']}, measured {max_err:.6g}")
        agree = np.mean([int(np.argmax(a) == np.argmax(b)) for a, b in zip(floats, quants)])
        check(o["top1_agreement"] is not None and abs(o["top1_agreement"] - agree) < 1e-9,
              f"{name} {label}: top-1 agreement printed {o['top1_agreement']}, measured {agree}")
        print(f"     {name} {label}: SQNR printed {printed:.3f} dB, measured {measured:.3f} dB", flush=True)

    for name in names:
        model = os.path.join(models_dir, f"{name}.onnx")
        if not check(os.path.exists(model), f"{model} exported"):
            continue
        calib, singles = calibration(work, name, n)
        eir = os.path.join(work, f"{name}.eir")
        if os.path.exists(eir):
            os.remove(eir)
        p = cli(exe, "quantize", model, "--calibration-data", calib, "--json", "--output", eir)
        if not check(p.returncode == 0, f"{name}: quantize exits 0 ({p.stderr.strip()[:300]})"):
            continue
        report = json.loads(p.stdout)
        check(not any("cannot run" in w or "simulation" in w for w in report["warnings"]),
              f"{name}: no warning that the runtime cannot run the int8 graph ({report['warnings'][:2]})")
        check(report["measured_samples"] == n and "simulated" not in report,
              f"{name}: figures measured on the int8 graph itself over {report['measured_samples']} samples")
        check(all(f["reason"] for f in report["float_ops"]), f"{name}: every op in float has a reason")
        check(len(report["layers"]) > 0, f"{name}: {len(report['layers'])} layers with int8 weights")
        compare(name, "ptq", model, eir, report, singles)

        if name == "efficientnet_b0":
            # a Conv with a fused SIGMOID (squeeze-excite) runs in int8, its SIGMOID split off as its own op
            sig = [f for f in report["float_ops"] if "SIGMOID" in f["reason"] or f["op_type"] in ("Conv", "Sigmoid")]
            check(not sig, f"{name}: no Conv or Sigmoid stays in float ({sig[:2]})")
            eir2 = os.path.join(work, f"{name}_keep_sigmoid.eir")
            p = cli(exe, "quantize", model, "--calibration-data", calib, "--json", "--output", eir2,
                    "--keep-float", "Sigmoid")
            if check(p.returncode == 0, f"{name}: quantize --keep-float Sigmoid exits 0 ({p.stderr.strip()[:200]})"):
                r2 = json.loads(p.stdout)
                kept = [f for f in r2["float_ops"] if f["reason"] == "--keep-float"]
                check(len(kept) >= len(sig) and all("SIGMOID" not in f["reason"] for f in r2["float_ops"]),
                      f"{name}: --keep-float Sigmoid keeps the {len(kept)} ops with a sigmoid in float by request")
                x, err = run_model(exe, eir2, singles[0], os.path.join(work, f"out_{name}_keep"))
                check(x is not None, f"{name}: run executes the --keep-float Sigmoid artefact ({err[:200]})")

        if name in ("resnet18", "lstm_text"):
            # Item 2: dynamic, no data -> nothing measured, nothing invented.
            eir3 = os.path.join(work, f"{name}_dynamic.eir")
            p = cli(exe, "quantize", model, "--strategy", "dynamic", "--output", eir3)
            if check(p.returncode == 0, f"{name}: quantize --strategy dynamic (no data) exits 0 ({p.stderr.strip()[:200]})"):
                text = p.stdout
                check("not measured (no data" in text and "200.00 dB" not in text and "0.0%" not in text
                      and "SQNR 0" not in text,
                      f"{name} dynamic, no data: text says 'not measured (no data)' and prints no figure: "
                      + " | ".join(line.strip() for line in text.splitlines() if "output" in line)[:300])
                x, err = run_model(exe, eir3, singles[0], os.path.join(work, f"out_{name}_dyn"))
                check(x is not None, f"{name} dynamic: run executes the artefact ({err[:200]})")
            p = cli(exe, "quantize", model, "--strategy", "dynamic", "--json")
            if check(p.returncode == 0, f"{name}: quantize --strategy dynamic --json exits 0"):
                o = json.loads(p.stdout)["outputs"][0]
                check(o["sqnr_db"] is None and o["max_abs_error"] is None and o["top1_agreement"] is None
                      and "no data" in o.get("not_measured", ""),
                      f"{name} dynamic --json, no data: figures null with a reason ({o})")
            p = cli(exe, "quantize", model, "--strategy", "dynamic", "--calibration-data", calib, "--json",
                    "--output", eir3)
            if check(p.returncode == 0, f"{name}: quantize --strategy dynamic with data exits 0"):
                compare(name, "dynamic", model, eir3, json.loads(p.stdout), singles)

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
