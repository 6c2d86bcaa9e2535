"""Bad input never crashes the interpreter: each case raises an ec.Error subclass with
one line, the line `edgecompile` prints after "edgecompile: error: " where the CLI has
the same case. Every case also runs in a child interpreter that must exit cleanly."""
import os
import subprocess
import sys

import numpy as np
import pytest

import edgecompiler as ec


def one_line(e):
    msg = str(e.value)
    assert msg and "\n" not in msg and len(msg) < 1000, msg
    return msg


def cli_error(cli, *args):
    r = cli(*args, check=False)
    assert r.returncode in (1, 2), r
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("edgecompile: error: "), line
    return line[len("edgecompile: error: "):]


def test_missing_file(cli, tmp_path):
    missing = str(tmp_path / "missing.onnx")
    with pytest.raises(ec.Error) as e:
        ec.load(missing)
    assert one_line(e) == cli_error(cli, "inspect", missing)
    with pytest.raises(ec.Error) as e:
        ec.InferenceSession(missing)
    assert one_line(e) == cli_error(cli, "run", missing)
    with pytest.raises(ec.Error):
        ec.compile(missing, target="cpu")


def test_not_a_model(cli, tmp_path):
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\x00garbage" * 10)
    with pytest.raises(ec.FrontendError) as e:
        ec.load(str(junk))
    assert one_line(e) == cli_error(cli, "inspect", junk)


def test_wrong_dtype_shape_name(sample_model, sample_input):
    name, x = sample_input
    s = ec.InferenceSession(sample_model, threads=1)
    with pytest.raises(ec.InputError) as e:
        s.run({name: x.astype(np.float64)})
    assert name in one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({name: x[..., :-1]})
    assert name in one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({name: x.reshape(-1)})
    one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({"nope": x})
    assert "no such input" in one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({})
    one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run([x])
    assert "dict" in one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({name: "text"})
    one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({name: np.array([object()])})
    assert "dtype object" in one_line(e)
    with pytest.raises(ec.InputError) as e:
        s.run({name: x.astype(">f4")})  # big-endian: not the runtime's layout
    one_line(e)
    with pytest.raises(ec.InputError):
        s.run({1: x})
    assert isinstance(ec.InputError("x"), ValueError)


def test_unknown_target(sample_model, cli):
    # the backend registry's error (kind Backend, as the CLI's exit 1), listing the known targets
    with pytest.raises(ec.BackendError) as e:
        ec.compile(sample_model, target="tpu9000")
    assert "known targets" in one_line(e)
    assert one_line(e) == cli_error(cli, "compile", sample_model, "--target", "tpu9000", "--no-record")
    with pytest.raises(ec.Error) as e:
        ec.InferenceSession(sample_model, target="tpu9000")
    assert "tpu9000" in one_line(e)
    with pytest.raises(ec.UsageError):
        ec.quantize(sample_model, strategy="magic")


def test_target_unavailable(tmp_path, sample_model, cli):
    # no libedgetpu here: the reason, as the CLI's bench on a coral artefact would say
    tfl = tmp_path / "m.tflite"
    cli("convert", sample_model, "--output", tfl)
    with pytest.raises(ec.BackendUnavailableError) as e:
        ec.InferenceSession(str(tfl), target="coral")
    assert one_line(e).startswith("coral: ")
    assert ec.BackendUnavailableError is ec.BackendError


def test_bad_calibration(sample_model, sample_input, tmp_path, cli):
    name, x = sample_input
    good = np.zeros((2,) + x.shape[1:], np.float32)
    cases = [
        good.astype(np.int32),                       # wrong dtype
        np.zeros((2, 5, 5), np.float32),             # wrong shape
        np.zeros((0,) + x.shape[1:], np.float32),    # no samples
        np.array([object(), object()]),              # an object array
        {"nope": good},                              # no such input
        {},                                          # nothing
        "not-an-array-or-file",                      # a missing file
    ]
    for bad in cases:
        with pytest.raises(ec.Error) as e:
            ec.compile(sample_model, target="coral", calibration_data=bad)
        one_line(e)
        with pytest.raises(ec.Error) as e:
            ec.quantize(sample_model, calibration_data=bad)
        one_line(e)
    # the same words as the CLI on the same array in a file
    np.save(tmp_path / "bad.npy", good.astype(np.int32))
    with pytest.raises(ec.InputError) as e:
        ec.quantize(sample_model, calibration_data=good.astype(np.int32))
    cli_line = cli_error(cli, "quantize", sample_model, "--calibration-data", tmp_path / "bad.npy")
    assert one_line(e).split(": ", 1)[1] == cli_line.split(": ", 1)[1]
    with pytest.raises(ec.UsageError) as e:
        ec.compile(sample_model, target="coral")  # ptq without data
    assert one_line(e) == cli_error(cli, "compile", sample_model, "--target", "coral", "--no-record")


def test_bad_values(sample_model):
    with pytest.raises(ec.UsageError):
        ec.InferenceSession(sample_model, threads=-1)
    s = ec.InferenceSession(sample_model, threads=1)
    with pytest.raises(ec.UsageError):
        s.benchmark(iterations=0)
    with pytest.raises(ec.UsageError):
        ec.compile(sample_model, target="cpu", num_segments=0)
    with pytest.raises(ec.UsageError):
        ec.compile(sample_model, target="coral", output="x.mlpackage")
    with pytest.raises(ec.BackendError) as e:
        ec.compile(sample_model, target="cpu", output="x.tflite")  # the cpu backend writes no artefact
    one_line(e)


CHILD = r"""
import numpy as np, edgecompiler as ec, sys
model = sys.argv[1]
s = ec.InferenceSession(model, threads=1)
name = s.inputs[0].name
bad = [lambda: ec.load("/nonexistent/model.onnx"),
       lambda: s.run({name: np.zeros((1,), np.float64)}),
       lambda: s.run({name: np.zeros((3, 3, 3, 3, 3), np.float32)}),
       lambda: ec.compile(model, target="nope"),
       lambda: ec.compile(model, target="coral", calibration_data=np.zeros((1, 2), np.float32)),
       lambda: ec.quantize(model, calibration_data=np.zeros((1, 2), np.int8))]
for f in bad:
    try:
        f()
    except ec.Error as e:
        assert "\n" not in str(e)
    else:
        raise SystemExit("no error")
print("ok")
"""


def test_child_interpreter_survives(sample_model):
    r = subprocess.run([sys.executable, "-c", CHILD, sample_model], capture_output=True, text=True, env=os.environ)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
