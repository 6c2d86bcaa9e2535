#!/usr/bin/env python3
"""`bench` on mobilenet_v2 exported from torchvision (issue 16): every field is
printed (text and --json), p99 >= p95 >= p90 >= p50 >= min and max >= p99, the
per-op profile sums to within 10% of the mean latency, --csv holds one row per
timed run (the same latencies as --json), the progress bar shows on a terminal
only, and an unwritable --csv path is one line, exit 1, nothing written.

usage: check_bench.py EDGECOMPILE MODELS_DIR WORK_DIR"""
import json
import os
import pty
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, models, work = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    model = os.path.join(models, "mobilenet_v2.onnx")
    db = os.path.join(work, "runs.db")
    failed = passed = 0

    def check(ok, label):
        nonlocal failed, passed
        failed += not ok
        passed += bool(ok)
        print(("ok   " if ok else "FAIL ") + label)

    csv = os.path.join(work, "lat.csv")
    p = subprocess.run([exe, "bench", model, "--iterations", "20", "--warmup", "2", "--threads", "1", "--json",
                        "--csv", csv, "--runs-db", db], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"bench --json exit {p.returncode} {p.stderr.strip()}")
    if p.returncode:
        return 1
    check(p.stderr == "", f"no progress bar when stderr is not a terminal (stderr {p.stderr!r})")
    j = json.loads(p.stdout)
    fields = ["init_ms", "first_inference_ms", "warmup_mean_ms", "mean_ms", "stdev_ms", "min_ms", "max_ms", "p50_ms",
              "p90_ms", "p95_ms", "p99_ms", "throughput_per_s", "peak_rss_bytes", "arena_bytes", "latencies_ms",
              "op_profile", "top_ops", "run_id"]
    missing = [f for f in fields if f not in j]
    check(not missing, f"--json has every field (missing: {missing})")
    print(f"     mean {j['mean_ms']:.3f} ms p50 {j['p50_ms']:.3f} p90 {j['p90_ms']:.3f} p95 {j['p95_ms']:.3f} "
          f"p99 {j['p99_ms']:.3f} min {j['min_ms']:.3f} max {j['max_ms']:.3f} stdev {j['stdev_ms']:.3f} "
          f"init {j['init_ms']:.1f} first {j['first_inference_ms']:.3f} peak {j['peak_rss_bytes'] / 2**20:.1f} MiB")
    check(j["max_ms"] >= j["p99_ms"] >= j["p95_ms"] >= j["p90_ms"] >= j["p50_ms"] >= j["min_ms"] > 0,
          "max >= p99 >= p95 >= p90 >= p50 >= min > 0")
    lat = j["latencies_ms"]
    check(len(lat) == 20 and abs(sum(lat) / 20 - j["mean_ms"]) < 1e-9, "20 latencies, their mean is mean_ms")
    s = sorted(lat)
    check(j["p50_ms"] == s[9] and j["p90_ms"] == s[17] and j["p95_ms"] == s[18] and j["p99_ms"] == s[19],
          "percentiles are the nearest-rank values of the latencies")
    check(j["init_ms"] > 0 and j["first_inference_ms"] > 0 and j["warmup_mean_ms"] > 0 and j["throughput_per_s"] > 0
          and j["peak_rss_bytes"] > 10 * 2**20 and j["arena_bytes"] > 0, "init, first, warm-up, throughput, memory > 0")
    total = sum(o["ms"] for o in j["op_profile"])
    check(len(j["op_profile"]) > 50 and abs(total - j["mean_ms"]) <= 0.1 * j["mean_ms"],
          f"per-op times sum to {total:.3f} ms, within 10% of the mean {j['mean_ms']:.3f} ms "
          f"({100 * total / j['mean_ms']:.1f}%) over {len(j['op_profile'])} ops")
    check(j["top_ops"][0]["ms"] == max(o["ms"] for o in j["op_profile"]), "top_ops starts with the slowest op")
    with open(csv) as f:
        rows = f.read().splitlines()
    check(rows[0] == "iteration,latency_ms" and len(rows) == 21
          and all(abs(float(r.split(",")[1]) - v) < 1e-5 for r, v in zip(rows[1:], lat))
          and [int(r.split(",")[0]) for r in rows[1:]] == list(range(1, 21)),
          "--csv: header and one row per timed run, the latencies of --json")

    p = subprocess.run([exe, "bench", model, "--iterations", "10", "--warmup", "1", "--threads", "1", "--profile",
                        "--runs-db", db], capture_output=True, text=True, timeout=600)
    words = ["init", "(load + prepare)", "first inference", "warm-up mean", "mean", "stdev", "min", "max", "p50", "p90",
             "p95", "p99", "throughput", "peak memory", "activation arena", "per-op profile", "% of the mean latency",
             "top 10 of", "time per op type", "Conv", "recorded as run"]
    missing = [w for w in words if w not in p.stdout]
    check(p.returncode == 0 and not missing, f"text output names every field (missing: {missing})")

    # On a terminal (stderr a pty) the progress bar is drawn.
    master, slave = pty.openpty()
    sample = os.path.join(models, "..", "resources", "sample_cnn.onnx")
    sample = sample if os.path.exists(sample) else model
    q = subprocess.run([exe, "bench", sample, "--iterations", "30", "--threads", "1", "--no-record"],
                       stdout=subprocess.PIPE, stderr=slave, timeout=600)
    os.close(slave)
    seen = b""
    try:
        while True:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            seen += chunk
    except OSError:
        pass
    os.close(master)
    check(q.returncode == 0 and b"bench [" in seen and b"runs" in seen, f"progress bar on a terminal ({len(seen)} bytes)")

    for bad in ("/nonexistent-dir/lat.csv", os.path.join(work, "no", "such", "lat.csv")):
        r = subprocess.run([exe, "bench", sample, "--iterations", "2", "--csv", bad, "--no-record"],
                           capture_output=True, text=True, timeout=300)
        check(r.returncode == 1 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and bad in r.stderr
              and not os.path.exists(bad), f"--csv {bad}: exit {r.returncode}, one line: {r.stderr.strip()}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
