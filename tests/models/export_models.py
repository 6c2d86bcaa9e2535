#!/usr/bin/env python3
"""Exports the real architectures the tests and benchmarks use, with Debian's
PyTorch: random weights (weights=None), fixed seed, nothing downloaded.

usage: export_models.py OUT_DIR [--large]

Writes OUT_DIR/<name>.onnx and OUT_DIR/expected.json with, per model, the
element count of its initializers and Constant-node tensors, computed here
with the onnx package, independently of edgecompiler. A model is re-exported
only when missing. --large adds resnet50 (for bench/).

Other scripts build the same models (same seed, same weights) with
build_model(name); check_runtime.py compares the CPU runtime with PyTorch that way.
"""
import json
import os
import sys

import numpy as np


MODEL_NAMES = ("mobilenet_v2", "resnet18", "transformer")
# Architectures nobody tuned for, exported beside them (issue 13): two more CNN
# families and a recurrent text model with integer (token id) inputs.
EXTRA_NAMES = ("efficientnet_b0", "shufflenet_v2_x1_0", "lstm_text")
# Every torchvision classification model above (1x3x224x224 in, 1000 logits out).
CLASSIFIERS = ("mobilenet_v2", "resnet18", "efficientnet_b0", "shufflenet_v2_x1_0")


class LstmText:
    """Embedding(1000, 64) -> LSTM(64, 128) -> Linear(128, 10) on the last step:
    a small text classifier whose input is 32 int64 token ids. A subclass with
    CELL = "GRU" gives the GRU twin, and other sizes wider models
    (bench/export_bench_models.py)."""

    CELL = "LSTM"
    VOCAB, EMBED, HIDDEN, LAYERS, BIDIRECTIONAL, TOKENS = 1000, 64, 128, 1, False, 32

    @classmethod
    def make(cls):
        import torch
        c = cls

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = torch.nn.Embedding(c.VOCAB, c.EMBED)
                setattr(self, c.CELL.lower(), getattr(torch.nn, c.CELL)(
                    c.EMBED, c.HIDDEN, num_layers=c.LAYERS, bidirectional=c.BIDIRECTIONAL, batch_first=True))
                self.fc = torch.nn.Linear(c.HIDDEN * (2 if c.BIDIRECTIONAL else 1), 10)

            def forward(self, tokens):
                y, _ = getattr(self, c.CELL.lower())(self.embedding(tokens))
                return self.fc(y[:, -1, :])

        return Net()

    @classmethod
    def example(cls):
        import torch
        return torch.randint(0, cls.VOCAB, (1, cls.TOKENS), dtype=torch.int64)


def model_builders():
    """name -> (make_model, make_example_input); call both right after torch.manual_seed(0)."""
    import torch
    import torchvision
    return {
        "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None),
                         lambda: torch.randn(1, 3, 224, 224)),
        "resnet18": (lambda: torchvision.models.resnet18(weights=None),
                     lambda: torch.randn(1, 3, 224, 224)),
        "transformer": (lambda: torch.nn.TransformerEncoder(
                            torch.nn.TransformerEncoderLayer(d_model=64, nhead=4,
                                                             dim_feedforward=128,
                                                             batch_first=True),
                            num_layers=2, enable_nested_tensor=False),
                        lambda: torch.randn(1, 16, 64)),
        "resnet50": (lambda: torchvision.models.resnet50(weights=None),
                     lambda: torch.randn(1, 3, 224, 224)),
        "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(weights=None),
                            lambda: torch.randn(1, 3, 224, 224)),
        "shufflenet_v2_x1_0": (lambda: torchvision.models.shufflenet_v2_x1_0(weights=None),
                               lambda: torch.randn(1, 3, 224, 224)),
        "lstm_text": (LstmText.make, LstmText.example),
    }


def build_model(name):
    """The model `name` in eval mode with the exported weights (seed 0), and its example input."""
    import torch
    make, example = model_builders()[name]
    torch.manual_seed(0)
    model = make()
    x = example()
    model.eval()
    return model, x


STATIC_SHAPE = ("lstm_text",)  # exported with its fixed [1, 32] input


def export(name, model, example, out_dir, dynamic_batch=True):
    import torch
    path = os.path.join(out_dir, f"{name}.onnx")
    if os.path.exists(path):
        return path
    model.eval()
    tmp = path + ".tmp"
    axes = {"input": {0: "batch"}, "output": {0: "batch"}} if dynamic_batch else None
    torch.onnx.export(model, example, tmp, opset_version=13, input_names=["input"],
                      output_names=["output"], dynamic_axes=axes, do_constant_folding=True)
    os.replace(tmp, path)
    return path


def constant_elements(path):
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    n = sum(int(np.prod(t.dims)) for t in m.graph.initializer)
    for node in m.graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value":
                    n += int(np.prod(a.t.dims))
                elif a.name in ("value_float", "value_int", "value_string"):
                    n += 1
                elif a.name in ("value_floats", "value_ints", "value_strings"):
                    n += len(a.floats) + len(a.ints) + len(a.strings)
    return n


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    out_dir = args[0]
    os.makedirs(out_dir, exist_ok=True)
    names = list(MODEL_NAMES) + list(EXTRA_NAMES) + (["resnet50"] if "--large" in sys.argv else [])
    expected_path = os.path.join(out_dir, "expected.json")
    expected = {}
    if os.path.exists(expected_path):
        with open(expected_path) as f:
            expected = json.load(f)
    for name in names:
        model, example = build_model(name)
        path = export(name, model, example, out_dir, dynamic_batch=name not in STATIC_SHAPE)
        if name not in expected:
            expected[name] = {"path": path, "parameter_count": constant_elements(path)}
        print(f"{name}: {path} ({expected[name]['parameter_count']} constant elements)")
    with open(expected_path + ".tmp", "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
    os.replace(expected_path + ".tmp", expected_path)


if __name__ == "__main__":
    main()
