#!/usr/bin/env python3
"""One small model of each architecture family that the torchvision classifiers
do not cover (issue 35), built with Debian's PyTorch: random weights, fixed seed,
nothing downloaded. Shared by the compile-coverage checks (tests/tflite/check_families.py)
and anyone who needs "a model of family X".

usage: families.py OUT_DIR [NAME ...]    exports OUT_DIR/<name>.onnx (opset 13, static shapes)

build(name) -> (model in eval mode, example input) for the same weights.
"""
import os
import sys


def _nets():
    import torch
    import torchvision
    nn = torch.nn

    class Audio1d(nn.Module):
        """1-D convolutions over a waveform-like signal: dilated, strided, pooled (keyword spotting style)."""
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv1d(1, 16, 9, stride=2, padding=4), nn.BatchNorm1d(16), nn.ReLU(),
                nn.Conv1d(16, 24, 3, padding=2, dilation=2), nn.ReLU(), nn.MaxPool1d(3, 2, ceil_mode=True),
                nn.Conv1d(24, 24, 3, padding=4, dilation=4, groups=24), nn.Conv1d(24, 32, 1), nn.ReLU(),
                nn.AvgPool1d(2), nn.AdaptiveAvgPool1d(1))
            self.fc = nn.Linear(32, 12)

        def forward(self, x):
            return self.fc(torch.flatten(self.body(x), 1))

    class Video3d(nn.Module):
        """3-D convolutions over 8 frames, BatchNorm3d, MaxPool3d, global pooling, a linear head."""
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv3d(3, 16, (3, 3, 3), padding=1), nn.BatchNorm3d(16), nn.ReLU(),
                nn.MaxPool3d((1, 2, 2)),
                nn.Conv3d(16, 24, (3, 3, 3), stride=(2, 2, 2), padding=1), nn.BatchNorm3d(24), nn.ReLU(),
                nn.AdaptiveAvgPool3d(1))
            self.fc = nn.Linear(24, 5)

        def forward(self, x):
            return self.fc(torch.flatten(self.body(x), 1))

    class Mixer(nn.Module):
        """MLP-Mixer: patches by a strided convolution, token- and channel-mixing MLPs with GELU, LayerNorm."""
        def __init__(self, dim=48, tokens=16, layers=2):
            super().__init__()
            self.patch = nn.Conv2d(3, dim, 8, stride=8)
            self.blocks = nn.ModuleList()
            for _ in range(layers):
                self.blocks.append(nn.ModuleDict({
                    "norm1": nn.LayerNorm(dim),
                    "tok": nn.Sequential(nn.Linear(tokens, 32), nn.GELU(), nn.Linear(32, tokens)),
                    "norm2": nn.LayerNorm(dim),
                    "ch": nn.Sequential(nn.Linear(dim, 96), nn.GELU(), nn.Linear(96, dim))}))
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, 10)

        def forward(self, x):
            x = self.patch(x).flatten(2).transpose(1, 2)  # [N, tokens, dim]
            for b in self.blocks:
                x = x + b["tok"](b["norm1"](x).transpose(1, 2)).transpose(1, 2)
                x = x + b["ch"](b["norm2"](x))
            return self.head(self.norm(x).mean(1))

    class GeluTransformer(nn.Module):
        """A pre-norm transformer encoder with GELU over 24 token ids."""
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(500, 64)
            self.enc = nn.TransformerEncoder(
                nn.TransformerEncoderLayer(64, 4, 128, activation="gelu", batch_first=True, norm_first=True),
                2, enable_nested_tensor=False)
            self.head = nn.Linear(64, 6)

        def forward(self, tokens):
            return self.head(self.enc(self.embed(tokens))[:, 0])

    class Recurrent(nn.Module):
        """Embedding -> a recurrent layer of an odd size -> linear head on the last step."""
        def __init__(self, cell, hidden, layers, bidirectional):
            super().__init__()
            self.embed = nn.Embedding(300, 40)
            self.rnn = getattr(nn, cell)(40, hidden, num_layers=layers, bidirectional=bidirectional, batch_first=True)
            self.fc = nn.Linear(hidden * (2 if bidirectional else 1), 7)

        def forward(self, tokens):
            y, _ = self.rnn(self.embed(tokens))
            return self.fc(y[:, -1])

    class SegHead(nn.Module):
        """Segmentation: a dilated backbone, bilinear upsampling (align_corners false) to the input size."""
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                nn.Conv2d(32, 32, 3, 1, 2, dilation=2), nn.ReLU(), nn.Conv2d(32, 21, 1))

        def forward(self, x):
            return nn.functional.interpolate(self.body(x), size=x.shape[-2:], mode="bilinear", align_corners=False)

    class EncDec(nn.Module):
        """Encoder-decoder: ConvTranspose2d upsampling (2x2 stride 2, and 3x3 stride 2 output_padding 1) with skip concats."""
        def __init__(self):
            super().__init__()
            self.e1 = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.ReLU())
            self.e2 = nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
            self.e3 = nn.Sequential(nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
            self.u2 = nn.ConvTranspose2d(32, 32, 2, 2)
            self.d2 = nn.Sequential(nn.Conv2d(64, 16, 3, 1, 1), nn.ReLU())
            self.u1 = nn.ConvTranspose2d(16, 16, 3, 2, padding=1, output_padding=1)
            self.d1 = nn.Conv2d(32, 2, 1)

        def forward(self, x):
            a = self.e1(x)
            b = self.e2(a)
            c = self.e3(b)
            y = self.d2(torch.cat([self.u2(c), b], 1))
            return self.d1(torch.cat([self.u1(y), a], 1))

    class Crnn(nn.Module):
        """OCR-style CRNN: convolutions, a (2, 1) pool, permute(0, 3, 1, 2) of the NCHW map
        into a sequence, a batch-first bidirectional LSTM of an odd hidden size."""

        def __init__(self):
            super().__init__()
            self.c = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                   nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d((2, 1)))
            self.rnn = nn.LSTM(32 * 8, 37, batch_first=True, bidirectional=True)
            self.fc = nn.Linear(74, 11)

        def forward(self, x):
            y = self.c(x)
            b, c, h, w = y.shape
            y, _ = self.rnn(y.permute(0, 3, 1, 2).reshape(b, w, c * h))
            return self.fc(y)

    def tokens(n, vocab):
        return lambda: torch.randint(0, vocab, (1, n), dtype=torch.int64)

    img = lambda s: (lambda: torch.randn(1, 3, s, s))  # noqa: E731
    return {
        # classifiers whose pools use ceil_mode
        "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(weights=None), img(96)),
        # grouped convolutions (RegNet / ResNeXt style)
        "regnet_x_400mf": (lambda: torchvision.models.regnet_x_400mf(weights=None), img(96)),
        # HardSigmoid (squeeze-excitation gates) and HardSwish
        "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(weights=None), img(96)),
        "gru_bi80": (lambda: Recurrent("GRU", 80, 2, True), tokens(12, 300)),
        "lstm_bi48": (lambda: Recurrent("LSTM", 48, 1, True), tokens(12, 300)),
        "audio_conv1d": (Audio1d, lambda: torch.randn(1, 1, 400)),
        "gelu_transformer": (GeluTransformer, tokens(24, 500)),
        "mlp_mixer": (Mixer, img(32)),
        "video_conv3d": (Video3d, lambda: torch.randn(1, 3, 8, 32, 32)),
        "seg_bilinear": (SegHead, img(64)),
        "encoder_decoder": (EncDec, img(64)),
        # channel shuffle (5-D Reshape/Transpose/Reshape) and convolutions without bias
        "shufflenet_v2_x0_5": (lambda: torchvision.models.shufflenet_v2_x0_5(weights=None), img(64)),
        # squeeze-excitation with Sigmoid gates (a Conv with a fused SIGMOID) and SiLU
        "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(weights=None), img(64)),
        # a CRNN: NCHW feature map permuted into a sequence for a batch-first bidirectional LSTM
        "crnn": (Crnn, lambda: torch.rand(1, 1, 32, 24)),
    }


NAMES = ("squeezenet1_1", "regnet_x_400mf", "mobilenet_v3_small", "gru_bi80", "lstm_bi48", "audio_conv1d",
         "gelu_transformer", "mlp_mixer", "video_conv3d", "seg_bilinear", "encoder_decoder", "shufflenet_v2_x0_5",
         "efficientnet_b0", "crnn")
TOKEN_MODELS = ("gru_bi80", "lstm_bi48", "gelu_transformer")


def build(name):
    import torch
    make, example = _nets()[name]
    torch.manual_seed(0)
    model = make()
    model.eval()
    x = example()
    return model, x


def export(name, out_dir):
    import torch
    path = os.path.join(out_dir, name + ".onnx")
    if os.path.exists(path):
        return path
    model, x = build(name)
    tmp = path + ".tmp"
    # not under no_grad: there nn.TransformerEncoder takes a fused fast path ONNX cannot export
    torch.onnx.export(model, x, tmp, opset_version=13, input_names=["input"], output_names=["output"],
                      do_constant_folding=True)
    os.replace(tmp, path)
    return path


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in sys.argv[2:] or NAMES:
        print(export(name, out))


if __name__ == "__main__":
    main()
