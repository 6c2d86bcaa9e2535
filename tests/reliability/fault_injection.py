#!/usr/bin/env python3
"""Fault injection on every writer of the CLI (issue 36): a disk that fills up
mid-write (an LD_PRELOAD shim, write_fault.c, makes write() fail with ENOSPC after
N bytes), a process killed mid-write (the shim raises SIGKILL after N bytes), and a
read-only folder (as root, which ignores folder permissions, the CLI runs as the
unprivileged user `nobody` through util-linux's setpriv for that case).

What must hold for each: the file that was there before is left byte for byte, or
the complete new one is there - never a half-written file; a refused write gives
exit 1 and one line naming the file; no temporary file is left after a refusal.

The run history (runs_db) is a SQLite database that is written in place, not replaced:
there a fault must leave it readable with every run recorded before, the benchmark still
reported (a warning that the run was not recorded, exit 0).

usage: fault_injection.py EDGECOMPILE SAMPLE_MODEL SHIM WRITER [DEVICES_DRIVER]
       (WRITER 'list' prints them; DEVICES_DRIVER, ec_save_devices_config, stands in for the
       workbench's devices.json writer)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

OLD = b"the old file: must survive a failed write\n"


def target_and_args(writer, model):
    """(output path relative to the work folder, edgecompile arguments)."""
    return {
        "tflite": ("o.tflite", ["convert", model, "--output", "o.tflite"]),
        "mlpackage": ("o.mlpackage", ["compile", model, "--target", "metal", "--output", "o.mlpackage", "--no-record"]),
        "eir": ("o.eir", ["optimize", model, "--output", "o.eir"]),
        "csv": ("o.csv", ["bench", model, "--iterations", "3", "--warmup", "1", "--csv", "o.csv", "--no-record"]),
        "report_json": ("r.json", ["compile", model, "--target", "cpu", "--report", "r.json", "--no-record"]),
        "npy": ("out/output.npy", ["run", model, "--output-dir", "out"]),
        "onnx": ("o.onnx", ["convert", model, "--output", "o.onnx"]),
        "html": ("o.html", ["report", model, "--html", "o.html"]),
        "svg": ("g.svg", ["draw", model, "--output", "g.svg"]),
        "png": ("g.png", ["draw", model, "--output", "g.png"]),
        # run by the driver (argv[5]) instead of edgecompile
        "devices_json": ("devices.json", ["devices.in.json", "devices.json"]),
    }[writer]


WRITERS = ["tflite", "mlpackage", "eir", "csv", "report_json", "npy", "onnx", "html", "svg", "png",
           "devices_json", "runs_db"]

DEVICES_IN = {"version": 1, "devices": [{
    "id": "board-1", "name": "Coral Dev Board", "type": "TPU", "vendor": "Google",
    "provider": {"type": "ssh", "host": "board.lan", "user": "mendel", "port": 22,
                 "remote_dir": "/tmp/edgecompile", "ssh_options": ["ConnectTimeout=5"]}}]}


def check_runs_db(exe, shim, env, d):
    """The run history under a full disk and SIGKILL while a run is recorded."""
    failed = []
    bench = [exe, "bench", "model.onnx", "--iterations", "2", "--warmup", "1", "--runs-db", "runs.db"]

    def count():
        p = subprocess.run([exe, "runs", "list", "--runs-db", "runs.db", "--json"], cwd=d,
                           capture_output=True, env=env, timeout=120)
        if p.returncode != 0:
            return None, p.stderr.decode("utf-8", "replace").strip()
        return len(json.loads(p.stdout)["runs"]), ""

    p = subprocess.run(bench, cwd=d, capture_output=True, env=env, timeout=300)
    n, err = count()
    if p.returncode != 0 or n != 1:
        return [f"runs_db: recording without faults failed: {p.stderr.decode()[:400]} {err}"]
    for mode, limit in (("enospc", 0), ("enospc", 1500), ("enospc", 6000), ("kill", 0), ("kill", 1500),
                        ("kill", 6000)):
        label = f"runs_db: {mode} after {limit} bytes"
        fenv = dict(env, LD_PRELOAD=shim, EC_FAULT_BYTES=str(limit), EC_FAULT_MODE=mode)
        p = subprocess.run(bench, cwd=d, capture_output=True, env=fenv, timeout=300)
        err = p.stderr.decode("utf-8", "replace").strip()
        m, lerr = count()
        if m is None:
            failed.append(f"{label}: the history is no longer readable: {lerr[:300]!r}")
            continue
        if m not in (n, n + 1):
            failed.append(f"{label}: {m} runs after it, {n} before")
        if mode == "enospc":
            lines = err.splitlines()
            recorded = m == n + 1
            if p.returncode != 0 or (not recorded and (len(lines) != 1 or "runs.db" not in err)):
                failed.append(f"{label}: exit {p.returncode}, want 0 with one warning naming runs.db: {err[:400]!r}")
            else:
                print(f"ok: {label}: exit 0, {'recorded' if recorded else err}; {m} runs readable")
        elif p.returncode != -9:
            failed.append(f"{label}: the shim did not kill it (exit {p.returncode})")
        else:
            print(f"ok: {label}: killed; the history opens with {m} runs ({n} before)")
        n = m
    p = subprocess.run(bench, cwd=d, capture_output=True, env=env, timeout=300)
    m, lerr = count()
    if p.returncode != 0 or m != n + 1:
        failed.append(f"runs_db: recording after the faults failed: {m} runs, {n} before; {lerr}")
    else:
        print(f"ok: runs_db: recording after the faults works ({m} runs)")
    return failed


def snapshot(path):
    """The bytes of a file, or of every file of a folder (by relative path)."""
    if os.path.isdir(path):
        return {os.path.relpath(os.path.join(r, f), path): open(os.path.join(r, f), "rb").read()
                for r, _, fs in os.walk(path) for f in fs}
    return open(path, "rb").read() if os.path.exists(path) else None


def plant_old(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    if path.endswith(".mlpackage"):
        os.makedirs(path)
        open(os.path.join(path, "Manifest.json"), "wb").write(OLD)
    else:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        open(path, "wb").write(OLD)
    return snapshot(path)


def stray_files(d, keep):
    return sorted(f for f in os.listdir(d) if f not in keep and (".tmp" in f or f.startswith(".")))


def main():
    exe, model, shim, writer = [os.path.abspath(a) for a in sys.argv[1:4]] + [sys.argv[4]]
    if writer == "list":
        print(";".join(WRITERS))
        return 0
    if writer == "devices_json":
        exe = os.path.abspath(sys.argv[5])
    failed = []
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(model, os.path.join(d, "model.onnx"))
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0")
        if writer == "runs_db":
            failed = check_runs_db(exe, shim, env, d)
            for f in failed:
                print("FAIL " + f)
            return 1 if failed else 0
        with open(os.path.join(d, "devices.in.json"), "w") as f:
            json.dump(DEVICES_IN, f)
        out, args = target_and_args(writer, "model.onnx")
        path = os.path.join(d, out)
        os.makedirs(os.path.join(d, "out"), exist_ok=True)
        # Output names of `run` depend on the model: find the one it writes.
        p = subprocess.run([exe] + args, cwd=d, capture_output=True, env=env, timeout=300)
        if p.returncode != 0:
            print(f"FAIL: the writer does not work without faults: {p.stderr.decode()[:800]}")
            return 1
        if writer == "npy":
            out = "out/" + sorted(os.listdir(os.path.join(d, "out")))[0]
            path = os.path.join(d, out)
        new = snapshot(path)
        size = sum(len(v) for v in new.values()) if isinstance(new, dict) else len(new)
        keep = set(os.listdir(os.path.dirname(path)))

        for mode, limit in (("enospc", 0), ("enospc", size // 2), ("kill", size // 2)):
            old = plant_old(path)
            fenv = dict(env, LD_PRELOAD=shim, EC_FAULT_BYTES=str(limit), EC_FAULT_MODE=mode)
            p = subprocess.run([exe] + args, cwd=d, capture_output=True, env=fenv, timeout=300)
            after = snapshot(path)
            # (run's note about random inputs is not part of the error)
            err = "\n".join(l for l in p.stderr.decode("utf-8", "replace").strip().splitlines()
                            if "no --input given" not in l)
            label = f"{writer}: {mode} after {limit} of {size} bytes"
            if after != old and after != new:
                failed.append(f"{label}: a half-written output is left")
            if mode == "enospc":
                lines = err.splitlines()
                if p.returncode != 1 or len(lines) != 1 or os.path.basename(out) not in err:
                    failed.append(f"{label}: exit {p.returncode}, want 1 with one line naming {out}: {err[:600]!r}")
                left = stray_files(os.path.dirname(path), keep)
                if left:
                    failed.append(f"{label}: temporary files left: {left}")
            elif p.returncode != -9:
                failed.append(f"{label}: the shim did not kill it (exit {p.returncode}): {err[:300]!r}")
            else:
                left = stray_files(os.path.dirname(path), keep)
                note = f" (a killed writer leaves its temporary file: {left})" if left else ""
                for f in left:
                    q = os.path.join(os.path.dirname(path), f)
                    shutil.rmtree(q) if os.path.isdir(q) else os.remove(q)
                print(f"ok: {label}: the old output is intact{note}")
                continue
            if not failed:
                print(f"ok: {label}: exit 1, the old output is intact: {err}")

        # Without faults the new output replaces the old one whole.
        # (timings and package ids differ from run to run: those compare by file names and sizes)
        old = plant_old(path)
        p = subprocess.run([exe] + args, cwd=d, capture_output=True, env=env, timeout=300)
        again = snapshot(path)
        varies = writer in ("csv", "report_json", "mlpackage", "html")
        same = again == new if not varies else (
            sorted(again) == sorted(new) if isinstance(new, dict) else again != old and len(again) > 0)
        if p.returncode != 0 or not same:
            failed.append(f"{writer}: the write after the faults did not give the complete output")
        else:
            print(f"ok: {writer}: without faults the new output replaces the old one")

        # A read-only folder: refused in one line, the old file kept. Root ignores folder
        # permissions, so as root the CLI runs as `nobody` (setpriv) on a tree it owns.
        as_user = []
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if not setpriv:
                print(f"skipped: {writer}: read-only folder (running as root and util-linux's setpriv is missing)")
                continue_ro = False
            else:
                as_user = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
                continue_ro = True
        else:
            continue_ro = True
        if continue_ro:
            old = plant_old(path)
            folder = os.path.dirname(path)
            renv = dict(env)
            if as_user:
                home = os.path.join(d, "home")
                os.makedirs(home, exist_ok=True)
                renv.update(HOME=home, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home)
                for r, dirs, files in os.walk(d):
                    for n in [r] + [os.path.join(r, f) for f in dirs + files]:
                        os.chown(n, 65534, 65534)
                os.chmod(d, 0o755)
            os.chmod(folder, 0o555)
            try:
                p = subprocess.run(as_user + [exe] + args, cwd=d, capture_output=True, env=renv, timeout=300)
            finally:
                os.chmod(folder, 0o755)
            err = p.stderr.decode("utf-8", "replace").strip()
            err = "\n".join(l for l in err.splitlines() if "no --input given" not in l)
            who = " (as nobody)" if as_user else ""
            if p.returncode != 1 or len(err.splitlines()) != 1 or snapshot(path) != old:
                failed.append(f"{writer}: read-only folder{who}: exit {p.returncode}, old kept {snapshot(path) == old}: {err[:300]!r}")
            else:
                print(f"ok: {writer}: read-only folder{who}: {err}")
    for f in failed:
        print("FAIL " + f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
