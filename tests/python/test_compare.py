"""ec.compare (issue 42) returns the table `edgecompile compare --json` prints: on the bundled
sample model against itself (every tensor exact) and against its int8 model (the same figures
as the CLI's, input errors as ec.InputError)."""
import numpy as np
import pytest

import edgecompiler as ec


def test_model_against_itself_is_exact(sample_model):
    r = ec.compare(sample_model, sample_model)
    rows = [t for t in r["tensors"] if t["compared"]]
    assert len(rows) >= 5
    assert all(t["exact"] and t["sqnr_db"] == 200 for t in rows)
    assert r["first_divergence"] is None


def test_same_table_as_cli(cli, sample_model, tmp_path):
    calib = tmp_path / "calib.npy"
    m = ec.load(sample_model)
    shape = [d if isinstance(d, int) else 1 for d in m.inputs[0].shape[1:]]
    np.save(calib, np.random.default_rng(0).uniform(-1, 1, [4] + shape).astype(np.float32))
    q = tmp_path / "int8.eir"
    cli("quantize", sample_model, "--strategy", "ptq", "--calibration-data", calib, "--output", q)
    got = ec.compare(m, str(q), inputs=str(calib), samples=4)
    want = cli.json("compare", sample_model, q, "--input", calib, "--samples", "4", "--json")
    assert [t["a"] for t in got["tensors"]] == [t["a"] for t in want["tensors"]]
    for g, w in zip(got["tensors"], want["tensors"]):
        assert g["compared"] == w["compared"]
        if g["compared"]:
            assert g["sqnr_db"] == pytest.approx(w["sqnr_db"], abs=1e-9)
            assert g["max_abs_error"] == pytest.approx(w["max_abs_error"], abs=1e-9)
    assert got["first_divergence"] == want["first_divergence"]


def test_one_sample_as_a_dict(sample_model):
    m = ec.load(sample_model)
    spec = m.inputs[0]
    x = np.zeros([d if isinstance(d, int) else 1 for d in spec.shape], np.float32)
    r = ec.compare(m, m, inputs={spec.name: x})
    assert r["samples"] == 1


def test_different_inputs_are_an_input_error(sample_model, tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import helper, TensorProto
    g = helper.make_graph([helper.make_node("Relu", ["other"], ["y"])], "m",
                          [helper.make_tensor_value_info("other", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    p = tmp_path / "other.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), p)
    with pytest.raises(ec.InputError, match="inputs differ"):
        ec.compare(sample_model, str(p))


def test_fp16_simulation_as_the_cli(cli, sample_model, tmp_path):
    """fp16='b' runs B with fp16 compute simulated, as `--fp16 b`; an fp16 .mlpackage does by default."""
    r = ec.compare(sample_model, sample_model, fp16="b")
    assert r["fp16_simulated"] == {"a": False, "b": True}
    rows = [t for t in r["tensors"] if t["compared"] and t["order"] >= 0]
    assert all(1e-5 < t["max_rel_error"] < 1e-2 for t in rows)
    want = cli.json("compare", sample_model, sample_model, "--fp16", "b", "--json")
    assert [t["sqnr_db"] for t in r["tensors"]] == pytest.approx([t["sqnr_db"] for t in want["tensors"]], abs=1e-9)
    pkg = tmp_path / "s.mlpackage"
    cli("compile", sample_model, "--target", "metal", "--output", pkg)
    r = ec.compare(sample_model, str(pkg))
    assert r["fp16_simulated"] == {"a": False, "b": True}
    assert r["first_divergence"] is None
    with pytest.raises(ec.UsageError):
        ec.compare(sample_model, sample_model, fp16="c")
