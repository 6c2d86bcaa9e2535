#!/usr/bin/env python3
"""Damaged .tflite files (written by make_bad_models): `inspect`, `run` and
`convert` each answer with ONE line naming the file and the problem, exit 1,
no crash, and `convert` writes nothing.

usage: check_bad_inputs.py EDGECOMPILE MAKE_BAD_MODELS VALID.tflite"""
import os
import subprocess
import sys
import tempfile

# file -> a phrase the one-line error must contain
EXPECTED = {
    "empty": "empty",
    "random_bytes": "not 'TFL3'",
    "truncated": "damaged",
    "wrong_identifier": "not 'TFL3'",
    "buffer_out_of_range": "refers to buffer 99",
    "data_too_short": "needs 16 bytes, its buffer holds 8",
    "opcode_out_of_range": "op code 7",
    "subgraph_cycle": "subgraph cycle",
    "operator_cycle": "cycle",
}


def main():
    exe, maker, valid = sys.argv[1:4]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([maker, valid, d], check=True)
        r = subprocess.run([exe, "inspect", os.path.join(d, "valid_tiny.tflite")], capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"valid_tiny: inspect failed: {r.stderr.strip()}")
        for name, phrase in EXPECTED.items():
            path = os.path.join(d, name + ".tflite")
            out = os.path.join(d, name + ".out.tflite")
            for cmd in (["inspect", path], ["run", path], ["convert", path, "--output", out]):
                r = subprocess.run([exe] + cmd, capture_output=True, text=True, timeout=120)
                lines = r.stderr.strip().splitlines()
                ok = r.returncode == 1 and len(lines) == 1 and path in lines[0] and phrase in lines[0]
                print(f"{name:22s} {cmd[0]:8s} exit {r.returncode}: {lines[0] if lines else '(no message)'}")
                if not ok:
                    failures.append(f"{name} {cmd[0]}: exit {r.returncode}, stderr {r.stderr.strip()!r} (want one line with {phrase!r})")
                if os.path.exists(out) or any(f.startswith(name + ".out") for f in os.listdir(d)):
                    failures.append(f"{name}: convert left a file behind")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
