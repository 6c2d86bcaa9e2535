"""ec.load / Model, optimize, quantize, InferenceSession basics, numpy dtypes, docstrings and stubs."""
import ast
import os

import numpy as np
import pytest

import edgecompiler as ec


def test_load_model(sample_model, cli):
    m = ec.load(sample_model)
    assert m.path == sample_model and m.format
    assert [i.name for i in m.inputs] and [o.name for o in m.outputs]
    assert m.inputs[0].dtype == np.float32
    ops = m.ops
    assert ops and {"name", "type", "attributes", "inputs", "outputs", "scope"} <= set(ops[0])
    # summary() is `inspect --json`
    assert m.summary() == cli.json("inspect", sample_model, "--json")
    text = m.to_text()
    assert text.startswith("graph ") or "graph \"" in text


def test_save_round_trip(sample_model, tmp_path, sample_input):
    m = ec.load(sample_model)
    path = tmp_path / "sample.eir"
    m.save(str(path))
    again = ec.load(str(path))
    assert again.to_text() == m.to_text()
    name, x = sample_input
    a = ec.InferenceSession(m, threads=1).run({name: x})
    b = ec.InferenceSession(path, threads=1).run({name: x})  # os.PathLike too
    for k in a:
        assert np.array_equal(a[k], b[k])
    with pytest.raises(ec.UsageError, match=r"\*\.eir"):
        m.save(str(tmp_path / "x.tflite"))
    m.save(str(tmp_path / "x.onnx"))  # ONNX (core/backends/onnx), read back by the ONNX frontend
    c = ec.InferenceSession(str(tmp_path / "x.onnx"), threads=1).run({name: x})
    for k in a:
        assert np.allclose(a[k], c[k], rtol=1e-5, atol=1e-6)


def test_optimize(sample_model, cli):
    m, passes = ec.optimize(sample_model)
    assert isinstance(m, ec.Model)
    j = cli.json("optimize", sample_model, "--json", "--diff")
    assert [p["pass"] for p in passes] == [p["pass"] for p in j["passes"]]
    assert all("diff" in p for p in passes)
    m2, passes2 = ec.optimize(ec.load(sample_model), passes=["Cleanup"])
    assert [p["pass"] for p in passes2] == ["Cleanup"]
    with pytest.raises(ec.UsageError, match="unknown pass 'Nope'"):
        ec.optimize(sample_model, passes=["Nope"])


def test_quantize(sample_model, sample_input, tmp_path, cli):
    name, x = sample_input
    calib = np.random.default_rng(0).standard_normal((4,) + x.shape[1:]).astype(np.float32)
    q, report = ec.quantize(sample_model, calibration_data=calib)
    assert report["tensors"] and all("sqnr_db" in t for t in report["tensors"])
    # the same as the CLI on the same samples (a .npy of the same array)
    np.save(tmp_path / "calib.npy", calib)
    j = cli.json("quantize", sample_model, "--calibration-data", tmp_path / "calib.npy", "--json")
    q2, report2 = ec.quantize(sample_model, calibration_data=str(tmp_path / "calib.npy"))
    for key in ("tensors", "outputs", "float_ops"):
        assert strip_times(report2[key]) == strip_times(j[key])
    assert q.to_text() == q2.to_text()  # an array and a file of the same samples give the same graph
    out = ec.InferenceSession(q, threads=1).run({name: x})
    assert all(v.dtype == np.float32 for v in out.values())


def strip_times(v):
    if isinstance(v, dict):
        return {k: strip_times(x) for k, x in v.items() if not k.endswith("seconds") and not k.endswith("_ms")}
    if isinstance(v, list):
        return [strip_times(x) for x in v]
    return v


def test_session_basics(sample_model, sample_input):
    name, x = sample_input
    with ec.InferenceSession(sample_model, threads=1) as s:
        assert s.target == "cpu" and s.threads == 1
        assert [i.name for i in s.inputs] == [name]
        y = s.run({name: x})
        assert set(y) == {o.name for o in s.outputs}
        r = s.random_inputs()
        assert set(r) == {name} and r[name].dtype == np.float32
        stats = s.benchmark(iterations=5, warmup=1)
        assert stats.iterations == 5 and len(stats.latencies_ms) == 5
        assert stats.min_ms <= stats.p50_ms <= stats.p95_ms <= stats.max_ms
        assert stats.throughput_fps > 0 and stats.init_ms > 0 and stats.first_ms > 0
        assert stats.op_profile and stats.as_dict()["mean_ms"] == stats.mean_ms
    # closed by the context manager
    with pytest.raises(ec.UsageError, match="no model loaded"):
        s.run({name: x})
    s.load(sample_model)  # and loaded again
    assert set(s.run({name: x})) == set(y)


def test_zero_copy_and_layouts(sample_model, sample_input):
    name, x = sample_input
    s = ec.InferenceSession(sample_model, threads=1)
    ref = s.run({name: x})
    # a non-contiguous view and a Fortran-ordered copy give the same result (copied in C order)
    wide = np.zeros(x.shape[:-1] + (x.shape[-1] * 2,), np.float32)
    wide[..., ::2] = x
    assert not wide[..., ::2].flags.c_contiguous
    for variant in (wide[..., ::2], np.asfortranarray(x)):
        out = s.run({name: variant})
        for k in ref:
            assert np.array_equal(out[k], ref[k])
    # outputs own their memory: a later run does not change an earlier result
    first = {k: v.copy() for k, v in ref.items()}
    s.run({name: -x})
    for k in ref:
        assert np.array_equal(ref[k], first[k])


INT_MODEL = """graph "dtypes" version 1 {
  input %a : %DT%[2,3]
  input %b : %DT%[2,3]
  %c = Add(%a, %b) : %DT%[2,3] @add
  output %c
}
"""


@pytest.mark.parametrize("dtype,ir", [(np.float32, "f32"), (np.int8, "i8"), (np.uint8, "u8"), (np.int32, "i32"),
                                      (np.int64, "i64"), (np.float16, "f16")])
def test_dtypes_kept(tmp_path, dtype, ir):
    path = tmp_path / f"add_{ir}.eir"
    path.write_text(INT_MODEL.replace("%DT%", ir))
    s = ec.InferenceSession(str(path), threads=1)
    assert s.inputs[0].dtype == dtype
    a = np.arange(6, dtype=dtype).reshape(2, 3)
    b = np.ones((2, 3), dtype=dtype)
    try:
        c = s.run({"a": a, "b": b})["c"]
    except ec.UnsupportedError:
        pytest.skip(f"the CPU runtime has no Add for {ir}")
    assert c.dtype == dtype
    assert np.array_equal(c, (a + b).astype(dtype))


def test_bool_dtype(tmp_path):
    path = tmp_path / "not.eir"
    path.write_text('graph "b" version 1 {\n  input %a : bool[4]\n  %c = Not(%a) : bool[4] @not\n  output %c\n}\n')
    s = ec.InferenceSession(str(path), threads=1)
    a = np.array([True, False, True, False])
    c = s.run({"a": a})["c"]
    assert c.dtype == np.bool_ and np.array_equal(c, ~a)


def test_docstrings_and_stubs():
    doc = ec.compile.__doc__
    for word in ("target", "calibration_data", "num_calibration_samples", "CompileResult", "coral"):
        assert word in doc
    for obj in (ec.load, ec.optimize, ec.quantize, ec.devices, ec.InferenceSession, ec.InferenceSession.run,
                ec.InferenceSession.benchmark, ec.runs.list, ec.runs.show, ec.runs.compare):
        assert obj.__doc__ and len(obj.__doc__) > 40, obj
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        help(ec.compile)
    assert "calibration_data" in buf.getvalue()
    pkg = os.path.dirname(ec.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    stub = ast.parse(open(os.path.join(pkg, "__init__.pyi")).read())
    declared = set()
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.Assign):
            declared |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            declared |= {a.asname or a.name for a in node.names}
    assert set(ec.__all__) <= declared, set(ec.__all__) - declared
    # every class's public members are in the stub
    classes = {n.name: n for n in stub.body if isinstance(n, ast.ClassDef)}
    for name in ("Model", "InferenceSession", "CompileResult", "Stats", "TensorSpec"):
        members = {b.name for b in classes[name].body if isinstance(b, ast.FunctionDef)} | \
                  {b.target.id for b in classes[name].body if isinstance(b, ast.AnnAssign)}
        public = {k for k in dir(getattr(ec, name)) if not k.startswith("_")}
        assert public <= members, (name, public - members)


RESHAPE = """graph "view" version 1 {
  input %x : f32[2,3]
  const %s : i64[2] = hex"03000000000000000200000000000000"
  %y = Reshape(%x, %s) : f32[3,2] @r
  output %y
}
"""


def test_input_read_in_place(tmp_path):
    # a Reshape's output is a view of its input: with zero-copy in and out, the output
    # array shares the caller's memory (and is read-only: the caller's array is not ours)
    path = tmp_path / "view.eir"
    path.write_text(RESHAPE)
    s = ec.InferenceSession(str(path), threads=1)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = s.run({"x": x})["y"]
    assert np.shares_memory(x, y) and not y.flags.writeable
    assert np.array_equal(y, x.reshape(3, 2))
    f = np.asfortranarray(x)  # not C-contiguous: copied once, same values
    y2 = s.run({"x": f})["y"]
    assert not np.shares_memory(f, y2) and np.array_equal(y2, y)
