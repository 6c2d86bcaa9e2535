#!/usr/bin/env python3
"""The SavedModel frontend through the CLI, on SavedModels written by make_savedmodels.py.

usage: check_savedmodel.py EDGECOMPILE PROTO_DIR CASE
  half_plus_two  TensorFlow's half_plus_two: `run` gives y = 0.5 x + 2; a free batch dim
                 without --input-shape is refused naming the flag
  cnn            TF2 small CNN (signature -> StatefulPartitionedCall -> FunctionDefs, variables
                 from the object graph) equals its PyTorch twin within 1e-4 x max|output|, for
                 serving_default and, with --signature features, the second signature
  ops            a TF1 graph with a resource variable over the remaining mapped ops (MatMul
                 transpose_b, LeakyRelu, Rsqrt, Square, Maximum/Minimum, Sum/Max, ExpandDims,
                 Squeeze, Sub, RealDiv, Sigmoid, Tanh, IdentityN, Transpose, ResizeBilinear,
                 ResizeNearestNeighbor, StridedSlice and Pack of non-constants) against NumPy/PyTorch
  compile        `compile --target coral --output m.tflite` writes a file, exit 0; optimize,
                 quantize, convert and bench take the folder too
  bad            bad folders: exit 1, one stderr line naming the folder or file, no crash
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import savedmodel_writer as w  # noqa: E402

EDGECOMPILE, PROTO_DIR, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
w.load_protos(PROTO_DIR)
import make_savedmodels as m  # noqa: E402  (imports torch: after the protos, see savedmodel_writer)

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def ec(*args, timeout=300):
    return subprocess.run([EDGECOMPILE, *args], capture_output=True, text=True, timeout=timeout)


def half_plus_two(d):
    model = os.path.join(d, "half_plus_two")
    m.half_plus_two(model)
    x = np.array([[1.0], [2.0], [3.0], [-4.0], [10.0]], np.float32)
    np.save(os.path.join(d, "x.npy"), x)
    r = ec("run", model, "--input-shape", "x=5,1", "--input", f"x={d}/x.npy", "--output-dir", d)
    check(r.returncode == 0, f"run half_plus_two exits 0 ({r.stderr.strip()})")
    if r.returncode == 0:
        y = np.load(os.path.join(d, "y.npy"))
        print("   y =", y.ravel().tolist())
        check(y.shape == (5, 1) and np.allclose(y, 0.5 * x + 2, atol=1e-6), "y = 0.5 x + 2")
    r = ec("run", model)
    check(r.returncode == 1 and "--input-shape x=" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
          f"a free batch dim is refused naming --input-shape ({r.stderr.strip()})")
    r = ec("inspect", model, "--input-shape", "x=1,1")
    check(r.returncode == 0 and "savedmodel" in r.stdout, "inspect names the format")


def cnn(d):
    import torch
    model = os.path.join(d, "cnn")
    net = m.small_cnn(model)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 16, 16, 3)).astype(np.float32)
    np.save(os.path.join(d, "img.npy"), x)
    with torch.no_grad():
        t = torch.from_numpy(x).permute(0, 3, 1, 2)  # NHWC -> NCHW
        refs = {"serving_default": ("output_0", net(t).numpy()), "features": ("features", net.features(t).numpy())}
    for sig, (out, ref) in refs.items():
        r = ec("run", model, "--signature", sig, "--input-shape", "input_1=1,16,16,3", "--input",
               f"input_1={d}/img.npy", "--output-dir", d)
        check(r.returncode == 0, f"run --signature {sig} exits 0 ({r.stderr.strip()})")
        if r.returncode != 0:
            continue
        got = np.load(os.path.join(d, out + ".npy"))
        err = float(np.abs(got - ref).max()) if got.shape == ref.shape else float("inf")
        tol = 1e-4 * float(np.abs(ref).max())
        print(f"   {sig}: {out} {got.shape}, max |edgecompile - torch| = {err:.3g}, tolerance {tol:.3g}")
        check(err <= tol, f"signature {sig} equals PyTorch within 1e-4 x max|output|")
    r = ec("inspect", model, "--input-shape", "input_1=1,16,16,3")
    check(r.returncode == 0 and "Conv" in r.stdout and "BatchNormalization" in r.stdout, "inspect lists the mapped ops")


def ops(d):
    model = os.path.join(d, "op_zoo")
    x, ref = m.op_zoo(model)
    np.save(os.path.join(d, "x.npy"), x)
    r = ec("run", model, "--input", f"x={d}/x.npy", "--output-dir", d)
    check(r.returncode == 0, f"run op_zoo exits 0 ({r.stderr.strip()})")
    if r.returncode != 0:
        return
    for key, want in ref.items():
        got = np.load(os.path.join(d, key + ".npy"))
        err = float(np.abs(got - want).max()) if got.shape == want.shape else float("inf")
        check(err <= 1e-5 * max(1.0, float(np.abs(want).max())), f"op_zoo {key} {got.shape} vs {want.shape}: max error {err:.3g}")


def compile_coral(d):
    model = os.path.join(d, "cnn")
    m.small_cnn(model)
    calib = os.path.join(d, "calib.npy")
    np.save(calib, np.random.default_rng(1).standard_normal((8, 16, 16, 3)).astype(np.float32))
    out = os.path.join(d, "m.tflite")
    r = ec("compile", model, "--target", "coral", "--output", out, "--input-shape", "input_1=1,16,16,3",
           "--calibration-data", calib, timeout=600)
    check(r.returncode == 0, f"compile --target coral exits 0 ({r.stderr.strip()[-300:]})")
    ok = os.path.isfile(out) and os.path.getsize(out) > 0
    with open(out, "rb") if ok else open(os.devnull, "rb") as f:
        head = f.read(8)
    check(ok and head[4:8] == b"TFL3", f"{out} is a .tflite file ({os.path.getsize(out) if ok else 0} bytes)")
    # the rest of the pipeline takes the folder unchanged
    shape = ("--input-shape", "input_1=1,16,16,3")
    for args, made in ((("optimize", model, *shape, "--output", f"{d}/o.eir"), f"{d}/o.eir"),
                       (("quantize", model, *shape, "--calibration-data", calib, "--output", f"{d}/q.eir"), f"{d}/q.eir"),
                       (("convert", model, *shape, "--output", f"{d}/c.tflite"), f"{d}/c.tflite"),
                       (("bench", model, *shape, "--iterations", "5"), None)):
        r = ec(*args, timeout=600)
        check(r.returncode == 0 and (made is None or os.path.isfile(made)),
              f"{args[0]} on the folder exits 0{' and writes ' + os.path.basename(made) if made else ''} ({r.stderr.strip()[-200:]})")


def bad(d):
    cases = []  # (label, folder, extra args, regex-free substrings the line must hold)

    def add(label, folder, needles, *args):
        cases.append((label, folder, list(args), needles))

    shape = ("--input-shape", "input_1=1,16,16,3")
    novars = os.path.join(d, "no_variables")
    m.small_cnn(novars, with_variables=False)
    add("folder without variables/", novars, [novars, "variables/"], *shape)

    def past_end(key, e):
        if key.startswith("layer_with_weights-3/kernel"):
            e.offset += 1 << 20
    pe = os.path.join(d, "past_end")
    m.small_cnn(pe, entry_hook=past_end)
    add("index entry past the data file", pe, ["variables.index", "points past the end"], *shape)

    bad_crc = os.path.join(d, "bad_crc")
    m.small_cnn(bad_crc)
    data = os.path.join(bad_crc, "variables", "variables.data-00000-of-00001")
    b = bytearray(open(data, "rb").read())
    b[100] ^= 0xFF
    open(data, "wb").write(bytes(b))
    add("damaged data file", bad_crc, ["variables.data-00000-of-00001", "CRC-32C"], *shape)

    idx_trunc = os.path.join(d, "index_truncated")
    m.small_cnn(idx_trunc)
    index = os.path.join(idx_trunc, "variables", "variables.index")
    b = open(index, "rb").read()
    open(index, "wb").write(b[: len(b) - 20])
    add("truncated variables.index", idx_trunc, ["variables.index"], *shape)

    tr = os.path.join(d, "truncated_pb")
    m.small_cnn(tr)
    pbf = os.path.join(tr, "saved_model.pb")
    b = open(pbf, "rb").read()
    open(pbf, "wb").write(b[: len(b) // 2])
    add("truncated saved_model.pb", tr, [tr, "saved_model.pb"], *shape)

    ok_model = os.path.join(d, "cnn")
    m.small_cnn(ok_model)
    add("unknown signature", ok_model, [ok_model, "'nope'", "features, serving_default"], "--signature", "nope", *shape)
    add("free dims without --input-shape", ok_model, [ok_model, "--input-shape input_1=1,16,16,3"])

    unk = os.path.join(d, "unknown_op")
    m.small_cnn(unk, unknown_op="FancyRelu")
    add("unknown op", unk, [unk, "tf::FancyRelu", "dw/Relu"], *shape)

    empty = os.path.join(d, "empty_pb")
    os.makedirs(empty)
    open(os.path.join(empty, "saved_model.pb"), "wb").close()
    add("empty saved_model.pb", empty, [empty])

    hp = os.path.join(d, "half_plus_two")
    m.half_plus_two(hp)
    add("string-typed signature (tf.Example)", hp, [hp, "DT_STRING"], "--signature", "tensorflow/serving/regress")

    for label, folder, args, needles in cases:
        for cmd in ("run", "inspect"):
            r = ec(cmd, folder, *args, timeout=120)
            lines = r.stderr.strip().splitlines()
            ok = r.returncode == 1 and len(lines) == 1 and all(n in lines[0] for n in needles)
            check(ok, f"{cmd} {label}: exit {r.returncode}, {len(lines)} stderr line(s): {r.stderr.strip()[:400]}")


with tempfile.TemporaryDirectory(prefix="ec-savedmodel-") as tmp:
    {"half_plus_two": half_plus_two, "cnn": cnn, "ops": ops, "compile": compile_coral, "bad": bad}[CASE](tmp)
if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
