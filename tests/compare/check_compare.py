#!/usr/bin/env python3
"""`edgecompile compare` and `run --dump-intermediates` (issue 42), end to end.

usage: check_compare.py EDGECOMPILE WORK_DIR CASE

A small CNN (Conv/BatchNorm/ReLU x3, pooling, Linear) is built with Debian's PyTorch
(random weights, seed 0) and exported to ONNX in WORK_DIR; every case works on copies.

cases:
  self       the model against itself: every matched tensor exact, no divergence
  optimize   against its `optimize` output: surviving tensors within 1e-5 relative,
             the BatchNormalizations folded away reported as fused
  ptq        against its PTQ int8 model: per-tensor SQNR equals the quantiser's report
             within 0.1 dB
  fault      one weight of the second Conv scaled by 100: that Conv's output is the
             first divergence
  nan        one weight of the third Conv NaN: its output is where NaN first appears
  coral      against `compile --target coral` (.tflite, NHWC, int8 I/O): tensors matched
             through the layout change, the first divergence an op of the ONNX model
  metal      against `compile --target metal` (.mlpackage read back, fp16 compute simulated):
             the folded Conv+BatchNormalization pairs with the BatchNormalization's output
             (no false divergence), the logits' SQNR in fp16's range; --fp16 none/b on the
             package against itself: fp16 rounding alone (about 1e-3 relative)
  torchvision  mobilenet_v2 and resnet18 (tests/models, $EC_TEST_MODELS_DIR) against their
             .mlpackage: most tensors matched, no false first divergence
  passes     --passes: every stage compared, none beyond float noise on this model
  bad        different input names / shapes, nothing matched: one line each, exit 1;
             --html is never left half-written
  dump       run --dump-intermediates (float and int8) and --dump-intermediates-only
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

EXE, WORK, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args, expect=0):
    p = subprocess.run([EXE] + list(args), capture_output=True, text=True, timeout=900)
    if p.returncode != expect:
        print("command:", " ".join([EXE] + list(args)))
        print("stdout:", p.stdout[-3000:])
        print("stderr:", p.stderr[-3000:])
    check(p.returncode == expect, f"{' '.join(args[:3])} ... exits {expect} (got {p.returncode})")
    return p


def model_path():
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, "cnn.onnx")
    if os.path.exists(path):
        return path
    import torch
    torch.manual_seed(0)

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            def block(i, o, s):
                return [torch.nn.Conv2d(i, o, 3, s, 1, bias=False), torch.nn.BatchNorm2d(o), torch.nn.ReLU()]
            self.features = torch.nn.Sequential(*block(3, 16, 2), *block(16, 32, 1), *block(32, 32, 2))
            self.pool = torch.nn.AdaptiveAvgPool2d(1)
            self.fc = torch.nn.Linear(32, 10)

        def forward(self, x):
            return self.fc(torch.flatten(self.pool(self.features(x)), 1))

    net = Net()
    for m in net.modules():  # non-trivial BatchNorm statistics
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    net.eval()
    tmp = path + ".tmp"
    torch.onnx.export(net, torch.rand(1, 3, 32, 32), tmp, input_names=["input"], output_names=["logits"],
                      opset_version=13, do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE)
    os.replace(tmp, path)
    return path


def calibration():
    path = os.path.join(WORK, "calib.npy")
    if not os.path.exists(path):
        rng = np.random.default_rng(0)
        np.save(path, rng.uniform(-1, 1, (8, 3, 32, 32)).astype(np.float32))
    return path


def compare_json(a, b, *extra):
    p = run("compare", a, b, "--json", *extra)
    return json.loads(p.stdout) if p.returncode == 0 else None


def conv_nodes(m):
    return [n for n in m.graph.node if n.op_type == "Conv"]


def planted(kind, conv_index):
    """A copy of the model with one weight of one Conv changed; returns (path, conv output name)."""
    m = onnx.load(model_path())
    conv = conv_nodes(m)[conv_index]
    init = {i.name: i for i in m.graph.initializer}
    w = numpy_helper.to_array(init[conv.input[1]]).copy()
    if kind == "fault":
        w.flat[5] *= 100
    else:
        w.flat[5] = np.nan
    init[conv.input[1]].CopyFrom(numpy_helper.from_array(w, conv.input[1]))
    path = os.path.join(WORK, f"cnn_{kind}.onnx")
    onnx.save(m, path)
    return path, conv.output[0]


def case_self():
    m = model_path()
    r = compare_json(m, m)
    rows = [t for t in r["tensors"] if t["compared"]]
    check(len(rows) >= 10, f"self: {len(rows)} tensors compared")
    check(all(t["exact"] and t["sqnr_db"] == 200 and t["max_abs_error"] == 0 for t in rows), "self: every tensor exact")
    check(all(t["matched_by"] == "name" for t in rows), "self: every tensor matched by name")
    check(r["first_divergence"] is None, "self: no divergence")
    check(not r["unmatched_ops"], "self: no op of one side only")
    text = run("compare", m, m).stdout
    print(text)
    check("first divergence: none" in text, "self: the table says no divergence")


def case_optimize():
    m = model_path()
    out = os.path.join(WORK, "cnn_opt.eir")
    run("optimize", m, "--output", out)
    r = compare_json(m, out)
    rows = [t for t in r["tensors"] if t["compared"]]
    worst = max(t["max_rel_error"] for t in rows)
    print(f"optimize: {len(rows)} compared, worst relative error {worst:.3g}")
    check(len(rows) >= 4, f"optimize: {len(rows)} surviving tensors compared")
    check(worst <= 1e-5, f"optimize: every surviving tensor within 1e-5 relative (worst {worst:.3g})")
    onnx_bn = sum(1 for n in onnx.load(m).graph.node if n.op_type == "BatchNormalization")
    fused = [u for u in r["unmatched_ops"] if u["side"] == "a" and u["status"] == "fused"]
    print("fused:", [(u["op"], u["op_type"], u["into"]) for u in fused])
    check(onnx_bn == 3, "optimize: the model has 3 BatchNormalizations")
    check(sum(1 for u in fused if u["op_type"] in ("Conv", "BatchNormalization")) >= onnx_bn,
          "optimize: the Conv/BatchNormalization pairs folded into one op are reported as fused")
    check(not [u for u in r["unmatched_ops"] if u["side"] == "a" and u["status"] == "removed"
               and u["op_type"] in ("Conv", "BatchNormalization")], "optimize: no Conv or BatchNormalization reported removed")
    check(r["first_divergence"] is None, "optimize: no divergence")


def case_ptq():
    m = model_path()
    cal = calibration()
    q = os.path.join(WORK, "cnn_int8.eir")
    p = run("quantize", m, "--strategy", "ptq", "--calibration-data", cal, "--output", q, "--json")
    report = json.loads(p.stdout)
    r = compare_json(m, q, "--input", cal, "--samples", "8")
    rows = {t["a"]: t for t in r["tensors"] if t["compared"]}
    checked = 0
    worst = 0.0
    for t in report["tensors"]:
        sq = t.get("sqnr_db")
        if sq is None or t["tensor"] not in rows:
            continue
        d = abs(rows[t["tensor"]]["sqnr_db"] - sq)
        worst = max(worst, d)
        if d > 0.1:
            print(f"  {t['tensor']}: compare {rows[t['tensor']]['sqnr_db']:.3f} dB, quantiser {sq:.3f} dB")
        checked += 1
    print(f"ptq: {checked} tensors of the quantiser's report compared, largest SQNR difference {worst:.4f} dB")
    check(checked >= 5, f"ptq: {checked} report tensors found in the compare")
    check(worst <= 0.1, f"ptq: per-tensor SQNR within 0.1 dB of the quantiser's report (worst {worst:.4f})")
    check(any(t["dequantised_b"] for t in rows.values()), "ptq: int8 tensors dequantised")
    check(r["first_divergence"] is not None, "ptq: a first divergence is named")


def case_fault():
    m = model_path()
    bad, conv_out = planted("fault", 1)
    r = compare_json(m, bad)
    first = r["first_divergence"]
    print(f"fault planted in the Conv writing {conv_out}; first divergence: {first}")
    check(first == conv_out, f"fault: first divergence is {conv_out} (got {first})")
    rows = [t for t in r["tensors"] if t["compared"]]
    before = [t for t in rows if t["order"] < next(t["order"] for t in rows if t["a"] == conv_out)]
    check(all(t["exact"] for t in before), "fault: every tensor before it is exact")


def case_nan():
    m = model_path()
    bad, conv_out = planted("nan", 2)
    r = compare_json(m, bad)
    nf = r["first_nonfinite_b"]
    print("first NaN/Inf in B:", nf)
    check(nf is not None and nf["tensor"] == conv_out, f"nan: first NaN in B is {conv_out}")
    # the CPU runtime's own Conv kernel (the op-for-op path compare runs) keeps a NaN weight
    # NaN (its SIMD epilogue once turned it into +-Inf)
    check(nf is not None and nf["nan"] > 0 and nf["inf"] == 0, f"nan: NaN (not Inf) counted: {nf}")
    check(r["first_nonfinite_a"] is None, "nan: none in A")
    check(r["first_divergence"] == conv_out, f"nan: first divergence is {conv_out} (got {r['first_divergence']})")
    text = run("compare", m, bad).stdout
    check(f"first NaN/Inf in B: '{conv_out}'" in text, "nan: the table names it")


def case_coral():
    m = model_path()
    cal = calibration()
    t = os.path.join(WORK, "cnn_coral.tflite")
    run("compile", m, "--target", "coral", "--quantize", "ptq", "--calibration-data", cal, "--output", t)
    r = compare_json(m, t, "--input", cal, "--samples", "4")
    rows = [x for x in r["tensors"] if x["compared"]]
    text = run("compare", m, t, "--input", cal, "--samples", "4").stdout
    print(text)
    check(len(rows) >= 5, f"coral: {len(rows)} tensors compared")
    check(sum(1 for x in rows if x["transposed"]) >= 3, "coral: 4-D tensors compared through the NHWC layout change")
    check(any(x["dequantised_b"] for x in rows), "coral: int8 tensors dequantised")
    check(all(x["cosine"] > 0.9 for x in rows), "coral: every matched tensor agrees (cosine > 0.9)")
    onnx_outputs = {o: n.op_type for n in onnx.load(m).graph.node for o in n.output}
    first = r["first_divergence"]
    print("coral first divergence:", first, onnx_outputs.get(first))
    check(first in onnx_outputs and onnx_outputs[first] not in ("Transpose", "QuantizeLinear", "DequantizeLinear"),
          "coral: the first divergence is an op of the ONNX model")


def metal_package(onnx_path, name, *extra):
    pkg = os.path.join(WORK, name + ".mlpackage")
    if not os.path.exists(pkg):
        run("compile", onnx_path, "--target", "metal", "--output", pkg, *extra)
    return pkg


def check_package_compare(r, onnx_path, label, min_fraction):
    """No false first divergence: every Conv output before a BatchNormalization is fused,
    not paired; every compared row has matching shapes; the first divergence, if any, is a
    real op of the ONNX model (not a Conv whose BatchNormalization B folded)."""
    m = onnx.load(onnx_path)
    producers = {o: n for n in m.graph.node for o in n.output}
    readers = {}
    for n in m.graph.node:
        for i in n.input:
            readers.setdefault(i, []).append(n.op_type)
    computed = [o for n in m.graph.node if n.op_type not in ("Identity", "Constant") for o in n.output]
    rows = [t for t in r["tensors"] if t["compared"]]
    fraction = len([t for t in rows if t["order"] >= 0]) / max(1, len(computed))
    print(f"{label}: {len(rows)} tensors compared of {len(computed)} the model computes ({fraction:.0%}), "
          f"first divergence {r['first_divergence']}, notes {r['notes']}")
    check(fraction >= min_fraction, f"{label}: at least {min_fraction:.0%} of the tensors matched ({fraction:.0%})")
    pre_bn = [t["a"] for t in r["tensors"] if readers.get(t["a"]) == ["BatchNormalization"]]
    check(not pre_bn, f"{label}: no tensor read only by a BatchNormalization B folded is paired ({pre_bn[:3]})")
    skipped = [t["a"] for t in r["tensors"] if not t["compared"]]
    check(not skipped, f"{label}: no pair with shapes that differ ({skipped[:3]})")
    first = r["first_divergence"]
    check(first is None or first in producers, f"{label}: the first divergence, if any, is an op of the model ({first})")
    return rows


def case_metal():
    m = model_path()
    pkg = metal_package(m, "cnn_metal")
    r = compare_json(m, pkg)
    print(run("compare", m, pkg).stdout)
    check(r["fp16_simulated"] == {"a": False, "b": True}, f"metal: the fp16 package runs fp16-simulated ({r['fp16_simulated']})")
    rows = check_package_compare(r, m, "metal", 0.6)
    logits = next((t for t in rows if t["a"] == "logits"), None)
    check(logits is not None and 55 <= logits["sqnr_db"] <= 85,
          f"metal: logits SQNR in fp16's range ({logits and logits['sqnr_db']:.1f} dB)")
    check(r["first_divergence"] is None, f"metal: no divergence beyond fp16 noise ({r['first_divergence']})")
    fused = [u for u in r["unmatched_ops"] if u["side"] == "a" and u["status"] == "fused"]
    check(sum(1 for u in fused if u["op_type"] == "Conv") == 3, "metal: the 3 Convs whose BatchNormalization B folded are fused")
    # the package against itself: fp32 run vs fp16-simulated run
    r = compare_json(pkg, pkg, "--fp16", "b")
    rows = [t for t in r["tensors"] if t["compared"] and t["order"] >= 0]
    worst = max(t["max_rel_error"] for t in rows)
    mean_db = sum(t["sqnr_db"] for t in rows) / len(rows)
    print(f"metal --fp16 b: worst relative error {worst:.3g}, mean SQNR {mean_db:.1f} dB over {len(rows)} tensors")
    check(r["fp16_simulated"] == {"a": False, "b": True}, "metal: --fp16 b simulates B only")
    check(2e-4 <= worst <= 1e-2, f"metal: fp16 simulation differs from f32 by fp16 rounding (worst {worst:.3g} relative)")
    r = compare_json(pkg, pkg, "--fp16", "none")
    check(all(t["exact"] for t in r["tensors"] if t["compared"]), "metal: --fp16 none: the package against itself is exact")
    fp32 = metal_package(m, "cnn_metal_fp32", "--precision", "fp32")
    r = compare_json(m, fp32)
    check(r["fp16_simulated"] == {"a": False, "b": False}, "metal: an fp32 package runs in f32")
    rows = check_package_compare(r, m, "metal fp32", 0.6)
    check(all(t["max_rel_error"] < 1e-4 for t in rows), "metal fp32: every tensor within float noise")


def case_torchvision():
    models = os.environ.get("EC_TEST_MODELS_DIR", "")
    done = 0
    for name in ("mobilenet_v2", "resnet18"):
        src = os.path.join(models, name + ".onnx")
        if not os.path.exists(src):
            print(f"  {name}: not exported ({src})")
            continue
        pkg = metal_package(src, name + "_metal")
        r = compare_json(src, pkg)
        text = run("compare", src, pkg).stdout
        print("\n".join(text.splitlines()[:3] + text.splitlines()[-6:]))
        check_package_compare(r, src, name, 0.8)
        # With random weights these networks' activations shrink layer by layer; where they
        # fall below fp16's smallest normal (2^-14) fp16 keeps only a few bits of them: a
        # real fp16 loss (mobilenet_v2's logits, about 1e-9, flush to 0), so a divergence
        # reported under fp16 simulation must be such a tensor.
        first = r["first_divergence"]
        if first is not None:
            t = next(t for t in r["tensors"] if t["a"] == first)
            peak = t["max_abs_error"] / t["max_rel_error"] if t["max_rel_error"] else 0.0
            print(f"{name}: first divergence {first} at {t['sqnr_db']:.1f} dB, largest |value| {peak:.3g}")
            check(peak < 2.0 ** -14, f"{name}: the divergence is fp16's subnormal range (|value| <= {peak:.3g})")
        # the pairing alone (fp16 weights, f32 compute): the outputs agree
        r = compare_json(src, pkg, "--fp16", "none")
        rows = check_package_compare(r, src, name + " --fp16 none", 0.8)
        out = [t for t in rows if t["a"] in [o.name for o in onnx.load(src).graph.output]]
        print(f"{name} --fp16 none: output SQNR {[round(t['sqnr_db'], 1) for t in out]}")
        check(bool(out) and all(t["sqnr_db"] >= 55 for t in out), f"{name}: the outputs agree within fp16 weight noise")
        check(r["first_divergence"] is None, f"{name} --fp16 none: no divergence ({r['first_divergence']})")
        done += 1
    check(done == 2, f"torchvision: {done} models compared with their .mlpackage")


def case_passes():
    m = model_path()
    p = run("compare", m, "--passes", "--json")
    r = json.loads(p.stdout)
    print(run("compare", m, "--passes").stdout)
    check(len(r["stages"]) >= 3, f"passes: {len(r['stages'])} stages")
    check(any(s["changed_graph"] for s in r["stages"]), "passes: some pass changed the graph")
    check(r["first_beyond_noise"] is None, "passes: no pass beyond float noise on this model")


def two_op_model(path, in_name, shape, op, out_name):
    g = helper.make_graph([helper.make_node(op, [in_name], [out_name])], "m",
                          [helper.make_tensor_value_info(in_name, TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, shape)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def case_bad():
    os.makedirs(WORK, exist_ok=True)
    a = two_op_model(os.path.join(WORK, "a.onnx"), "x", [1, 4], "Relu", "y")
    b_name = two_op_model(os.path.join(WORK, "b_name.onnx"), "z", [1, 4], "Relu", "y")
    b_shape = two_op_model(os.path.join(WORK, "b_shape.onnx"), "x", [1, 5], "Relu", "y")
    b_other = two_op_model(os.path.join(WORK, "b_other.onnx"), "x", [1, 4], "Sigmoid", "s")
    html = os.path.join(WORK, "bad.html")
    if os.path.exists(html):
        os.remove(html)  # from an earlier run
    for b, words in ((b_name, ["'x'", "not an input of B"]), (b_shape, ["'x'", "shape", "[1,5]"]),
                     (b_other, ["nothing to compare"])):
        p = run("compare", a, b, "--html", html, expect=1)
        lines = p.stderr.strip().splitlines()
        print(p.stderr.strip())
        check(len(lines) == 1 and all(w in lines[0] for w in words), f"bad: one line naming {words}")
        check(not os.path.exists(html), "bad: no HTML written")
    p = run("compare", a, a, "--html", html)
    check(os.path.exists(html) and "</html>" in open(html).read(), "bad: --html written when the compare works")


def case_dump():
    m = model_path()
    d = os.path.join(WORK, "dump")
    run("run", m, "--dump-intermediates", d, "--output-dir", os.path.join(WORK, "out"))
    index = json.load(open(os.path.join(d, "index.json")))
    ops = onnx.load(m).graph.node
    names = {o for n in ops for o in n.output if o and n.op_type != "Identity"}  # Identity on weights: folded at import
    dumped = {t["tensor"]: t for t in index["tensors"]}
    check(names <= set(dumped), f"dump: every tensor of the model written ({len(dumped)} files)")
    check(all(os.path.exists(os.path.join(d, t["file"])) and "/" not in t["file"] for t in index["tensors"]),
          "dump: every file exists, file-safe names")
    last = np.load(os.path.join(d, dumped["logits"]["file"]))
    out = np.load(os.path.join(WORK, "out", "logits.npy"))
    check(np.array_equal(last, out), "dump: the dumped graph output equals run's output")
    d2 = os.path.join(WORK, "dump_conv")
    run("run", m, "--dump-intermediates", d2, "--dump-intermediates-only", "Conv")
    index2 = json.load(open(os.path.join(d2, "index.json")))
    check(len(index2["tensors"]) == 3 and all(t["op_type"] == "Conv" for t in index2["tensors"]),
          f"dump: --dump-intermediates-only Conv writes the 3 Conv outputs (got {len(index2['tensors'])})")
    q = os.path.join(WORK, "cnn_int8_dump.eir")
    run("quantize", m, "--strategy", "ptq", "--calibration-data", calibration(), "--output", q)
    d3 = os.path.join(WORK, "dump_int8")
    run("run", q, "--dump-intermediates", d3)
    index3 = json.load(open(os.path.join(d3, "index.json")))
    int8 = [t for t in index3["tensors"] if t["dtype"] == "i8"]
    check(len(int8) >= 3 and all("quant" in t for t in int8), f"dump: int8 tensors written with their quantisation ({len(int8)})")
    if int8:
        a = np.load(os.path.join(d3, int8[0]["file"]))
        check(a.dtype == np.int8, "dump: int8 .npy files hold int8")


def case_onnx_testdata():
    """Debian's libonnx-testdata single-node models: each against itself (exact) and against
    its float .tflite from `convert` (NHWC inside; within 1e-4 relative), where it converts."""
    root = "/usr/share/libonnx-testdata/data/node"
    names = ["test_conv_with_strides_padding", "test_conv_with_strides_no_padding", "test_maxpool_2d_pads",
             "test_averagepool_2d_strides", "test_relu", "test_softmax_axis_1", "test_add_bcast",
             "test_globalaveragepool", "test_batchnorm_example"]
    converted = 0
    for n in names:
        m = os.path.join(root, n, "model.onnx")
        if not os.path.exists(m):
            continue
        r = compare_json(m, m)
        check(r is not None and all(t["exact"] for t in r["tensors"] if t["compared"]), f"{n}: exact against itself")
        t = os.path.join(WORK, n + ".tflite")
        p = subprocess.run([EXE, "convert", m, "--output", t], capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            print(f"  {n}: not converted ({p.stderr.strip()})")
            continue
        r = compare_json(m, t)
        rows = [x for x in r["tensors"] if x["compared"] and x["order"] >= 0] if r else []
        check(bool(rows) and all(x["max_rel_error"] <= 1e-4 for x in rows),
              f"{n}: its .tflite matches within 1e-4 ({len(rows)} tensors, transposed: {sum(x['transposed'] for x in rows)})")
        converted += 1
    check(converted >= 4, f"onnx_testdata: {converted} models compared with their .tflite")


def case_export():
    check(os.path.exists(model_path()) and os.path.exists(calibration()), "export: model and samples written")


globals()["case_" + CASE]()
if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
