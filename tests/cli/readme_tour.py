#!/usr/bin/env python3
"""Runs every command of README.md's short tour, as written, on the bundled sample (issue 13,
item 6). The tour's paths start with build/release/: a scratch folder gets a build/release link
to the build under test, so the commands run unchanged.

usage: readme_tour.py README.md BUILD_DIR"""
import os
import re
import subprocess
import sys
import atexit
import shutil
import tempfile


def tour_commands(readme):
    lines = open(readme, encoding="utf-8").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("## A short tour"))
    block, in_block = [], False
    for l in lines[start + 1:]:
        if l.startswith("## "):
            break
        if l.startswith("    "):
            in_block = True
            block.append(l[4:])
        elif in_block and l.strip():
            break
    commands, pending = [], ""
    for l in block:
        pending += l
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        commands.append(pending.strip())
        pending = ""
    return [c for c in commands if c]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    readme, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    commands = tour_commands(readme)
    if len(commands) < 10:
        sys.exit(f"FAIL: found only {len(commands)} commands in the README's tour")
    work = tempfile.mkdtemp(prefix="ec_tour_")
    atexit.register(shutil.rmtree, work, True)  # no scratch left in /tmp
    os.makedirs(os.path.join(work, "build"))
    os.symlink(build, os.path.join(work, "build", "release"))
    # Variables (B=..., M=...) carry over: every command runs in one shell, stopping at the first failure.
    failures = 0
    prefix = []
    for c in commands:
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", c):
            prefix.append(c)
            continue
        script = "\n".join(prefix + [c])
        p = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, capture_output=True, text=True,
                           timeout=600)
        ok = p.returncode == 0
        failures += not ok
        print(("ok   " if ok else "FAIL ") + c[:110])
        if not ok:
            print(f"     exit {p.returncode}: {p.stderr.strip()[:500]}")
    print(f"{len(commands) - len(prefix) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
