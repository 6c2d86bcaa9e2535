#!/usr/bin/env python3
"""`edgecompile draw` (issue 41): the SVG parses (xmllint), has one box per op (or per
collapsed group, whose op counts add up to the model's), exactly one legend; overlays
colour ops from the reports; a PNG is non-blank at the requested size; bad input (a
report of another model, an unwritable output, an unknown scope) is one line, exit 1
(usage: 2), and no file.

usage: check_draw.py EDGECOMPILE SAMPLE_MODEL MODELS_DIR WORK_DIR
"""
import json
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngcheck import non_blank  # noqa: E402

failed = 0


def report(ok, what):
    global failed
    failed += not ok
    print(("ok   " if ok else "FAIL ") + what, flush=True)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900)


def op_count(exe, model):
    return json.loads(run([exe, "inspect", model, "--json"]).stdout)["ops"]["count"]


def check_svg(path, label, want_ops, collapsed_ok=False):
    p = run(["xmllint", "--noout", path])
    report(p.returncode == 0, f"{label}: xmllint parses the SVG ({os.path.getsize(path)} bytes) {p.stderr.strip()[:200]}")
    text = open(path, encoding="utf-8").read()
    ops = len(re.findall(r'<g class="op"', text))
    groups = re.findall(r'<g class="group"[^>]*>.*?>(\d+) ops</text>', text)
    legends = len(re.findall(r'<g class="legend"', text))
    in_groups = sum(int(g) for g in groups)
    if collapsed_ok:
        report(len(groups) > 0 and ops + in_groups == want_ops,
               f"{label}: {ops} op boxes + {len(groups)} collapsed groups holding {in_groups} ops = {want_ops} ops")
    else:
        report(ops == want_ops and not groups, f"{label}: {ops} op boxes for {want_ops} ops")
    report(legends == 1, f"{label}: {legends} legend")
    return text


def main():
    exe, sample, models_dir, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    n_sample = op_count(exe, sample)
    svg = os.path.join(work, "sample.svg")
    p = run([exe, "draw", sample, "--output", svg])
    report(p.returncode == 0, f"draw sample: {p.stdout.strip() or p.stderr.strip()}")
    check_svg(svg, "sample", n_sample)

    mobilenet = os.path.join(models_dir, "mobilenet_v2.onnx")
    n_mobile = op_count(exe, mobilenet)
    for extra in ([], ["--collapse", "2"], ["--collapse", "1"]):
        out = os.path.join(work, "mobilenet" + "".join(extra).replace("--", "_") + ".svg")
        p = run([exe, "draw", mobilenet, "--output", out] + extra)
        report(p.returncode == 0, f"draw mobilenet_v2 {' '.join(extra)}: {p.stdout.strip() or p.stderr.strip()}")
        check_svg(out, "mobilenet_v2 " + " ".join(extra), n_mobile, collapsed_ok=bool(extra))

    # --scope: only that scope's ops.
    out = os.path.join(work, "scope.svg")
    p = run([exe, "draw", mobilenet, "--output", out, "--scope", "/features/features.3"])
    text = open(out).read() if p.returncode == 0 else ""
    n = len(re.findall(r'<g class="op"', text))
    report(p.returncode == 0 and 0 < n < n_mobile, f"draw --scope /features/features.3: {n} op boxes")

    # Overlays: diff (the default pipeline), placement (a coral compile), sqnr, latency.
    out = os.path.join(work, "diff.svg")
    p = run([exe, "draw", mobilenet, "--output", out, "--overlay", "diff"])
    text = check_svg(out, "mobilenet_v2 --overlay diff", n_mobile) if p.returncode == 0 else ""
    report("removed (" in text and "#e53935" in text, "diff overlay: legend and red (removed) ops")

    calib = os.path.join(work, "calib.npy")
    np.save(calib, np.random.default_rng(0).uniform(-1, 1, size=(8, 3, 64, 64)).astype(np.float32))
    creport, qreport, breport = (os.path.join(work, n) for n in ("compile.json", "quant.json", "bench.json"))
    p1 = run([exe, "compile", sample, "--target", "coral", "--quantize", "ptq", "--calibration-data", calib,
              "--report", creport, "--no-record"])
    p2 = run([exe, "quantize", sample, "--calibration-data", calib, "--report", qreport])
    p3 = run([exe, "bench", sample, "--iterations", "5", "--warmup", "1", "--json", "--no-record"])
    if p3.returncode == 0:
        open(breport, "w").write(p3.stdout)
    report(p1.returncode == 0 and p2.returncode == 0 and p3.returncode == 0,
           f"reports of the sample: compile {p1.returncode} quantize {p2.returncode} bench {p3.returncode} "
           f"{(p1.stderr + p2.stderr + p3.stderr).strip()[:300]}")
    for overlay, flag, path, must in (("placement", "--compile-report", creport, "TPU"),
                                      ("sqnr", "--quant-report", qreport, "dB"),
                                      ("latency", "--bench", breport, " ms")):
        out = os.path.join(work, f"{overlay}.svg")
        p = run([exe, "draw", sample, "--output", out, "--overlay", overlay, flag, path])
        report(p.returncode == 0, f"draw --overlay {overlay}: {p.stdout.strip() or p.stderr.strip()}")
        if p.returncode == 0:
            text = check_svg(out, f"sample --overlay {overlay}", n_sample)
            legend = re.search(r'<g class="legend".*?</g>', text, re.S).group(0)
            tips = re.findall(r"<title>[^<]*\n([^<]*)</title>", text)
            report(must in legend and len(tips) > 0,
                   f"{overlay}: legend names '{must.strip()}', {len(tips)} ops carry a {overlay} note (e.g. {tips[:1]})")

    # PNG at the requested size, not blank.
    png = os.path.join(work, "mobilenet.png")
    p = run([exe, "draw", mobilenet, "--output", png, "--width", "900", "--height", "700", "--collapse", "2"])
    report(p.returncode == 0, f"draw PNG: {p.stdout.strip() or p.stderr.strip()}")
    if p.returncode == 0:
        w, h, colours, ink = non_blank(png)
        report((w, h) == (900, 700) and colours > 8 and ink > 0.01,
               f"PNG is {w}x{h}, {colours} colours, {100 * ink:.1f}% non-background")
    png2 = os.path.join(work, "sample.png")
    p = run([exe, "draw", sample, "--output", png2, "--width", "400", "--overlay", "placement", "--compile-report", creport])
    if p.returncode == 0:
        w, h, colours, ink = non_blank(png2)
        report(w == 400 and h > 0 and colours > 8, f"PNG --width 400 only: {w}x{h}, {colours} colours")
    else:
        report(False, f"draw PNG --width 400: {p.stderr.strip()}")

    # Bad input: one line, exit 1 (2 for usage), nothing written.
    other = os.path.join(work, "other_compile.json")
    p = run([exe, "compile", mobilenet, "--target", "cpu", "--report", other, "--no-record"])
    cases = [
        ("report of another model", ["draw", sample, "--output", os.path.join(work, "bad1.svg"), "--overlay", "placement",
                                     "--compile-report", other], os.path.join(work, "bad1.svg"), 1, r"another model"),
        ("missing report", ["draw", sample, "--output", os.path.join(work, "bad2.svg"), "--overlay", "sqnr"],
         os.path.join(work, "bad2.svg"), 2, r"--quant-report"),
        ("unwritable output", ["draw", sample, "--output", os.path.join(work, "nope", "g.svg")],
         os.path.join(work, "nope", "g.svg"), 1, r"nope"),
        ("unknown scope", ["draw", sample, "--output", os.path.join(work, "bad3.svg"), "--scope", "/nothing"],
         os.path.join(work, "bad3.svg"), 2, r"/nothing"),
        ("not svg/png", ["draw", sample, "--output", os.path.join(work, "bad4.jpg")], os.path.join(work, "bad4.jpg"), 2, r"svg"),
        ("unknown overlay", ["draw", sample, "--output", os.path.join(work, "bad5.svg"), "--overlay", "heat"],
         os.path.join(work, "bad5.svg"), 2, r"heat"),
    ]
    for label, args, target, code, pattern in cases:
        p = run([exe] + args)
        lines = p.stderr.strip().splitlines()
        d = os.path.dirname(target)
        left = [f for f in os.listdir(d) if f.startswith(os.path.basename(target))] if os.path.isdir(d) else []
        report(p.returncode == code and len(lines) == 1 and re.search(pattern, lines[0]) and not left,
               f"{label}: exit {p.returncode}: {p.stderr.strip()}")
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
