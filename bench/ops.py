#!/usr/bin/env python3
"""Per-op benchmark (issue 38): one-op ONNX models for every op kind the CPU runtime has a
kernel for, at shapes taken from real models, timed on edgecompile and ONNX Runtime.

usage: ops.py BUILD_DIR ROUNDS   (normally through bench/ops.sh; environment:)
  MODELS="unet mixer"   real models to take shapes from (default: DEFAULT_MODELS below)
  OPS="Conv Resize"     only these op kinds (ONNX op_type names)
  THREADS="1 2"         thread counts (default 1)
  EXE=/path/to/edgecompile   another build of ours against the same peer
  LIST=1                the cases only (op, shape, source), nothing timed

1. The op kinds: the rows of the kernel table in core/runtime/kernel_registry.cpp
   (`{K::Name, "summary", &kernels::kernel_Name}`), each checked against core/ir/ops.def
   (whose op names are the ONNX op_types). Fewer rows than MIN_KERNEL_ROWS stops the script:
   the table's format changed and this parser must follow.
2. The shapes: the real models (exported by bench/export_bench_models.py into
   BUILD/bench-ops/models, random weights) are shape-inferred (onnx, batch dims fixed to 1; the
   small integer tensors that shapes are computed from are evaluated here with numpy so every
   shape is static), every node instance is collected per op_type and 2-3 are picked: the
   largest by output elements, the median one, and one whose channel count or innermost size
   is not a multiple of 8 if there is one. The one-op model keeps the node and its attributes:
   inputs computed at run time become graph inputs (.npy files: the real values where they
   were computed here, e.g. a Reshape's shape, else numpy seed-0 random data in the op's
   domain), weights and Constant outputs stay initializers (copied from the real model).
   Ops found in no real model take Debian's libonnx-testdata conformance case (its model and
   its input data), marked "conformance shape"; ops with neither are listed as "no case".
3. Per case and thread count: one short calibration run of each side, then ROUNDS rounds of
   ours then ORT, each run's iterations set to about TARGET_S seconds of work; the row is the
   median over rounds of each run's p50.
Cases are cached under BUILD/bench-ops/ (models/, scan/, cases/).
"""
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
REGISTRY = os.path.join(ROOT, "core/runtime/kernel_registry.cpp")
OPS_DEF = os.path.join(ROOT, "core/ir/ops.def")
TESTDATA = "/usr/share/libonnx-testdata/data/node"
MIN_KERNEL_ROWS = 140  # 145 rows on 2026-11-28; fewer means the parser no longer matches the table
TARGET_S = 0.3         # seconds of work per timed run
MAX_ITERS = 20000
OVERHEAD_MS = 0.05     # ORT's node binding costs tens of us per call: rows below this are overhead-bound
DEFAULT_MODELS = ("mobilenet_v2 mobilenet_v3_large resnet18 densenet121 convnext_tiny squeezenet1_1 googlenet "
                  "shufflenet_v2_x1_0 efficientnet_b0 transformer gru_text lstm_text deeplabv3_mnv3 lraspp_mnv3 "
                  "unet video3d audio1d mixer prenorm_text bigru80 bilstm100").split()
# onnx TensorProto element types a .npy file carries (both runtimes read them): no strings, no bfloat16
NPY_ELEM_TYPES = {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13}
SCAN_VERSION = 4       # bump when the scan's output changes


def fail(msg):
    sys.exit(f"bench/ops: {msg}")


# ---------------------------------------------------------------- 1. the op kinds, from the source
def kernel_ops():
    text = open(REGISTRY).read()
    row_re = re.compile(r'^\s*\{K::(\w+),\s*"(?:[^"\\]|\\.)*",\s*&kernels::kernel_(\w+)\},\s*$')
    rows, odd = [], []
    for line in text.splitlines():
        if "{K::" not in line:
            continue
        m = row_re.match(line)
        if not m:
            odd.append(line.strip())
            continue
        rows.append(m.group(1))
    if odd:
        fail(f"{len(odd)} kernel table line(s) in {REGISTRY} do not parse (format changed?): {odd[0]}")
    if len(rows) < MIN_KERNEL_ROWS:
        fail(f"parsed {len(rows)} kernel rows from {REGISTRY}, expected at least {MIN_KERNEL_ROWS}: "
             "the table's format changed; update kernel_ops() in bench/ops.py")
    defined = re.findall(r"^EC_OP\((\w+),", open(OPS_DEF).read(), re.M)
    if len(defined) < len(rows):
        fail(f"parsed only {len(defined)} EC_OP rows from {OPS_DEF}")
    missing = [r for r in rows if r not in defined]
    if missing:
        fail(f"kernel rows not in {OPS_DEF}: {missing}")
    return rows  # op names are the ONNX op_types (ops.def: "Semantics are those of the ONNX operator of the same name")


# ---------------------------------------------------------------- 2a. real models: shapes and known values
def _np_dtype(elem_type):
    import onnx
    from onnx import mapping
    return np.dtype(mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type]) if elem_type != onnx.TensorProto.UNDEFINED else None


def _attrs(node):
    from onnx import helper
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _eval_node(node, vals, shapes, opset):
    """numpy value of a node's outputs from known inputs (the small integer graphs shapes are
    computed from); None when it cannot."""
    from onnx import numpy_helper
    op, a = node.op_type, _attrs(node)
    x = [vals.get(i) if i else None for i in node.input]
    if op == "Constant":
        if "value" in a:
            return [numpy_helper.to_array(a["value"])]
        for k, dt in (("value_float", np.float32), ("value_int", np.int64), ("value_floats", np.float32),
                      ("value_ints", np.int64)):
            if k in a:
                return [np.array(a[k], dt)]
        return None
    if op == "Shape":
        s = shapes.get(node.input[0])
        if s is None or any(d is None for d in s):
            return None
        return [np.array(s, np.int64)[a.get("start", 0):a.get("end", len(s))]]
    if op == "Size":
        s = shapes.get(node.input[0])
        return None if s is None or any(d is None for d in s) else [np.array(int(np.prod(s)), np.int64)]
    need = [v for i, v in zip(node.input, x) if i]
    if any(v is None for v in need):
        return None
    if op in ("Identity", "Dropout"):
        return [x[0]]
    if op == "Gather":
        return [np.take(x[0], x[1], axis=a.get("axis", 0))]
    if op == "Unsqueeze":
        axes = list(x[1]) if opset >= 13 else a["axes"]
        r = x[0]
        for ax in sorted(int(v) % (r.ndim + len(axes)) for v in axes):
            r = np.expand_dims(r, ax)
        return [r]
    if op == "Squeeze":
        axes = (list(x[1]) if len(x) > 1 and x[1] is not None else None) if opset >= 13 else a.get("axes")
        return [np.squeeze(x[0], axis=tuple(int(v) for v in axes) if axes is not None else None)]
    if op == "Concat":
        return [np.concatenate(x, axis=a["axis"])]
    if op == "Cast":
        return [x[0].astype(_np_dtype(a["to"]))]
    if op == "Slice":
        starts, ends = x[1], x[2]
        axes = x[3] if len(x) > 3 and x[3] is not None else range(len(starts))
        steps = x[4] if len(x) > 4 and x[4] is not None else [1] * len(starts)
        sl = [slice(None)] * x[0].ndim
        for s, e, ax, st in zip(starts, ends, axes, steps):
            sl[int(ax)] = slice(int(s), int(e), int(st))
        return [x[0][tuple(sl)]]
    if op == "Range":
        return [np.arange(x[0], x[1], x[2]).astype(x[0].dtype)]
    if op == "ConstantOfShape":
        from onnx import numpy_helper as nh
        v = nh.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
        if int(np.prod(x[0])) > 4_000_000:
            return None
        return [np.full(tuple(int(d) for d in x[0]), v.reshape(-1)[0], v.dtype)]
    if op == "Reshape":
        shape = [int(d) for d in x[1]]
        shape = [x[0].shape[i] if d == 0 and not a.get("allowzero", 0) else d for i, d in enumerate(shape)]
        return [x[0].reshape(shape)]
    if op == "Expand":
        shape = np.broadcast_shapes(x[0].shape, tuple(int(d) for d in x[1]))
        return None if int(np.prod(shape)) > 4_000_000 else [np.broadcast_to(x[0], shape).copy()]
    binary = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Equal": np.equal, "Less": np.less,
              "Greater": np.greater, "Max": np.maximum, "Min": np.minimum, "And": np.logical_and,
              "Or": np.logical_or}
    if op in binary and len(x) == 2:
        r = binary[op](x[0], x[1])
        return [r.astype(x[0].dtype) if op in ("Add", "Sub", "Mul", "Max", "Min") else r]
    if op == "Div":
        if np.issubdtype(x[0].dtype, np.integer):
            return [np.trunc(x[0] / x[1]).astype(x[0].dtype)]
        return [(x[0] / x[1]).astype(x[0].dtype)]
    unary = {"Sqrt": np.sqrt, "Floor": np.floor, "Ceil": np.ceil, "Neg": np.negative, "Not": np.logical_not,
             "Abs": np.abs, "Reciprocal": np.reciprocal}
    if op in unary:
        return [unary[op](x[0]).astype(x[0].dtype)]
    if op == "Where":
        return [np.where(x[0], x[1], x[2])]
    if op == "ReduceProd":
        return [np.prod(x[0], axis=tuple(a["axes"]) if "axes" in a else None, keepdims=bool(a.get("keepdims", 1)))]
    if op == "Transpose":
        return [np.transpose(x[0], a.get("perm"))]
    if op == "Tile":
        return [np.tile(x[0], [int(v) for v in x[1]])]
    return None


def _shape_of(vi):
    t = vi.type.tensor_type
    if not t.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]


def scan_model(path):
    """Every node instance of a real model: [{op, node, inputs: [{name, kind, dtype, shape}],
    outputs: [...], out_elems}], plus the values computed for the run-time inputs of nodes."""
    import onnx
    from onnx import helper, numpy_helper, shape_inference
    m = onnx.load(path)
    g = m.graph
    opset = next((o.version for o in m.opset_import if o.domain in ("", "ai.onnx")), 13)
    for i in g.input:  # dynamic (batch) dims -> 1
        for d in i.type.tensor_type.shape.dim:
            if not d.HasField("dim_value"):
                d.dim_value = 1
    inits = {t.name: t for t in g.initializer}
    types, shapes, vals = {}, {}, {}
    for t in g.initializer:
        types[t.name] = t.data_type
        shapes[t.name] = list(t.dims)
        if int(np.prod(t.dims)) <= 4096:
            vals[t.name] = numpy_helper.to_array(t)
    for i in g.input:
        types[i.name] = i.type.tensor_type.elem_type
        shapes.setdefault(i.name, _shape_of(i))
    # A light copy for shape inference: large initializers become typed inputs (no data).
    light = onnx.ModelProto()
    light.CopyFrom(m)
    del light.graph.initializer[:]
    del light.graph.value_info[:]
    init_inputs = []
    for t in g.initializer:
        if int(np.prod(t.dims)) <= 4096:
            light.graph.initializer.append(t)
        elif t.name not in {i.name for i in g.input}:
            init_inputs.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
    light.graph.input.extend(init_inputs)
    nodes = list(g.node)
    for _ in range(12):
        # Nodes whose outputs are known values are replaced by those values for inference.
        model = onnx.ModelProto()
        model.CopyFrom(light)
        del model.graph.node[:]
        have = {t.name for t in model.graph.initializer}
        for n in nodes:
            outs = [o for o in n.output if o]
            if outs and all(o in vals for o in outs) and n.op_type != "Constant":
                for o in outs:
                    if o not in have and vals[o].size <= 65536:
                        model.graph.initializer.append(numpy_helper.from_array(np.asarray(vals[o]), o))
                        have.add(o)
                if all(o in have for o in outs):
                    continue
            model.graph.node.append(n)
        try:
            inferred = shape_inference.infer_shapes(model, data_prop=True)
        except Exception as e:  # noqa: BLE001 - report and go on with what is known
            print(f"bench/ops: {os.path.basename(path)}: shape inference failed ({str(e).splitlines()[0]})",
                  file=sys.stderr)
            inferred = model
        for vi in list(inferred.graph.value_info) + list(inferred.graph.output) + list(inferred.graph.input):
            types.setdefault(vi.name, vi.type.tensor_type.elem_type)
            s = _shape_of(vi)
            if s is not None and (shapes.get(vi.name) is None or None in shapes[vi.name]):
                shapes[vi.name] = s
        for t in inferred.graph.initializer:
            types.setdefault(t.name, t.data_type)
            shapes.setdefault(t.name, list(t.dims))
        progress = False
        for n in nodes:
            if all(o in vals for o in n.output if o):
                continue
            try:
                r = _eval_node(n, vals, shapes, opset)
            except Exception:  # noqa: BLE001 - not evaluable here: stays unknown
                r = None
            if r is None:
                continue
            for o, v in zip(n.output, r):
                if o:
                    v = np.asarray(v)
                    vals[o] = v
                    types.setdefault(o, helper.np_dtype_to_tensor_dtype(v.dtype)
                                     if hasattr(helper, "np_dtype_to_tensor_dtype")
                                     else onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[v.dtype])
                    shapes[o] = list(v.shape)
                    progress = True
        if not progress:
            break
    const_out = {o for n in nodes if n.op_type == "Constant" for o in n.output}
    # Tensors that depend on the input data (not only on its shape): the one-op model's graph
    # inputs. The rest (weights, Constants, shapes computed from shapes) stay initializers.
    data = {i.name for i in g.input if i.name not in inits}
    for n in nodes:
        if n.op_type not in ("Shape", "Size") and any(i in data for i in n.input if i):
            data.update(o for o in n.output if o)
    instances, keep = [], {}
    for idx, n in enumerate(nodes):
        if n.op_type == "Constant":
            continue
        ins, ok = [], True
        for name in n.input:
            if not name:
                ins.append(None)
                continue
            kind = ("init" if name in inits else "const" if name in const_out or (name not in data and name in vals)
                    else "act")
            s = shapes.get(name)
            if s is None or None in s or name not in types:
                ok = False
                break
            ins.append({"name": name, "kind": kind, "dtype": int(types[name]), "shape": s,
                        "known": kind == "act" and name in vals})
            if kind != "init" and name in vals:
                keep[name] = vals[name]
        outs = []
        for name in n.output:
            if not name:
                outs.append(None)
                continue
            s = shapes.get(name)
            if s is None or None in s or name not in types:
                ok = False
                break
            outs.append({"name": name, "dtype": int(types[name]), "shape": s})
        if not ok:
            continue
        instances.append({"op": n.op_type, "node": idx, "inputs": ins, "outputs": outs,
                          "out_elems": sum(int(np.prod(o["shape"])) for o in outs if o),
                          "attrs": str(sorted((a.name, str(helper.get_attribute_value(a))) for a in n.attribute))})
    return {"version": SCAN_VERSION, "opset": opset, "instances": instances}, keep


def scan_cached(work, name, path):
    os.makedirs(os.path.join(work, "scan"), exist_ok=True)
    js, npz = os.path.join(work, "scan", name + ".json"), os.path.join(work, "scan", name + ".known.npz")
    stamp = f"{os.path.getsize(path)}:{os.path.getmtime(path)}"
    if os.path.exists(js) and os.path.exists(npz):
        d = json.load(open(js))
        if d.get("version") == SCAN_VERSION and d.get("stamp") == stamp:
            return d
    d, keep = scan_model(path)
    d["stamp"] = stamp
    np.savez(npz + ".tmp.npz", **{f"v{i}": v for i, v in enumerate(keep.values())})
    json.dump({**d, "known_names": list(keep)}, open(js + ".tmp", "w"))
    os.replace(npz + ".tmp.npz", npz)
    os.replace(js + ".tmp", js)
    return json.load(open(js))


def pick(cands):
    """2-3 instances of one op: the largest by output elements, the median, and one whose
    channel count or innermost size is not a multiple of 8 (if any)."""
    seen, uniq = set(), []
    for c in sorted(cands, key=lambda c: (-c["out_elems"], c["model"], c["node"])):
        sig = (json.dumps([(i["kind"], i["shape"], i["dtype"]) if i else None for i in c["inputs"]]), c["attrs"])
        if sig not in seen:
            seen.add(sig)
            uniq.append(c)
    # Prefer instances with a run-time input (an op on weights alone is constant work).
    live = [c for c in uniq if any(i and i["kind"] == "act" for i in c["inputs"])] or uniq
    chosen = [live[0]]
    if len(live) > 2:
        chosen.append(live[len(live) // 2])

    def odd(c):
        x = next((i for i in c["inputs"] if i and i["kind"] == "act"), None) or next(i for i in c["inputs"] if i)
        s = x["shape"]
        return bool(s) and (s[-1] % 8 != 0 or (len(s) >= 3 and s[1] % 8 != 0))
    o = next((c for c in live if odd(c) and c not in chosen), None)
    if o is not None:
        chosen.append(o)
    elif len(live) == 2:
        chosen.append(live[1])
    return chosen[:3]


def random_input(op, pos, dtype, shape, rng, data_shape=None, attrs=None):
    """seed-0 data in the op's domain for a run-time input with no computed value."""
    dt = _np_dtype(dtype)
    shape = tuple(shape)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dt, np.integer):
        hi = 10
        if op in ("Gather", "GatherElements") and pos == 1 and data_shape is not None:
            hi = data_shape[(attrs or {}).get("axis", 0)]
        return rng.integers(0, hi, shape).astype(dt)
    x = rng.standard_normal(shape).astype(dt)
    if (op in ("Sqrt", "Log", "Reciprocal", "Pow") and pos == 0) or (op == "Div" and pos == 1):
        x = (np.abs(x) + 0.5).astype(dt)
    elif op == "Acosh":
        x = (np.abs(x) + 1).astype(dt)
    elif op in ("Asin", "Acos", "Atanh"):
        x = rng.uniform(-0.9, 0.9, shape).astype(dt)
    return x


def build_case(work, model_name, model_path, scan, inst):
    """The one-op model of a real node instance, and its inputs (cached)."""
    import onnx
    from onnx import helper, numpy_helper
    cid = f"{inst['op']}-{model_name}-{inst['node']}"
    d = os.path.join(work, "cases", cid)
    meta = os.path.join(d, "meta.json")
    if os.path.exists(meta):
        return json.load(open(meta))
    m = onnx.load(model_path)
    node = m.graph.node[inst["node"]]
    assert node.op_type == inst["op"], (cid, node.op_type)
    inits = {t.name: t for t in m.graph.initializer}
    consts = {o: n for n in m.graph.node if n.op_type == "Constant" for o in n.output}
    known = {}
    kn = scan.get("known_names", [])
    if kn:
        z = np.load(os.path.join(work, "scan", model_name + ".known.npz"))
        known = {name: z[f"v{i}"] for i, name in enumerate(kn)}
    rng = np.random.default_rng(0)
    os.makedirs(d + ".tmp", exist_ok=True)
    g_inputs, g_inits, feeds, new_in, shown = [], [], [], [], {}
    live = any(i and i["kind"] == "act" for i in inst["inputs"])
    attrs = _attrs(node)
    data_shape = inst["inputs"][0]["shape"] if inst["inputs"] and inst["inputs"][0] else None
    for pos, (name, info) in enumerate(zip(node.input, inst["inputs"])):
        if not name:
            new_in.append("")
            continue
        kind = info["kind"]
        if not live and pos == 0:
            kind = "act"  # no run-time input at all: the first becomes one, so the op is timed
        if kind == "act":
            nm = f"in{pos}"
            if name in known:
                v = known[name]
            elif name in inits:
                v = numpy_helper.to_array(inits[name])
            elif name in consts:
                v = numpy_helper.to_array(_attrs(consts[name])["value"])
            else:
                v = random_input(node.op_type, pos, info["dtype"], info["shape"], rng, data_shape, attrs)
            v = np.array(v, order="C")
            shown[pos] = v
            np.save(os.path.join(d + ".tmp", nm + ".npy"), v)
            g_inputs.append(helper.make_tensor_value_info(nm, info["dtype"], list(v.shape)))
            feeds.append(nm)
        else:
            nm = f"w{pos}"
            src = (inits[name] if name in inits else numpy_helper.from_array(known[name]) if name in known
                   else numpy_helper.from_array(numpy_helper.to_array(_attrs(consts[name])["value"])))
            t = onnx.TensorProto()
            t.CopyFrom(src)
            t.name = nm
            if int(np.prod(t.dims)) <= 8:
                shown[pos] = numpy_helper.to_array(t)
            g_inits.append(t)
        new_in.append(nm)
    outs, new_out = [], []
    for pos, (name, info) in enumerate(zip(node.output, inst["outputs"])):
        if not name:
            new_out.append("")
            continue
        new_out.append(f"out{pos}")
        outs.append(helper.make_tensor_value_info(f"out{pos}", info["dtype"], info["shape"]))
    n = onnx.NodeProto()
    n.CopyFrom(node)
    n.name = node.op_type
    del n.input[:]
    del n.output[:]
    n.input.extend(new_in)
    n.output.extend(new_out)
    graph = helper.make_graph([n], cid, g_inputs, outs, g_inits)
    om = helper.make_model(graph, opset_imports=list(m.opset_import), producer_name="bench/ops.py")
    om.ir_version = m.ir_version
    onnx.save(om, os.path.join(d + ".tmp", "model.onnx"))
    info = {"id": cid, "op": inst["op"], "source": model_name, "shape": describe(inst, node, shown), "inputs": feeds}
    json.dump(info, open(os.path.join(d + ".tmp", "meta.json"), "w"))
    shutil.rmtree(d, ignore_errors=True)
    os.replace(d + ".tmp", d)
    return info


def describe(inst, node, values):
    """Compact: run-time input shapes ('x'-joined, ';' between; a small computed input by its
    values, e.g. a Resize's sizes), weights as w<shape>, a few attributes."""
    parts = []
    for pos, i in enumerate(inst["inputs"]):
        if not i:
            continue
        s = "x".join(map(str, i["shape"])) or "scalar"
        n = int(np.prod(i["shape"]))
        v = values.get(pos)
        if i["kind"] == "act":
            parts.append(s)
        elif v is not None and v.ndim <= 1 and 0 < v.size <= 8:
            parts.append("[" + ",".join(f"{x:g}" for x in v.reshape(-1)) + "]")
        elif len(i["shape"]) >= 2 and (n > 16 or node.op_type in ("Conv", "ConvTranspose", "Gemm", "MatMul")):
            parts.append("w" + s)
    a = _attrs(node)
    tags = []
    for k, short in (("strides", "s"), ("dilations", "d"), ("group", "g"), ("axis", "ax"), ("perm", "p"),
                     ("axes", "ax"), ("mode", ""), ("direction", "")):
        if k in a:
            v = a[k]
            if k == "strides" and all(x == 1 for x in v):
                continue
            if k == "dilations" and all(x == 1 for x in v):
                continue
            if k == "group" and v == 1:
                continue
            v = v.decode() if isinstance(v, bytes) else v
            tags.append(f"{short}{','.join(map(str, v)) if isinstance(v, (list, tuple)) else v}")
    if node.op_type in ("MaxPool", "AveragePool") and "kernel_shape" in a:
        tags.insert(0, "k" + "x".join(map(str, a["kernel_shape"])))
    return ";".join(parts) + (" " + " ".join(tags) if tags else "")


# ---------------------------------------------------------------- 2b. conformance cases
def conformance_cases(wanted):
    """op_type -> its single-node conformance case with the most input elements."""
    import onnx
    from onnx import numpy_helper
    best = {}
    if not os.path.isdir(TESTDATA):
        return best
    for case in sorted(os.listdir(TESTDATA)):
        if case.endswith("_expanded") or "training" in case:  # inference forms only
            continue
        path = os.path.join(TESTDATA, case, "model.onnx")
        data = os.path.join(TESTDATA, case, "test_data_set_0")
        if not os.path.exists(path) or not os.path.isdir(data):
            continue
        try:
            m = onnx.load(path, load_external_data=False)
        except Exception:  # noqa: BLE001
            continue
        ops = [n.op_type for n in m.graph.node if n.op_type != "Constant"]
        if len(ops) != 1 or ops[0] not in wanted:
            continue
        if any(not i.type.HasField("tensor_type") for i in m.graph.input):
            continue
        files = sorted(f for f in os.listdir(data) if f.startswith("input_"))
        if len(files) != len(m.graph.input):
            continue
        try:
            arrays = []
            for f in sorted(files, key=lambda f: int(re.findall(r"\d+", f)[0])):
                t = onnx.TensorProto()
                t.ParseFromString(open(os.path.join(data, f), "rb").read())
                arrays.append(numpy_helper.to_array(t))
        except Exception:  # noqa: BLE001 - sequences, optionals
            continue
        types = [i.type.tensor_type.elem_type for i in m.graph.input]
        if any(t not in NPY_ELEM_TYPES for t in types) or any(a.dtype.kind not in "fiub" for a in arrays):
            continue  # strings, bfloat16
        # the common dtypes first (f32 data, i64/i32 indices, bool), then the most input elements
        key = (all(t in (1, 6, 7, 9) for t in types), sum(a.size for a in arrays))
        if ops[0] not in best or key > best[ops[0]][0]:
            best[ops[0]] = (key, case, path, m, arrays)
    return best


def build_conformance_case(work, op, entry):
    _, case, path, m, arrays = entry
    cid = f"{op}-conformance-{case}"
    d = os.path.join(work, "cases", cid)
    meta = os.path.join(d, "meta.json")
    if os.path.exists(meta):
        return json.load(open(meta))
    os.makedirs(d + ".tmp", exist_ok=True)
    shutil.copy(path, os.path.join(d + ".tmp", "model.onnx"))
    feeds = []
    for i, (inp, a) in enumerate(zip(m.graph.input, arrays)):
        np.save(os.path.join(d + ".tmp", f"in{i}.npy"), np.array(a, order="C"))
        feeds.append((inp.name, f"in{i}"))
    shape = ";".join("x".join(map(str, a.shape)) or "scalar" for a in arrays)
    info = {"id": cid, "op": op, "source": case, "shape": shape, "conformance": True,
            "inputs": [f for _, f in feeds], "names": [n for n, _ in feeds]}
    json.dump(info, open(os.path.join(d + ".tmp", "meta.json"), "w"))
    shutil.rmtree(d, ignore_errors=True)
    os.replace(d + ".tmp", d)
    return info


# ---------------------------------------------------------------- 3. timing
def first_line(s):
    lines = [ln.strip() for ln in (s or "").splitlines() if ln.strip()]
    # ours prints "error: ..." last; node prints "ort_bench: ..."
    for ln in lines:
        if ln.startswith("ort_bench:") or ln.lower().startswith("error"):
            return ln[:160]
    return (lines[0] if lines else "no output")[:160]


def run_json(cmd):
    """(the JSON line's fields, None) or (None, first line of the error). The output is read after the command
    exits (nothing else runs beside the timed process)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "timed out after 600 s"
    if p.returncode != 0:
        return None, first_line(p.stderr or p.stdout)
    try:
        text = p.stdout
        return json.loads(text[text.index("{"):]), None
    except Exception:  # noqa: BLE001
        return None, first_line(p.stdout + p.stderr)


def commands(exe, case_dir, info, threads, n_ours, n_ort):
    model = os.path.join(case_dir, "model.onnx")
    names = info.get("names", info["inputs"])
    ours = [exe, "bench", model]
    for name, f in zip(names, info["inputs"]):
        ours += ["--input", f"{name}={os.path.join(case_dir, f + '.npy')}"]
    ours += ["--iterations", str(n_ours), "--warmup", "2", "--threads", str(threads), "--no-profile", "--no-record",
             "--json"]
    peer = ["node", os.path.join(ROOT, "bench/ort/ort_bench.js"), model]
    peer += [f"{name}={os.path.join(case_dir, f + '.npy')}" for name, f in zip(names, info["inputs"])]
    if not info["inputs"]:
        peer += ["none=none.npy"]  # a model without inputs: the peer fails with a clear message
    peer += [str(n_ort), "2", str(threads), "--profile"]
    return ours, peer


def iterations(p50):
    return max(5, min(MAX_ITERS, int(TARGET_S * 1e3 / max(p50, 1e-4))))


def time_case(exe, work, info, threads, rounds):
    d = os.path.join(work, "cases", info["id"])
    ours_cmd, peer_cmd = commands(exe, d, info, threads, 5, 5)
    a, err_a = run_json(ours_cmd)
    b, err_b = run_json(peer_cmd)
    if err_a or err_b:
        return {"error": ("ours: " + err_a) if err_a else ("ORT: " + err_b)}
    n_a, n_b = iterations(a["p50_ms"]), iterations(b["p50_ms"])
    ours_cmd, peer_cmd = commands(exe, d, info, threads, n_a, n_b)
    xa, xb, xc = [], [], []
    for _ in range(rounds):
        a, err_a = run_json(ours_cmd)
        b, err_b = run_json(peer_cmd)
        if err_a or err_b:
            return {"error": ("ours: " + err_a) if err_a else ("ORT: " + err_b)}
        xa.append(a["p50_ms"])
        xb.append(b["run_p50_ms"])
        xc.append(b["p50_ms"])
    oa, ob = statistics.median(xa), statistics.median(xb)
    return {"ours": oa, "ort": ob, "ort_call": statistics.median(xc), "ratio": oa / ob, "overhead": ob < OVERHEAD_MS}


# ---------------------------------------------------------------- main
def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    exe = os.environ.get("EXE") or os.path.join(build, "app/cli/edgecompile")
    work = os.path.join(build, "bench-ops")
    models_dir = os.path.join(work, "models")
    names = os.environ.get("MODELS", "").split() or DEFAULT_MODELS
    thread_counts = [int(t) for t in os.environ.get("THREADS", "1").split()]
    kinds = kernel_ops()
    only = os.environ.get("OPS", "").split()
    unknown = [o for o in only if o not in kinds]
    if unknown:
        fail(f"OPS names without a kernel row: {unknown}")
    wanted = [k for k in kinds if not only or k in only]
    import onnx
    from onnx import defs
    not_onnx = [k for k in wanted if not defs.has(k)]

    # real-model instances per op
    per_op = {}
    for name in names:
        path = os.path.join(models_dir, name + ".onnx")
        if not os.path.exists(path):
            print(f"bench/ops: {name}: not exported (see the message above), skipped", file=sys.stderr)
            continue
        try:
            scan = scan_cached(work, name, path)
        except Exception as e:  # noqa: BLE001 - one model that cannot be scanned leaves the rest
            print(f"bench/ops: {name}: cannot scan ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}), "
                  "skipped", file=sys.stderr)
            continue
        for inst in scan["instances"]:
            if inst["op"] in wanted:
                per_op.setdefault(inst["op"], []).append({**inst, "model": name, "path": path, "scan": scan})
    cases, no_case = [], []
    missing = [k for k in wanted if k not in per_op and k not in not_onnx]
    conf = conformance_cases(set(missing)) if missing else {}
    for op in wanted:
        if op not in per_op and op not in conf:
            no_case.append(op + (" (no schema in onnx " + onnx.__version__ + ")" if op in not_onnx else ""))
            continue
        try:
            if op in per_op:
                for inst in pick(per_op[op]):
                    cases.append(build_case(work, inst["model"], inst["path"], inst["scan"], inst))
            else:
                cases.append(build_conformance_case(work, op, conf[op]))
        except Exception as e:  # noqa: BLE001 - an error row, not a crash
            cases.append({"id": None, "op": op, "shape": "?", "source": "?",
                          "error": f"case: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"})
    n_real = sum(1 for c in cases if not c.get("conformance"))
    print(f"{len(kinds)} op kinds in the kernel table; {len(wanted)} selected; {len(cases)} cases "
          f"({n_real} from {len(names)} real models, {len(cases) - n_real} conformance); "
          f"{len(no_case)} without a case", flush=True)
    if os.environ.get("LIST"):  # LIST=1: the cases only, nothing timed
        for c in cases:
            print(f"  {c['op']:<22} {c['shape']:<60} {c['source']}{' (conformance shape)' if c.get('conformance') else ''}")
        print(f"no case ({len(no_case)}): {' '.join(no_case) if no_case else '-'}")
        return
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    results = {}
    for t in thread_counts:
        rows = []
        for i, c in enumerate(cases):
            r = {"error": c["error"]} if c.get("error") else time_case(exe, work, c, t, rounds)
            rows.append({**c, **r})
            status = r.get("error") or f"{r['ours']:.4f} vs {r['ort']:.4f} ms = {r['ratio']:.2f} (call {r['ort_call']:.4f})"
            print(f"  [{t}t {i + 1}/{len(cases)}] {c['op']} {c['shape']} ({c['source']}): {status}",
                  file=sys.stderr, flush=True)
        results[t] = rows
    # ---- the tables
    print()
    print("Layout: our session picks its own (a float graph with a Conv runs channels-last, so the "
          "one-op Conv and ConvTranspose rows run NHWC; pools, BatchNormalization, Resize alone run NCHW).")
    print("ours = `edgecompile bench` p50 (the session's run); ORT = its profiler's per-run span (model_run: "
          "the session's run without the node binding), p50; ratio = ours / ORT (< 1: we are faster); "
          "ORT call = the node call's wall p50 (binding included: tens of us per call and a copy of every "
          "output into a new JS buffer, ~0.25 ms per MB).")
    print(f"'*' = ORT under {OVERHEAD_MS * 1000:.0f} us a run: overhead-bound (per-run costs and its profiler's "
          "events weigh), left out of the geometric mean.")
    for t in thread_counts:
        rows = results[t]
        ok = [r for r in rows if "ratio" in r]
        bad = [r for r in rows if "error" in r]
        ok.sort(key=lambda r: -r["ratio"])
        print()
        print(f"threads {t}")
        print("| op | shape | from | ours ms | ORT ms | ratio | ORT call ms |")
        print("|---|---|---|---|---|---|---|")
        for r in ok:
            src = r["source"] + (" (conformance shape)" if r.get("conformance") else "")
            print(f"| {r['op']} | {r['shape']} | {src} | {r['ours']:.4f} | {r['ort']:.4f} | "
                  f"{r['ratio']:.2f}{' *' if r['overhead'] else ''} | {r['ort_call']:.4f} |")
        for r in bad:
            src = r["source"] + (" (conformance shape)" if r.get("conformance") else "")
            print(f"| {r['op']} | {r['shape']} | {src} | error | | {r['error'].replace('|', '/')} | |")
        timed = [r for r in ok if not r["overhead"]]
        gm = f'{math.exp(sum(math.log(r["ratio"]) for r in timed) / len(timed)):.2f}' if timed else "-"
        worst_by_kind = {}
        for r in ok:
            worst_by_kind[r["op"]] = max(worst_by_kind.get(r["op"], 0), r["ratio"])
        above = sorted(k for k, v in worst_by_kind.items() if v > 1.5)
        above_timed = sorted({r["op"] for r in timed if r["ratio"] > 1.5})
        print()
        print(f"threads {t}: geometric mean ratio {gm} over {len(timed)} rows (excluding "
              f"{len(ok) - len(timed)} overhead-bound rows); op kinds above 1.5x: {len(above_timed)} "
              f"({' '.join(above_timed)}); including overhead-bound rows: {len(above)}; errors: {len(bad)}")
    print()
    print(f"no case ({len(no_case)}): {' '.join(no_case) if no_case else '-'}")
    print(f"(median over {rounds} alternating rounds of each run's p50, ~{TARGET_S} s of work per run; "
          f"CPU: {cpu}, {os.cpu_count()} cores)")
    json.dump({str(t): rs for t, rs in results.items()}, open(os.path.join(work, "last_run.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
