"""InferenceSession.run equals `edgecompile run` bit for bit (same dtype, same bytes) on the
bundled sample model, on a quantised .eir and on .tflite files, all made with the CLI here."""
import os

import numpy as np
import pytest

import edgecompiler as ec


def cli_run(cli, model, inputs, out_dir, threads):
    os.makedirs(out_dir, exist_ok=True)
    args = ["run", model, "--output-dir", out_dir, "--threads", threads]
    for name, x in inputs.items():
        path = os.path.join(out_dir, f"in_{len(args)}.npy")
        np.save(path, x)
        args += ["--input", f"{name}={path}"]
    cli(*args)
    return out_dir


def assert_same_as_cli(cli, model, inputs, tmp_path, threads=1):
    s = ec.InferenceSession(model, threads=threads)
    got = s.run(inputs)
    out_dir = cli_run(cli, model, inputs, str(tmp_path / f"cli_{threads}"), threads)
    assert got, "no outputs"
    for spec in s.outputs:
        safe = "".join(c if c.isalnum() or c in ".-_" else "_" for c in spec.name).lstrip(".") or "output"
        want = np.load(os.path.join(out_dir, safe + ".npy"))
        y = got[spec.name]
        assert y.dtype == want.dtype and y.shape == want.shape, (spec.name, y.dtype, want.dtype, y.shape, want.shape)
        assert y.tobytes() == want.tobytes(), f"{model}: output {spec.name} differs from edgecompile run"
    return got


def inputs_for(model):
    s = ec.InferenceSession(model, threads=1)
    rng = np.random.default_rng(7)
    feeds = {}
    for spec in s.inputs:
        shape = [d if isinstance(d, int) else 2 for d in spec.shape]
        if spec.dtype == np.float32:
            feeds[spec.name] = rng.standard_normal(shape).astype(np.float32)
        else:
            info = np.iinfo(spec.dtype)
            feeds[spec.name] = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(spec.dtype)
    return feeds


@pytest.mark.parametrize("threads", [1, 0])
def test_sample_model(cli, sample_model, tmp_path, threads):
    assert_same_as_cli(cli, sample_model, inputs_for(sample_model), tmp_path, threads)


@pytest.fixture(scope="module")
def made_models(cli, sample_model, tmp_path_factory):
    d = tmp_path_factory.mktemp("made")
    spec = ec.load(sample_model).inputs[0]
    calib = np.random.default_rng(3).standard_normal([8] + [s if isinstance(s, int) else 1 for s in spec.shape][1:])
    np.save(d / "calib.npy", calib.astype(np.float32))
    q = d / "sample_int8.eir"
    cli("quantize", sample_model, "--calibration-data", d / "calib.npy", "--output", q)
    float_tfl = d / "sample.tflite"
    cli("convert", sample_model, "--output", float_tfl)
    int8_tfl = d / "sample_int8.tflite"
    cli("convert", q, "--output", int8_tfl, "--int8-io")
    return {"int8_eir": str(q), "float_tflite": str(float_tfl), "int8_tflite": str(int8_tfl)}


@pytest.mark.parametrize("kind", ["int8_eir", "float_tflite", "int8_tflite"])
@pytest.mark.parametrize("threads", [1, 0])
def test_made_models(cli, made_models, tmp_path, kind, threads):
    model = made_models[kind]
    got = assert_same_as_cli(cli, model, inputs_for(model), tmp_path, threads)
    if kind == "int8_tflite":
        assert any(v.dtype == np.int8 for v in got.values())  # dtypes kept, int8 out


def test_random_inputs_are_the_clis(cli, sample_model, tmp_path):
    # without --input the CLI feeds random_inputs(0); so does the session's random_inputs()
    s = ec.InferenceSession(sample_model, threads=1)
    got = s.run(s.random_inputs())
    cli("run", sample_model, "--output-dir", tmp_path, "--threads", 1)
    for spec in s.outputs:
        assert got[spec.name].tobytes() == np.load(tmp_path / f"{spec.name}.npy").tobytes()
