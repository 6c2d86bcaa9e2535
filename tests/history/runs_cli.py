#!/usr/bin/env python3
"""The run history through the CLI (issue 16): compile and bench record runs
(model SHA-256 checked with Python's hashlib), --no-record, EC_RUNS_DB and
XDG_DATA_HOME, `runs list|show|compare` (text and --json; a real change flagged),
a version-1 database (written here with Python's sqlite3) migrated, and a damaged
database reported in one line and left byte for byte untouched.

usage: runs_cli.py EDGECOMPILE SAMPLE_MODEL WORK_DIR"""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, sample, work = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "runs.db")
    failed = passed = 0

    def check(ok, label):
        nonlocal failed, passed
        failed += not ok
        passed += bool(ok)
        print(("ok   " if ok else "FAIL ") + label)

    def ec(*args, env=None):
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, env=env)

    def runs(path=db):
        p = ec("runs", "list", "--json", "--runs-db", path)
        return json.loads(p.stdout)["runs"] if p.returncode == 0 else None

    # A model ~50x slower than the sample: Gemm [512,1024] x [1024,1024], written with onnx.
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
    w = numpy_helper.from_array(np.random.default_rng(0).random((1024, 1024), dtype=np.float32), "w")
    g = helper.make_graph([helper.make_node("Gemm", ["x", "w"], ["y"])], "big_gemm",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [512, 1024])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [512, 1024])], [w])
    big = os.path.join(work, "big_gemm.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), big)

    p1 = ec("bench", sample, "--iterations", "30", "--threads", "1", "--runs-db", db, "--json")
    p2 = ec("bench", big, "--iterations", "30", "--threads", "1", "--runs-db", db, "--json")
    p3 = ec("compile", sample, "--target", "cpu", "--runs-db", db)
    p4 = ec("bench", sample, "--iterations", "2", "--no-record", "--runs-db", db)
    check(all(p.returncode == 0 for p in (p1, p2, p3, p4)),
          f"bench, bench, compile, bench --no-record: exits {[p.returncode for p in (p1, p2, p3, p4)]} {p3.stderr.strip()}")
    a_id, b_id = json.loads(p1.stdout).get("run_id"), json.loads(p2.stdout).get("run_id")
    listed = runs()
    check(listed is not None and [r["kind"] for r in listed] == ["compile", "bench", "bench"],
          f"runs list: compile and the two benches recorded, --no-record not ({listed and len(listed)} runs)")
    sha = hashlib.sha256(open(sample, "rb").read()).hexdigest()
    check(listed[2]["model_sha256"] == sha and listed[2]["model"] == sample and listed[2]["device"] == "host-cpu"
          and listed[2]["target"] == "cpu" and listed[2]["options"]["iterations"] == 30
          and listed[2]["tool_version"].startswith("edgecompile ") and listed[2]["time"].endswith("Z"),
          "a bench run: path, SHA-256 (hashlib), target, device, options, tool version, time")
    check(listed[0]["target"] == "cpu" and listed[0]["stats"] is None and listed[0]["options"]["target"] == "cpu",
          "a compile run: target and options, no statistics")
    p = ec("runs", "list", "--runs-db", db)
    check(p.returncode == 0 and "3 runs in" in p.stdout and "big_gemm.onnx" in p.stdout, "runs list (text)")

    p = ec("runs", "show", str(a_id), "--json", "--runs-db", db)
    j = json.loads(p.stdout) if p.returncode == 0 else {}
    check(len(j.get("stats", {}).get("latencies_ms", [])) == 30 and j["report"]["model"] == sample
          and j["report"]["latencies_ms"] == j["stats"]["latencies_ms"] and len(j["report"]["top_ops"]) > 0
          and j["stats"]["p99_ms"] >= j["stats"]["p50_ms"], "runs show --json: the stats with 30 latencies and the report")
    p = ec("runs", "show", str(listed[0]["id"]), "--json", "--runs-db", db)
    check(p.returncode == 0 and json.loads(p.stdout)["report"].get("backend") == "cpu"
          and "partition" in json.loads(p.stdout)["report"], "runs show: a compile run carries its CompileReport")
    p = ec("runs", "show", str(a_id), "--runs-db", db)
    check(p.returncode == 0 and "p99" in p.stdout and sha in p.stdout, "runs show (text)")
    p = ec("runs", "show", "999", "--runs-db", db)
    check(p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1 and "999" in p.stderr and db in p.stderr,
          f"runs show 999: exit {p.returncode}, one line: {p.stderr.strip()}")

    p = ec("runs", "compare", str(a_id), str(b_id), "--json", "--runs-db", db)
    c = json.loads(p.stdout) if p.returncode == 0 else {"statistics": []}
    rows = {r["statistic"]: r for r in c["statistics"]}
    check(set(rows) >= {"init_ms", "first_inference_ms", "mean_ms", "stdev_ms", "min_ms", "max_ms", "p50_ms", "p90_ms",
                        "p95_ms", "p99_ms", "throughput_per_s", "peak_memory_mib"}, "runs compare --json: every statistic")
    check(rows.get("mean_ms", {}).get("exceeds_noise") is True and rows["p50_ms"]["exceeds_noise"] is True
          and rows["mean_ms"]["delta"] > 0 and rows["mean_ms"]["p_value"] < 0.05,
          f"a real change (sample vs a 512x1024x1024 Gemm) exceeds noise: mean {rows.get('mean_ms')}")
    p = ec("runs", "compare", str(a_id), str(b_id), "--runs-db", db)
    check(p.returncode == 0 and "YES" in p.stdout and "mean ms" in p.stdout and "note:" in p.stdout,
          "runs compare (text): side by side, verdicts, a note that the models differ")

    # EC_RUNS_DB, then XDG_DATA_HOME, choose the file when --runs-db is not given.
    env = dict(os.environ, EC_RUNS_DB=os.path.join(work, "env.db"))
    p = ec("bench", sample, "--iterations", "2", env=env)
    check(p.returncode == 0 and len(runs(os.path.join(work, "env.db")) or []) == 1, "EC_RUNS_DB is used")
    env = {k: v for k, v in os.environ.items() if k != "EC_RUNS_DB"}
    env["XDG_DATA_HOME"] = os.path.join(work, "xdg")
    p = ec("bench", sample, "--iterations", "2", env=env)
    xdg_db = os.path.join(work, "xdg", "edgecompiler", "runs.db")
    check(p.returncode == 0 and len(runs(xdg_db) or []) == 1, "$XDG_DATA_HOME/edgecompiler/runs.db by default")

    # A version-1 database is migrated.
    v1 = os.path.join(work, "v1.db")
    con = sqlite3.connect(v1)
    con.executescript(
        "CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, kind TEXT NOT NULL,"
        " model_path TEXT NOT NULL, model_hash TEXT NOT NULL, target TEXT NOT NULL, options TEXT NOT NULL,"
        " stats TEXT, report TEXT NOT NULL, tool_version TEXT NOT NULL);"
        "INSERT INTO runs(time, kind, model_path, model_hash, target, options, stats, report, tool_version) VALUES"
        " ('2026-01-02T03:04:05Z', 'bench', '/old/model.onnx', 'abc', 'cpu', '{}', '{\"mean_ms\": 4.25, \"iterations\": 3}',"
        " '{}', 'edgecompile 0.0.9');"
        "PRAGMA user_version=1;")
    con.close()
    p = ec("bench", sample, "--iterations", "2", "--runs-db", v1)
    old = runs(v1) or []
    con = sqlite3.connect(v1)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    mean_col = con.execute("SELECT mean_ms FROM runs WHERE id = 1").fetchone()[0]
    con.close()
    check(p.returncode == 0 and len(old) == 2 and old[1]["model"] == "/old/model.onnx" and old[1]["device"] == ""
          and old[1]["stats"]["mean_ms"] == 4.25 and version == 2 and mean_col == 4.25,
          f"a v1 database is migrated to v{version}: the old run kept, a new one added")

    # A damaged database: one line naming the file and what to do; not a byte changed.
    bad = os.path.join(work, "bad.db")
    with open(bad, "wb") as f:
        f.write(b"SQLite format 2\0" + bytes(range(256)) * 40)
    before = open(bad, "rb").read()
    p = ec("runs", "list", "--runs-db", bad)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 1 and len(lines) == 1 and bad in p.stderr and "--runs-db" in p.stderr and "move" in p.stderr,
          f"runs list on a damaged file: exit {p.returncode}, one line: {p.stderr.strip()}")
    p = ec("bench", sample, "--iterations", "2", "--runs-db", bad)
    check(p.returncode == 0 and len(p.stderr.strip().splitlines()) == 1 and "not recorded" in p.stderr,
          f"bench with a damaged history still benchmarks, one warning line: {p.stderr.strip()}")
    check(open(bad, "rb").read() == before and not any(os.path.exists(bad + s) for s in ("-wal", "-shm", "-journal")),
          "the damaged file is left byte for byte untouched, nothing beside it")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
