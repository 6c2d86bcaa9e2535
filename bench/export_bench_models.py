#!/usr/bin/env python3
"""Exports the runtime benchmark's model set (issue 18) with Debian's PyTorch:
random weights (weights=None), torch.manual_seed(0), nothing downloaded, and
writes one input per model (.npy, numpy seed 0).

usage: export_bench_models.py OUT_DIR [NAME ...]   (NAME: the table's, or any torchvision classifier)

Prints one line per model: NAME MODEL.onnx INPUT.npy. Models shared with the
tests (mobilenet_v2, resnet18, resnet50, transformer, lstm_text) come from
tests/models/export_models.py, so both export the same weights.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "models"))
import export_models  # noqa: E402


class GruText(export_models.LstmText):
    """Embedding(1000, 64) -> GRU(64, 128) -> Linear(128, 10) on the last step, over 32 int64 token ids."""
    CELL = "GRU"


class WideText(export_models.LstmText):
    """Embedding(5000, 128) -> 2-layer bidirectional LSTM(128, 256) -> Linear(512, 10) on the
    last step, over 64 int64 token ids: a recurrent model wider and deeper than the table's."""
    VOCAB, EMBED, HIDDEN, LAYERS, BIDIRECTIONAL, TOKENS = 5000, 128, 256, 2, True, 64


class WideGruText(WideText):
    CELL = "GRU"


def transformer_base():
    """A BERT-small-like encoder: d_model 256, 8 heads, feed-forward 1024 with GELU, 4 layers."""
    import torch
    layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024, activation="gelu",
                                             batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)


def _family_nets():
    """Models of the families the classifiers do not cover (issue 38): each a typical member
    of its family at a realistic size, so a kernel missing from the fast path shows."""
    import torch
    import torchvision
    nn = torch.nn

    class UNet(nn.Module):
        """Encoder-decoder: 3 downsampling stages, 2x2 stride-2 ConvTranspose2d upsampling, skip concats."""
        def __init__(self, c=(16, 32, 64, 128)):
            super().__init__()
            def block(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                     nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())
            self.down = nn.ModuleList([block(3, c[0]), block(c[0], c[1]), block(c[1], c[2]), block(c[2], c[3])])
            self.up = nn.ModuleList([nn.ConvTranspose2d(c[i + 1], c[i], 2, stride=2) for i in range(3)])
            self.dec = nn.ModuleList([block(2 * c[i], c[i]) for i in range(3)])
            self.head = nn.Conv2d(c[0], 2, 1)

        def forward(self, x):
            skips = []
            for i, d in enumerate(self.down):
                x = d(x)
                if i < 3:
                    skips.append(x)
                    x = nn.functional.max_pool2d(x, 2)
            for i in (2, 1, 0):
                x = self.dec[i](torch.cat([self.up[i](x), skips[i]], 1))
            return self.head(x)

    class Video3d(nn.Module):
        """C3D-style video network over 8 frames of 112x112: Conv3d, BatchNorm3d, MaxPool3d."""
        def __init__(self):
            super().__init__()
            def block(i, o, pool):
                return [nn.Conv3d(i, o, 3, padding=1), nn.BatchNorm3d(o), nn.ReLU(), nn.MaxPool3d(pool)]
            self.body = nn.Sequential(*block(3, 24, (1, 2, 2)), *block(24, 48, 2), *block(48, 96, 2),
                                      *block(96, 160, 2), nn.AdaptiveAvgPool3d(1))
            self.fc = nn.Linear(160, 10)

        def forward(self, x):
            return self.fc(torch.flatten(self.body(x), 1))

    class Audio1d(nn.Module):
        """Keyword spotting over a 1 s 16 kHz waveform: strided and dilated 1-D convolutions, depthwise separable blocks."""
        def __init__(self):
            super().__init__()
            layers = [nn.Conv1d(1, 48, 80, stride=4, padding=38), nn.BatchNorm1d(48), nn.ReLU(), nn.MaxPool1d(4)]
            ch = 48
            for o, d in ((64, 1), (96, 2), (96, 4), (160, 8)):
                layers += [nn.Conv1d(ch, ch, 3, padding=d, dilation=d, groups=ch), nn.Conv1d(ch, o, 1),
                           nn.BatchNorm1d(o), nn.ReLU()]
                ch = o
            layers += [nn.MaxPool1d(2), nn.Conv1d(ch, 200, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1)]
            self.body = nn.Sequential(*layers)
            self.fc = nn.Linear(200, 35)

        def forward(self, x):
            return self.fc(torch.flatten(self.body(x), 1))

    class Mixer(nn.Module):
        """MLP-Mixer S/16-like at 224x224: 196 tokens, width 256, 4 blocks, GELU MLPs, LayerNorm."""
        def __init__(self, dim=256, tokens=196, layers=4):
            super().__init__()
            self.patch = nn.Conv2d(3, dim, 16, stride=16)
            self.blocks = nn.ModuleList([nn.ModuleDict({
                "norm1": nn.LayerNorm(dim),
                "tok": nn.Sequential(nn.Linear(tokens, 128), nn.GELU(), nn.Linear(128, tokens)),
                "norm2": nn.LayerNorm(dim),
                "ch": nn.Sequential(nn.Linear(dim, 1024), nn.GELU(), nn.Linear(1024, dim))}) for _ in range(layers)])
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, 100)

        def forward(self, x):
            x = self.patch(x).flatten(2).transpose(1, 2)
            for b in self.blocks:
                x = x + b["tok"](b["norm1"](x).transpose(1, 2)).transpose(1, 2)
                x = x + b["ch"](b["norm2"](x))
            return self.head(self.norm(x).mean(1))

    class PreNormText(nn.Module):
        """A pre-norm (norm_first) GELU transformer over 128 token ids: embedding, 4 layers, a pooled head."""
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(8000, 192)
            self.pos = nn.Parameter(torch.randn(1, 128, 192) * 0.02)
            layer = nn.TransformerEncoderLayer(d_model=192, nhead=6, dim_feedforward=768, activation="gelu",
                                               batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
            self.head = nn.Linear(192, 4)

        def forward(self, ids):
            return self.head(self.enc(self.embed(ids) + self.pos).mean(1))

    class Recurrent(nn.Module):
        """2-layer bidirectional GRU/LSTM with a hidden size that is no power of two, over 50 frames of 40 features."""
        def __init__(self, cell, hidden):
            super().__init__()
            self.rnn = getattr(nn, cell)(40, hidden, num_layers=2, bidirectional=True, batch_first=True)
            self.fc = nn.Linear(2 * hidden, 12)

        def forward(self, x):
            return self.fc(self.rnn(x)[0][:, -1])

    class SegOut(nn.Module):
        """torchvision's segmentation models return {"out": ...}: the map alone."""
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            return self.model(x)["out"]

    seg = torchvision.models.segmentation
    return {
        "deeplabv3_mnv3": (lambda: SegOut(seg.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None)),
                           lambda: torch.randn(1, 3, 256, 256)),
        "lraspp_mnv3": (lambda: SegOut(seg.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None)),
                        lambda: torch.randn(1, 3, 256, 256)),
        "unet": (UNet, lambda: torch.randn(1, 3, 128, 128)),
        "video3d": (Video3d, lambda: torch.randn(1, 3, 8, 112, 112)),
        "audio1d": (Audio1d, lambda: torch.randn(1, 1, 16000)),
        "mixer": (Mixer, image),
        "prenorm_text": (PreNormText, lambda: torch.randint(0, 8000, (1, 128))),
        "bigru80": (lambda: Recurrent("GRU", 80), lambda: torch.randn(1, 50, 40)),
        "bilstm100": (lambda: Recurrent("LSTM", 100), lambda: torch.randn(1, 50, 40)),
        # held back: other members of the families, measured the same way
        "fcn_resnet50": (lambda: SegOut(seg.fcn_resnet50(weights=None, weights_backbone=None, aux_loss=False)),
                         lambda: torch.randn(1, 3, 224, 224)),
        "r2plus1d_18": (lambda: torchvision.models.video.r2plus1d_18(weights=None), lambda: torch.randn(1, 3, 8, 112, 112)),
        "bigru72": (lambda: Recurrent("GRU", 72), lambda: torch.randn(1, 50, 40)),
        "bilstm60": (lambda: Recurrent("LSTM", 60), lambda: torch.randn(1, 50, 40)),
    }


def sequence():
    import torch
    return torch.randn(1, 128, 256)


def image():
    import torch
    return torch.randn(1, 3, 224, 224)


def builders():
    import torchvision
    own = {
        "mobilenet_v3_large": (lambda: torchvision.models.mobilenet_v3_large(weights=None), image),
        "densenet121": (lambda: torchvision.models.densenet121(weights=None), image),
        "convnext_tiny": (lambda: torchvision.models.convnext_tiny(weights=None), image),
        "vit_b_16": (lambda: torchvision.models.vit_b_16(weights=None), image),
        "gru_text": (GruText.make, GruText.example),
        # Beyond the table (MODELS=... bench/runtime.sh): other architectures, to see that
        # the speed holds where nothing was tuned.
        "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(weights=None), image),
        "googlenet": (lambda: torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=True), image),
        "regnet_y_400mf": (lambda: torchvision.models.regnet_y_400mf(weights=None), image),
        "mnasnet1_0": (lambda: torchvision.models.mnasnet1_0(weights=None), image),
        "lstm_wide": (WideText.make, WideText.example),
        "gru_wide": (WideGruText.make, WideGruText.example),
        "transformer_base": (transformer_base, sequence),
    }
    families = {name: (lambda m=make: m(), lambda e=ex: e()) for name, (make, ex) in _family_nets().items()}
    return {**export_models.model_builders(), **own, **families}


# The table's rows, in order.
BENCH_SET = ("mobilenet_v2", "mobilenet_v3_large", "resnet18", "resnet50", "densenet121", "convnext_tiny",
             "vit_b_16", "transformer", "gru_text", "lstm_text")
# Families beyond the classifiers (issue 38): segmentation, encoder-decoder, video, audio,
# MLP-Mixer, pre-norm transformer over token ids, recurrent layers of odd sizes.
FAMILY_SET = ("deeplabv3_mnv3", "lraspp_mnv3", "unet", "video3d", "audio1d", "mixer", "prenorm_text",
              "bigru80", "bilstm100")
HELD_BACK = ("fcn_resnet50", "r2plus1d_18", "bigru72", "bilstm60")
STATIC = ("lstm_text", "gru_text", "lstm_wide", "gru_wide", "bigru80", "bilstm100", "bigru72", "bilstm60",
          "prenorm_text")


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    out_dir, names = args[0], args[1:] or list(BENCH_SET)
    os.makedirs(out_dir, exist_ok=True)
    import torch
    table = builders()
    import torchvision
    classifiers = set(torchvision.models.list_models(module=torchvision.models))
    for name in names:
        if name in table:
            make, example = table[name]
        elif name in classifiers:  # any other torchvision classifier, random weights, 224x224
            make, example = (lambda n=name: torchvision.models.get_model(n, weights=None)), image
        else:
            sys.exit(f"export_bench_models.py: unknown model '{name}' (known: {', '.join(sorted(table))} "
                     "and torchvision's classifiers)")
        torch.manual_seed(0)
        model = make()
        x = example()
        model.eval()
        # no torch.no_grad(): under it the attention layers take a fused path that has no ONNX export
        try:
            path = export_models.export(name, model, x, out_dir, dynamic_batch=name not in STATIC)
        except Exception as e:  # one model torch cannot export (swin_v2_t: aten::zero) leaves the rest
            print(f"export_bench_models.py: {name}: torch cannot export it to ONNX ({str(e).splitlines()[0]}); "
                  "skipped", file=sys.stderr)
            continue
        inp = os.path.join(out_dir, f"{name}.input.npy")
        if not os.path.exists(inp):
            rng = np.random.default_rng(0)
            arr = (rng.integers(0, 1000, tuple(x.shape)).astype(np.int64) if x.dtype == torch.int64
                   else rng.standard_normal(tuple(x.shape)).astype(np.float32))
            np.save(inp + ".tmp.npy", arr)
            os.replace(inp + ".tmp.npy", inp)
        print(name, path, inp)


if __name__ == "__main__":
    main()
