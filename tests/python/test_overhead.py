"""Binding overhead: InferenceSession.run on a 1-op model costs less than 20 us more than
the C++ call (bench/python_overhead.py, which prints both and the difference)."""
import os
import subprocess
import sys


def test_run_overhead_below_20us():
    script = os.path.join(os.environ["EC_SOURCE_DIR"], "bench", "python_overhead.py")
    r = subprocess.run([sys.executable, script, os.environ["EC_OVERHEAD_CPP"], "5000", "--max-us", "20"],
                       capture_output=True, text=True, env=os.environ, timeout=240)
    print(r.stdout)
    assert r.returncode == 0, r.stdout + r.stderr
