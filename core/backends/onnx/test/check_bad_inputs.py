#!/usr/bin/env python3
"""ONNX export refusals (issue 41): an op ONNX opset 17 cannot express, an opaque
op from another format, an output in a missing or read-only directory. Each is
one line on stderr naming the op or file, exit 1, and no file (nor temp file) left.

usage: check_bad_inputs.py EDGECOMPILE WORK_DIR
"""
import os
import re
import stat
import subprocess
import sys

BITWISE = """graph "bitwise" version 1 {
  input %a : i32[4]
  input %b : i32[4]
  %c = BitwiseAnd(%a, %b) : i32[4] @"and_op"
  output %c
}
"""
OPAQUE = """graph "opaque" version 1 {
  input %x : f32[1,4]
  %y = "com.microsoft::FusedGemm"(%x) : f32[1,4] @"/fused"
  output %y
}
"""
GOOD = """graph "good" version 1 {
  input %x : f32[1,4]
  %y = Relu(%x) : f32[1,4] @"relu"
  output %y
}
"""


def main():
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    models = {}
    for name, text in (("bitwise", BITWISE), ("opaque", OPAQUE), ("good", GOOD)):
        models[name] = os.path.join(work, name + ".eir")
        open(models[name], "w").write(text)
    ro = os.path.join(work, "readonly")
    os.makedirs(ro, exist_ok=True)
    os.chmod(ro, stat.S_IRUSR | stat.S_IXUSR)
    as_root = os.geteuid() == 0  # root writes anywhere: the read-only case is skipped
    out = os.path.join(work, "out.onnx")
    cases = [
        ("convert", ["convert", models["bitwise"], "--output", out], out, r"and_op.*BitwiseAnd.*ONNX writer.*opset 18"),
        ("optimize", ["optimize", models["bitwise"], "--passes", "Cleanup", "--output", out], out, r"BitwiseAnd"),
        ("convert opaque", ["convert", models["opaque"], "--output", out], out, r"FusedGemm.*ONNX writer"),
        ("missing directory", ["convert", models["good"], "--output", os.path.join(work, "nope", "m.onnx")],
         os.path.join(work, "nope", "m.onnx"), r"nope"),
    ]
    if not as_root:
        cases.append(("read-only directory", ["convert", models["good"], "--output", os.path.join(ro, "m.onnx")],
                      os.path.join(ro, "m.onnx"), r"readonly"))
    failed = 0
    for label, args, target, pattern in cases:
        if os.path.exists(target):
            os.remove(target)
        p = subprocess.run([exe] + args, capture_output=True, text=True, timeout=120)
        lines = p.stderr.strip().splitlines()
        leftovers = [f for f in os.listdir(os.path.dirname(target)) if f.startswith(os.path.basename(target))] \
            if os.path.isdir(os.path.dirname(target)) else []
        ok = p.returncode == 1 and len(lines) == 1 and re.search(pattern, lines[0]) and not leftovers
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{label}: exit {p.returncode}: {p.stderr.strip()}"
              + (f" (left {leftovers})" if leftovers else ""))
    # The good model is written.
    p = subprocess.run([exe, "convert", models["good"], "--output", out], capture_output=True, text=True, timeout=120)
    ok = p.returncode == 0 and os.path.getsize(out) > 0
    failed += not ok
    print(("ok   " if ok else "FAIL ") + f"good model: exit {p.returncode}: {p.stdout.strip()}")
    os.chmod(ro, stat.S_IRWXU)
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
