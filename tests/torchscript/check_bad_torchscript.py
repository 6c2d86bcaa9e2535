#!/usr/bin/python3
"""Bad TorchScript input (issue 37): each file gets one line naming it and the
problem, exit 1, no crash, no hang, nothing written; an aten op with no mapping is
listed by `inspect` (with its schema) and refused by `run`/`compile` in one line
naming it and where it sits.

usage: check_bad_torchscript.py EDGECOMPILE WORKDIR
"""
import os

import numpy as np
import pickle
import shutil
import subprocess
import sys
import warnings
import zipfile

try:
    import torch
except ImportError as e:  # pragma: no cover
    print(f"skip: {e}")
    sys.exit(77)

warnings.filterwarnings("ignore")
EC, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
failures = []


def path(name):
    return os.path.join(WORK, name)


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Unmapped(torch.nn.Module):
    """torch.fft has no IR mapping."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return torch.fft.rfft(self.fc(x)).abs()


class DataFlow(torch.nn.Module):
    """A branch on the input's values: cannot be compiled ahead of time."""

    def forward(self, x):
        if bool(x.sum() > 0):
            return x * 2
        return x - 1


torch.manual_seed(0)
good = path("small.pt")
torch.jit.save(torch.jit.trace(Small().eval(), torch.randn(1, 3, 8, 8)), good)
with open(good, "rb") as f:
    blob = f.read()

# Truncated archive.
with open(path("truncated.pt"), "wb") as f:
    f.write(blob[: len(blob) // 2])
# An archive without constants.pkl.
with zipfile.ZipFile(good) as zin, zipfile.ZipFile(path("no_constants.pt"), "w") as zout:
    for item in zin.infolist():
        if not item.filename.endswith("constants.pkl"):
            zout.writestr(item, zin.read(item.filename))
# torch.save of a state dict (zip) and the legacy pickle format.
torch.save(Small().state_dict(), path("state_dict.pt"))
torch.save(Small().state_dict(), path("legacy.pth"), _use_new_zipfile_serialization=False)
# A zip that is not a model; bytes that are not a zip.
with zipfile.ZipFile(path("other.pt"), "w") as z:
    z.writestr("readme.txt", "hello")
with open(path("garbage.pt"), "wb") as f:
    f.write(b"PK\x03\x04" + os.urandom(3000))
with open(path("pickle_junk.pt"), "wb") as f:
    f.write(pickle.dumps({"a": 1}, protocol=2))
# Code in the archive mangled: torch.jit.load fails inside libtorch.
with zipfile.ZipFile(good) as zin, zipfile.ZipFile(path("bad_code.pt"), "w") as zout:
    for item in zin.infolist():
        data = zin.read(item.filename)
        if item.filename.endswith(".py"):
            data = b"def forward(self, x:\n  return ((("
        zout.writestr(item, data)
# A tensor's bytes cut short (data/N empty or half), CRCs valid: libtorch builds tensors that
# reach past their storage (found by mutating archives: a SIGSEGV inside a convolution).
# (A cut within the allocator's rounding, under 64 bytes, reads no byte outside the block.)
for record, cut, fname in (("/data/1", 0, "empty_record.pt"), ("/data/0", 8, "short_record.pt")):
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(path(fname), "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.endswith(record):
                data = data[:cut]
            zout.writestr(item, data)
torch.jit.save(torch.jit.script(DataFlow()), path("dataflow.pt"))
torch.jit.save(torch.jit.trace(Unmapped().eval(), torch.randn(1, 8)), path("unmapped.pt"))

calib = path("calib.npy")
np.save(calib, np.random.default_rng(0).standard_normal((1, 8)).astype(np.float32))

CASES = [
    # file, extra args, text the one line must contain
    ("truncated.pt", ["--input-shape", "x=1,3,8,8"], "zip"),
    ("no_constants.pt", ["--input-shape", "x=1,3,8,8"], "constants.pkl"),
    ("state_dict.pt", [], "torch.save"),
    ("legacy.pth", [], "torch.save"),
    ("other.pt", [], "not a TorchScript archive"),
    ("garbage.pt", [], "zip"),
    ("pickle_junk.pt", [], "torch.save"),
    ("bad_code.pt", ["--input-shape", "x=1,3,8,8"], "torch.jit.load"),
    ("dataflow.pt", ["--input-shape", "x=1,4"], "input's values"),
    ("empty_record.pt", ["--input-shape", "x=1,3,8,8"], "past its stored bytes"),
    ("short_record.pt", ["--input-shape", "x=1,3,8,8"], "past its stored bytes"),
    ("small.pt", [], "--input-shape x="),
    ("small.pt", ["--input-shape", "y=1,3,8,8", "--input-shape", "x=1,3,8,8"], "not an input"),
    ("small.pt", ["--input-shape", "x=1,5,8,8"], "check --input-shape"),
    ("unmapped.pt", ["--input-shape", "x=1,8"], "aten::fft_rfft"),
]

for name, extra, expect in CASES:
    for cmd in (["run"], ["compile", "--target", "coral", "--calibration-data", calib, "--output", path("out.tflite")]):
        if name != "unmapped.pt" and cmd[0] == "compile":
            continue
        out_dir = path("out_" + name)
        args = [EC, *cmd, path(name), *extra] + (["--output-dir", out_dir] if cmd[0] == "run" else ["--no-record"])
        try:
            r = subprocess.run(args, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            failures.append(f"{name}: hangs")
            continue
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        # A file the reader refuses is named; an unmapped op is refused by the runtime or backend
        # with the op's name (which carries its module path).
        ok = r.returncode == 1 and len(lines) == 1 and expect in lines[0]
        ok &= name in lines[0] or name == "unmapped.pt"
        ok &= not os.path.exists(out_dir) or not os.listdir(out_dir)
        ok &= not os.path.exists(path("out.tflite"))
        print(("ok  " if ok else "FAIL") + f" {cmd[0]} {name}: exit {r.returncode}: {r.stderr.strip()[:240]}")
        if not ok:
            failures.append(f"{cmd[0]} {name}")

# inspect lists the unmapped op with its schema and succeeds.
r = subprocess.run([EC, "inspect", path("unmapped.pt"), "--input-shape", "x=1,8"], capture_output=True, text=True,
                   timeout=60)
ok = r.returncode == 0 and "aten::fft_rfft(Tensor self" in r.stdout  # with its schema
print(("ok  " if ok else "FAIL") + f" inspect unmapped.pt lists aten::fft_rfft: exit {r.returncode}")
if not ok:
    print(r.stdout[-800:], r.stderr[-400:])
    failures.append("inspect unmapped.pt")

if failures:
    print(f"{len(failures)} failed: {', '.join(failures)}")
    sys.exit(1)
print("every bad TorchScript file refused in one line")
