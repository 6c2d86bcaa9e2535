#!/usr/bin/env python3
"""Checks the MACs `edgecompile inspect --json` reports against an independent
count made here in PyTorch, and that every op has an estimate.

usage: check_inspect_macs.py EDGECOMPILE MODELS_DIR [NAME...]

The reference: forward hooks on the torch model export_models.py exported
(same builder), counting multiply-accumulates from module dimensions and the
tensors that actually flow at batch 1:
  Conv/ConvTranspose  output (input) elements x in/groups x kernel taps
  Linear              output elements x in_features
  LSTM/GRU/RNN        gates x hidden x (input + hidden) per step, direction and layer
  MultiheadAttention  q/k/v and output projections + QK^T + AV (the fused path
                      calls its projections functionally, so no Linear hook sees them)
Each model is checked as imported and after `optimize` (shapes re-inferred after
folding): MACs equal the reference (relative 1e-6) and ops_without_estimate is empty.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_models  # noqa: E402


def torch_macs(model, x):
    import torch
    total = [0]

    def conv(m, inp, out):
        taps = math.prod(m.kernel_size)
        total[0] += out.numel() * (m.in_channels // m.groups) * taps

    def conv_t(m, inp, out):
        taps = math.prod(m.kernel_size)
        total[0] += inp[0].numel() * (m.out_channels // m.groups) * taps

    def linear(m, inp, out):
        total[0] += out.numel() * m.in_features

    def recurrent(m, inp, out):
        gates = {"LSTM": 4, "GRU": 3}.get(m.mode, 1)
        x0 = inp[0]
        seq, batch = (x0.shape[1], x0.shape[0]) if m.batch_first else (x0.shape[0], x0.shape[1])
        dirs = 2 if m.bidirectional else 1
        h = m.hidden_size
        for layer in range(m.num_layers):
            i = m.input_size if layer == 0 else h * dirs
            total[0] += dirs * seq * batch * gates * h * (i + h)

    def attention(m, inp, out):
        q = inp[0]
        seq, batch = (q.shape[1], q.shape[0]) if m.batch_first else (q.shape[0], q.shape[1])
        e = m.embed_dim
        total[0] += batch * (seq * 3 * e * e + 2 * seq * seq * e + seq * e * e)

    for mod in model.modules():
        if isinstance(mod, (torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d)):
            mod.register_forward_hook(conv)
        elif isinstance(mod, (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)):
            mod.register_forward_hook(conv_t)
        elif isinstance(mod, torch.nn.Linear):
            mod.register_forward_hook(linear)
        elif isinstance(mod, torch.nn.RNNBase):
            mod.register_forward_hook(recurrent)
        elif isinstance(mod, torch.nn.MultiheadAttention):
            mod.register_forward_hook(attention)
    # Gradients stay enabled: under no_grad, TransformerEncoderLayer takes a fused
    # path that skips its submodules' hooks.
    model(x)
    return total[0]


def inspect(exe, path):
    proc = subprocess.run([exe, "inspect", "--json", path], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return None, proc.stderr.strip()
    return json.loads(proc.stdout), ""


def main():
    exe, models_dir = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or [n for n in export_models.MODEL_NAMES + export_models.EXTRA_NAMES]
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {what}")

    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            model, x = export_models.build_model(name)
            ref = torch_macs(model, x)
            if name == "lstm_text":
                # written out from the module's dimensions: 4 gates x (input x hidden +
                # hidden x hidden) x seq_len, plus the Linear
                lstm, fc = model.lstm, model.fc
                seq = x.shape[1]
                formula = 4 * (lstm.input_size * lstm.hidden_size + lstm.hidden_size ** 2) * seq \
                    + fc.in_features * fc.out_features
                check(ref == formula, f"{name}: hook count {ref} != formula {formula}")
            onnx_path = os.path.join(models_dir, f"{name}.onnx")
            eir_path = os.path.join(tmp, f"{name}.eir")
            proc = subprocess.run([exe, "optimize", onnx_path, "--output", eir_path],
                                  capture_output=True, text=True, timeout=300)
            check(proc.returncode == 0, f"{name}: optimize exit {proc.returncode}: {proc.stderr.strip()}")
            for label, path in (("imported", onnx_path), ("optimised", eir_path)):
                report, err = inspect(exe, path)
                check(report is not None, f"{name} ({label}): inspect failed: {err}")
                if report is None:
                    continue
                c = report["compute"]
                print(f"{name} ({label}): {c['macs']} MACs, torch hooks count {ref}; "
                      f"{len(c['ops_without_estimate'])} ops without estimate")
                check(abs(c["macs"] - ref) <= 1e-6 * ref,
                      f"{name} ({label}): {c['macs']} MACs, torch counts {ref}")
                check(c["ops_without_estimate"] == [],
                      f"{name} ({label}): ops without estimate: {c.get('ops_without_estimate_detail')}")
                check(c["flops"] == 2 * c["macs"] and c.get("total_flops", -1) >= c["flops"],
                      f"{name} ({label}): flops {c['flops']}, total {c.get('total_flops')}")
                check(c.get("overflow") is False, f"{name} ({label}): overflow reported")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
