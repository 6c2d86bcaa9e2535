#!/usr/bin/env python3
"""`edgecompile compile` end to end.

usage: check_compile_cli.py EDGECOMPILE WORK_DIR

- bad input gives one line on stderr, exit 1 (usage: 2), and writes nothing: an unknown
  target (the line lists the known ones), an unquantised model with --quantize none,
  calibration data of the wrong shape, an unwritable output path, a non-.tflite output;
- a float model compiled with --quantize ptq writes a .tflite (file identifier TFL3), the
  report file and --json carry the CompileReport keys of docs/compile-json.md;
- the seed form `edgecompile MODEL --target coral --output OUT.tflite` does the same;
- the Edge TPU test models (tests/data/edgetpu) print the partition figures; compiled with
  --output, the report's op counts are the written file's operators (and, where the written
  file holds the original's ops, the real edgetpu_compiler's split in its *_edgetpu.tflite);
- --target auto with no accelerator attached picks the backend writing the --output file
  type (.tflite: coral, .mlpackage: metal) and says why, in the text and in --json;
  without --output it is cpu.
Prints a closing "N passed, N failed" line.
"""
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

EDGECOMPILE, WORK = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "tests", "data", "edgetpu"))
passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("ok    " if ok else "FAIL  ") + what)
    if ok:
        passed += 1
    else:
        failed += 1


def run(*args):
    p = subprocess.run([EDGECOMPILE, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def one_line_error(code, err, want_code, needle, what):
    lines = [l for l in err.splitlines() if l.strip()]
    check(code == want_code and len(lines) == 1 and needle in err,
          f"{what}: exit {code} (want {want_code}), {len(lines)} stderr line(s): {err.strip()[:200]}")


def hexf(values):
    return "".join(struct.pack("<f", v).hex() for v in values)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
rng = np.random.default_rng(0)
w = rng.uniform(-0.5, 0.5, size=(8, 4, 1, 1)).astype(np.float32)
b = rng.uniform(-0.1, 0.1, size=(8,)).astype(np.float32)
float_model = os.path.join(WORK, "tiny.eir")
with open(float_model, "w") as f:
    f.write('graph "tiny" {\n'
            '  input %x : f32[1,4,8,8]\n'
            f'  const %w : f32[8,4,1,1] = hex"{hexf(w.flatten())}"\n'
            f'  const %b : f32[8] = hex"{hexf(b)}"\n'
            '  %c = Conv(%x, %w, %b) {group = 1, kernel_shape = [1,1]} : f32[1,8,8,8] @"conv"\n'
            '  %y = Relu(%c) : f32[1,8,8,8] @"relu"\n'
            '  output %y\n}\n')
cal = os.path.join(WORK, "cal.npy")
np.save(cal, rng.uniform(-1, 1, size=(8, 1, 4, 8, 8)).astype(np.float32))
bad_cal = os.path.join(WORK, "bad_cal.npy")
np.save(bad_cal, rng.uniform(-1, 1, size=(8, 3, 5)).astype(np.float32))
out = os.path.join(WORK, "out.tflite")

# bad input
one_line_error(*run("compile", float_model, "--target", "tpu", "--output", out)[::2], 1, "known targets: coral, ", "unknown target")
code, _, err = run("compile", float_model, "--target", "coral", "--quantize", "none", "--output", out)
one_line_error(code, err, 1, "not quantised", "unquantised model with --quantize none")
code, _, err = run("compile", float_model, "--target", "coral", "--quantize", "ptq", "--calibration-data", bad_cal, "--output", out)
one_line_error(code, err, 1, "", "calibration data of the wrong shape")
code, _, err = run("compile", float_model, "--target", "coral", "--quantize", "ptq", "--calibration-data", cal,
                   "--output", "/nonexistent-dir/out.tflite")
one_line_error(code, err, 1, "does not exist", "unwritable output path")
code, _, err = run("compile", float_model, "--target", "coral", "--output", os.path.join(WORK, "out.onnx"))
one_line_error(code, err, 2, ".tflite", "output not named .tflite")
code, _, err = run("compile", float_model, "--target", "coral", "--quantize", "dynamic", "--output", out)
one_line_error(code, err, 2, "ptq or qat", "--quantize dynamic for the Edge TPU (activations would stay float)")
check(not os.path.exists(out) and not os.path.exists(os.path.join(WORK, "out.onnx")), "nothing written by the bad inputs")

# a float model quantised and compiled
report = os.path.join(WORK, "report.json")
code, text, err = run("compile", float_model, "--target", "coral", "--quantize", "ptq", "--calibration-data", cal,
                      "--output", out, "--report", report)
check(code == 0, f"compile --quantize ptq: exit {code} {err.strip()[:300]}")
print(text)
if os.path.exists(out):
    with open(out, "rb") as f:
        head = f.read(8)
    check(head[4:8] == b"TFL3", "the artefact is a .tflite (TFL3)")
else:
    check(False, "the artefact was written")
if os.path.exists(report):
    j = json.load(open(report))
    keys = {"schema", "target", "ops", "partition", "backend_timeline", "estimate", "verified_by"}
    check(keys <= set(j), f"report keys {sorted(keys - set(j))} missing" if not keys <= set(j) else "report keys present")
    check(j["partition"]["ops_on_target"] >= 2, f"conv and relu on the Edge TPU: {j['partition']}")
    units = {e["unit"] for e in j["backend_timeline"]}
    check(all(o["name"] in units for o in j["ops"]), "every op has timeline entries")
    check(all(o["reason"] for o in j["ops"] if o["placement"] == "cpu"), "every CPU op has a reason")
else:
    check(False, "the report was written")

# seed form and --json
seed = os.path.join(WORK, "seed.tflite")
code, text, err = run(float_model, "--target", "coral", "--quantize", "ptq", "--calibration-data", cal, "--output", seed, "--json")
check(code == 0 and os.path.exists(seed), f"seed form: exit {code} {err.strip()[:200]}")
try:
    j = json.loads(text)
    check(j.get("schema") == "edgecompiler.compile/1" and j.get("backend") == "coral", "seed form --json is a CompileReport")
except ValueError as e:
    check(False, f"--json parses: {e}")

# --target auto: no device decides on this machine (no Coral attached), so the artefact type does
seed_auto = os.path.join(WORK, "seed_auto.tflite")
code, text, err = run(float_model, "--target", "auto", "--quantize", "ptq", "--calibration-data", cal, "--output", seed_auto,
                      "--json")
try:
    j = json.loads(text) if code == 0 else {}
except ValueError:
    j = {}
reason = j.get("target_reason", "")
if j.get("backend") == "coral" and "is attached and available" in reason:
    check(os.path.exists(seed_auto), "auto with a Coral attached: coral, the .tflite written")
else:
    check(code == 0 and os.path.exists(seed_auto) and j.get("backend") == "coral",
          f"seed form --target auto --output m.tflite picks coral: exit {code} {err.strip()[:200]}")
    check(".tflite" in reason and "coral backend writes" in reason, f"and says why: {reason!r}")
code, _, err = run(float_model, "--target", "auto", "--output", os.path.join(WORK, "seed_auto_nocal.tflite"))
if "is attached and available" not in reason:
    one_line_error(code, err, 2, "--target auto chose coral, so --quantize ptq needs --calibration-data",
                   "a float model, auto, --output m.tflite and no calibration data")
code, text, err = run(float_model, "--target", "auto", "--quantize", "ptq", "--calibration-data", cal,
                      "--output", os.path.join(WORK, "seed_auto2.tflite"))
check(code == 0 and "coral backend writes" in text.splitlines()[0] if text else False,
      f"the text summary's first line gives the reason: {text.splitlines()[:1]} {err.strip()[:200]}")
code, text, err = run(float_model, "--target", "auto", "--json")
try:
    j = json.loads(text)
    check(code == 0 and j.get("backend") in ("cpu", "coral") and (j["backend"] == "coral" or "so cpu" in j["target_reason"]),
          f"auto without --output: cpu with a reason ({j.get('backend')}: {j.get('target_reason')!r})")
except ValueError as e:
    check(False, f"auto without --output: exit {code} {err.strip()[:200]} {e}")
code, text, err = run("compile", float_model, "--target", "auto", "--quantize", "none",
                      "--output", os.path.join(WORK, "auto.mlpackage"), "--json")
try:
    j = json.loads(text)
    check(code == 0 and j.get("backend") == "metal" and ".mlpackage" in j.get("target_reason", ""),
          f"auto --output m.mlpackage picks metal: {j.get('backend')}: {j.get('target_reason')!r}")
except ValueError as e:
    check("unknown target" in err or "metal" not in err, f"auto --output m.mlpackage: exit {code} {err.strip()[:200]} {e}")
code, _, err = run("compile", float_model, "--target", "auto", "--output", os.path.join(WORK, "auto.onnx"))
check(code != 0 and not os.path.exists(os.path.join(WORK, "auto.onnx")), f"auto --output m.onnx writes nothing: {err.strip()[:200]}")


def tflite_operator_count(path):
    """Operators of subgraph 0 of a .tflite, read from the flatbuffer itself."""
    with open(path, "rb") as f:
        buf = f.read()
    u32 = lambda o: struct.unpack_from("<I", buf, o)[0]

    def field(table, index):  # absolute position of a table's field, or None
        vt = table - struct.unpack_from("<i", buf, table)[0]
        vt_size = struct.unpack_from("<H", buf, vt)[0]
        if 4 + 2 * index >= vt_size:
            return None
        off = struct.unpack_from("<H", buf, vt + 4 + 2 * index)[0]
        return table + off if off else None

    def vector(pos):  # (first element position, length)
        v = pos + u32(pos)
        return v + 4, u32(v)

    model = u32(0)
    subgraphs, _ = vector(field(model, 2))  # Model.subgraphs
    sg = subgraphs + u32(subgraphs)
    ops = field(sg, 3)  # SubGraph.operators
    return vector(ops)[1] if ops is not None else 0


# the Edge TPU test models, as they are (--quantize none keeps their parameters)
for name in ("mobilenet_v1_0.25_128_quant", "deeplabv3_mnv2_dm05_pascal_quant", "posenet_mobilenet_v1_075_353_481_quant_decoder"):
    path = os.path.join(DATA, name + ".tflite")
    if not os.path.exists(path):
        check(False, f"{path} exists")
        continue
    code, text, err = run("compile", path, "--target", "coral", "--quantize", "none", "--json")
    if code != 0:
        check(False, f"{name}: exit {code} {err.strip()[:300]}")
        continue
    j = json.loads(text)
    p = j["partition"]
    cpu = {}
    for o in j["ops"]:
        if o["placement"] == "cpu":
            cpu[o["type"]] = cpu.get(o["type"], 0) + 1
    print(f"{name}: predicted {p['ops_on_target']} on Edge TPU / {p['ops_on_cpu']} on CPU, {p['segments']} segment(s), "
          f"CPU by type {cpu}; estimate {j['estimate']['latency_ms']:.2f} ms")
    check(True, f"{name} compiles")
    # compiled with --output: the counts are the written file's operators
    written = os.path.join(WORK, name + ".out.tflite")
    code, text, err = run("compile", path, "--target", "coral", "--quantize", "none", "--output", written, "--json")
    if code != 0 or not os.path.exists(written):
        check(False, f"{name} --output: exit {code} {err.strip()[:300]}")
        continue
    p = json.loads(text)["partition"]
    n = tflite_operator_count(written)
    check(p["ops_total"] == n == p["ops_on_target"] + p["ops_on_cpu"] and "written file" in p["counted_in"],
          f"{name}: summary counts {p['ops_total']} = {p['ops_on_target']} + {p['ops_on_cpu']}, the written file holds {n} "
          f"({p['counted_in']})")
    real = os.path.join(DATA, name + "_edgetpu.tflite")
    original_ops = tflite_operator_count(path)
    if os.path.exists(real) and n == original_ops:
        code, itext, _ = run("inspect", real, "--json")
        split = json.loads(itext).get("compiled_split", {}).get("partition", {}) if code == 0 else {}
        check(split.get("ops_on_cpu") == p["ops_on_cpu"],
              f"{name}: {p['ops_on_cpu']} on the CPU as edgetpu_compiler left {split.get('ops_on_cpu')} "
              f"(of {original_ops} ops)")

# a compiled file shows the split its compiler recorded (inspect, text and --json)
compiled = os.path.join(DATA, "deeplabv3_mnv2_dm05_pascal_quant_edgetpu.tflite")
code, text, err = run("inspect", compiled)
check(code == 0 and "Compiled split recorded in the file" in text and "Mapped to Edge TPU" in text,
      f"inspect of an _edgetpu.tflite shows its split: exit {code} {err.strip()[:200]}")
code, text, err = run("inspect", compiled, "--json")
try:
    split = json.loads(text).get("compiled_split") or {}
    check(split.get("partition", {}).get("segments") == 1 and split.get("verified_by") == "the compiled artefact itself",
          f"inspect --json carries compiled_split: {split.get('partition')}")
except ValueError as e:
    check(False, f"inspect --json parses: {e}")
code, text, _ = run("inspect", os.path.join(DATA, "deeplabv3_mnv2_dm05_pascal_quant.tflite"), "--json")
check(code == 0 and "compiled_split" not in json.loads(text), "an uncompiled model has no compiled_split")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
