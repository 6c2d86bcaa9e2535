#!/usr/bin/env python3
"""`edgecompile compile --target metal` end to end on small ONNX graphs built here:

- one graph with every op family the lowering maps (conv incl. dilated and grouped,
  batch norm, pools, pad, concat, split, resize nearest/bilinear, gather, slice, softmax,
  reduce, element-wise and activations, HardSwish through its override) compiled at
  fp16 and fp32, decoded by protoc and by an independent Python reader
  (coreml_reader.py), read back by the Core ML frontend and run on the CPU runtime:
  equal to the source within 1e-2 x max|output| (fp16) and 1e-5 (fp32);
- every deployment target: spec version and opset; int8 weights in each target's form;
- the report: units and reasons per op (dilated conv off the NE, gather on the CPU),
  an fp32 package with no op on the Neural Engine, the HardSwish override in the timeline;
- bad input: an op with no MIL form (one line naming it and its type, exit 1), an
  unknown deployment target (exit 2, lists the known ones), an unwritable output
  folder (exit 1): nothing written, no temporary folder left.

usage: check_metal_cli.py EDGECOMPILE PROTO_DIR WORK_DIR
"""
import json
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_util  # noqa: E402
import coreml_reader  # noqa: E402

EC, PROTO_DIR, WORK = sys.argv[1:4]


CHECKS = check_util.Checks(EC)
check, run = CHECKS.check, CHECKS.run


def ops_graph(path):
    rng = np.random.default_rng(0)
    inits = []

    def const(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    f = lambda *s: rng.standard_normal(s).astype(np.float32) * 0.5  # noqa: E731
    nodes = [
        helper.make_node("Conv", ["x", const("w1", f(8, 3, 3, 3)), const("b1", f(8))], ["c1"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("BatchNormalization", ["c1", const("g", f(8) + 1), const("be", f(8)), const("mu", f(8)),
                                                const("var", np.abs(f(8)) + 0.5)], ["bn"], epsilon=1e-3, name="bn"),
        helper.make_node("LeakyRelu", ["bn"], ["lr"], alpha=0.1, name="leaky"),
        helper.make_node("Conv", ["lr", const("w2", f(8, 1, 3, 3))], ["dw"], pads=[2, 2, 2, 2], dilations=[2, 2], group=8,
                         name="dilated_depthwise"),
        helper.make_node("HardSwish", ["dw"], ["hs"], name="hardswish"),
        helper.make_node("MaxPool", ["hs"], ["mp"], kernel_shape=[2, 2], strides=[2, 2], name="maxpool"),
        helper.make_node("AveragePool", ["hs"], ["ap"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                         count_include_pad=0, name="avgpool"),
        helper.make_node("Concat", ["mp", "ap"], ["cat"], axis=1, name="concat"),
        helper.make_node("Pad", ["cat", const("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))], ["pd"],
                         mode="reflect", name="pad"),
        helper.make_node("Resize", ["pd", "", const("scales", np.array([1, 1, 2, 2], np.float32))], ["up"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor", name="upsample_nearest"),
        helper.make_node("Resize", ["pd", "", const("scales2", np.array([1, 1, 2, 2], np.float32))], ["bl"], mode="linear",
                         coordinate_transformation_mode="half_pixel", name="upsample_bilinear"),
        helper.make_node("Sigmoid", ["bl"], ["sg"], name="sigmoid"),
        helper.make_node("Mul", ["up", "sg"], ["gated"], name="mul"),
        helper.make_node("Slice", ["gated", const("st", np.array([1, 2], np.int64)), const("en", np.array([15, 18], np.int64)),
                                   const("ax", np.array([2, 3], np.int64))], ["sl"], name="slice"),
        helper.make_node("ReduceMean", ["sl"], ["rm"], axes=[2], keepdims=0, name="reduce_mean"),
        helper.make_node("Transpose", ["rm"], ["tr"], perm=[0, 2, 1], name="transpose"),
        helper.make_node("Gather", ["tr", const("idx", np.array([0, 3, 5], np.int64))], ["ga"], axis=1, name="gather"),
        helper.make_node("Softmax", ["ga"], ["sm"], axis=-1, name="softmax"),
        helper.make_node("Tanh", ["ga"], ["th"], name="tanh"),
        helper.make_node("Sub", ["sm", "th"], ["sb"], name="sub"),
        helper.make_node("Exp", ["sb"], ["ex"], name="exp"),
        helper.make_node("Sqrt", ["ex"], ["sq"], name="sqrt"),
        helper.make_node("Div", ["sq", const("two", np.array(2, np.float32))], ["dv"], name="div"),
        helper.make_node("Erf", ["dv"], ["er"], name="erf"),
        helper.make_node("Split", ["er", const("halves", np.array([8, 8], np.int64))], ["s1", "s2"], axis=2, name="split"),
        helper.make_node("Abs", ["s1"], ["a1"], name="abs"),
        helper.make_node("Log", ["ex"], ["lg"], name="log"),
        helper.make_node("Floor", ["lg"], ["fl"], name="floor"),
        helper.make_node("Concat", ["a1", "s2"], ["cc"], axis=2, name="concat2"),
        helper.make_node("Add", ["cc", "fl"], ["ad"], name="add"),
        helper.make_node("Max", ["ad", "th"], ["y"], name="max"),
    ]
    g = helper.make_graph(nodes, "ops", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)]), path)


def cnn_graph(path):
    """conv-relu-conv (+ skip) - global average pool - gemm: what PTQ quantises whole."""
    rng = np.random.default_rng(3)
    f = lambda *s: (rng.standard_normal(s) * 0.3).astype(np.float32)  # noqa: E731
    inits = [numpy_helper.from_array(a, n) for n, a in
             (("w1", f(8, 3, 3, 3)), ("b1", f(8)), ("w2", f(8, 8, 3, 3)), ("b2", f(8)), ("fw", f(10, 8)), ("fb", f(10)))]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], name="conv2"),
             helper.make_node("Add", ["c2", "r1"], ["a"], name="add"),
             helper.make_node("GlobalAveragePool", ["a"], ["p"], name="pool"),
             helper.make_node("Flatten", ["p"], ["fl"], name="flatten"),
             helper.make_node("Gemm", ["fl", "fw", "fb"], ["y"], transB=1, name="fc")]
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def one_op_graph(path, node, in_shape, out_name="y"):
    g = helper.make_graph([node], "one", [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
                          [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def compare(model, pkg, x, tol, tag):
    np.save(os.path.join(WORK, "x.npy"), x)
    ref, got = os.path.join(WORK, "ref_" + tag), os.path.join(WORK, "got_" + tag)
    for m, d in ((model, ref), (pkg, got)):
        rc, out, err = run("run", m, "--input", "x=" + os.path.join(WORK, "x.npy"), "--output-dir", d)
        check(rc == 0, f"{tag}: run {os.path.basename(m)} (rc {rc}) {err.strip()[:200]}")
        if rc:
            return
    a, b = np.load(os.path.join(ref, "y.npy")), np.load(os.path.join(got, "y.npy"))
    err = float(np.abs(a - b).max() / max(np.abs(a).max(), 1e-30)) if a.shape == b.shape else float("inf")
    print(f"     {tag}: shape {a.shape}, max|diff| / max|ref| = {err:.3g} (tolerance {tol})")
    check(err <= tol, f"{tag}: the package equals the source model")


def no_leftovers(folder):
    return not [n for n in os.listdir(folder) if ".tmp-" in n or ".old-" in n]


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    Model_pb2 = coreml_reader.load_protos(PROTO_DIR, os.path.join(WORK, "py"))
    model = os.path.join(WORK, "ops.onnx")
    ops_graph(model)
    x = np.random.default_rng(1).standard_normal((1, 3, 16, 16)).astype(np.float32)

    for prec, tol in (("fp16", 1e-2), ("fp32", 1e-5)):
        pkg = os.path.join(WORK, f"ops_{prec}.mlpackage")
        rep = os.path.join(WORK, f"ops_{prec}.json")
        rc, out, err = run("compile", model, "--target", "metal", "--precision", prec, "--output", pkg, "--report", rep)
        check(rc == 0, f"compile ops graph {prec} (rc {rc}) {err.strip()[:300]}")
        if rc:
            continue
        drc, text = coreml_reader.decode_with_protoc(PROTO_DIR, os.path.join(pkg, "Data/com.apple.CoreML/model.mlmodel"))
        check(drc == 0 and "mlProgram" in text, f"{prec}: protoc --decode=CoreML.Specification.Model")
        try:
            m, st = coreml_reader.check_package(pkg, Model_pb2)
            print(f"     {prec}: {st['ops']} MIL ops, {st['blobs']} blobs, {st['inline']} inline values")
            check(True, f"{prec}: independent reader: names resolve, outputs exist, blobs laid out")
            want = 10 if prec == "fp16" else 11
            types = {op.type for op in m.mlProgram.functions["main"].block_specializations["CoreML6"].operations}
            # (BatchNormalization after a Conv is folded into it by the target's pass pipeline)
            check({"conv", "max_pool", "avg_pool", "pad", "concat", "upsample_nearest_neighbor",
                   "upsample_bilinear", "gather", "slice_by_index", "softmax", "reduce_mean", "sigmoid_hard", "split", "abs",
                   "log", "floor"} <= types,
                  f"{prec}: MIL ops written: {sorted(types)}")
            inner = [o for o in m.mlProgram.functions["main"].block_specializations["CoreML6"].operations if o.type == "conv"]
            check(all(o.outputs[0].type.tensorType.dataType == want for o in inner), f"{prec}: conv computes in {prec}")
            check(m.description.input[0].type.multiArrayType.dataType == 65568 and
                  m.description.output[0].type.multiArrayType.dataType == 65568, f"{prec}: inputs and outputs stay FLOAT32")
        except AssertionError as e:
            check(False, f"{prec}: independent reader: {e}")
        compare(model, pkg, x, tol, "ops_" + prec)
        r = json.load(open(rep))
        rows = {o["name"]: o for o in r["ops"]}
        check(all(o.get("unit") in ("ANE", "GPU", "CPU") for o in r["ops"]), f"{prec}: every op row has a unit")
        check(all(o["reason"] for o in r["ops"] if o.get("unit") != "ANE"), f"{prec}: every op off the ANE has a reason")
        tl = r["backend_timeline"]
        check(any(e["unit"] == "hardswish" and e["stage"] == "override" and e["ok"] for e in tl),
              f"{prec}: HardSwish replaced by its registered override (timeline)")
        check(any(e["unit"] == "hardswish" and e["stage"] == "target_compile" and not e["ok"] for e in tl),
              f"{prec}: HardSwish's Core ML lowering failed first (timeline)")
        if prec == "fp16":
            check(rows["dilated_depthwise"]["unit"] == "GPU" and rows["dilated_depthwise"]["rule"] == "ane.op_not_supported",
                  "fp16: dilated conv predicted on the GPU: " + rows["dilated_depthwise"]["reason"][:80])
            check(rows["gather"]["unit"] == "CPU", "fp16: gather predicted on the CPU")
            check(rows["conv"]["unit"] == "ANE", "fp16: plain conv predicted on the Neural Engine")
        else:
            check(not [o for o in r["ops"] if o.get("unit") == "ANE"], "fp32: no op predicted on the Neural Engine")
            check(rows["conv"]["rule"] == "ane.precision_fp32", "fp32: the rule is ane.precision_fp32")
        check(r["estimate"]["is_estimate"] and r["verified_by"] == "predicted", f"{prec}: estimate and prediction labelled")

    # every deployment target, and int8 weights in its own form
    spec = {"macOS13": 7, "iOS16": 7, "macOS14": 8, "iOS17": 8, "macOS15": 9, "iOS18": 9}
    for tgt, sv in spec.items():
        pkg = os.path.join(WORK, f"ops_{tgt}.mlpackage")
        rc, out, err = run("compile", model, "--target", "metal", "--deployment-target", tgt, "--quantize", "weights-int8",
                           "--output", pkg)
        check(rc == 0, f"{tgt} int8 weights: compile (rc {rc}) {err.strip()[:200]}")
        if rc:
            continue
        try:
            m, _ = coreml_reader.check_package(pkg, Model_pb2)
            fn = m.mlProgram.functions["main"]
            types = {o.type for o in fn.block_specializations[fn.opset].operations}
            form = "constexpr_blockwise_shift_scale" if sv == 9 else "constexpr_affine_dequantize"
            check(m.specificationVersion == sv and form in types, f"{tgt}: spec {m.specificationVersion}, opset {fn.opset}, {form}")
        except AssertionError as e:
            check(False, f"{tgt}: independent reader: {e}")
        compare(model, pkg, x, 5e-2, f"int8_{tgt}")

    # int8 activations (ptq): quantize / dequantize from iOS17 on
    cnn = os.path.join(WORK, "cnn.onnx")
    cnn_graph(cnn)
    cal = os.path.join(WORK, "cal.npy")
    np.save(cal, np.random.default_rng(5).standard_normal((16, 1, 3, 16, 16)).astype(np.float32))
    pkg = os.path.join(WORK, "cnn_ptq.mlpackage")
    rc, out, err = run("compile", cnn, "--target", "metal", "--quantize", "ptq", "--calibration-data", cal,
                       "--deployment-target", "iOS17", "--output", pkg)
    check(rc == 0, f"ptq iOS17: compile (rc {rc}) {err.strip()[:300]}")
    if rc == 0:
        try:
            m, st = coreml_reader.check_package(pkg, Model_pb2)
            ops = m.mlProgram.functions["main"].block_specializations["CoreML7"].operations
            types = [o.type for o in ops]
            print(f"     ptq: {types.count('quantize')} quantize, {types.count('dequantize')} dequantize, "
                  f"{types.count('constexpr_affine_dequantize')} int8 weights")
            check(types.count("quantize") >= 4 and "constexpr_affine_dequantize" in types,
                  "ptq iOS17: int8 activations (quantize/dequantize) and int8 weights")
            check(all(o.outputs[0].type.tensorType.dataType == 21 for o in ops if o.type == "quantize"),
                  "ptq iOS17: quantize outputs are INT8")
        except AssertionError as e:
            check(False, f"ptq iOS17: independent reader: {e}")
        x8 = np.random.default_rng(6).standard_normal((1, 3, 16, 16)).astype(np.float32)
        compare(cnn, pkg, x8, 0.1, "ptq_iOS17")
    rc, out, err = run("compile", cnn, "--target", "metal", "--quantize", "ptq", "--calibration-data", cal,
                       "--deployment-target", "macOS13", "--output", os.path.join(WORK, "cnn13.mlpackage"))
    check(rc == 1 and "iOS17" in err and len(err.strip().splitlines()) == 1, f"ptq on macOS13 refused in one line: {err.strip()}")
    check(not os.path.exists(os.path.join(WORK, "cnn13.mlpackage")) and no_leftovers(WORK), "ptq on macOS13: nothing written")

    # bad input: an op with no MIL form
    bad = os.path.join(WORK, "hardmax.onnx")
    one_op_graph(bad, helper.make_node("Hardmax", ["x"], ["y"], name="the_hardmax"), [1, 10])
    out_pkg = os.path.join(WORK, "bad.mlpackage")
    rc, out, err = run("compile", bad, "--target", "metal", "--output", out_pkg)
    lines = [l for l in err.strip().splitlines() if l]
    check(rc == 1 and len(lines) == 1 and "the_hardmax" in err and "Hardmax" in err,
          f"op with no MIL form: exit {rc}, one line naming it: {err.strip()}")
    check(not os.path.exists(out_pkg) and no_leftovers(WORK), "op with no MIL form: nothing written")
    # unknown deployment target
    rc, out, err = run("compile", model, "--target", "metal", "--deployment-target", "iOS12", "--output", out_pkg)
    check(rc == 2 and all(t in err for t in spec), f"unknown deployment target: exit {rc}: {err.strip()}")
    check(not os.path.exists(out_pkg), "unknown deployment target: nothing written")
    # unwritable output folder (its parent is a file)
    blocker = os.path.join(WORK, "not_a_folder")
    open(blocker, "w").write("x")
    rc, out, err = run("compile", model, "--target", "metal", "--output", os.path.join(blocker, "m.mlpackage"))
    check(rc == 1 and len(err.strip().splitlines()) == 1 and "not_a_folder" in err, f"unwritable output folder: exit {rc}: {err.strip()}")
    check(no_leftovers(WORK), "unwritable output folder: no temporary folder left")
    # wrong artefact name; unknown target lists metal
    rc, out, err = run("compile", model, "--target", "metal", "--output", os.path.join(WORK, "m.tflite"))
    check(rc == 2 and ".mlpackage" in err, f"--output must be *.mlpackage: exit {rc}: {err.strip()}")
    rc, out, err = run("compile", model, "--target", "nope")
    check(rc in (1, 2) and "metal" in err, f"unknown target lists metal: {err.strip()}")
    # inspect reads the package back
    rc, out, err = run("inspect", os.path.join(WORK, "ops_fp16.mlpackage"))
    check(rc == 0 and "coreml" in out, "inspect opens the .mlpackage")
    # a standalone .mlmodel with its weights/ beside it
    d = os.path.join(WORK, "plain")
    shutil.copytree(os.path.join(WORK, "ops_fp32.mlpackage", "Data", "com.apple.CoreML"), d)
    rc, out, err = run("inspect", os.path.join(d, "model.mlmodel"))
    check(rc == 0 and "coreml" in out, f"inspect opens a .mlmodel (rc {rc}) {err.strip()[:200]}")

    CHECKS.exit()


if __name__ == "__main__":
    main()
