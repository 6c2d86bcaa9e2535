#!/usr/bin/env python3
"""The workbench with no display (issue 13, item 4): --help and --version work anywhere;
anything else says in one line what to do and exits 1, never aborts inside Qt (exit 134)."""
import os
import subprocess
import sys

app, model = sys.argv[1], sys.argv[2]
env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
failures = []


def run(*args):
    return subprocess.run([app, *args], env=env, capture_output=True, text=True, timeout=60)


r = run("--help")
if r.returncode != 0 or "--screenshot" not in r.stdout:
    failures.append(f"--help: exit {r.returncode}, stdout {r.stdout[:200]!r}, stderr {r.stderr[:200]!r}")
r = run("--version")
if r.returncode != 0 or not r.stdout.strip().startswith("edgecompiler-workbench"):
    failures.append(f"--version: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr[:200]!r}")
for args in ([model], [model, "--screenshot", "x.png"], []):
    r = run(*args)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    if r.returncode != 1 or len(lines) != 1 or "QT_QPA_PLATFORM=offscreen" not in lines[0]:
        failures.append(f"{args}: exit {r.returncode}, stderr {r.stderr[:300]!r} (want exit 1 and one line naming QT_QPA_PLATFORM=offscreen)")
# The advice works: offscreen --help and a real offscreen run of --version.
env["QT_QPA_PLATFORM"] = "offscreen"
r = run("--version")
if r.returncode != 0:
    failures.append(f"offscreen --version: exit {r.returncode}")
for f in failures:
    print("FAIL:", f)
print(f"{5 - len(failures)} of 5 checks passed" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)
