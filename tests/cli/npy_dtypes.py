#!/usr/bin/env python3
"""`edgecompile run` reads and writes every .npy dtype that the IR has (issue 13, item 9).

usage: npy_dtypes.py EDGECOMPILE roundtrip
       npy_dtypes.py EDGECOMPILE conformance [ONNX_NODE_TEST_DIR]

roundtrip:   for each dtype, an Identity model; numpy writes the input, `run` must
             give back the same values with the same dtype (numpy reads the output).
conformance: every ONNX conformance node case whose graph inputs or outputs are
             f16, u32 or u64 (the dtypes `run` used to refuse) goes through
             `edgecompile run` with its inputs as .npy; outputs are compared with
             the case's expected outputs.
"""
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


def run(exe, args):
    p = subprocess.run([exe] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr.strip()


def sample(dt, shape, rng):
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dt, np.floating):
        return rng.standard_normal(shape).astype(dt)
    info = np.iinfo(dt)
    # the extremes are included: an u64 above 2^63 or an i64 minimum must survive
    a = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    a.flat[0], a.flat[1] = info.min, info.max
    return a


def roundtrip(exe):
    rng = np.random.default_rng(3)
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        for dt in DTYPES:
            elem = helper.np_dtype_to_tensor_dtype(np.dtype(dt)) if hasattr(helper, "np_dtype_to_tensor_dtype") \
                else onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dt)]
            name = np.dtype(dt).name
            g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "id",
                                  [helper.make_tensor_value_info("x", elem, [2, 3])],
                                  [helper.make_tensor_value_info("y", elem, [2, 3])])
            model = os.path.join(d, f"id_{name}.onnx")
            onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), model)
            x = sample(dt, (2, 3), rng)
            xp = os.path.join(d, f"x_{name}.npy")
            np.save(xp, x)
            out = os.path.join(d, f"out_{name}")
            rc, err = run(exe, ["run", model, "--input", f"x={xp}", "--output-dir", out])
            if rc != 0:
                print(f"FAIL {name}: exit {rc}: {err}")
                failed += 1
                continue
            y = np.load(os.path.join(out, "y.npy"))
            if y.dtype != x.dtype or y.shape != x.shape or not np.array_equal(y, x):
                print(f"FAIL {name}: got {y.dtype}{list(y.shape)} {y.ravel()[:6]}, want {x.ravel()[:6]}")
                failed += 1
                continue
            print(f"ok   {name}")
    print(f"{len(DTYPES) - failed} passed, {failed} failed")
    return failed == 0


def conformance(exe, root):
    wanted = {TensorProto.FLOAT16, TensorProto.UINT32, TensorProto.UINT64}
    cases = []
    for model in sorted(glob.glob(os.path.join(root, "*", "model.onnx"))):
        m = onnx.load(model, load_external_data=False)
        types = {v.type.tensor_type.elem_type for v in list(m.graph.input) + list(m.graph.output)}
        if types & wanted:
            cases.append((os.path.dirname(model), m))
    if not cases:
        print(f"no f16/u32/u64 cases under {root}")
        return False
    failed = skipped = 0
    with tempfile.TemporaryDirectory() as d:
        for case_dir, m in cases:
            name = os.path.basename(case_dir)
            data = os.path.join(case_dir, "test_data_set_0")
            args = ["run", os.path.join(case_dir, "model.onnx"), "--output-dir", os.path.join(d, name)]
            for i, vi in enumerate(m.graph.input):
                t = onnx.TensorProto()
                with open(os.path.join(data, f"input_{i}.pb"), "rb") as f:
                    t.ParseFromString(f.read())
                p = os.path.join(d, f"{name}_in{i}.npy")
                np.save(p, numpy_helper.to_array(t))
                args += ["--input", f"{vi.name}={p}"]
            rc, err = run(exe, args)
            if rc == 1 and "is not supported by the CPU runtime" in err and ".npy" not in err:
                # an op without a kernel for the dtype (e.g. Max on f16): skipped, as the
                # in-process conformance test skips it; the .npy side is not involved
                print(f"skip {name}: {err}")
                skipped += 1
                continue
            if rc != 0:
                print(f"FAIL {name}: exit {rc}: {err}")
                failed += 1
                continue
            problems = []
            for i, vi in enumerate(m.graph.output):
                t = onnx.TensorProto()
                with open(os.path.join(data, f"output_{i}.pb"), "rb") as f:
                    t.ParseFromString(f.read())
                want = numpy_helper.to_array(t)
                got = np.load(os.path.join(d, name, vi.name + ".npy"))
                if got.dtype != want.dtype or got.shape != want.shape:
                    problems.append(f"{vi.name}: {got.dtype}{list(got.shape)}, want {want.dtype}{list(want.shape)}")
                elif np.issubdtype(want.dtype, np.floating):
                    tol = 1e-3 if want.dtype == np.float16 else 1e-5
                    if not np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol,
                                       equal_nan=True):
                        problems.append(f"{vi.name}: values differ (max {np.max(np.abs(got - want))})")
                elif not np.array_equal(got, want):
                    problems.append(f"{vi.name}: values differ")
            if problems:
                print(f"FAIL {name}: {'; '.join(problems)}")
                failed += 1
            else:
                print(f"ok   {name}")
    print(f"{len(cases) - failed - skipped} passed, {skipped} skipped (no kernel), {failed} failed")
    return failed == 0


def main():
    exe, mode = sys.argv[1], sys.argv[2]
    if mode == "roundtrip":
        ok = roundtrip(exe)
    else:
        root = sys.argv[3] if len(sys.argv) > 3 else "/usr/share/libonnx-testdata/data/node"
        ok = conformance(exe, root)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
