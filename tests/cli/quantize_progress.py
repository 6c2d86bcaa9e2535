#!/usr/bin/env python3
"""`edgecompile quantize` draws a progress bar on stderr when stderr is a terminal
(issue 18), and never when it is a pipe or a file.

usage: quantize_progress.py EDGECOMPILE SAMPLE_MODEL
"""
import os
import pty
import subprocess
import sys
import tempfile

import numpy as np

exe, model = sys.argv[1], sys.argv[2]
failures = []
with tempfile.TemporaryDirectory() as tmp:
    calib = os.path.join(tmp, "calib.npy")
    np.save(calib, np.random.default_rng(0).random((12, 3, 64, 64), dtype=np.float32))
    cmd = [exe, "quantize", model, "--calibration-data", calib, "--threads", "2", "--output", os.path.join(tmp, "q.eir")]

    # stderr on a pseudo-terminal: the bar is drawn, rewritten in place, and cleared.
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    tty = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    out, _ = p.communicate()
    os.close(master)
    text = tty.decode("utf-8", "replace")
    if p.returncode != 0:
        failures.append(f"quantize on a terminal exited {p.returncode}: {text[-300:]}")
    for stage in ("calibrate", "report"):
        if stage not in text:
            failures.append(f"no '{stage}' stage in the progress output: {text[-300:]!r}")
    if "[" + "#" * 30 + "] 12/12" not in text:
        failures.append(f"no full bar '[###...] 12/12' drawn: {text[-300:]!r}")
    if "-] 0/12" not in text:
        failures.append(f"no empty bar at the start: {text[:300]!r}")
    if "\r" not in text:
        failures.append("the bar is not rewritten in place (no carriage return)")
    if b"wrote" not in out:
        failures.append(f"stdout lost its report: {out[-200:]!r}")

    # stderr to a pipe (logs, CI): no bar at all.
    r = subprocess.run(cmd, capture_output=True)
    if r.returncode != 0:
        failures.append(f"quantize with a piped stderr exited {r.returncode}: {r.stderr[-300:]!r}")
    if b"\r" in r.stderr or b"#" in r.stderr:
        failures.append(f"a progress bar went to a pipe: {r.stderr[:300]!r}")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
