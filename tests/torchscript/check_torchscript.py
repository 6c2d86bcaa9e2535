#!/usr/bin/python3
"""TorchScript reader (issue 37): real architectures from Debian's torch/torchvision
(random weights, fixed seed, nothing downloaded), each traced AND scripted, saved with
torch.jit.save here, then

  * `edgecompile run` equals PyTorch within 1e-4 x max|output|;
  * the op count after import is at most the ONNX import's count of the same model
    (torch.onnx.export, opset 13) plus the plumbing a recurrent layer needs;
  * for the CNNs, `compile --target coral` gives the same partition as compiling the
    ONNX export (same calibration sample).

usage: check_torchscript.py EDGECOMPILE WORKDIR
"""
import inspect
import json
import os
import shutil
import subprocess
import sys
import warnings

import numpy as np

try:
    import torch
    import torchvision
except ImportError as e:  # pragma: no cover
    print(f"skip: {e}")
    sys.exit(77)

warnings.filterwarnings("ignore")
EC, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)


class Decoder(torch.nn.Module):
    """A ConvTranspose decoder: stride 2 with output_padding, grouped, dilated."""

    def __init__(self):
        super().__init__()
        self.up1 = torch.nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1)
        self.up2 = torch.nn.ConvTranspose2d(8, 8, 4, stride=2, padding=1, groups=2)
        self.up3 = torch.nn.ConvTranspose2d(8, 3, 3, padding=2, dilation=2)
        self.act = torch.nn.ReLU()

    def forward(self, x):
        return torch.sigmoid(self.up3(self.act(self.up2(self.act(self.up1(x))))))


class TextLSTM(torch.nn.Module):
    """Token ids -> embedding -> 2-layer LSTM -> last step -> classes."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(100, 24)
        self.lstm = torch.nn.LSTM(24, 37, num_layers=2, batch_first=True)
        self.fc = torch.nn.Linear(37, 5)

    def forward(self, ids):
        y, _ = self.lstm(self.emb(ids))
        return self.fc(y[:, -1])


class AudioGRU(torch.nn.Module):
    """Features -> bidirectional GRU of an odd size -> per-frame classes."""

    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(13, 21, bidirectional=True)
        self.fc = torch.nn.Linear(42, 4)

    def forward(self, x):
        y, h = self.gru(x)
        return self.fc(y), h


def encoder():
    layer = torch.nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)
    return torch.nn.TransformerEncoder(layer, 2)


def float_input(*shape):
    return torch.randn(*shape)


# name, builder, example inputs, coral partition check
MODELS = [
    ("mobilenet_v2", lambda: torchvision.models.mobilenet_v2(weights=None), lambda: [float_input(1, 3, 128, 128)], True),
    ("resnet18", lambda: torchvision.models.resnet18(weights=None), lambda: [float_input(1, 3, 128, 128)], True),
    ("efficientnet_b0", lambda: torchvision.models.efficientnet_b0(weights=None), lambda: [float_input(1, 3, 128, 128)],
     True),
    ("conv_transpose_decoder", Decoder, lambda: [float_input(1, 16, 8, 8)], False),
    ("transformer_encoder", encoder, lambda: [float_input(1, 10, 64)], False),
    ("lstm_text", TextLSTM, lambda: [torch.randint(0, 100, (1, 12))], False),
    ("gru_audio", AudioGRU, lambda: [float_input(7, 1, 13)], False),
]


def ec(*args, check=True):
    r = subprocess.run([EC, *args], capture_output=True, text=True, timeout=900)
    if check and r.returncode != 0:
        raise RuntimeError(f"edgecompile {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r


def op_count(path, shapes):
    r = ec("inspect", path, "--json", *shapes)
    return json.loads(r.stdout)["ops"]["count"]


def partition(path, shapes, calib):
    r = ec("compile", path, "--target", "coral", "--calibration-data", calib, "--json", "--no-record", *shapes)
    p = json.loads(r.stdout)["partition"]
    return p["ops_total"], p["ops_on_target"], p["ops_on_cpu"], p["segments"]


failures = []
for name, build, make_inputs, coral in MODELS:
    torch.manual_seed(0)
    model = build().eval()
    inputs = make_inputs()
    with torch.no_grad():
        ref = model(*inputs)
    refs = list(ref) if isinstance(ref, tuple) else [ref]
    in_names = list(inspect.signature(model.forward).parameters)[: len(inputs)]
    shapes = [f"--input-shape={n}={','.join(str(d) for d in t.shape)}" for n, t in zip(in_names, inputs)]
    feeds = []
    for n, t in zip(in_names, inputs):
        p = os.path.join(WORK, f"{name}_{n}.npy")
        np.save(p, t.numpy())
        feeds += ["--input", f"{n}={p}"]
    onnx_path = os.path.join(WORK, f"{name}.onnx")
    torch.onnx.export(model, tuple(inputs), onnx_path, opset_version=13, input_names=in_names)
    onnx_ops = op_count(onnx_path, [])
    for mode in ("trace", "script"):
        try:
            with torch.no_grad():
                ts = torch.jit.trace(model, tuple(inputs), check_trace=False) if mode == "trace" else torch.jit.script(model)
        except Exception as e:  # scripting does not work for every module: say so, test the trace
            print(f"{name} {mode}: torch cannot {mode} it ({str(e).splitlines()[0][:100]}); skipped")
            continue
        pt = os.path.join(WORK, f"{name}_{mode}.pt")
        torch.jit.save(ts, pt)
        out_dir = os.path.join(WORK, f"{name}_{mode}_out")
        try:
            ec("run", pt, *feeds, "--output-dir", out_dir, *shapes)
            worst = 0.0
            for i, r in enumerate(refs):
                got = np.load(os.path.join(out_dir, "output.npy" if i == 0 else f"output_{i}.npy"))
                r = r.numpy()
                if got.shape != r.shape:
                    raise RuntimeError(f"output {i} shape {got.shape} != PyTorch {r.shape}")
                worst = max(worst, float(np.abs(got - r).max() / max(np.abs(r).max(), 1e-12)))
            ts_ops = op_count(pt, shapes)
            allowance = 6 if name in ("lstm_text", "gru_audio") else 0
            line = f"{name} {mode}: max error {worst:.2e} x max|out|, ops {ts_ops} (ONNX {onnx_ops})"
            if worst > 1e-4:
                raise RuntimeError(line + ": error above 1e-4")
            if ts_ops > onnx_ops + allowance:
                raise RuntimeError(line + ": more ops than the ONNX import")
            if coral and mode == "trace":
                calib = os.path.join(WORK, f"{name}_x.npy")
                a, b = partition(pt, shapes, calib), partition(onnx_path, [], calib)
                line += f", coral partition {a[1]}/{a[0]} on TPU (ONNX {b[1]}/{b[0]})"
                if a != b:
                    raise RuntimeError(line + f": partition differs from the ONNX export's: {a} vs {b}")
            print(line)
        except Exception as e:
            print(f"FAIL {name} {mode}: {e}")
            failures.append(f"{name} {mode}")



# QAT (torch.ao.quantization, eager mode): a model that still holds FakeQuantize modules and
# the same model converted to quantized:: ops. Both import as QDQ; `run` follows PyTorch;
# `quantize --strategy qat` takes the model's own scales (no calibration) and they equal the
# converted modules'; `compile --quantize qat` writes a Coral file without calibration data.
class QatNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        import torch.ao.quantization as tq
        self.quant = tq.QuantStub()
        self.conv = torch.nn.Conv2d(3, 8, 3)
        self.relu = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(8, 12, 3, groups=4)
        self.fc = torch.nn.Linear(12 * 12 * 12, 6)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.conv2(self.relu(self.conv(self.quant(x))))
        return self.dequant(self.fc(torch.flatten(x, 1)))


def check_qat():
    import re
    import torch.ao.quantization as tq
    torch.manual_seed(0)
    m = QatNet().train()
    m.qconfig = tq.get_default_qat_qconfig("fbgemm")
    tq.fuse_modules_qat(m, [["conv", "relu"]], inplace=True)
    tq.prepare_qat(m, inplace=True)
    opt = torch.optim.SGD(m.parameters(), lr=0.01)
    for _ in range(5):
        opt.zero_grad()
        m(torch.randn(4, 3, 16, 16)).square().mean().backward()
        opt.step()
    m.eval()
    m.apply(tq.disable_observer)  # as for any export: the scales stop moving
    q = tq.convert(m)
    x = torch.randn(1, 3, 16, 16)
    xp = os.path.join(WORK, "qat_x.npy")
    np.save(xp, x.numpy())
    shape = "--input-shape=x=1,3,16,16"
    for tag, model, tol in (("fake_quant", m, 1e-2), ("converted", q, 1e-5)):
        pt = os.path.join(WORK, f"qat_{tag}.pt")
        with torch.no_grad():
            torch.jit.save(torch.jit.trace(model, x), pt)
            ref = model(x).numpy()
        out_dir = os.path.join(WORK, f"qat_{tag}_out")
        ec("run", pt, "--input", f"x={xp}", "--output-dir", out_dir, shape)
        err = float(np.abs(np.load(os.path.join(out_dir, "output.npy")) - ref).max() / np.abs(ref).max())
        line = f"qat {tag}: run error {err:.2e} x max|out|"
        if err > tol:
            raise RuntimeError(line + f": above {tol}")
        eir = os.path.join(WORK, f"qat_{tag}.eir")
        ec("quantize", pt, "--strategy", "qat", "--output", eir, shape)
        text = open(eir).read()
        scales = [[float(v) for v in group.split(",")] for group in re.findall(r"scales=\[([^\]]*)\]", text)]
        if tag == "converted":
            want = {"conv weight": q.conv.weight().q_per_channel_scales().tolist(),
                    "conv2 weight": q.conv2.weight().q_per_channel_scales().tolist(),
                    "fc weight": q.fc.weight().q_per_channel_scales().tolist(),
                    "input": [float(q.quant.scale)], "conv out": [q.conv.scale], "conv2 out": [q.conv2.scale],
                    "fc out": [q.fc.scale]}
            for what, w in want.items():
                if not any(len(s) == len(w) and np.allclose(s, w, rtol=1e-6, atol=0) for s in scales):
                    raise RuntimeError(f"{line}: the {what} scales {w[:3]}... are not in the quantised graph")
            line += f", {len(want)} scale sets equal the converted modules'"
            tfl = os.path.join(WORK, "qat.tflite")
            ec("compile", pt, "--target", "coral", "--quantize", "qat", "--output", tfl, "--no-record", shape)
            line += f", coral file {os.path.getsize(tfl)} bytes"
        print(line)


try:
    check_qat()
except Exception as e:
    print(f"FAIL qat: {e}")
    failures.append("qat")

if failures:
    print(f"{len(failures)} failed: {', '.join(failures)}")
    sys.exit(1)
print("all TorchScript models match PyTorch")
