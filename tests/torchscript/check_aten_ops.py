#!/usr/bin/python3
"""Every row of the TorchScript reader's aten table, case by case (issue 37).

The rows are read from the table's source (core/frontends/torchscript/plugin/aten_ops.cpp);
every row must be exercised by a case below (or by check_torchscript.py's architectures,
listed in ELSEWHERE), so a new row without a case fails here. Each case is a small traced
function; `edgecompile run` on the saved archive must equal PyTorch within 1e-5 x max|out|
(1e-4 for cubic resizing).

usage: check_aten_ops.py EDGECOMPILE SOURCE_DIR WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys
import warnings

import numpy as np

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:  # pragma: no cover
    print(f"skip: {e}")
    sys.exit(77)

warnings.filterwarnings("ignore")
EC, SRC, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
torch.manual_seed(0)

# Rows the architecture tests cover (recurrent layers, the fused attention paths, quantised ops).
# Rows for archives that other torch versions write (torch 1.13 traces and scripts padding as
# aten::pad); they share the pad row's code, which the cases exercise.
OTHER_VERSIONS = {"aten::constant_pad_nd", "aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d",
                  "aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d"}
ELSEWHERE = OTHER_VERSIONS | {"aten::lstm", "aten::gru", "aten::_transformer_encoder_layer_fwd", "aten::_native_multi_head_attention",
             "aten::quantize_per_tensor", "aten::dequantize"}


def rows():
    text = open(os.path.join(SRC, "core/frontends/torchscript/plugin/aten_ops.cpp")).read()
    table = text[text.index("make_table()"):text.index("bool is_shape_only")]
    return set(re.findall(r'"(aten::[a-z_0-9]+)"', table))


W = torch.randn(6, 4, 3, 3)
B = torch.randn(6)
C = [
    # name, function, inputs
    ("conv2d", lambda x: F.conv2d(x, W, B, stride=2, padding=1, dilation=1), [(1, 4, 9, 9)]),
    ("conv2d_same", lambda x: F.conv2d(x, W, None, padding="same", dilation=2), [(1, 4, 9, 9)]),
    ("conv1d", lambda x, w1=torch.randn(6, 2, 3): F.conv1d(x, w1, None, groups=2, dilation=2), [(1, 4, 20)]),
    ("conv3d", lambda x, w2=torch.randn(3, 2, 2, 3, 3), w3=torch.randn(3): F.conv3d(x, w2, w3, padding=1), [(1, 2, 4, 6, 6)]),
    ("conv_transpose2d", lambda x, w4=torch.randn(4, 3, 3, 3), w5=torch.randn(6): F.conv_transpose2d(x, w4, w5, stride=2, padding=1,
                                                      output_padding=1, groups=2), [(1, 4, 5, 5)]),
    ("conv_transpose1d", lambda x, w6=torch.randn(4, 2, 4): F.conv_transpose1d(x, w6, None, stride=3), [(1, 4, 7)]),
    ("linear3d", lambda x, w7=torch.randn(5, 8), w8=torch.randn(5): F.linear(x, w7, w8), [(2, 3, 8)]),
    ("linear2d", lambda x, w9=torch.randn(5, 8): F.linear(x, w9), [(2, 8)]),
    ("matmul", lambda a, b: torch.matmul(a, b), [(2, 3, 4), (2, 4, 5)]),
    ("mm_bmm", lambda a, b: torch.bmm(a, b) + torch.mm(a[0], b[0]), [(2, 3, 4), (2, 4, 5)]),
    ("addmm", lambda a, w10=torch.randn(5), w11=torch.randn(4, 5): torch.addmm(w10, a, w11, beta=0.5, alpha=2.0), [(3, 4)]),
    ("batch_norm", lambda x, w12=torch.randn(4), w13=torch.rand(4), w14=torch.randn(4), w15=torch.randn(4): F.batch_norm(x, w12, w13 + 0.5, w14, w15),
     [(2, 4, 3, 3)]),
    ("layer_norm", lambda x, w16=torch.randn(3, 5): F.layer_norm(x, [3, 5], w16, None, 1e-3), [(2, 4, 3, 5)]),
    ("group_norm", lambda x, w17=torch.randn(6), w18=torch.randn(6): F.group_norm(x, 2, w17, w18), [(2, 6, 3, 3)]),
    ("instance_norm", lambda x, w19=torch.randn(3), w20=torch.randn(3): F.instance_norm(x, weight=w19, bias=w20), [(2, 3, 4, 4)]),
    ("max_pool2d", lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), [(1, 3, 10, 10)]),
    ("max_pool1d_3d", lambda x, y: F.max_pool1d(x, 2).sum() + F.max_pool3d(y, 2).sum(), [(1, 2, 8), (1, 2, 4, 4, 4)]),
    ("max_pool_indices", lambda x: F.max_pool2d(x, 2, return_indices=True)[0], [(1, 3, 8, 8)]),
    ("avg_pool2d", lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=False, count_include_pad=False), [(1, 3, 9, 9)]),
    ("avg_pool1d_3d", lambda x, y: F.avg_pool1d(x, 2).sum() + F.avg_pool3d(y, 2).sum(), [(1, 2, 8), (1, 2, 4, 4, 4)]),
    ("adaptive_avg", lambda x: F.adaptive_avg_pool2d(x, (2, 3)) .sum() + F.adaptive_avg_pool2d(x, 1).sum(),
     [(1, 3, 8, 9)]),
    ("adaptive_avg_1d_3d", lambda x, y: F.adaptive_avg_pool1d(x, 2).sum() + F.adaptive_avg_pool3d(y, 1).sum(),
     [(1, 2, 8), (1, 2, 4, 4, 4)]),
    ("adaptive_max", lambda x, y, z: F.adaptive_max_pool2d(x, 2).sum() + F.adaptive_max_pool1d(y, 1).sum()
     + F.adaptive_max_pool3d(z, 1).sum(), [(1, 3, 8, 8), (1, 2, 6), (1, 2, 2, 4, 4)]),
    ("activations", lambda x: torch.relu(x) + torch.sigmoid(x) + torch.tanh(x) + F.hardswish(x) + F.mish(x)
     + F.relu6(x) + F.hardtanh(x, -2, 3) + F.hardsigmoid(x) + F.silu(x) + F.leaky_relu(x, 0.2) + F.elu(x, 0.7)
     + F.selu(x) + F.celu(x, 1.3) + F.softplus(x) + F.gelu(x) + F.gelu(x, approximate="tanh"), [(2, 3, 4)]),
    ("clamp", lambda x: torch.clamp(x, min=-0.5) + torch.clip(x, -1, 1) + x.clamp(max=0.3), [(3, 4)]),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.1, 0.2, 0.3])), [(2, 3, 4, 4)]),
    ("softmax", lambda x: F.softmax(x, 1) + F.log_softmax(x, -1), [(2, 3, 4)]),
    ("unary", lambda x: torch.exp(x) + torch.log(x.abs() + 1) + torch.sqrt(x.abs()) + torch.abs(x) + torch.neg(x)
     + torch.reciprocal(x.abs() + 1) + torch.floor(x) + torch.ceil(x) + torch.round(x) + torch.sin(x) + torch.cos(x)
     + torch.sign(x) + torch.erf(x), [(3, 5)]),
    ("arith", lambda a, b: torch.add(a, b, alpha=2) - torch.sub(a, b, alpha=0.5) + a * b + a / (b.abs() + 1)
     + torch.rsub(a, 1.5) + torch.pow(a.abs(), 1.5) + torch.maximum(a, b) + torch.minimum(a, b) + (a + 2) * 3,
     [(3, 4), (3, 4)]),
    ("compare", lambda a, b: torch.where((a > b) | (a <= 0.1), a, b) + torch.where((a >= b) & (a < 1), 1.0, 0.0)
     + torch.where(torch.logical_not(a == b), 2.0, -2.0) + torch.where(a != b, a, b), [(3, 4), (3, 4)]),
    ("logical", lambda a: torch.logical_and(a > 0, a < 1).float() + torch.logical_or(a > 1, a < -1).float()
     + torch.logical_xor(a > 0, a > 1).float() + ((a > 0) ^ (a > 1)).float() + torch.bitwise_not(a > 0).float(),
     [(3, 4)]),
    ("bitwise", lambda x: ((torch.bitwise_and((x * 4).long(), 6) + torch.bitwise_or((x * 4).long(), 3)
                            + torch.bitwise_not((x * 4).long())).float() + torch.bitwise_xor(x > 0, x > 1).float()),
     [(3, 4)]),
    ("int_input", lambda a: (a * 2 + 1).float() + torch.bitwise_and(a, 3).float(), [("int", (3, 4))]),
    ("tensor_split", lambda x: sum(p.sum(-1) for p in torch.tensor_split(x, 3, dim=-1)), [(2, 3, 7)]),
    ("masked_fill", lambda a: a.masked_fill(a > 0.5, -1.0), [(3, 4)]),
    ("reshape", lambda x: x.view(2, -1).reshape(4, 6).flatten().unsqueeze(0).squeeze(0).reshape(2, 3, 4)
     .flatten(1, 2).unflatten(1, (4, 3)).view_as(x).reshape_as(x), [(2, 3, 4)]),
    ("transpose", lambda x: x.permute(2, 0, 1).transpose(0, 1).contiguous() + x.transpose(-1, -2)
     + x.transpose(0, 2).permute(2, 0, 1), [(2, 3, 4)]),
    ("t2d", lambda x: x.t() + x.t(), [(3, 4)]),
    ("expand", lambda x, y: x.expand(2, 3, 4) + y.expand_as(torch.zeros(2, 3, 4)), [(1, 3, 1), (3, 4)]),
    ("repeat", lambda x: x.repeat(2, 1, 3), [(3, 4)]),
    ("cat_stack", lambda a, b: torch.cat([a, b, a], 1).sum(1) + torch.stack([a, b], -1).sum(-1).sum(1)
     + torch.concat([a, b], 0).sum(1)[:3], [(3, 4), (3, 4)]),
    ("split", lambda x: sum(p.sum(2) for p in x.chunk(3, 2)) + sum(p.sum(2) for p in x.split([2, 4], 2))
     + sum(p.sum(1) for p in x.split(1, 1)).sum(-1, keepdim=True) + sum(u.sum(-1) for u in x.unbind(1)).unsqueeze(1),
     [(2, 3, 6)]),
    ("slice", lambda x: x[:, 1:3, ::2] + x[:, -2:, 1::2] + x.narrow(1, 0, 2)[:, :, :3], [(2, 4, 6)]),
    ("select", lambda x: x[:, 1] + x.select(2, -1).sum(1, keepdim=True) + torch.index_select(x, 1, torch.tensor([0, 2, 1]))
     .sum(1), [(2, 3, 4)]),
    ("embedding", lambda ids, w21=torch.randn(10, 4): F.embedding(ids, w21), [("int", (2, 5))]),
    ("reduce", lambda x: x.mean((1, 2), keepdim=True).squeeze() + x.sum(-1).sum(-1) + x.amax(1).sum(-1)
     + x.amin((1, 2)) + x.mean(), [(2, 3, 4)]),
    ("max_min", lambda x, y: x.max(dim=1).values + x.min(1, keepdim=True)[0].squeeze(1) + torch.max(x, y).sum(1)
     + x.max() + torch.min(x, y).mean(1) + x.min(), [(2, 3, 4), (2, 3, 4)]),
    ("argmax_cumsum", lambda x: x.argmax(1).float() + x.cumsum(1).sum(1), [(2, 3, 4)]),
    ("resize", lambda x: F.interpolate(x, scale_factor=2, mode="nearest").sum((2, 3))
     + F.interpolate(x, size=(5, 7), mode="bilinear", align_corners=True).sum((2, 3))
     + F.interpolate(x, size=(6, 5), mode="bilinear").sum((2, 3)), [(1, 3, 4, 4)]),
    ("resize_1d_3d", lambda x, y: F.interpolate(x, scale_factor=2, mode="linear").sum(-1)
     + F.interpolate(y, scale_factor=2, mode="trilinear").sum((2, 3, 4)) + F.interpolate(x, size=7).sum(-1)
     + F.interpolate(y, scale_factor=2).sum((2, 3, 4)), [(1, 2, 5), (1, 2, 2, 3, 3)]),
    ("bicubic", lambda x: F.interpolate(x, size=(7, 9), mode="bicubic", align_corners=False), [(1, 2, 4, 5)]),
    ("pixel_shuffle", lambda x: F.pixel_shuffle(x, 2), [(1, 8, 3, 3)]),
    ("pad", lambda x: F.pad(x, (1, 2, 0, 1), value=0.5).sum((2, 3)) + F.pad(x, (1, 1, 2, 0), mode="reflect").sum((2, 3))
     + F.pad(x, (2, 1, 1, 1), mode="replicate").sum((2, 3)), [(1, 2, 4, 5)]),
    ("pad_1d_3d", lambda x, y: F.pad(x, (1, 2), mode="reflect").sum(-1) + F.pad(y, (1, 0, 1, 1, 0, 1),
                                                                                mode="replicate").sum((2, 3, 4)),
     [(1, 2, 6), (1, 2, 3, 3, 3)]),
    ("roll", lambda x: torch.roll(x, (1, -2), (1, 2)), [(2, 3, 5)]),
    ("cast", lambda x: (x * 4).to(torch.int64).to(torch.float32) + x.type_as(x) + x.float(), [(2, 3)]),
]


class Ops(torch.nn.Module):
    """Ops that appear under their own names only in scripted graphs."""

    def forward(self, x):
        y = torch.clip(x.permute(0, 2, 1), -1.0, 1.0).transpose(1, 2)
        return torch.concat([y, x], 1).float()


S = [  # name, module (scripted), inputs
    ("conv_modules", torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ConvTranspose2d(4, 3, 2, stride=2)),
     [(1, 3, 5, 5)]),
    ("conv1d_modules", torch.nn.Sequential(torch.nn.Conv1d(3, 4, 3), torch.nn.ConvTranspose1d(4, 2, 3, stride=2)),
     [(1, 3, 9)]),
    ("conv3d_modules", torch.nn.Sequential(torch.nn.Conv3d(2, 3, 3, padding=1), torch.nn.ConvTranspose3d(3, 2, 2, stride=2)),
     [(1, 2, 3, 4, 4)]),
    ("pad_modules", torch.nn.Sequential(torch.nn.ReflectionPad2d(1), torch.nn.ReplicationPad2d((1, 0, 2, 1)),
                                        torch.nn.ConstantPad2d(1, 0.5)), [(1, 2, 4, 4)]),
    ("pad1d_modules", torch.nn.Sequential(torch.nn.ReflectionPad1d(2), torch.nn.ReplicationPad1d(1)), [(1, 2, 6)]),
    ("pad3d_modules", torch.nn.Sequential(torch.nn.ReflectionPad3d(1), torch.nn.ReplicationPad3d(1)), [(1, 2, 3, 3, 3)]),
    ("scripted_ops", Ops(), [(2, 3, 4)]),
]


def make_input(spec):
    if spec[0] == "int":
        return torch.randint(0, 10, spec[1])
    return torch.randn(*spec)


failures, covered = [], set()
for name, fn, specs in C + S:
    inputs = [make_input(s) for s in specs]
    try:
        if isinstance(fn, torch.nn.Module):
            traced = torch.jit.script(fn.eval())
            graph = torch.jit.freeze(traced).graph.copy()
        else:
            traced = torch.jit.trace(fn, tuple(inputs), check_trace=False)
            graph = traced.graph.copy()
        torch._C._jit_pass_inline(graph)
        covered |= {n.kind() for n in graph.nodes()}
        with torch.no_grad():
            ref = fn(*inputs)
        pt = os.path.join(WORK, f"{name}.pt")
        torch.jit.save(traced, pt)
        names = [f"x{i}" for i in range(len(inputs))]
        arg_names = [a.debugName().split(".")[0] for a in list(traced.graph.inputs())
                     if not isinstance(a.type(), torch._C.ClassType)]
        args = [EC, "run", pt, "--output-dir", os.path.join(WORK, name)]
        for a, t in zip(arg_names, inputs):
            p = os.path.join(WORK, f"{name}_{a}.npy")
            np.save(p, t.numpy())
            dtype = ":int64" if t.dtype == torch.int64 else ""  # a dtype the archive does not record
            args += ["--input", f"{a}={p}", f"--input-shape={a}={','.join(map(str, t.shape))}{dtype}"]
        r = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip()[:300])
        got = np.load(os.path.join(WORK, name, "output.npy"))
        want = ref.numpy()
        if got.shape != want.shape:
            raise RuntimeError(f"shape {got.shape} != PyTorch {want.shape}")
        err = float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-12))
        tol = 1e-4 if name == "bicubic" else 1e-5
        print(("ok  " if err <= tol else "FAIL") + f" {name}: {err:.2e} x max|out|")
        if err > tol:
            failures.append(name)
    except Exception as e:
        print(f"FAIL {name}: {e}")
        failures.append(name)

missing = sorted(rows() - covered - ELSEWHERE)
print(f"{len(rows())} rows in the aten table, {len(rows() & covered)} exercised here, {len(rows() & ELSEWHERE)} by the "
      f"architecture tests")
if missing:
    print("rows without a case: " + ", ".join(missing))
    failures.append("coverage")
if failures:
    print(f"{len(failures)} failed: {', '.join(failures)}")
    sys.exit(1)
print("every aten row equals PyTorch")
