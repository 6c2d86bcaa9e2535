#!/usr/bin/env python3
"""The Keras frontend against PyTorch: small CNNs (Sequential and Functional), a 1-D
model, LSTM and GRU models, each built as a PyTorch module (torch.manual_seed fixed,
nothing downloaded), its weights written in Keras's layouts as a Keras 3 .keras, a
legacy .h5 and (one model) a Keras 2 .keras (keras_writer.py says which published
source each field follows). `edgecompile run` on every file must equal the PyTorch
output within 1e-4 x max|output|; `compile --target coral` writes a .tflite for one CNN.

usage: check_keras.py EDGECOMPILE [SEED_DIR]   (SEED_DIR: also copy the files there, for the fuzzer)"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_writer import report, Layer, Model, write_keras, write_legacy_h5  # noqa: E402

torch.manual_seed(0)
np.random.seed(0)


def t2n(t):
    return t.detach().numpy().astype(np.float32)


def same_pad(x, k, s, d=1):
    """TensorFlow's SAME padding on an NCHW tensor: total/2 before, the rest after."""
    pads = []
    for dim, kk, ss in ((3, k[1], s[1]), (2, k[0], s[0])):
        n = x.shape[dim]
        out = -(-n // ss)
        total = max((out - 1) * ss + (kk - 1) * d + 1 - n, 0)
        pads += [total // 2, total - total // 2]
    return F.pad(x, pads)


def conv_kernel(conv):  # torch [O, I, kh, kw] -> Keras [kh, kw, I, O]
    return t2n(conv.weight.permute(2, 3, 1, 0))


def dw_kernel(conv):  # torch depthwise [C*M, 1, kh, kw] -> Keras [kh, kw, C, M]
    w = conv.weight
    c = conv.in_channels
    return t2n(w.reshape(c, w.shape[0] // c, w.shape[2], w.shape[3]).permute(2, 3, 0, 1))


def bn_layer(name, bn):
    bn.eval()
    return Layer("BatchNormalization", name, {"axis": -1, "epsilon": bn.eps, "center": True, "scale": True},
                 [("gamma", t2n(bn.weight)), ("beta", t2n(bn.bias)), ("moving_mean", t2n(bn.running_mean)),
                  ("moving_variance", t2n(bn.running_var))])


def randomize_bn(bn):
    with torch.no_grad():
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
    bn.eval()


# ---------------------------------------------------------------- models

class SeqCnn(nn.Module):
    """Conv2D+BN+ReLU6, DepthwiseConv2D (stride 2, same), SeparableConv2D (swish),
    MaxPooling2D, Conv2D (hard_swish), GlobalAveragePooling2D, Dense (softmax)."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, bias=False)
        self.bn = nn.BatchNorm2d(8, eps=1e-3)
        randomize_bn(self.bn)
        self.dw = nn.Conv2d(8, 8, 3, stride=2, groups=8)
        self.sep_dw = nn.Conv2d(8, 16, 3, groups=8, bias=False)  # depth_multiplier 2
        self.sep_pw = nn.Conv2d(16, 12, 1)
        self.c2 = nn.Conv2d(12, 16, 3)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu6(self.bn(self.c1(same_pad(x, (3, 3), (1, 1)))))
        x = F.relu(self.dw(same_pad(x, (3, 3), (2, 2))))
        x = self.sep_pw(self.sep_dw(same_pad(x, (3, 3), (1, 1))))
        x = x * torch.sigmoid(x)
        x = F.max_pool2d(x, 2)
        x = F.hardswish(self.c2(x))
        x = x.mean(dim=(2, 3))
        return torch.softmax(self.fc(x), dim=-1)

    def keras(self):
        layers = [
            Layer("Conv2D", "conv2d", {"filters": 8, "kernel_size": [3, 3], "strides": [1, 1], "padding": "same",
                                       "data_format": "channels_last", "dilation_rate": [1, 1], "groups": 1,
                                       "activation": "linear", "use_bias": False}, [("kernel", conv_kernel(self.c1))]),
            bn_layer("batch_normalization", self.bn),
            Layer("ReLU", "re_lu", {"max_value": 6.0, "negative_slope": 0.0, "threshold": 0.0}),
            Layer("DepthwiseConv2D", "depthwise_conv2d",
                  {"kernel_size": [3, 3], "strides": [2, 2], "padding": "same", "depth_multiplier": 1,
                   "data_format": "channels_last", "activation": "relu", "use_bias": True},
                  [("kernel", dw_kernel(self.dw)), ("bias", t2n(self.dw.bias))]),
            Layer("SeparableConv2D", "separable_conv2d",
                  {"filters": 12, "kernel_size": [3, 3], "strides": [1, 1], "padding": "same", "depth_multiplier": 2,
                   "data_format": "channels_last", "activation": "swish", "use_bias": True},
                  [("depthwise_kernel", dw_kernel(self.sep_dw)), ("pointwise_kernel", conv_kernel(self.sep_pw)),
                   ("bias", t2n(self.sep_pw.bias))]),
            Layer("MaxPooling2D", "max_pooling2d", {"pool_size": [2, 2], "strides": [2, 2], "padding": "valid",
                                                    "data_format": "channels_last"}),
            Layer("Conv2D", "conv2d_1", {"filters": 16, "kernel_size": 3, "padding": "valid",
                                         "activation": "hard_swish", "use_bias": True},
                  [("kernel", conv_kernel(self.c2)), ("bias", t2n(self.c2.bias))]),
            Layer("GlobalAveragePooling2D", "global_average_pooling2d", {"data_format": "channels_last", "keepdims": False}),
            Layer("Dense", "dense", {"units": 10, "activation": "softmax", "use_bias": True},
                  [("kernel", t2n(self.fc.weight.T)), ("bias", t2n(self.fc.bias))]),
        ]
        return Model("Sequential", "seq_cnn", [32, 32, 3], layers)


class FuncCnn(nn.Module):
    """Functional: Conv2D, 1x1 and depthwise branches into Add, MaxPooling2D,
    UpSampling2D nearest, Concatenate, Conv2DTranspose (same, stride 2),
    ZeroPadding2D, AveragePooling2D (same), UpSampling2D bilinear,
    LayerNormalization, Conv2D (gelu), GlobalAveragePooling2D, two Dense heads."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3)
        self.a = nn.Conv2d(8, 8, 1)
        self.b = nn.Conv2d(8, 8, 3, groups=8)
        self.t = nn.ConvTranspose2d(16, 4, 3, stride=2)
        self.ln = nn.LayerNorm(4, eps=1e-3)
        with torch.no_grad():
            self.ln.weight.uniform_(0.5, 1.5)
            self.ln.bias.uniform_(-0.5, 0.5)
        self.g = nn.Conv2d(4, 6, 3, stride=2)
        self.d1 = nn.Linear(6, 5)
        self.d2 = nn.Linear(6, 3)

    def forward(self, x):
        c1 = F.relu(self.c1(same_pad(x, (3, 3), (1, 1))))
        s = self.a(c1) + self.b(same_pad(c1, (3, 3), (1, 1)))
        u = F.interpolate(F.max_pool2d(s, 2), scale_factor=2, mode="nearest")
        cat = torch.cat([s, u], dim=1)
        t = self.t(cat)[:, :, :48, :48]  # TF SAME with k3 s2: nothing before, the odd pixel cut at the end
        z = F.pad(t, (0, 1, 1, 0))  # ZeroPadding2D(((1, 0), (0, 1)))
        ap = F.avg_pool2d(z, 3, 2, padding=1, count_include_pad=False)
        ub = F.interpolate(ap, scale_factor=2, mode="bilinear", align_corners=False)
        ln = self.ln(ub.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        g = F.gelu(self.g(ln))
        gap = g.mean(dim=(2, 3))
        return [torch.tanh(self.d1(gap)), self.d2(gap)]

    def keras(self):
        L = []
        L.append(Layer("Conv2D", "conv2d", {"filters": 8, "kernel_size": [3, 3], "padding": "same", "activation": "relu"},
                       [("kernel", conv_kernel(self.c1)), ("bias", t2n(self.c1.bias))]))
        L.append(Layer("Conv2D", "branch_a", {"filters": 8, "kernel_size": [1, 1], "padding": "valid", "activation": "linear"},
                       [("kernel", conv_kernel(self.a)), ("bias", t2n(self.a.bias))], inbound=["conv2d"]))
        L.append(Layer("DepthwiseConv2D", "branch_b", {"kernel_size": [3, 3], "padding": "same", "depth_multiplier": 1},
                       [("kernel", dw_kernel(self.b)), ("bias", t2n(self.b.bias))], inbound=["conv2d"]))
        L.append(Layer("Add", "add", {}, inbound=["branch_a", "branch_b"]))
        L.append(Layer("MaxPooling2D", "pool", {"pool_size": [2, 2], "padding": "valid"}, inbound=["add"]))
        L.append(Layer("UpSampling2D", "up", {"size": [2, 2], "interpolation": "nearest"}, inbound=["pool"]))
        L.append(Layer("Concatenate", "concat", {"axis": -1}, inbound=["add", "up"]))
        L.append(Layer("Conv2DTranspose", "deconv", {"filters": 4, "kernel_size": [3, 3], "strides": [2, 2],
                                                     "padding": "same", "output_padding": None, "activation": "linear"},
                       [("kernel", t2n(self.t.weight.permute(2, 3, 1, 0))), ("bias", t2n(self.t.bias))],
                       inbound=["concat"]))
        L.append(Layer("ZeroPadding2D", "zpad", {"padding": [[1, 0], [0, 1]]}, inbound=["deconv"]))
        L.append(Layer("AveragePooling2D", "avgpool", {"pool_size": [3, 3], "strides": [2, 2], "padding": "same"},
                       inbound=["zpad"]))
        L.append(Layer("UpSampling2D", "up_bilinear", {"size": [2, 2], "interpolation": "bilinear"}, inbound=["avgpool"]))
        L.append(Layer("LayerNormalization", "layer_norm", {"axis": [3], "epsilon": 1e-3, "center": True, "scale": True},
                       [("gamma", t2n(self.ln.weight)), ("beta", t2n(self.ln.bias))], inbound=["up_bilinear"]))
        L.append(Layer("Conv2D", "conv_gelu", {"filters": 6, "kernel_size": 3, "strides": 2, "padding": "valid",
                                               "activation": "gelu"},
                       [("kernel", conv_kernel(self.g)), ("bias", t2n(self.g.bias))], inbound=["layer_norm"]))
        L.append(Layer("GlobalAveragePooling2D", "gap", {}, inbound=["conv_gelu"]))
        L.append(Layer("Dense", "head_a", {"units": 5, "activation": "tanh"},
                       [("kernel", t2n(self.d1.weight.T)), ("bias", t2n(self.d1.bias))], inbound=["gap"]))
        L.append(Layer("Dense", "head_b", {"units": 3},
                       [("kernel", t2n(self.d2.weight.T)), ("bias", t2n(self.d2.bias))], inbound=["gap"]))
        return Model("Functional", "func_cnn", [24, 24, 3], L, outputs=["head_a", "head_b"], input_name="image")


class Seq1d(nn.Module):
    """Conv1D (causal, elu), MaxPooling1D, Conv1D (same) + LeakyReLU, Flatten,
    Dense (selu), Dropout, Dense, PReLU, Softmax."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(4, 8, 3, dilation=2)
        self.c2 = nn.Conv1d(8, 8, 3)
        self.d1 = nn.Linear(8 * 8, 6)
        self.d2 = nn.Linear(6, 4)
        self.alpha = torch.rand(4) * 0.5

    def forward(self, x):  # x [N, C, L]
        x = F.elu(self.c1(F.pad(x, (4, 0))))
        x = F.max_pool1d(x, 2)
        x = F.leaky_relu(self.c2(F.pad(x, (1, 1))), 0.3)
        x = x.permute(0, 2, 1).reshape(x.shape[0], -1)  # Keras flattens channels last
        x = F.selu(self.d1(x))
        x = self.d2(x)
        x = torch.where(x >= 0, x, self.alpha * x)
        return torch.softmax(x, dim=-1)

    def keras(self):
        k1 = lambda c: t2n(c.weight.permute(2, 1, 0))  # noqa: E731  [O, I, k] -> [k, I, O]
        L = [
            Layer("Conv1D", "conv1d", {"filters": 8, "kernel_size": [3], "padding": "causal", "dilation_rate": [2],
                                       "activation": "elu"}, [("kernel", k1(self.c1)), ("bias", t2n(self.c1.bias))]),
            Layer("MaxPooling1D", "max_pooling1d", {"pool_size": [2], "strides": [2], "padding": "valid"}),
            Layer("Conv1D", "conv1d_1", {"filters": 8, "kernel_size": 3, "padding": "same"},
                  [("kernel", k1(self.c2)), ("bias", t2n(self.c2.bias))]),
            Layer("LeakyReLU", "leaky_re_lu", {"negative_slope": 0.3}),
            Layer("Flatten", "flatten", {"data_format": "channels_last"}),
            Layer("Dense", "dense", {"units": 6, "activation": "selu"},
                  [("kernel", t2n(self.d1.weight.T)), ("bias", t2n(self.d1.bias))]),
            Layer("Dropout", "dropout", {"rate": 0.5}),
            Layer("Dense", "dense_1", {"units": 4}, [("kernel", t2n(self.d2.weight.T)), ("bias", t2n(self.d2.bias))]),
            Layer("PReLU", "p_re_lu", {"shared_axes": None}, [("alpha", t2n(self.alpha))]),
            Layer("Softmax", "softmax", {"axis": -1}),
        ]
        return Model("Sequential", "seq_1d", [16, 4], L)


class LstmModel(nn.Module):
    """LSTM (return_sequences) -> LSTM (last state) -> Dense."""

    def __init__(self):
        super().__init__()
        self.l1 = nn.LSTM(5, 12, batch_first=True)
        self.l2 = nn.LSTM(12, 8, batch_first=True)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        y, _ = self.l1(x)
        _, (h, _) = self.l2(y)
        return self.fc(h[0])

    def keras(self):
        def lw(l):  # torch gates i, f, g, o are Keras's i, f, c, o
            return [("kernel", t2n(l.weight_ih_l0.T)), ("recurrent_kernel", t2n(l.weight_hh_l0.T)),
                    ("bias", t2n(l.bias_ih_l0 + l.bias_hh_l0))]
        L = [Layer("LSTM", "lstm", {"units": 12, "activation": "tanh", "recurrent_activation": "sigmoid",
                                    "return_sequences": True, "use_bias": True}, lw(self.l1), cell="lstm_cell"),
             Layer("LSTM", "lstm_1", {"units": 8, "return_sequences": False}, lw(self.l2), cell="lstm_cell"),
             Layer("Dense", "dense", {"units": 3}, [("kernel", t2n(self.fc.weight.T)), ("bias", t2n(self.fc.bias))])]
        return Model("Sequential", "lstm_model", [7, 5], L)


class GruModel(nn.Module):
    """Embedding (int32 input) -> GRU (reset_after, return_sequences) -> GRU -> Dense."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.g1 = nn.GRU(6, 10, batch_first=True)
        self.g2 = nn.GRU(10, 6, batch_first=True)
        self.fc = nn.Linear(6, 2)

    def forward(self, idx):
        y, _ = self.g1(self.emb(idx))
        _, h = self.g2(y)
        return self.fc(h[0])

    def keras(self):
        def gw(g):  # torch gates r, z, n -> Keras z, r, h
            def zrh(w):
                r, z, n = w.chunk(3, dim=0)
                return torch.cat([z, r, n], dim=0)
            return [("kernel", t2n(zrh(g.weight_ih_l0).T)), ("recurrent_kernel", t2n(zrh(g.weight_hh_l0).T)),
                    ("bias", t2n(torch.stack([zrh(g.bias_ih_l0), zrh(g.bias_hh_l0)])))]
        L = [Layer("Embedding", "embedding", {"input_dim": 20, "output_dim": 6, "mask_zero": False},
                   [("embeddings", t2n(self.emb.weight))]),
             Layer("GRU", "gru", {"units": 10, "return_sequences": True, "reset_after": True}, gw(self.g1), cell="gru_cell"),
             Layer("GRU", "gru_1", {"units": 6, "reset_after": True}, gw(self.g2), cell="gru_cell"),
             Layer("Dense", "dense", {"units": 2}, [("kernel", t2n(self.fc.weight.T)), ("bias", t2n(self.fc.bias))])]
        return Model("Sequential", "gru_model", [5], L, input_dtype="int32")


class NestedModel(nn.Module):
    """Functional with a Sequential used as a layer (Conv2D, BatchNormalization,
    Activation) and a shared Dense called twice: Add, Average, Multiply, Subtract."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3)
        self.inner = nn.Conv2d(4, 4, 3)
        self.bn = nn.BatchNorm2d(4, eps=1e-3)
        randomize_bn(self.bn)
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        s = F.relu(self.stem(same_pad(x, (3, 3), (1, 1))))
        b = torch.sigmoid(self.bn(self.inner(same_pad(s, (3, 3), (1, 1)))))
        a = s + b
        g = a.mean(dim=(2, 3))
        f1 = self.fc(g)
        f2 = self.fc(f1)
        return ((f1 + f2) / 2) * f1 - f2

    def keras(self):
        backbone = Model("Sequential", "backbone", [10, 10, 4], [
            Layer("Conv2D", "conv2d", {"filters": 4, "kernel_size": 3, "padding": "same"},
                  [("kernel", conv_kernel(self.inner)), ("bias", t2n(self.inner.bias))]),
            bn_layer("batch_normalization", self.bn),
            Layer("Activation", "act", {"activation": "sigmoid"})], input_name="backbone_input")
        L = [Layer("Conv2D", "stem", {"filters": 4, "kernel_size": 3, "padding": "same", "activation": "relu"},
                   [("kernel", conv_kernel(self.stem)), ("bias", t2n(self.stem.bias))]),
             Layer("Sequential", "backbone", {}, inbound=["stem"], sub=backbone),
             Layer("Add", "add", {}, inbound=["stem", "backbone"]),
             Layer("GlobalAveragePooling2D", "gap", {}, inbound=["add"]),
             Layer("Dense", "fc", {"units": 4}, [("kernel", t2n(self.fc.weight.T)), ("bias", t2n(self.fc.bias))],
                   inbound=["gap"])]
        m = Model("Functional", "nested", [10, 10, 3], L, outputs=["out"])
        return m


def nested_configs(m):
    """The shared Dense's second call (node 1) and the merges after it, added to the
    writer's configs by hand (the writer makes one call per layer)."""
    from keras_writer import report, keras2_config, keras3_config
    k3, k2 = keras3_config(m), keras2_config(m)
    kt = lambda n, i=0: {"class_name": "__keras_tensor__", "config": {"keras_history": [n, i, 0]}}  # noqa: E731
    for cfg, k3style in ((k3, True), (k2, False)):
        layers = cfg["config"]["layers"]
        fc = next(l for l in layers if l["name"] == "fc")
        if k3style:
            fc["inbound_nodes"].append({"args": [kt("fc", 0)], "kwargs": {}})
        else:
            fc["inbound_nodes"].append([["fc", 0, 0, {}]])

        def merge(cls, name, ins):
            d = {"class_name": cls, "config": {"name": name, "trainable": True, "dtype": "float32"}, "name": name}
            if k3style:
                d["module"] = "keras.layers"
                d["inbound_nodes"] = [{"args": [[kt(n, i) for n, i in ins]], "kwargs": {}}]
            else:
                d["inbound_nodes"] = [[[n, i, 0, {}] for n, i in ins]]
            layers.append(d)
        merge("Average", "avg", [("fc", 0), ("fc", 1)])
        merge("Multiply", "mul", [("avg", 0), ("fc", 0)])
        merge("Subtract", "out", [("mul", 0), ("fc", 1)])
        cfg["config"]["output_layers"] = ["out", 0, 0] if k3style else [["out", 0, 0]]
    return k3, k2


# ---------------------------------------------------------------- checks

def run(exe, model, x, outdir, input_name):
    np.save(os.path.join(outdir, "x.npy"), x)
    r = subprocess.run([exe, "run", model, "--input", f"{input_name}=" + os.path.join(outdir, "x.npy"),
                        "--output-dir", outdir, "--threads", "1"], capture_output=True, text=True, timeout=300)
    return r


def main():
    exe = sys.argv[1]
    seed_dir = sys.argv[2] if len(sys.argv) > 2 else None
    failures = []
    cases = [
        (SeqCnn(), lambda: np.random.rand(1, 32, 32, 3).astype(np.float32), "nhwc"),
        (FuncCnn(), lambda: np.random.rand(1, 24, 24, 3).astype(np.float32), "nhwc"),
        (Seq1d(), lambda: np.random.randn(1, 16, 4).astype(np.float32), "nlc"),
        (LstmModel(), lambda: np.random.randn(1, 7, 5).astype(np.float32), "seq"),
        (GruModel(), lambda: np.random.randint(0, 20, size=(1, 5)).astype(np.int32), "idx"),
        (NestedModel(), lambda: np.random.rand(1, 10, 10, 3).astype(np.float32), "nhwc"),
    ]
    with tempfile.TemporaryDirectory() as d:
        for module, make_x, kind in cases:
            module.eval()
            m = module.keras()
            x = make_x()
            with torch.no_grad():
                if kind == "nhwc":
                    ref = module(torch.from_numpy(x).permute(0, 3, 1, 2))
                elif kind == "nlc":
                    ref = module(torch.from_numpy(x).permute(0, 2, 1))
                elif kind == "idx":
                    ref = module(torch.from_numpy(x).long())
                else:
                    ref = module(torch.from_numpy(x))
            refs = [t2n(r) for r in (ref if isinstance(ref, list) else [ref])]
            files = [(os.path.join(d, m.name + ".keras"), "keras3 .keras"), (os.path.join(d, m.name + ".h5"), "legacy .h5")]
            if m.name == "nested":
                k3, k2 = nested_configs(m)
                write_keras(files[0][0], m, config_override=k3)
                write_legacy_h5(files[1][0], m, config_override=k2)
                files.append((os.path.join(d, m.name + "_k2.keras"), "keras2 .keras"))
                write_keras(files[2][0], m, variant="keras2", version="2.15.0", config_override=k2)
            else:
                write_keras(files[0][0], m)
                write_legacy_h5(files[1][0], m)
            if m.name == "func_cnn":
                files.append((os.path.join(d, m.name + "_k2.keras"), "keras2 .keras"))
                write_keras(files[2][0], m, variant="keras2", version="2.15.0")
            for path, what in files:
                out = os.path.join(d, os.path.basename(path) + ".out")
                os.makedirs(out, exist_ok=True)
                r = run(exe, path, x, out, m.input_name)
                if r.returncode != 0:
                    failures.append(f"{m.name} ({what}): run exit {r.returncode}: {r.stderr.strip()}")
                    print(f"{m.name:12s} {what:14s} FAILED: {r.stderr.strip()}")
                    continue
                for name, want in zip(m.outputs, refs):
                    got = np.load(os.path.join(out, name + ".npy"))
                    if got.shape != want.shape:
                        failures.append(f"{m.name} ({what}) {name}: shape {got.shape}, PyTorch {want.shape}")
                        continue
                    err = float(np.abs(got - want).max())
                    tol = 1e-4 * max(float(np.abs(want).max()), 1e-6)
                    ok = err <= tol
                    print(f"{m.name:12s} {what:14s} {name:10s} max|diff| {err:.3g} (tolerance {tol:.3g}) {'ok' if ok else 'FAIL'}")
                    if not ok:
                        failures.append(f"{m.name} ({what}) {name}: max|diff| {err:.3g} > {tol:.3g}")
            if seed_dir:
                os.makedirs(seed_dir, exist_ok=True)
                for path, _ in files:
                    shutil.copy(path, seed_dir)
        # compile for Coral: a file is written
        tfl = os.path.join(d, "seq_cnn.tflite")
        calib = os.path.join(d, "calibration.npy")
        np.save(calib, np.random.rand(8, 32, 32, 3).astype(np.float32))
        r = subprocess.run([exe, "compile", os.path.join(d, "seq_cnn.keras"), "--target", "coral", "--output", tfl,
                            "--calibration-data", calib, "--no-record"], capture_output=True, text=True, timeout=600)
        size = os.path.getsize(tfl) if os.path.exists(tfl) else 0
        print(f"compile --target coral seq_cnn.keras: exit {r.returncode}, {size} bytes")
        if r.returncode != 0 or size == 0:
            failures.append(f"compile --target coral: exit {r.returncode}, {size} bytes: {r.stderr.strip()[-300:]}")
    return report(failures)


if __name__ == "__main__":
    sys.exit(main())
