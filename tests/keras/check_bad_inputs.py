#!/usr/bin/env python3
"""Damaged and unsupported Keras files: `inspect`, `run` and `convert` each answer with
ONE line naming the file and the problem, exit 1, no crash, and `convert` writes nothing.
Then --input-shape fills a free dimension the file leaves open.

usage: check_bad_inputs.py EDGECOMPILE [SEED_DIR]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_writer import report, Layer, Model, keras3_config, write_keras, write_legacy_h5  # noqa: E402


def small_model(input_shape=(8, 8, 3)):
    rng = np.random.default_rng(0)
    return Model("Sequential", "small", list(input_shape), [
        Layer("Conv2D", "conv2d", {"filters": 4, "kernel_size": 3, "padding": "same", "activation": "relu"},
              [("kernel", rng.standard_normal((3, 3, 3, 4)).astype(np.float32)),
               ("bias", rng.standard_normal(4).astype(np.float32))]),
        Layer("GlobalAveragePooling2D", "gap", {}),
        Layer("Dense", "dense", {"units": 2}, [("kernel", rng.standard_normal((4, 2)).astype(np.float32)),
                                              ("bias", np.zeros(2, np.float32))]),
    ])


def make_cases(d):
    """name -> (path, phrase the one-line error must contain)."""
    cases = {}
    m = small_model()
    good = os.path.join(d, "good.keras")
    write_keras(good, m)
    data = open(good, "rb").read()

    p = os.path.join(d, "truncated.keras")
    open(p, "wb").write(data[: len(data) // 2])
    cases["truncated_zip"] = (p, "zip")

    p = os.path.join(d, "no_config.h5")
    write_legacy_h5(p, m, with_config=False)
    cases["h5_without_model_config"] = (p, "no 'model_config'")

    p = os.path.join(d, "weights_only.h5")
    with h5py.File(p, "w") as f:
        f.attrs["layer_names"] = np.array([b"conv2d"])
        f.create_group("conv2d").attrs["weight_names"] = np.array([b"conv2d/kernel:0"])
    cases["h5_weights_only"] = (p, "weights only")

    cfg = keras3_config(m)
    cfg["config"]["layers"][2]["class_name"] = "MyLayer"
    cfg["config"]["layers"][2]["config"]["name"] = "foo"
    p = os.path.join(d, "unknown_class.keras")
    write_keras(p, m, config_override=cfg)
    cases["unknown_layer_class"] = (p, "layer 'foo' (class MyLayer) has no mapping")

    p = os.path.join(d, "wrong_shape.keras")
    write_keras(p, m, weight_override=lambda l, a: [a[0][:, :, :2, :], a[1]] if l.name == "conv2d" else a)
    cases["weight_of_wrong_shape"] = (p, "weight 'kernel' has shape [3,3,2,4]")

    p = os.path.join(d, "missing_weights.keras")
    write_keras(p, m, weight_override=lambda l, a: [] if l.name == "dense" else a)
    cases["missing_weights"] = (p, "weights are missing")

    p = os.path.join(d, "wrong_shape.h5")
    write_legacy_h5(p, m)
    with h5py.File(p, "r+") as f:
        del f["model_weights/dense/dense/bias:0"]
        f["model_weights/dense/dense/bias:0"] = np.zeros(3, np.float32)
    cases["h5_weight_of_wrong_shape"] = (p, "weight 'bias' has shape [3]")

    p = os.path.join(d, "truncated.h5")
    write_legacy_h5(p, m)
    raw = open(p, "rb").read()
    open(p, "wb").write(raw[: len(raw) // 3])
    cases["truncated_h5"] = (p, "HDF5 file")

    p = os.path.join(d, "not_json.keras")
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("config.json", "{not json")
        z.writestr("model.weights.h5", b"")
    cases["config_not_json"] = (p, "config.json: not JSON")

    cfg = keras3_config(m)
    cfg["config"]["layers"][1]["config"]["data_format"] = "channels_first"
    p = os.path.join(d, "channels_first.keras")
    write_keras(p, m, config_override=cfg)
    cases["channels_first"] = (p, "channels_first")

    cfg = keras3_config(m)
    cfg["config"]["layers"][1]["config"]["filters"] = 1 << 40
    p = os.path.join(d, "absurd_filters.keras")
    write_keras(p, m, config_override=cfg)
    cases["absurd_filters"] = (p, "out of range")

    # Found by fuzz_keras: libhdf5 1.10 loops for ever on this file's damaged global heap;
    # it runs in a reader process with a deadline.
    regression = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "regressions", "keras",
                              "hang_in_libhdf5_global_heap.h5")
    p = os.path.join(d, "libhdf5_hangs.h5")
    shutil.copy(regression, p)
    cases["libhdf5_does_not_finish"] = (p, "took too long to read")

    free = small_model((None, None, 3))
    p = os.path.join(d, "free_dims.keras")
    write_keras(p, free)
    cases["free_dimensions"] = (p, "--input-shape")
    return cases, free, p


def main():
    exe = sys.argv[1]
    seed_dir = sys.argv[2] if len(sys.argv) > 2 else None
    failures = []
    with tempfile.TemporaryDirectory() as d:
        cases, free, free_path = make_cases(d)
        for name, (path, phrase) in cases.items():
            out = os.path.join(d, name + ".out.tflite")
            for cmd in (["inspect", path], ["run", path], ["convert", path, "--output", out]):
                r = subprocess.run([exe] + cmd, capture_output=True, text=True, timeout=120)
                lines = r.stderr.strip().splitlines()
                ok = r.returncode == 1 and len(lines) == 1 and path in lines[0] and phrase in lines[0]
                print(f"{name:26s} {cmd[0]:8s} exit {r.returncode}: {lines[0] if lines else '(no message)'}")
                if not ok:
                    failures.append(f"{name} {cmd[0]}: exit {r.returncode}, stderr {r.stderr.strip()!r} "
                                    f"(want one line with {phrase!r})")
                if os.path.exists(out):
                    failures.append(f"{name}: convert left a file behind")
            if seed_dir:
                os.makedirs(seed_dir, exist_ok=True)
                shutil.copy(path, os.path.join(seed_dir, "bad_" + os.path.basename(path)))
        # --input-shape fills the free dims: the model opens and runs.
        r = subprocess.run([exe, "inspect", free_path, "--input-shape", "input_layer=1,8,8,3"], capture_output=True,
                           text=True, timeout=120)
        print(f"free_dimensions with --input-shape: exit {r.returncode}")
        if r.returncode != 0:
            failures.append(f"--input-shape: exit {r.returncode}: {r.stderr.strip()}")
    return report(failures)


if __name__ == "__main__":
    sys.exit(main())
