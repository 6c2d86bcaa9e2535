#!/usr/bin/env python3
"""Two processes write 100 runs each into one new run history at the same time;
none is lost: `edgecompile runs list --json` then holds 200 runs, 100 per writer,
each writer's indices 0..99 exactly once.

usage: concurrent_writers.py HISTORY_WRITER EDGECOMPILE WORK_DIR"""
import json
import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    writer, exe, work = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "runs.db")  # new: both writers race to create and migrate it too
    procs = [subprocess.Popen([writer, db, "100", tag], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for tag in ("alpha", "beta")]
    failed = 0
    for p in procs:
        out, err = p.communicate(timeout=240)
        ok = p.returncode == 0 and out.strip() == "wrote 100"
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"writer exit {p.returncode}: {out.strip()} {err.strip()}")
    r = subprocess.run([exe, "runs", "list", "--json", "--runs-db", db], capture_output=True, text=True, timeout=120)
    runs = json.loads(r.stdout)["runs"] if r.returncode == 0 else []
    for tag in ("alpha", "beta"):
        idx = sorted(x["options"]["i"] for x in runs if x["options"].get("writer") == tag)
        ok = idx == list(range(100))
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{tag}: {len(idx)} runs recorded, indices 0..99 each once: {ok}")
    ok = len(runs) == 200 and len({x["id"] for x in runs}) == 200
    failed += not ok
    print(("ok   " if ok else "FAIL ") + f"{len(runs)} runs with distinct ids in all")
    print(f"{5 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
