#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target from the project's own test data
(tests/data, tests/passes/golden, resources) into OUT/<target>/: small real models,
the campaign reproducers, what the fuzzers found (tests/fuzz/regressions), and a few valid
files written here (a devices.json, .npy
arrays, a run history). Seeds are generated, not stored, so no model is kept twice.

usage: make_seeds.py OUT_DIR
"""
import glob
import json
import os
import shutil
import sqlite3
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MAX_SEED = 256 * 1024  # larger files make every execution slow


def add(out, target, path, name=None):
    if os.path.isfile(path) and os.path.getsize(path) <= MAX_SEED:
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        name = name or os.path.relpath(path, ROOT).replace("/", "_")
        shutil.copyfile(path, os.path.join(d, name))


def write(out, target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def hdf5_stream(image):
    """An HDF5 image as the Keras reader's child process sends it to the parent
    (core/frontends/keras/keras_hdf5.h, decode_hdf5_stream): groups, numeric datasets as
    f32, string attributes, then the end tag."""
    import io
    import struct
    import h5py
    import numpy as np

    out = bytearray()

    def u64(v):
        out.extend(struct.pack("<Q", v))

    def text(v):
        b = v if isinstance(v, bytes) else str(v).encode()
        u64(len(b))
        out.extend(b)

    def attrs(path, obj):
        for name, value in obj.attrs.items():
            values = value.tolist() if isinstance(value, np.ndarray) else [value]
            if not all(isinstance(x, (str, bytes)) for x in values):
                continue
            out.extend(b"A")
            text(path)
            text(name)
            u64(len(values))
            for x in values:
                text(x)

    def visit(name, obj):
        if isinstance(obj, h5py.Group):
            out.extend(b"G")
            text(name)
        else:
            out.extend(b"D")
            text(name)
            u64(len(obj.shape))
            for d in obj.shape:
                u64(d)
            values = np.asarray(obj[()], dtype="<f4").ravel()
            out.extend(b"V")
            u64(values.size)
            out.extend(values.tobytes())
        attrs(name, obj)

    with h5py.File(io.BytesIO(image), "r") as f:
        out.extend(b"G")
        text("/")
        attrs("/", f)
        f.visititems(visit)
    out.extend(b"Z")
    return bytes(out)


def main():
    out = sys.argv[1]
    shutil.rmtree(out, ignore_errors=True)
    data = os.path.join(ROOT, "tests", "data")
    for p in glob.glob(f"{data}/**/*.onnx", recursive=True):
        add(out, "onnx", p)
    for p in glob.glob(f"{data}/**/*.tflite", recursive=True):
        add(out, "tflite", p)
    for p in glob.glob(f"{ROOT}/tests/passes/golden/*.eir"):
        add(out, "eir", p)
    for p in glob.glob(f"{data}/**/*.npy", recursive=True):
        add(out, "npy", p)
    for p in glob.glob(f"{data}/fuzz-repro-3/devices-*/*.json"):
        add(out, "devices_json", p)
    for p in glob.glob(f"{data}/fuzz-repro-3/runsdb-*/*.db"):
        add(out, "runs_db", p)

    # Core ML: every package of the campaign whose files are real, as one input each
    # (Manifest.json @@MODEL@@ model.mlmodel @@WEIGHTS@@ weight.bin), and its weight file.
    for pkg in glob.glob(f"{data}/fuzz-repro-3/*/*.mlpackage"):
        parts = []
        for rel in ("Manifest.json", "Data/com.apple.CoreML/model.mlmodel",
                    "Data/com.apple.CoreML/weights/weight.bin"):
            p = os.path.join(pkg, rel)
            parts.append(open(p, "rb").read() if os.path.isfile(p) else b"")
        name = os.path.basename(os.path.dirname(pkg)) + "_" + os.path.basename(pkg)
        write(out, "coreml_package", name, parts[0] + b"@@MODEL@@" + parts[1] + b"@@WEIGHTS@@" + parts[2])
        if parts[2]:
            write(out, "coreml_blob", name + ".weight.bin", parts[2])

    # devices.json: a valid file with every field.
    write(out, "devices_json", "full.json", json.dumps({"version": 1, "devices": [
        {"id": "coral-a", "name": "Coral A", "type": "TPU", "vendor": "Google",
         "provider": {"type": "ssh", "host": "10.0.0.2", "port": 22, "user": "pi", "key": "~/.ssh/id",
                      "remote_dir": "/tmp/ec", "remote_command": "edgetpu", "ssh_options": ["-q"], "timeout_s": 30},
         "components": {"compiler": {"type": "local"}, "profiler": {"port": 2222}, "invoker": {"timeout_s": 5}}},
        {"id": "cpu-b", "type": "CPU"}]}, indent=2))

    # .npy: each dtype the reader takes, a few shapes.
    try:
        import numpy as np
        import io
        for dt in ("<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "|b1", "<c8"):
            buf = io.BytesIO()
            np.save(buf, np.arange(6).astype(dt).reshape(2, 3))
            write(out, "npy", f"a_{dt[1:]}.npy", buf.getvalue())
        buf = io.BytesIO()
        np.save(buf, np.zeros((), np.float32))
        write(out, "npy", "scalar.npy", buf.getvalue())
    except ImportError:
        pass

    # A run history written by this schema (the campaign's real one, if present, is added above).
    db = os.path.join(out, "runs_db", "small.db")
    os.makedirs(os.path.dirname(db), exist_ok=True)
    con = sqlite3.connect(db)
    con.executescript(
        "CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, kind TEXT NOT NULL,"
        " model_path TEXT NOT NULL, model_hash TEXT NOT NULL, target TEXT NOT NULL, options TEXT NOT NULL,"
        " stats TEXT, report TEXT NOT NULL, tool_version TEXT NOT NULL, device TEXT NOT NULL DEFAULT '', mean_ms REAL);"
        "INSERT INTO runs(time, kind, model_path, model_hash, target, options, stats, report, tool_version, device, mean_ms)"
        " VALUES ('2026-01-02T03:04:05Z', 'bench', '/m.onnx', 'abc', 'cpu', '{\"threads\": 1}',"
        " '{\"mean_ms\": 4.25, \"iterations\": 3, \"latencies_ms\": [4, 4.5, 4.25],"
        " \"op_profile\": [{\"name\": \"conv\", \"op_type\": \"Conv\", \"ms\": 1.5}]}', '{}', 'edgecompile 0.1.0', 'host-cpu', 4.25);"
        "PRAGMA user_version=2;")
    con.close()
    # Keras: the test models of tests/keras (PyTorch weights in Keras layouts), each as a
    # .keras zip, a legacy .h5 and the split CONFIG@@WEIGHTS@@H5 forms fuzz_keras reads.
    try:
        import tempfile
        sys.path.insert(0, os.path.join(ROOT, "tests", "keras"))
        import check_keras
        import keras_writer
        with tempfile.TemporaryDirectory() as tmp:
            for cls in (check_keras.SeqCnn, check_keras.FuncCnn, check_keras.Seq1d, check_keras.LstmModel,
                        check_keras.GruModel):
                for name, data in keras_writer.seed_files(cls().keras(), tmp).items():
                    write(out, "keras", name, data)
                    # The in-process form: the HDF5 part as the reader child's stream.
                    if name.endswith(".h5"):
                        write(out, "keras", name + ".stream", b"@@STREAM@@" + hdf5_stream(data))
                    elif name.endswith(".split") and not name.endswith(".legacy.split"):
                        config, weights = data.split(b"@@WEIGHTS@@", 1)
                        write(out, "keras", name + ".stream", config + b"@@STREAM@@" + hdf5_stream(weights))
    except ImportError:
        pass

    # TorchScript: small archives saved with torch.jit.save and torch.save here.
    try:
        import tempfile
        import warnings
        import torch
        warnings.filterwarnings("ignore")
        with tempfile.TemporaryDirectory() as tmp:
            torch.manual_seed(0)
            m = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU()).eval()
            torch.jit.save(torch.jit.trace(m, torch.randn(1, 3, 8, 8)), os.path.join(tmp, "traced.pt"))
            torch.jit.save(torch.jit.script(m), os.path.join(tmp, "scripted.pt"))
            torch.save(m.state_dict(), os.path.join(tmp, "state_dict.pt"))
            for name in ("traced.pt", "scripted.pt", "state_dict.pt"):
                write(out, "torchscript", name, open(os.path.join(tmp, name), "rb").read())
    except ImportError:
        pass

    # SavedModels (tests/savedmodel/make_savedmodels.py): saved_model.pb @@INDEX@@ variables.index
    # @@DATA@@ variables.data-00000-of-00001 for fuzz_savedmodel; the index @@DATA@@ data for
    # fuzz_savedmodel_index. Needs protoc and Debian's python3-protobuf and python3-torch.
    try:
        import tempfile
        sys.path.insert(0, os.path.join(ROOT, "tests", "savedmodel"))
        import savedmodel_writer as smw
        smw.load_protos(os.path.join(ROOT, "core", "frontends", "savedmodel", "proto"))
        import make_savedmodels as sm
        with tempfile.TemporaryDirectory() as tmp:
            for name, build in (("half_plus_two", sm.half_plus_two), ("small_cnn", sm.small_cnn)):
                d = os.path.join(tmp, name)
                build(d)
                parts = [open(os.path.join(d, rel), "rb").read() for rel in
                         ("saved_model.pb", "variables/variables.index", "variables/variables.data-00000-of-00001")]
                write(out, "savedmodel", name, parts[0] + b"@@INDEX@@" + parts[1] + b"@@DATA@@" + parts[2])
                write(out, "savedmodel_index", name, parts[1] + b"@@DATA@@" + parts[2])
    except ImportError as e:
        print(f"savedmodel seeds skipped: {e}")

    # Inputs the fuzzers found (tests/fuzz/regressions/TARGET/): run first by every smoke run.
    for p in glob.glob(f"{ROOT}/tests/fuzz/regressions/*/*"):
        add(out, os.path.basename(os.path.dirname(p)), p, "regression_" + os.path.basename(p))

    for t in sorted(os.listdir(out)):
        print(f"{t}: {len(os.listdir(os.path.join(out, t)))} seeds")


if __name__ == "__main__":
    main()
