#!/usr/bin/env python3
"""Issue 13 (5): the workbench quantises the LSTM text model (int64 token ids)
with its default random calibration data. Runs
    edgecompiler-workbench lstm_text.onnx --quantize --screenshot OUT.png
under xvfb-run and checks it exits 0 with the screenshot written (before the
fix it failed: "input 'input': expected i64[1,32], got f32[1,32]").

usage: check_quant_text_model.py WORKBENCH MODEL OUT_DIR
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, model, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "workbench_quant_lstm_text.png")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run(["xvfb-run", "-a", exe, model, "--quantize", "--screenshot", out],
                       capture_output=True, text=True, timeout=280)
    failed = 0
    for ok, what in ((p.returncode == 0, f"quantise the int64 token-id model exits 0 (got {p.returncode}; "
                                         f"{p.stderr.strip()[-300:]})"),
                     (os.path.exists(out), f"{out} written")):
        print(("ok   " if ok else "FAIL ") + what)
        failed += not ok
    print(f"{2 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
