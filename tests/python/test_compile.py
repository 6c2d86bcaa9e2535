"""ec.compile(mobilenet_v2.onnx, target="coral", ...) gives the CompileReport that
`edgecompile compile ... --json` prints on the same inputs, minus what legitimately
differs (durations, the artefact's path); the artefact's bytes are the same too."""
import os

import numpy as np
import pytest

import edgecompiler as ec


def comparable(v, artefact=None, drop=("duration_ms",)):
    """`v` without durations, the artefact's path (wherever it is quoted) as <ARTEFACT>."""
    if isinstance(v, dict):
        return {k: comparable(x, artefact, drop) for k, x in v.items() if k not in drop}
    if isinstance(v, list):
        return [comparable(x, artefact, drop) for x in v]
    if isinstance(v, str) and artefact:
        return v.replace(str(artefact), "<ARTEFACT>")
    return v


@pytest.fixture(scope="module")
def mobilenet(models_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("compile")
    calib = np.random.default_rng(0).uniform(-1, 1, (4, 3, 224, 224)).astype(np.float32)
    np.save(d / "calib.npy", calib)
    return os.path.join(models_dir, "mobilenet_v2.onnx"), calib, d


def test_compile_equals_cli(cli, mobilenet):
    model, calib, d = mobilenet
    cli_out, py_out = d / "cli_edgetpu.tflite", d / "py_edgetpu.tflite"
    want = cli.json("compile", model, "--target", "coral", "--calibration-data", d / "calib.npy",
                    "--num-calibration-samples", 4, "--json", "--no-record", "--output", cli_out)
    r = ec.compile(model, target="coral", calibration_data=calib, num_calibration_samples=4, output=str(py_out))
    assert comparable(r.report, py_out) == comparable(want, cli_out)
    assert r.report["output"] == str(py_out) and r.output_path == str(py_out)
    assert cli_out.read_bytes() == py_out.read_bytes()
    # the fields are the report's
    assert r.backend == want["backend"] == "coral"
    assert r.ops_on_target == want["partition"]["ops_on_target"]
    assert r.ops_fallback == want["partition"]["ops_on_cpu"]
    assert comparable(r.partition, py_out) == comparable(want["partition"], cli_out)
    assert comparable(r.ops, py_out) == comparable(want["ops"], cli_out)
    assert len(r.backend_timeline) == len(want["backend_timeline"])
    assert r.estimate == want["estimate"]
    assert r.strategy == "ptq" and isinstance(r.model, ec.Model)
    # a Model and a calibration file give the same report
    r2 = ec.compile(ec.load(model), target="coral", calibration_data=str(d / "calib.npy"), num_calibration_samples=4)
    want_no_output = cli.json("compile", model, "--target", "coral", "--calibration-data", d / "calib.npy",
                              "--num-calibration-samples", 4, "--json", "--no-record")
    assert comparable(r2.report) == comparable(want_no_output)
    assert r2.output_path is None


def test_compile_cpu_and_auto(cli, sample_model):
    want = cli.json("compile", sample_model, "--target", "cpu", "--json", "--no-record")
    assert comparable(ec.compile(sample_model, target="cpu").report) == comparable(want)
    want = cli.json("compile", sample_model, "--json", "--no-record")  # auto: no Coral here
    assert comparable(ec.compile(sample_model).report) == comparable(want)
