#!/usr/bin/python3
"""A target added as one folder, seen by every face of the CLI.

EDGECOMPILE_STUB is the CLI's own objects linked with a backend table that adds
tests/stub_target (CMakeLists.txt there); EDGECOMPILE is the CLI as shipped.

usage: check_stub_target.py EDGECOMPILE_STUB EDGECOMPILE MODEL WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

stub_cli, plain_cli, model, work = sys.argv[1], sys.argv[2], sys.argv[3], os.path.abspath(sys.argv[4])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ, EC_DEVICES_CONFIG=f"{work}/devices.json")
env.pop("EC_STUB_DEVICE_UNAVAILABLE", None)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(*args, cli=stub_cli, extra_env=None):
    e = dict(env, **(extra_env or {}))
    r = subprocess.run([cli, *args], capture_output=True, text=True, env=e, timeout=240)
    print(f"$ {os.path.basename(cli)} {' '.join(args)} -> {r.returncode}")
    return r


def expect_ok(r, what):
    if r.returncode != 0:
        fail(f"{what}: exit {r.returncode}: {r.stderr.strip()}")
        return False
    return True


# devices: the stub's device is listed, found by its backend's discover(), available.
r = run("devices")
print(r.stdout)
expect_ok(r, "devices")
row = next((l for l in r.stdout.splitlines() if l.startswith("stub-0 ")), "")
for needle in ("NPU", "Stub Accelerator", "stub probe", "yes"):
    if needle not in row:
        fail(f"devices: the stub-0 row {row!r} lacks {needle!r}")
if "note: stub probe: 1 stub device" not in r.stdout:
    fail("devices: the stub backend's note is not printed")

# devices --json: the same device; everything else exactly what the shipped CLI lists.
r = run("devices", "--json")
expect_ok(r, "devices --json")
j = json.loads(r.stdout)
stub = [d for d in j["devices"] if d["id"] == "stub-0"]
if len(stub) != 1:
    fail(f"devices --json: {len(stub)} stub-0 entries")
else:
    d = stub[0]
    if not d.get("available") or d.get("is_virtual") or d.get("type") != "NPU" or d.get("discovered_by") != "stub probe" \
            or d["metadata"].get("Backend") != "stub":
        fail(f"devices --json: stub-0 is {d}")
plain = json.loads(run("devices", "--json", cli=plain_cli).stdout)
if any(d["id"] == "stub-0" for d in plain["devices"]):
    fail("the shipped CLI lists the stub's device")


def without_stub(doc):
    doc = json.loads(json.dumps(doc))
    doc["devices"] = [d for d in doc["devices"] if d["id"] != "stub-0"]
    doc["notes"] = [n for n in doc.get("notes", []) if not n.startswith("stub probe")]
    return doc


if without_stub(j) != plain:
    fail("devices --json: apart from the stub, the list differs from the shipped CLI's")

# compile --target stub: the backend writes its artefact (the IR text form).
art = f"{work}/m.stub"
r = run("compile", model, "--target", "stub", "--quantize", "none", "--output", art, "--json")
if expect_ok(r, "compile --target stub"):
    rep = json.loads(r.stdout)
    if rep.get("backend") != "stub" or rep.get("output") != art:
        fail(f"compile --target stub: backend {rep.get('backend')!r}, output {rep.get('output')!r}")
    if not os.path.isfile(art) or not open(art).read().startswith('graph "'):
        fail(f"compile --target stub wrote no IR text artefact at {art}")
# the shipped CLI does not know the target
r = run("compile", model, "--target", "stub", "--output", f"{work}/plain.stub", cli=plain_cli)
if r.returncode == 0 or "unknown target" not in r.stderr or os.path.exists(f"{work}/plain.stub"):
    fail(f"the shipped CLI compiled for stub: {r.returncode} {r.stderr.strip()}")
# an unknown target lists the stub among the known ones
r = run("compile", model, "--target", "nosuch", "--output", f"{work}/x.tflite")
if r.returncode == 0 or "stub" not in r.stderr:
    fail(f"compile --target nosuch does not list stub: {r.stderr.strip()}")

# compile --target auto: the attached stub device decides, through its backend's data.
r = run("compile", model, "--target", "auto", "--quantize", "none", "--output", f"{work}/auto.stub", "--json")
if expect_ok(r, "compile --target auto"):
    rep = json.loads(r.stdout)
    if rep.get("backend") != "stub" or "stub-0" not in rep.get("target_reason", ""):
        fail(f"compile --target auto: backend {rep.get('backend')!r}, reason {rep.get('target_reason')!r}")
# ... and when it is unplugged, the backend's own words say so.
r = run("compile", model, "--target", "auto", "--quantize", "none", "--json",
        extra_env={"EC_STUB_DEVICE_UNAVAILABLE": "unplugged"})
if expect_ok(r, "compile --target auto (stub device unavailable)"):
    rep = json.loads(r.stdout)
    reason = rep.get("target_reason", "")
    if rep.get("backend") != "cpu" or "the stub device is not usable (stub-0: unplugged)" not in reason:
        fail(f"auto with an unusable stub device: backend {rep.get('backend')!r}, reason {reason!r}")

# bench --device stub-0: the artefact runs through the stub's open_session (on the CPU runtime).
r = run("bench", art, "--device", "stub-0", "--iterations", "3", "--warmup", "1")
print(r.stdout)
if expect_ok(r, "bench --device stub-0"):
    if "on stub-0 (Stub Accelerator)" not in r.stdout or "this machine (stub)" not in r.stdout \
            or "3 timed runs" not in r.stdout:
        fail(f"bench --device stub-0 printed {r.stdout!r}")
r = run("bench", art, "--device", "stub-0", "--iterations", "3", extra_env={"EC_STUB_DEVICE_UNAVAILABLE": "unplugged"})
lines = r.stderr.strip().splitlines()
if r.returncode != 1 or len(lines) != 1 or "not available: unplugged" not in lines[0]:
    fail(f"bench on an unavailable stub device: {r.returncode} {r.stderr!r}")
# a file that is not the stub's artefact is refused by its open_session, in one line
r = run("bench", model, "--device", "stub-0", "--iterations", "3")
lines = r.stderr.strip().splitlines()
if r.returncode == 0 or len(lines) != 1 or "not a .stub artefact" not in lines[0]:
    fail(f"bench of a non-artefact on stub-0: {r.returncode} {r.stderr!r}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("stub target: devices, devices --json, compile --target stub|auto, bench --device stub-0 all see it")
