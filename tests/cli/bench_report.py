#!/usr/bin/env python3
"""`bench` reports init (load + prepare) and the first inference apart from the steady state,
as TFLite's benchmark_model does, also with --warmup 0 (issue 13, item 8).

usage: bench_report.py EDGECOMPILE SAMPLE_MODEL"""
import json
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, model = sys.argv[1], sys.argv[2]
    failed = 0

    def check(ok, label):
        nonlocal failed
        failed += not ok
        print(("ok   " if ok else "FAIL ") + label)

    for warmup in (0, 2):
        p = subprocess.run([exe, "bench", model, "--iterations", "3", "--warmup", str(warmup), "--threads", "1", "--json"],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"--warmup {warmup}: exit {p.returncode} {p.stderr.strip()}")
        if p.returncode:
            continue
        j = json.loads(p.stdout)
        check(j["init_ms"] > 0 and j["first_inference_ms"] > 0, f"--warmup {warmup}: init {j['init_ms']:.3f} ms, first {j['first_inference_ms']:.3f} ms")
        check(j["iterations"] == 3 and j["warmup"] == warmup, f"--warmup {warmup}: 3 timed runs, {warmup} warm-up")
        check((j["warmup_mean_ms"] is None) == (warmup == 0), f"--warmup {warmup}: warm-up mean {j['warmup_mean_ms']}")
    p = subprocess.run([exe, "bench", model, "--iterations", "3", "--warmup", "0", "--threads", "1"],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and "init " in p.stdout and "first inference" in p.stdout
          and "first run and warm-up excluded" in p.stdout, "text output names init, first inference, steady state")
    print(f"{'all' if not failed else failed} {'passed' if not failed else 'failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
