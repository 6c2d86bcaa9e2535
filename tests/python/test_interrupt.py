"""Ctrl-C interrupts a long benchmark and a long compile: SIGINT to a child interpreter
inside ec.InferenceSession.benchmark / ec.compile raises KeyboardInterrupt there within
a second or so, and the interpreter goes on (no crash, nothing half-written)."""
import os
import signal
import subprocess
import sys
import time

import pytest

CHILD = r"""
import os, sys, time
import numpy as np
import edgecompiler as ec
model, what, out = sys.argv[1], sys.argv[2], sys.argv[3]
s = ec.InferenceSession(model, threads=1)
calib = np.random.default_rng(0).uniform(-1, 1, (400, 3, 224, 224)).astype(np.float32)
print("started", flush=True)
t = time.perf_counter()
try:
    if what == "benchmark":
        s.benchmark(iterations=1000000, warmup=0)
    else:
        ec.compile(model, target="coral", calibration_data=calib, num_calibration_samples=400, output=out)
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - t:.2f} s", flush=True)
    # the interpreter and the session still work
    s.run(s.random_inputs())
    print("alive", flush=True)
    sys.exit(0)
print("finished without an interrupt", flush=True)
sys.exit(1)
"""


@pytest.mark.parametrize("what", ["benchmark", "compile"])
def test_ctrl_c(models_dir, tmp_path, what):
    model = os.path.join(models_dir, "mobilenet_v2.onnx")
    out = tmp_path / "m_edgetpu.tflite"
    p = subprocess.Popen([sys.executable, "-c", CHILD, model, what, str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=os.environ)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.5)
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    waited = time.perf_counter() - sent
    assert p.returncode == 0, (stdout, stderr)
    assert "interrupted after" in stdout and "alive" in stdout, (stdout, stderr)
    assert waited < 10, f"took {waited:.1f} s to stop"
    assert not out.exists() and not [f for f in os.listdir(tmp_path) if f.startswith("m_edgetpu")]
