#!/usr/bin/env python3
"""Golden test of a pass through the CLI.

usage: run_golden.py EDGECOMPILE PASSES INPUT.eir EXPECTED.eir OUT.eir

Runs `edgecompile optimize --passes PASSES --output OUT.eir INPUT.eir` and
compares OUT.eir with EXPECTED.eir, ignoring `//` comment lines (each golden
file starts with one saying what it checks). On a mismatch prints a diff.
"""
import difflib
import subprocess
import sys


def strip(text):
    return [l for l in text.splitlines() if not l.lstrip().startswith("//")]


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    exe, passes, src, expected, out = sys.argv[1:]
    r = subprocess.run([exe, "optimize", "--passes", passes, "--output", out, src],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit(f"edgecompile exited with {r.returncode}")
    got = strip(open(out).read())
    want = strip(open(expected).read())
    if got != want:
        print("\n".join(difflib.unified_diff(want, got, expected, out, lineterm="")))
        sys.exit("output differs from the golden file")
    print(r.stdout)


if __name__ == "__main__":
    main()
