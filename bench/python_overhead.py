#!/usr/bin/env python3
"""Binding overhead of the Python API (issue 40): `InferenceSession.run` on a 1-op model
(Relu over f32[1,16]) against the same C++ call (python_overhead_cpp), both single-threaded,
best of 7 rounds of CALLS calls each. Prints both per-call times and the difference in us.

usage: PYTHONPATH=build/ci/python /usr/bin/python3 bench/python_overhead.py \
           build/ci/bench/python_overhead_cpp [CALLS] [--max-us LIMIT]

With --max-us, exits 1 when the difference exceeds LIMIT (the ctest uses 20).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import edgecompiler as ec

ONE_OP = """graph "one_op" version 1 {
  input %x : f32[1,16]
  %y = Relu(%x) : f32[1,16] @relu
  output %y
}
"""


def python_us_per_call(model, calls):
    with ec.InferenceSession(model, threads=1) as s:
        feeds = {"x": np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)}
        for _ in range(1000):
            s.run(feeds)
        best = float("inf")
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(calls):
                s.run(feeds)
            best = min(best, (time.perf_counter() - start) / calls * 1e6)
        return best


def main():
    p = argparse.ArgumentParser(description="Binding overhead of InferenceSession.run (us per call).")
    p.add_argument("cpp", help="the python_overhead_cpp executable")
    p.add_argument("calls", nargs="?", type=int, default=20000)
    p.add_argument("--max-us", type=float, default=None)
    a = p.parse_args()
    cpp, calls, limit = a.cpp, a.calls, a.max_us
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "one_op.eir")
        with open(model, "w") as f:
            f.write(ONE_OP)
        out = subprocess.run([cpp, model, str(calls)], check=True, capture_output=True, text=True).stdout
        cpp_us = float(out.split()[1])
        py_us = python_us_per_call(model, calls)
    diff = py_us - cpp_us
    print(f"1-op model (Relu f32[1,16]), threads=1, best of 7 x {calls} calls:")
    print(f"  C++ InferenceSession::run     {cpp_us:8.3f} us/call")
    print(f"  Python InferenceSession.run   {py_us:8.3f} us/call")
    print(f"  binding overhead              {diff:8.3f} us/call")
    if limit is not None and diff > limit:
        print(f"FAIL: overhead {diff:.3f} us > {limit} us")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
