#!/usr/bin/env python3
"""Screenshots of the workbench a user keeps open all day (issue 44), under xvfb.

For each case the app runs with `--screenshot OUT.png --screenshot-report OUT.json`
(app/workbench/LayoutCheck.h measures the real window) in a scratch settings folder,
and this script checks what can be measured:
  - the PNG has the window's size times QT_SCALE_FACTOR and is not blank;
  - no dock or tab title is elided, no table column is narrower than its header;
  - with a model open, the graph's canvas is >= 60% of the window;
  - the overlay's legend is complete (passes: added/removed/changed; partition:
    TPU / CPU unsupported / CPU after the first unsupported op; SQNR: title and scale)
    and sits beside the canvas, never over it.
Cases: the start page and the sample model at 1280x800 and 1920x1080, English and
German, QT_SCALE_FACTOR 1 and 2; the Passes, Quantisation, Partition, Timeline,
Benchmark and Run History panels on a torchvision model (mobilenet_v2, random
weights, exported by tests/models) in English and German at 1280x800 and in German
at 1920x1080 x2. The PNGs stay in OUT_DIR to be looked at.

usage: check_habits_screenshots.py WORKBENCH SAMPLE_MODEL TORCH_MODEL OUT_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_screenshot import png_pixels  # noqa: E402

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
    print(("ok   " if cond else "FAIL ") + what, flush=True)


def run_case(exe, out_dir, name, model, size, lang, scale, extra=(), legend=None, share=False):
    png = os.path.join(out_dir, f"{name}.png")
    report = os.path.join(out_dir, f"{name}.json")
    for f in (png, report):
        if os.path.exists(f):
            os.remove(f)
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"):
            env[var] = os.path.join(scratch, var.lower())
            os.makedirs(env[var], exist_ok=True)
        env["LANG"] = "de_DE.UTF-8" if lang == "de" else "en_US.UTF-8"
        env.pop("LC_ALL", None)
        env.pop("LC_MESSAGES", None)
        env.pop("LANGUAGE", None)
        env["QT_SCALE_FACTOR"] = str(scale)
        env.pop("QT_QPA_PLATFORM", None)
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 4096x2400x24", exe]
        if model:
            cmd.append(model)
        cmd += ["--screenshot", png, "--screenshot-report", report, "--window-size", size, *extra]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    check(p.returncode == 0, f"{name}: exits 0 (got {p.returncode}; {p.stderr.strip()[-300:]})")
    if p.returncode != 0 or not os.path.exists(report) or not os.path.exists(png):
        check(False, f"{name}: screenshot and report written")
        return
    r = json.load(open(report))
    w, h = (int(x) for x in size.split("x"))
    pw, ph, rows, bpp = png_pixels(png)
    check((pw, ph) == (w * scale, h * scale), f"{name}: image {pw}x{ph} = window {size} x{scale}")
    colours = set()
    for row in rows[::8]:
        for x in range(0, pw * bpp, bpp * 8):
            colours.add(row[x:x + 3])
    check(len(colours) >= 8, f"{name}: not blank ({len(colours)} colours)")
    check(r["elidedTitles"] == [], f"{name}: no dock or tab title elided {r['elidedTitles']}")
    check(r["narrowColumns"] == [], f"{name}: every column as wide as its header {r['narrowColumns']}")
    if share:
        check(r["graphShare"] >= 0.60, f"{name}: graph gets {r['graphShare']:.2f} of the window (>= 0.60)")
    if legend is not None:
        texts = r["legend"]
        check(legend(texts), f"{name}: legend complete {texts}")
        check(not r["legendCoversCanvas"], f"{name}: legend beside the canvas, not over it")
    if lang == "de" and model:
        check("edgecompiler Workbench" in r["title"] and " — " in r["title"], f"{name}: title {r['title']!r}")


def is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def main():
    exe, sample, torch_model, out_dir = sys.argv[1:5]
    os.makedirs(out_dir, exist_ok=True)
    sizes = ("1280x800", "1920x1080")
    for size in sizes:
        for lang in ("en", "de"):
            for scale in (1, 2):
                tag = f"{size}_{lang}_x{scale}"
                run_case(exe, out_dir, f"start_{tag}", None, size, lang, scale)
                run_case(exe, out_dir, f"sample_{tag}", sample, size, lang, scale, share=True)

    words = {"en": ("added", "removed", "changed"), "de": ("hinzugefügt", "entfernt", "geändert")}

    def passes_legend(lang):
        return lambda t: len(t) == 3 and all(any(wd in x for x in t) for wd in words[lang])

    def partition_legend(t):
        return len(t) == 3 and t[0] == "TPU" and all("CPU" in x for x in t[1:])

    def sqnr_legend(t):
        return len(t) >= 3 and "SQNR" in t[0] and is_number(t[1]) and is_number(t[2])

    def latency_legend(t):
        return len(t) >= 3 and "ms" in t[0] and is_number(t[1]) and is_number(t[2])

    for size, lang, scale in (("1280x800", "en", 1), ("1280x800", "de", 1), ("1920x1080", "de", 2)):
        tag = f"{size}_{lang}_x{scale}"
        run_case(exe, out_dir, f"torch_open_{tag}", torch_model, size, lang, scale, share=True)
        run_case(exe, out_dir, f"torch_passes_{tag}", torch_model, size, lang, scale, ["--optimize"],
                 legend=passes_legend(lang))
        run_case(exe, out_dir, f"torch_quant_{tag}", torch_model, size, lang, scale, ["--quantize"],
                 legend=sqnr_legend)
        run_case(exe, out_dir, f"torch_partition_{tag}", torch_model, size, lang, scale,
                 ["--compile", "coral"], legend=partition_legend)
        run_case(exe, out_dir, f"torch_timeline_{tag}", torch_model, size, lang, scale,
                 ["--compile", "coral", "--panel", "timeline"], legend=partition_legend)
        # With a run: the statistics, charts and the graph coloured by time per op.
        run_case(exe, out_dir, f"torch_benchmark_{tag}", torch_model, size, lang, scale,
                 ["--bench", "10", "--panel", "benchmark"], legend=latency_legend)
        run_case(exe, out_dir, f"torch_history_{tag}", torch_model, size, lang, scale,
                 ["--bench", "10", "--panel", "runHistory"])
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
