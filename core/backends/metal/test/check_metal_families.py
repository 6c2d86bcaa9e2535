#!/usr/bin/env python3
"""Issue 35: the architecture families `compile --target metal` used to refuse, built here with
Debian's PyTorch (torch.manual_seed, random weights, nothing downloaded):

  gru_bi2      2-layer bidirectional GRU, hidden 80, batch_first (PyTorch's GRU is ONNX's
               linear_before_reset = 1: unrolled into plain MIL ops)
  lstm_uni     LSTM, hidden 48, sequence first            -> MIL lstm
  rnn_bi2      2-layer bidirectional RNN (tanh), hidden 33     -> MIL rnn + reverse
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
  deconv_same_lower, deconv_output_shape   ONNX ConvTranspose with auto_pad SAME_LOWER / an output_shape past
               the full output (conv_transpose + pad + add), against the ONNX model on the CPU runtime
  lstm_l1_y/_h, gru_l1_y/_h  ONNX LSTM / GRU built with onnx.helper: layout 1, bidirectional,
               constant initial states, LSTM peepholes, GRU linear_before_reset 1 (_y) and 0 (_h);
               output Y or Y_h; the reference is a float64 numpy implementation of the ONNX operator
lstm_bi, gru_lbr0 and lstm_l1_h are also written for iOS17 (fp16 recurrent ops, no casts around them).

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
    yield "rnn_bi2", Seq(nn.RNN(16, 33, num_layers=2, bidirectional=True), 66), (8, 1, 16)
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

def onnx_recurrent(name, op, lbr, out):
    """An ONNX LSTM/GRU written with onnx.helper (torch never exports these forms): layout 1
    (batch first), bidirectional, constant initial states, LSTM peepholes; the graph output is
    Y or Y_h ("out"). Its reference is the ONNX model on the CPU runtime."""
    import onnx
    from onnx import helper, numpy_helper
    rng = np.random.default_rng(35)
    N, S, I, H, D = 2, 7, 5, 6, 2
    g = 4 if op == "LSTM" else 3
    const = lambda n, a: numpy_helper.from_array(a.astype(np.float32), n)
    inits = [const("W", rng.uniform(-0.5, 0.5, (D, g * H, I))), const("R", rng.uniform(-0.5, 0.5, (D, g * H, H))),
             const("B", rng.uniform(-0.5, 0.5, (D, 2 * g * H))), const("h0", rng.uniform(-1, 1, (N, D, H)))]
    ins = ["input", "W", "R", "B", "", "h0"]
    if op == "LSTM":
        inits += [const("c0", rng.uniform(-1, 1, (N, D, H))), const("P", rng.uniform(-0.5, 0.5, (D, 3 * H)))]
        ins += ["c0", "P"]
    outs = ["output", ""] if out == "Y" else ["", "output"]
    if op == "LSTM":
        outs.append("")
    attrs = {"hidden_size": H, "direction": "bidirectional", "layout": 1}
    if op == "GRU":
        attrs["linear_before_reset"] = lbr
    node = helper.make_node(op, ins, outs, **attrs)
    shape = [N, S, D, H] if out == "Y" else [N, D, H]
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("input", onnx.TensorProto.FLOAT, [N, S, I])],
                              [helper.make_tensor_value_info("output", onnx.TensorProto.FLOAT, shape)], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), f"{work}/{name}.onnx")
    x = rng.standard_normal((N, S, I)).astype(np.float32)
    np.save(f"{work}/{name}_input.npy", x)
    Y, Yh = onnx_recurrent_numpy(op, lbr, x, *(numpy_helper.to_array(t).astype(np.float64) for t in inits))
    np.save(f"{work}/{name}_torch.npy", (Y if out == "Y" else Yh).astype(np.float32))
    print("exported", name, tuple(shape))

def onnx_recurrent_numpy(op, lbr, x, W, R, B, h0, c0=None, P=None):
    """ONNX LSTM / GRU (default activations), layout 1, bidirectional, in float64: the
    definitions of the ONNX operator docs (onnx/reference/ops/op_lstm.py, op_gru.py)."""
    sig = lambda v: 1 / (1 + np.exp(-v))
    X = x.astype(np.float64).transpose(1, 0, 2)  # layout 1 -> [S, N, I]
    h0 = h0.transpose(1, 0, 2)                     # [N, D, H] -> [D, N, H]
    c0 = c0.transpose(1, 0, 2) if c0 is not None else None
    S, D, H = X.shape[0], W.shape[0], R.shape[-1]
    Y = np.zeros((S, D, X.shape[1], H))
    Yh = np.zeros((D, X.shape[1], H))
    for d in range(D):
        h = h0[d]
        c = c0[d] if c0 is not None else None
        for t in (range(S) if d == 0 else reversed(range(S))):
            if op == "LSTM":  # gates [i, o, f, c], peepholes [i, o, f]
                g = X[t] @ W[d].T + h @ R[d].T + B[d, :4 * H] + B[d, 4 * H:]
                i_, o_, f_, c_ = np.split(g, 4, axis=1)
                p_i, p_o, p_f = np.split(P[d], 3)
                i_, f_ = sig(i_ + p_i * c), sig(f_ + p_f * c)
                c = f_ * c + i_ * np.tanh(c_)
                h = sig(o_ + p_o * c) * np.tanh(c)
            else:  # gates [z, r, h]
                xw = X[t] @ W[d].T + B[d, :3 * H]
                Wz, Wr, Wh = np.split(xw, 3, axis=1)
                Rz, Rr, Rh = np.split(R[d], 3)
                bz, br, bh = np.split(B[d, 3 * H:], 3)
                z, r = sig(Wz + h @ Rz.T + bz), sig(Wr + h @ Rr.T + br)
                n = np.tanh(Wh + (r * (h @ Rh.T + bh) if lbr else (r * h) @ Rh.T + bh))
                h = (1 - z) * n + z * h
            Y[t, d] = h
        Yh[d] = h
    return Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2)  # back to layout 1

def onnx_deconv(name, attrs, out_hw):
    """ConvTranspose with auto_pad or output_shape (torch exports explicit pads only); the
    reference is the ONNX model on the CPU runtime (whose geometry the writer uses for the pads)."""
    import onnx
    from onnx import helper, numpy_helper
    rng = np.random.default_rng(36)
    inits = [numpy_helper.from_array(rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32), "w"),
             numpy_helper.from_array(rng.uniform(-0.5, 0.5, (3,)).astype(np.float32), "b")]
    node = helper.make_node("ConvTranspose", ["input", "w", "b"], ["output"], strides=[2, 2], **attrs)
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("input", onnx.TensorProto.FLOAT, [1, 4, 5, 5])],
                              [helper.make_tensor_value_info("output", onnx.TensorProto.FLOAT, [1, 3, *out_hw])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), f"{work}/{name}.onnx")
    np.save(f"{work}/{name}_input.npy", rng.standard_normal((1, 4, 5, 5)).astype(np.float32))
    np.save(f"{work}/{name}_torch.npy", np.zeros((1, 3, *out_hw), np.float32))  # replaced by the CPU runtime's output
    print("exported", name, (1, 3, *out_hw))

for name, attrs, hw in [("deconv_same_lower", {"auto_pad": "SAME_LOWER"}, (10, 10)),
                        ("deconv_output_shape", {"output_shape": [12, 12]}, (12, 12))]:
    if not names or name in names:
        onnx_deconv(name, attrs, hw)

for name, op, lbr, out in [("lstm_l1_y", "LSTM", 0, "Y"), ("lstm_l1_h", "LSTM", 0, "Y_h"),
                           ("gru_l1_y", "GRU", 1, "Y"), ("gru_l1_h", "GRU", 0, "Y_h")]:
    if not names or name in names:
        onnx_recurrent(name, op, lbr, out)

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
EXPECT_MIL = {"rnn_bi2": "rnn", "lstm_uni": "lstm", "lstm_bi": "lstm", "lstm_l1_y": "lstm", "lstm_l1_h": "lstm", "gru_l1_h": "gru", "gru_lbr0": "gru", "encdec": "conv_transpose",
              "video3d": "conv", "audio1d": "conv", "gru_bi2": "linear", "deconv1d": "conv_transpose",
              "deconv3d": "conv_transpose", "deconv_same_lower": "conv_transpose", "deconv_output_shape": "pad"}
# Also written for iOS17, where lstm and gru take fp16 (iOS17/recurrent.py): no casts around them.
IOS17_TOO = {"lstm_bi", "gru_lbr0", "lstm_l1_h"}
# Built with onnx.helper in the child (layout 1, initial states, peepholes); the reference is numpy (float64).
ONNX_BUILT = {"lstm_l1_y", "lstm_l1_h", "gru_l1_y", "gru_l1_h"}


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
        from_onnx = name in ("gru_lbr0", "deconv_same_lower", "deconv_output_shape")  # reference: the ONNX model on the CPU runtime
        if from_onnx:
            to_lbr0(src, src)
        rc, _, err = run("run", src, "--input", "input=" + xin, "--output-dir", os.path.join(WORK, name + "_onnx"))
        check(rc == 0, f"{name}: the ONNX model runs on the CPU runtime ({err.strip()[:200]})")
        if rc:
            continue
        a = np.load(os.path.join(WORK, name + "_onnx", "output.npy"))
        if from_onnx:
            ref = a
        else:
            e = float(np.abs(a - ref).max() / np.abs(ref).max())
            print(f"     {name}: ONNX model on the CPU runtime vs the reference: {e:.3g}")
            check(e <= TOL["fp32"], f"{name}: the CPU runtime computes the ONNX model like the reference")
        for prec in ("fp16", "fp32"):
            _, m, _ = check_util.compile_and_compare(CHECKS, name, prec, src, xin, ref, WORK, TOL[prec], PROTO_DIR, Model_pb2,
                                                     "the ONNX model's output" if from_onnx else
                                                     "numpy's float64 output" if name in ONNX_BUILT else "PyTorch's output")
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
