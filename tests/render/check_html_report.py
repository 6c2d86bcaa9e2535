#!/usr/bin/env python3
"""The HTML report (issue 41) in a real browser: Debian's chromium, headless, offline.

For the sample (with a coral CompileReport, a QuantReport and a benchmark) and a
held-back set of models (report with no evidence, and `compile|quantize|bench --html`):
  - the file is self-contained: no <link>, no src= or href= to anything outside it, no URL
    but the SVG namespace;
  - loaded by chromium --dump-dom (file://, no network) with a checking script of this
    test added to a copy of the page: no script error (window 'error' events, and no
    console message at all on chromium's log), as many op boxes in the fully expanded
    view as the model has ops, and every overlay the page offers recolours op boxes;
  - a screenshot is non-blank;
  - a generated 10,000-op model's report stays under 5 MB (its size and chromium's time
    to load it are printed, not judged).

usage: check_html_report.py EDGECOMPILE CHROMIUM SAMPLE_MODEL MODELS_DIR WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngcheck import non_blank  # noqa: E402

failed = 0

ERRORS_FIRST = "<script>window.__errs=[];addEventListener('error',function(e){window.__errs.push(String(e.message))});</script>"
CHECKER = r"""<script>
(function () {
  // Time from navigation to the end of the report's own script (the page drawn): printed only.
  var res = {errors: window.__errs.slice(), readyMs: Math.round(performance.now())};
  try {
    var scene = document.getElementById('scene');
    scene.value = String(scene.options.length - 1);
    scene.dispatchEvent(new Event('change'));
    res.sceneName = scene.options[scene.options.length - 1].textContent;
    res.opNodes = document.querySelectorAll('#graph-svg g.op').length;
    var fills = function () {
      return Array.prototype.map.call(document.querySelectorAll('#graph-svg g.op > rect'), function (r) { return r.getAttribute('fill'); });
    };
    var ov = document.getElementById('overlay');
    var base = fills();
    res.overlays = {};
    for (var i = 0; i < ov.options.length; ++i) {
      var v = ov.options[i].value;
      ov.value = v;
      ov.dispatchEvent(new Event('change'));
      var f = fills(), changed = 0;
      for (var k = 0; k < f.length; ++k) changed += f[k] !== base[k];
      res.overlays[v] = {changed: changed, legend: document.getElementById('legend').textContent.slice(0, 200)};
    }
    var groups = document.querySelectorAll('#graph-svg g.group').length;
    scene.value = '0'; scene.dispatchEvent(new Event('change'));
    res.firstViewGroups = document.querySelectorAll('#graph-svg g.group').length;
    var g = document.querySelector('#graph-svg g.group');
    if (g) { g.dispatchEvent(new MouseEvent('click', {bubbles: true})); res.afterExpand = document.getElementById('scene').value; }
    var s = document.getElementById('search');
    s.value = 'conv'; s.dispatchEvent(new Event('input'));
    res.search = document.getElementById('search-status').textContent;
    res.sections = {};
    ['partition-body', 'timeline-body', 'quant-body', 'bench-body'].forEach(function (id) {
      var e = document.getElementById(id);
      res.sections[id] = {tables: e.querySelectorAll('table').length, charts: e.querySelectorAll('svg.chart, canvas').length,
                          empty: e.classList.contains('empty')};
    });
  } catch (e) { res.errors.push('checker: ' + e.message); }
  res.errors = res.errors.concat(window.__errs.slice(res.errors.length));
  var pre = document.createElement('pre');
  pre.id = 'check-result';
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
})();
</script>"""


def report(ok, what):
    global failed
    failed += not ok
    print(("ok   " if ok else "FAIL ") + what, flush=True)


def run(cmd, timeout=900):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def op_count(exe, model):
    return json.loads(run([exe, "inspect", model, "--json"]).stdout)["ops"]["count"]


def chromium_args(chromium, profile):
    return [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
            "--disable-background-networking", "--disable-sync", "--metrics-recording-only", "--no-default-browser-check",
            f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0"]


def load(chromium, html, work):
    """Runs the page with the checker in chromium; -> (result dict, chromium's console errors, seconds)."""
    text = open(html, encoding="utf-8").read()
    checked = os.path.join(work, os.path.basename(html).replace(".html", ".checked.html"))
    text = text.replace("<head>", "<head>" + ERRORS_FIRST, 1)
    at = text.rfind("</body>")
    open(checked, "w", encoding="utf-8").write(text[:at] + CHECKER + text[at:])
    profile = os.path.join(work, "chromium-profile")
    t = time.monotonic()
    p = run(chromium_args(chromium, profile) + ["--window-size=1280,900", "--dump-dom", "file://" + os.path.abspath(checked)])
    seconds = time.monotonic() - t
    # Chromium logs every console message of the page as ":CONSOLE"; the report logs nothing.
    console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
    m = re.search(r'<pre id="check-result">(.*?)</pre>', p.stdout, re.S)
    if not m:
        return None, console + [f"no result (exit {p.returncode}): {p.stderr.strip()[-300:]}"], seconds
    res = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    return res, console, seconds


def self_contained(html):
    text = open(html, encoding="utf-8").read()
    bad = []
    if re.search(r"<link\b", text, re.I):
        bad.append("<link>")
    for m in re.finditer(r"\b(src|href)\s*=\s*[\"']([^\"'#][^\"']*)", text, re.I):
        bad.append(m.group(0)[:80])
    urls = set(re.findall(r"(?:https?|ftp)://[^\s\"'<>)]+", text)) - {"http://www.w3.org/2000/svg"}
    bad += sorted(urls)[:5]
    return bad


def check_page(exe, chromium, html, label, n_ops, work, want_overlays=(), want_sections=()):
    report(os.path.exists(html), f"{label}: report written ({os.path.getsize(html) if os.path.exists(html) else 0} bytes)")
    if not os.path.exists(html):
        return
    bad = self_contained(html)
    report(not bad, f"{label}: self-contained (no external reference){': ' + ', '.join(bad) if bad else ''}")
    res, console, seconds = load(chromium, html, work)
    if res is None:
        report(False, f"{label}: chromium: {console}")
        return
    errors = res["errors"] + console
    report(not errors, f"{label}: no script errors in chromium (page drawn {res.get('readyMs')} ms after navigation; "
                       f"{seconds:.1f} s for chromium to start, load and check){': ' + str(errors[:3]) if errors else ''}")
    report(res.get("opNodes") == n_ops, f"{label}: '{res.get('sceneName')}' view shows {res.get('opNodes')} op boxes for {n_ops} ops")
    for o in want_overlays:
        st = res.get("overlays", {}).get(o)
        report(st is not None and st["changed"] > 0,
               f"{label}: overlay '{o}' recolours {st['changed'] if st else 0} op boxes (legend: {st['legend'][:80] if st else ''!s})")
    for s in want_sections:
        st = res.get("sections", {}).get(s, {})
        report(not st.get("empty") and st.get("tables", 0) + st.get("charts", 0) > 0,
               f"{label}: section {s}: {st.get('tables')} tables, {st.get('charts')} charts")
    return res


def screenshot(chromium, html, work, label):
    shot = os.path.join(work, os.path.basename(html).replace(".html", ".png"))
    if os.path.exists(shot):
        os.remove(shot)
    p = run(chromium_args(chromium, os.path.join(work, "chromium-profile")) +
            ["--window-size=1280,900", "--hide-scrollbars", f"--screenshot={shot}", "file://" + os.path.abspath(html)])
    if not os.path.exists(shot):
        report(False, f"{label}: screenshot: {p.stderr.strip()[-200:]}")
        return
    w, h, colours, ink = non_blank(shot)
    report(colours > 16 and ink > 0.02, f"{label}: screenshot {w}x{h}: {colours} colours, {100 * ink:.1f}% non-background")


def make_big_model(path, n_ops=10000):
    """A 10,000-op ONNX model: 100 blocks of 100 ops each, in name scopes like PyTorch's."""
    import onnx
    from onnx import TensorProto, helper
    nodes, x = [], "input"
    kinds = ["Relu", "Sigmoid", "Neg", "Abs"]
    for b in range(n_ops // 100):
        for i in range(100):
            y = f"/blocks/block.{b}/op{i}_out"
            nodes.append(helper.make_node(kinds[i % 4], [x], [y], name=f"/blocks/block.{b}/layer{i // 10}/Op{i}"))
            x = y
    g = helper.make_graph(nodes, "big", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 16])],
                          [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 16])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    exe, chromium, sample, models_dir, work = sys.argv[1:6]
    if not shutil.which(chromium) and not os.path.exists(chromium):
        print(f"SKIP: {chromium} is not installed (Debian's chromium; packaging/install-deps.sh)")
        return 77
    os.makedirs(work, exist_ok=True)

    # The sample with every kind of evidence.
    calib = os.path.join(work, "calib.npy")
    np.save(calib, np.random.default_rng(0).uniform(-1, 1, size=(8, 3, 64, 64)).astype(np.float32))
    creport, qreport, breport = (os.path.join(work, n) for n in ("compile.json", "quant.json", "bench.json"))
    p1 = run([exe, "compile", sample, "--target", "coral", "--quantize", "ptq", "--calibration-data", calib,
              "--report", creport, "--no-record"])
    p2 = run([exe, "quantize", sample, "--calibration-data", calib, "--report", qreport])
    p3 = run([exe, "bench", sample, "--iterations", "20", "--warmup", "2", "--json", "--no-record"])
    open(breport, "w").write(p3.stdout)
    report(p1.returncode == p2.returncode == p3.returncode == 0,
           f"sample's reports: {(p1.stderr + p2.stderr + p3.stderr).strip()[:300]}")
    html = os.path.join(work, "sample.html")
    p = run([exe, "report", sample, "--compile-report", creport, "--quant-report", qreport, "--bench", breport, "--html", html])
    report(p.returncode == 0, f"report sample: {p.stdout.strip() or p.stderr.strip()}")
    n = op_count(exe, sample)
    check_page(exe, chromium, html, "sample (all evidence)", n, work,
               want_overlays=("placement", "sqnr", "latency", "diff"),
               want_sections=("partition-body", "timeline-body", "quant-body", "bench-body"))
    screenshot(chromium, html, work, "sample")

    # --html on the commands themselves.
    for cmd, extra in (("compile", ["--target", "coral", "--quantize", "ptq", "--calibration-data", calib, "--no-record"]),
                       ("quantize", ["--calibration-data", calib]),
                       ("bench", ["--iterations", "5", "--warmup", "1", "--no-record"])):
        out = os.path.join(work, f"{cmd}.html")
        p = run([exe, cmd, sample] + extra + ["--html", out])
        report(p.returncode == 0 and "wrote " + out in p.stdout, f"{cmd} --html: exit {p.returncode} {p.stderr.strip()[:200]}")
        overlay = {"compile": "placement", "quantize": "sqnr", "bench": "latency"}[cmd]
        check_page(exe, chromium, out, f"{cmd} --html", n, work, want_overlays=(overlay,))

    # The held-back models: the graph alone (and the pass diff).
    for name in ("mobilenet_v2", "resnet18", "transformer", "lstm_text"):
        model = os.path.join(models_dir, name + ".onnx")
        out = os.path.join(work, name + ".html")
        p = run([exe, "report", model, "--html", out])
        report(p.returncode == 0, f"report {name}: {p.stdout.strip() or p.stderr.strip()}")
        res = check_page(exe, chromium, out, name, op_count(exe, model), work, want_overlays=("diff",))
        if res and name == "mobilenet_v2":
            report(res.get("firstViewGroups", 0) > 0 and res.get("afterExpand") not in (None, "0"),
                   f"{name}: first view has {res.get('firstViewGroups')} collapsed groups; clicking one shows view {res.get('afterExpand')}")
            report(res.get("search", "").endswith("matches") and not res["search"].startswith("0 "),
                   f"{name}: search 'conv': {res.get('search')}")
    screenshot(chromium, os.path.join(work, "mobilenet_v2.html"), work, "mobilenet_v2")

    # 10,000 ops: size bound; the load time is printed only.
    big = os.path.join(work, "big.onnx")
    make_big_model(big)
    out = os.path.join(work, "big.html")
    t = time.monotonic()
    p = run([exe, "report", big, "--html", out])
    write_s = time.monotonic() - t
    size = os.path.getsize(out) if p.returncode == 0 else 0
    report(p.returncode == 0 and 0 < size < 5 * 1024 * 1024,
           f"10,000-op report: {size / 1e6:.2f} MB (bound 5 MB), written in {write_s:.1f} s")
    if p.returncode == 0:
        check_page(exe, chromium, out, "10,000 ops", 10000, work)

    # Bad input: a report of another model, an output that is not .html: one line, no file.
    other = os.path.join(work, "other.json")
    run([exe, "compile", os.path.join(models_dir, "resnet18.onnx"), "--target", "cpu", "--report", other, "--no-record"])
    for label, args, target, code in (
            ("report of another model", ["report", sample, "--compile-report", other, "--html", os.path.join(work, "bad.html")],
             os.path.join(work, "bad.html"), 1),
            ("not .html", ["report", sample, "--html", os.path.join(work, "bad.txt")], os.path.join(work, "bad.txt"), 2),
            ("unwritable", ["report", sample, "--html", os.path.join(work, "nope", "r.html")], os.path.join(work, "nope", "r.html"), 1)):
        p = run([exe] + args)
        lines = p.stderr.strip().splitlines()
        report(p.returncode == code and len(lines) == 1 and not os.path.exists(target),
               f"{label}: exit {p.returncode}: {p.stderr.strip()}")
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
