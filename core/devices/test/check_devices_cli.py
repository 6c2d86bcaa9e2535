#!/usr/bin/python3
"""`edgecompile devices [--json]` and `edgecompile bench --device ID` end to end.

usage: check_devices_cli.py EDGECOMPILE MODEL WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

edgecompile, model, work = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
cfg = f"{work}/devices.json"
env = dict(os.environ, EC_DEVICES_CONFIG=cfg)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(*args):
    return subprocess.run([edgecompile, *args], capture_output=True, text=True, env=env, timeout=240)


def one_line_error(r, code, needle, what):
    lines = r.stderr.strip().splitlines()
    if r.returncode != code or len(lines) != 1 or needle not in lines[0]:
        fail(f"{what}: expected exit {code} and one line with {needle!r}, got {r.returncode} {r.stderr!r}")
    else:
        print(f"{what}: {lines[0]}")


# The table: host CPU first, the virtual Edge TPUs, "no Coral found" as a note, not an error.
r = run("devices")
print(r.stdout)
if r.returncode != 0:
    fail(f"devices exited {r.returncode}: {r.stderr}")
rows = r.stdout.splitlines()
if not rows or not rows[0].startswith("ID ") or not rows[1].startswith("host-cpu "):
    fail("the table does not start with its header and host-cpu")
for needle in ("coral-virtual-usb", "coral-virtual-pcie", "virtual: compile and estimate only", "note: no Coral found",
               "DISCOVERED BY", "backend coral", f"config: {cfg} (0 devices configured)"):
    if needle not in r.stdout:
        fail(f"`devices` does not print {needle!r}")

r = run("devices", "--json")
j = json.loads(r.stdout)
by_id = {d["id"]: d for d in j["devices"]}
cpu = by_id.get("host-cpu", {})
if not cpu.get("available") or cpu.get("is_virtual") or cpu.get("type") != "CPU" or not cpu["metadata"].get("LogicalCores"):
    fail(f"host-cpu: {cpu}")
if os.uname().machine == "x86_64" and cpu.get("discovered_by") != "cpuid":
    fail("host-cpu is not discovered by cpuid on x86-64")
v = by_id.get("coral-virtual-usb", {})
if v.get("available") or not v.get("is_virtual") or v.get("reason") != "virtual: compile and estimate only" \
        or v.get("discovered_by") != "backend coral" or v.get("type") != "TPU":
    fail(f"coral-virtual-usb: {v}")
for d in j["devices"]:
    if "DiscoveredBy" not in d["metadata"] or "IsVirtual" not in d["metadata"]:
        fail(f"{d['id']} lacks DiscoveredBy/IsVirtual metadata")
if not any(n.startswith("no Coral found") for n in j["notes"]):
    fail(f"notes: {j['notes']}")

# bench --device: unknown id (usage, exit 2, lists the known ids)
one_line_error(run("bench", model, "--device", "tpu-9"), 2, "unknown device 'tpu-9' (known: host-cpu, ", "unknown device")

# a virtual device: the backend's estimate, labelled, never a measurement
r = run("bench", model, "--device", "coral-virtual-usb")
if r.returncode != 0 or "estimate (not measured)" not in r.stdout or "mean" in r.stdout or "p99" in r.stdout:
    fail(f"virtual device text: {r.returncode} {r.stdout} {r.stderr}")
else:
    print(r.stdout)
r = run("bench", model, "--device", "coral-virtual-pcie", "--json")
e = json.loads(r.stdout) if r.returncode == 0 else {}
if e.get("measured") is not False or e.get("kind") != "estimate (not measured)" or not e["estimate"]["latency_ms"] > 0 \
        or "mean_ms" in e or "PCIe" not in e["estimate"]["model"]:
    fail(f"virtual device JSON: {r.stdout} {r.stderr}")

# host-cpu (also the default) still measures
r = run("bench", model, "--device", "host-cpu", "--iterations", "3", "--warmup", "0", "--json")
if r.returncode != 0 or json.loads(r.stdout)["iterations"] != 3:
    fail(f"bench --device host-cpu: {r.returncode} {r.stderr}")

# an unavailable device says why, exit 1
with open(cfg, "w") as f:
    json.dump({"version": 1, "devices": [{"id": "lab-coral", "name": "Coral on the lab bench", "type": "TPU",
                                          "provider": {"type": "local"}}]}, f)
one_line_error(run("bench", model, "--device", "lab-coral"), 1,
               "device 'lab-coral': not available: listed in devices.json but not found on this machine", "unavailable device")

# a corrupt devices.json: one line naming the file and field, exit 1, file untouched
bad = '{"devices": [{"id": "x", "provider": {"port": "twenty-two"}}]}'
with open(cfg, "w") as f:
    f.write(bad)
one_line_error(run("devices"), 1, f"{cfg}: devices[0].provider.port: expected a whole number", "corrupt config")
if open(cfg).read() != bad:
    fail("the corrupt config file was changed")

if failures:
    sys.exit(1)
print("devices CLI: OK")
