#!/usr/bin/env python3
"""Issue 35: the architecture families `compile --target metal` used to refuse, built here with
Debian's PyTorch (torch.manual_seed, random weights, nothing downloaded):

  gru_bi2      2-layer bidirectional GRU, hidden 80, batch_first (PyTorch's GRU is ONNX's
               linear_before_reset = 1: unrolled into plain MIL ops)
  lstm_uni     LSTM, hidden 48, sequence first            -> MIL lstm
  lstm_bi      bidirectional LSTM, hidden 100, batch_first  -> MIL lstm, direction bidirectional
  gru_lbr0     a GRU exported by torch and rewritten to linear_before_reset = 0 (with its own
               reference run on the CPU runtime: torch has no such GRU) -> MIL gru + reverse
  encdec       Conv2d encoder, ConvTranspose2d decoder: 2x2 stride 2, 3x3 stride 2 with
               output_padding 1, grouped + dilated               -> MIL conv_transpose
  video3d      8 frames: Conv3d + BatchNorm3d + ReLU + MaxPool3d + AdaptiveAvgPool3d + Linear
  audio1d      dilated Conv1d stack
  misc_ops     HardSigmoid, nearest and bilinear Upsample, SiLU, GELU, LayerNorm
  deconv1d     ConvTranspose1d, one with output_padding 2 beyond its pad (conv_transpose + pad + add)
  deconv3d     ConvTranspose3d, 2x2x2 stride 2 and a grouped 3x3x3 stride 2 with output_padding 1
lstm_bi and gru_lbr0 are also written for iOS17 (fp16 recurrent ops, no casts around them).

Each is exported to ONNX (opset 13), compiled with `edgecompile compile --target metal`
at fp16 and fp32, checked by the independent reader (coreml_reader.py), read back with
`edgecompile run X.mlpackage` (the Core ML frontend on the CPU runtime) and compared with
PyTorch's own output: max|diff| <= 1e-4 x max|output| at fp32 (float32 rounding over a few
hundred accumulations, and the recurrences compound it step by step), <= 1e-2 x max|output|
at fp16 (the package's constants are rounded to fp16, 11-bit mantissa: ~5e-4 relative per
weight; the CPU runtime then computes in f32, so only weight rounding is seen here).

usage: check_metal_families.py EDGECOMPILE PROTO_DIR WORK_DIR [MODEL...]
"""
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_util  # noqa: E402
import coreml_reader  # noqa: E402

EC, PROTO_DIR, WORK = sys.argv[1:4]
ONLY = set(sys.argv[4:])
TOL = {"fp16": 1e-2, "fp32": 1e-4}

CHECKS = check_util.Checks(EC)
check, run = CHECKS.check, CHECKS.run

# Built in a child /usr/bin/python3 (Debian's torch; the interpreter running this script may
# lack it): writes NAME.onnx, NAME_input.npy and NAME_torch.npy (PyTorch's output) per model.
EXPORT = r'''
import sys, numpy as np, torch, torch.nn as nn
work, names = sys.argv[1], sys.argv[2:]
torch.manual_seed(35)

class Seq(nn.Module):  # a recurrent layer and a linear head on its output sequence
    def __init__(self, rnn, width, out=10):
        super().__init__()
        self.rnn, self.head = rnn, nn.Linear(width, out)
    def forward(self, x):
        y, _ = self.rnn(x)
        return self.head(y)

class Misc(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 3, padding=1)
        self.norm = nn.LayerNorm(32)
    def forward(self, x):
        x = nn.functional.hardsigmoid(self.c1(x))
        x = nn.functional.interpolate(x, scale_factor=2, mode="nearest")
        x = nn.functional.silu(self.c2(x))
        x = nn.functional.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
        return self.norm(nn.functional.gelu(x))

def models():
    yield "gru_bi2", Seq(nn.GRU(40, 80, num_layers=2, bidirectional=True, batch_first=True), 160), (1, 12, 40)
    yield "lstm_uni", Seq(nn.LSTM(32, 48), 48), (10, 1, 32)
    yield "lstm_bi", Seq(nn.LSTM(32, 100, bidirectional=True, batch_first=True), 200), (1, 10, 32)
    yield "gru_lbr0", Seq(nn.GRU(24, 36, bidirectional=True), 72), (9, 1, 24)
    yield "encdec", nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        nn.ConvTranspose2d(32, 16, 2, stride=2), nn.ReLU(),
        nn.ConvTranspose2d(16, 16, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
        nn.ConvTranspose2d(16, 8, 3, padding=2, dilation=2, groups=4)), (1, 3, 32, 32)
    yield "video3d", nn.Sequential(
        nn.Conv3d(3, 8, 3, padding=1), nn.BatchNorm3d(8), nn.ReLU(), nn.MaxPool3d(2),
        nn.Conv3d(8, 16, 3, padding=1), nn.BatchNorm3d(16), nn.ReLU(), nn.AdaptiveAvgPool3d(1),
        nn.Flatten(), nn.Linear(16, 5)), (1, 3, 8, 32, 32)
    yield "audio1d", nn.Sequential(
        nn.Conv1d(1, 16, 9, stride=2, padding=4), nn.ReLU(), nn.Conv1d(16, 16, 3, padding=2, dilation=2), nn.ReLU(),
        nn.Conv1d(16, 16, 3, padding=4, dilation=4), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        nn.Linear(16, 4)), (1, 1, 400)
    yield "misc_ops", Misc(), (1, 3, 8, 8)
    yield "deconv1d", nn.Sequential(  # output_padding 2 above the pad 0: conv_transpose + pad + add
        nn.ConvTranspose1d(4, 6, 4, stride=2, padding=1), nn.ReLU(), nn.ConvTranspose1d(6, 2, 3, stride=3, output_padding=2)), (1, 4, 16)
    yield "deconv3d", nn.Sequential(
        nn.ConvTranspose3d(3, 4, 2, stride=2), nn.ReLU(),
        nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2)), (1, 3, 4, 6, 6)

for name, m, shape in models():
    if names and name not in names:
        continue
    for mod in m.modules():  # BatchNorm with statistics that are not the identity
        if isinstance(mod, nn.BatchNorm3d):
            mod.running_mean.uniform_(-0.5, 0.5); mod.running_var.uniform_(0.5, 2.0)
    m.eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        y = m(x)
    torch.onnx.export(m, x, f"{work}/{name}.onnx", opset_version=13, input_names=["input"], output_names=["output"])
    np.save(f"{work}/{name}_input.npy", x.numpy())
    np.save(f"{work}/{name}_torch.npy", y.numpy())
    print("exported", name, tuple(y.shape))
'''

# The MIL op each family must be written with (the lowering, not a refusal or a decomposition).
EXPECT_MIL = {"lstm_uni": "lstm", "lstm_bi": "lstm", "gru_lbr0": "gru", "encdec": "conv_transpose",
              "video3d": "conv", "audio1d": "conv", "gru_bi2": "linear", "deconv1d": "conv_transpose",
              "deconv3d": "conv_transpose"}
# Also written for iOS17, where lstm and gru take fp16 (iOS17/recurrent.py): no casts around them.
IOS17_TOO = {"lstm_bi", "gru_lbr0"}


def to_lbr0(src, dst):
    """Rewrites every GRU to linear_before_reset = 0 (ONNX's default; MIL gru's form)."""
    import onnx
    m = onnx.load(src)
    for n in m.graph.node:
        if n.op_type == "GRU":
            for a in n.attribute:
                if a.name == "linear_before_reset":
                    a.i = 0
    onnx.save(m, dst)


def mil_op_types(m):
    fn = m.mlProgram.functions["main"]
    return [op.type for op in fn.block_specializations[fn.opset].operations]


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    Model_pb2 = coreml_reader.load_protos(PROTO_DIR, os.path.join(WORK, "py"))
    r = subprocess.run(["/usr/bin/python3", "-c", EXPORT, WORK, *sorted(ONLY)], capture_output=True, text=True, timeout=900)
    check(r.returncode == 0, "models built and exported by /usr/bin/python3 (torch) " + r.stderr.strip()[-400:])
    if r.returncode:
        CHECKS.exit()
    names = [ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("exported")]
    for name in names:
        src = os.path.join(WORK, name + ".onnx")
        xin = os.path.join(WORK, name + "_input.npy")
        ref = np.load(os.path.join(WORK, name + "_torch.npy"))
        if name == "gru_lbr0":  # no torch model computes it: the reference is the ONNX model on the CPU runtime
            to_lbr0(src, src)
        rc, _, err = run("run", src, "--input", "input=" + xin, "--output-dir", os.path.join(WORK, name + "_onnx"))
        check(rc == 0, f"{name}: the ONNX model runs on the CPU runtime ({err.strip()[:200]})")
        if rc:
            continue
        a = np.load(os.path.join(WORK, name + "_onnx", "output.npy"))
        if name == "gru_lbr0":
            ref = a
        else:
            print(f"     {name}: ONNX model on the CPU runtime vs PyTorch: {np.abs(a - ref).max() / np.abs(ref).max():.3g}")
        for prec in ("fp16", "fp32"):
            _, m, _ = check_util.compile_and_compare(CHECKS, name, prec, src, xin, ref, WORK, TOL[prec], PROTO_DIR, Model_pb2,
                                                     "PyTorch's output" if name != "gru_lbr0" else "the ONNX model's output")
            if m is not None and name in EXPECT_MIL:
                check(EXPECT_MIL[name] in mil_op_types(m), f"{name} {prec}: written with MIL {EXPECT_MIL[name]}")
        if name in IOS17_TOO:
            _, m, _ = check_util.compile_and_compare(CHECKS, name, "fp16", src, xin, ref, WORK, TOL["fp16"], PROTO_DIR, Model_pb2,
                                                     "the reference", target="iOS17")
            if m is not None:
                types = mil_op_types(m)
                check(EXPECT_MIL[name] in types and types.count("cast") == 2,
                      f"{name} iOS17 fp16: {EXPECT_MIL[name]} in fp16, casts only at the input and output ({types.count('cast')})")
    CHECKS.exit()


if __name__ == "__main__":
    main()
