#!/usr/bin/env python3
"""--strategy qat reproduces the scales of a QDQ model exported by PyTorch.

usage: check_qat.py EDGECOMPILE WORK_DIR

Builds a small conv net (Conv+ReLU, Conv+ReLU, Flatten, Linear) with
torch.ao.quantization eager-mode QAT (prepare_qat: FakeQuantize on the input,
on every Conv/Linear output and per-channel symmetric on every weight; signed
int8 activations so zero points compare directly), runs a few fixed-seed
training-mode batches so the observers move, freezes them, and exports ONNX
opset 13, where each FakeQuantize becomes a QuantizeLinear/DequantizeLinear pair.
Then `edgecompile quantize qat.onnx --strategy qat --json` must report, for every
activation the pairs describe, the same scale and zero point, and for every
weight the same per-channel scales (float32 equality) -- and the int8 graph must
follow the float model (SQNR printed). A model without QDQ pairs must be refused.
"""
import json
import os
import subprocess
import sys

import numpy as np


def build_and_export(path):
    import torch
    import torch.nn as nn
    from torch.ao.quantization import (DeQuantStub, FakeQuantize, MovingAverageMinMaxObserver,
                                       MovingAveragePerChannelMinMaxObserver, QConfig, QuantStub)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant = QuantStub()
            self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
            self.relu1 = nn.ReLU()
            self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
            self.relu2 = nn.ReLU()
            self.fc = nn.Linear(16 * 4 * 4, 10)
            self.dequant = DeQuantStub()

        def forward(self, x):
            x = self.quant(x)
            x = self.relu1(self.conv1(x))
            x = self.relu2(self.conv2(x))
            x = torch.flatten(x, 1)
            return self.dequant(self.fc(x))

    torch.manual_seed(0)
    model = Net()
    model.qconfig = QConfig(
        activation=FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=-128, quant_max=127,
                                          dtype=torch.qint8, qscheme=torch.per_tensor_affine),
        weight=FakeQuantize.with_args(observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128,
                                      quant_max=127, dtype=torch.qint8, qscheme=torch.per_channel_symmetric,
                                      ch_axis=0))
    model = torch.ao.quantization.fuse_modules_qat(model.train(), [["conv1", "relu1"], ["conv2", "relu2"]])
    torch.ao.quantization.prepare_qat(model, inplace=True)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(8):
            model(torch.rand(4, 3, 8, 8, generator=gen))
    model.apply(torch.ao.quantization.disable_observer)
    model.eval()
    torch.onnx.export(model, torch.rand(1, 3, 8, 8), path, opset_version=13, input_names=["input"],
                      output_names=["output"], do_constant_folding=False)


def qdq_params(path):
    """QuantizeLinear input tensor -> (scales, zero points) from the ONNX file."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    consts = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == "Constant":
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    for n in m.graph.node:  # PyTorch exports zero points as Cast(Identity(initializer))
        if n.op_type == "Identity" and n.input[0] in consts:
            consts[n.output[0]] = consts[n.input[0]]
        if n.op_type == "Cast" and n.input[0] in consts:
            to = next(a.i for a in n.attribute if a.name == "to")
            consts[n.output[0]] = consts[n.input[0]].astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[to])
    out = {}
    for n in m.graph.node:
        if n.op_type == "QuantizeLinear":
            s = np.atleast_1d(consts[n.input[1]]).astype(np.float32)
            z = np.atleast_1d(consts[n.input[2]]).astype(np.int64)
            out[n.input[0]] = (s, z)
    return out, {t.name for t in m.graph.initializer}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "qat.onnx")
    build_and_export(path)
    want, consts = qdq_params(path)
    x_path = os.path.join(work, "calib.npy")
    np.save(x_path, np.random.default_rng(3).random((8, 3, 8, 8), dtype=np.float32))
    p = subprocess.run([exe, "quantize", path, "--strategy", "qat", "--calibration-data", x_path, "--json",
                        "--output", os.path.join(work, "qat.eir")], capture_output=True, text=True, timeout=300)
    failed = 0
    if p.returncode != 0:
        print(f"FAIL edgecompile quantize --strategy qat exited {p.returncode}: {p.stderr.strip()}")
        return 1
    r = json.loads(p.stdout)
    tensors = {t["tensor"]: t for t in r["tensors"]}
    layers = {l["weight"]: l for l in r["layers"]}
    acts = weights = 0
    for name, (s, z) in sorted(want.items()):
        if name in consts:
            got = layers.get(name)
            if got is None:
                print(f"FAIL weight {name}: not quantised")
                failed += 1
                continue
            gs = np.array(got["weight_params"]["scales"], dtype=np.float32)
            ok = gs.shape == s.shape and np.array_equal(gs, s) and all(v == 0 for v in got["weight_params"]["zero_points"])
            weights += 1
        else:
            # The exported tensor may be the graph output (the DequantizeLinear's name).
            got = tensors.get(name) or (tensors.get("output") if name not in tensors else None)
            if got is None:
                print(f"FAIL activation {name}: no tensor in the report")
                failed += 1
                continue
            gs = np.array(got["params"]["scales"], dtype=np.float32)
            ok = np.array_equal(gs, s) and got["params"]["zero_points"] == [int(v) for v in z]
            acts += 1
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"{name}: exported scales {s[:4]}.. zp {z[:4]}.. ; ours "
              f"{gs[:4]}..")
    if acts < 4 or weights < 3:
        print(f"FAIL expected >= 4 activations and 3 weights compared, got {acts} and {weights}")
        failed += 1
    o = r["outputs"][0]
    print(f"     int8 graph vs float: output SQNR {o['sqnr_db']:.2f} dB, top-1 agreement {100 * o['top1_agreement']:.0f}%"
          f", {len(r['float_ops'])} ops in float")
    if r["float_ops"]:
        print(f"FAIL ops left in float: {r['float_ops']}")
        failed += 1
    # A model without QDQ pairs (our int8 graph: its Q/DQ only sit at the edges) is
    # refused with one line, exit 1, no output file.
    bad_out = os.path.join(work, "never.eir")
    q = subprocess.run([exe, "quantize", os.path.join(work, "qat.eir"), "--strategy", "qat", "--output", bad_out],
                       capture_output=True, text=True, timeout=120)
    ok = q.returncode == 1 and len(q.stderr.strip().splitlines()) == 1 and not os.path.exists(bad_out)
    print(("ok   " if ok else "FAIL ") + f"qat on a model without QDQ: exit {q.returncode}: {q.stderr.strip()}")
    failed += not ok
    print(f"{'FAILED' if failed else 'passed'}: {acts} activations, {weights} weights compared")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
