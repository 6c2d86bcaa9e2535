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
    return {**export_models.model_builders(), **own}


# The table's rows, in order.
BENCH_SET = ("mobilenet_v2", "mobilenet_v3_large", "resnet18", "resnet50", "densenet121", "convnext_tiny",
             "vit_b_16", "transformer", "gru_text", "lstm_text")
STATIC = ("lstm_text", "gru_text", "lstm_wide", "gru_wide")


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
