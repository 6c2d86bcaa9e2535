"""Writes Keras model files in the published layouts without Keras (Debian has none):
h5py for the HDF5 parts, zipfile for the .keras archive. Each field follows the
source named beside it:

  .keras (Keras 3, keras/src/saving/saving_lib.py): zip entries metadata.json
    {"keras_version", "date_saved"}, config.json (serialize_keras_object of the model:
    {"module", "class_name", "config", "registered_name", "build_config"}), and
    model.weights.h5 with a group per saveable: the model's layers are
    layers/<to_snake_case(class)>[_N] (N counts earlier layers of the same class,
    _save_container_state), each with vars/0..n-1 (Layer.save_own_variables: trainable
    then non-trainable variables); an RNN's variables belong to its cell
    (layers/lstm/cell/vars). Empty vars groups are written for weightless saveables.
  .keras (Keras 2.13-2.15): the same zip, weights under
    _layer_checkpoint_dependencies/<layer name>/vars (the path H5Entry's
    "2.13 compatibility" branch reads).
  legacy .h5 (tf.keras hdf5_format.py / keras/src/legacy/saving/legacy_h5_format.py):
    root attributes model_config (JSON bytes of {"class_name", "config"} in the legacy
    serialisation: no "module" keys, InputLayer "batch_input_shape", Functional
    inbound_nodes [[[name, node, tensor, {}]]]), keras_version, backend; group
    model_weights with attributes layer_names, keras_version, backend and a group per
    layer with attribute weight_names ("conv2d/kernel:0", ...) naming its datasets.

Functional configs (keras/src/models/functional.py get_config): "layers" with "name" and
"inbound_nodes" ({"args": [...], "kwargs": {}} with __keras_tensor__ entries in Keras 3),
"input_layers" and "output_layers" as [name, node, tensor] leaves.
"""
import json
import re
import zipfile

import h5py
import numpy as np


def snake(name):  # keras/src/utils/naming.py to_snake_case
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


class Layer:
    """One layer: Keras class, config (Keras 3 keys), weights in Keras order and layout
    as (name, array) pairs, inbound layer names (Functional) and whether the
    variables sit in an RNN cell."""

    def __init__(self, cls, name, config, weights=(), inbound=(), cell=None, sub=None):
        self.cls, self.name, self.config = cls, name, dict(config)
        self.sub = sub  # a Model used as this layer (cls "Sequential" or "Functional")
        self.weights = list(weights)
        self.inbound = list(inbound)
        self.cell = cell  # e.g. "lstm_cell" for the legacy weight names


class Model:
    def __init__(self, kind, name, input_shape, layers, outputs=None, input_dtype="float32", input_name="input_layer"):
        self.kind = kind  # "Sequential" or "Functional"
        self.name = name
        self.input_shape = list(input_shape)  # without batch
        self.input_dtype = input_dtype
        self.input_name = input_name
        self.layers = layers
        self.outputs = outputs or [layers[-1].name]


def report(failures):
    """The test scripts' end: every failure on its own line; the exit status."""
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


def _node(layers, name):
    """The node index a reference to layer `name` carries: a Functional model counts its
    own construction node first (functional.py get_config, kept_nodes = 1)."""
    for l in layers:
        if l.name == name and l.sub is not None and l.sub.kind == "Functional":
            return 1
    return 0


def _layer_config(l, model_config, dtype):
    """A nested model's whole config (renamed), or the layer's config with the keys
    every layer serialises; None for the former."""
    if l.sub is not None:
        d = model_config(l.sub)
        d["config"]["name"] = l.name
        return d, None
    cfg = dict(l.config)
    cfg.setdefault("name", l.name)
    cfg.setdefault("trainable", True)
    cfg.setdefault("dtype", dtype)
    return None, cfg


def _k3_layer(l):
    nested, cfg = _layer_config(l, keras3_config, {"module": "keras", "class_name": "DTypePolicy",
                                                  "config": {"name": "float32"}, "registered_name": None})
    if nested:
        return nested
    return {"module": "keras.layers", "class_name": l.cls, "config": cfg, "registered_name": None}


def _keras_tensor(name, node=0):
    return {"class_name": "__keras_tensor__", "config": {"shape": None, "dtype": "float32",
                                                         "keras_history": [name, node, 0]}}


def keras3_config(m):
    inp = {"module": "keras.layers", "class_name": "InputLayer",
           "config": {"batch_shape": [None] + m.input_shape, "dtype": m.input_dtype, "sparse": False,
                      "name": m.input_name},
           "registered_name": None}
    if m.kind == "Sequential":
        layers = [inp] + [_k3_layer(l) for l in m.layers]
        return {"module": "keras", "class_name": "Sequential",
                "config": {"name": m.name, "trainable": True, "dtype": "float32", "layers": layers},
                "registered_name": None, "build_config": {"input_shape": [None] + m.input_shape}}
    inp = dict(inp, name=m.input_name, inbound_nodes=[])
    layers = [inp]
    for l in m.layers:
        d = _k3_layer(l)
        d["name"] = l.name
        ins = l.inbound or [m.input_name]
        ts = [_keras_tensor(n, _node(m.layers, n)) for n in ins]
        args = [ts[0]] if len(ts) == 1 else [ts]
        d["inbound_nodes"] = [{"args": args, "kwargs": {}}]
        layers.append(d)
    outs = [[o, _node(m.layers, o), 0] for o in m.outputs]
    return {"module": "keras.src.models.functional", "class_name": "Functional",
            "config": {"name": m.name, "trainable": True, "layers": layers,
                       "input_layers": [m.input_name, 0, 0],
                       "output_layers": outs[0] if len(outs) == 1 else outs},
            "registered_name": "Functional"}


def keras2_config(m):
    def legacy(l):
        nested, cfg = _layer_config(l, keras2_config, "float32")
        if nested:
            return nested
        if "negative_slope" in cfg and l.cls == "LeakyReLU":
            cfg["alpha"] = cfg.pop("negative_slope")
        return {"class_name": l.cls, "config": cfg}

    inp = {"class_name": "InputLayer", "config": {"batch_input_shape": [None] + m.input_shape,
                                                 "dtype": m.input_dtype, "sparse": False, "ragged": False,
                                                 "name": m.input_name}}
    if m.kind == "Sequential":
        return {"class_name": "Sequential", "config": {"name": m.name, "layers": [inp] + [legacy(l) for l in m.layers]}}
    inp = dict(inp, name=m.input_name, inbound_nodes=[])
    layers = [inp]
    for l in m.layers:
        d = legacy(l)
        d["name"] = l.name
        # tf.keras's Sequential is a Functional too: a nested model's calls count from 1
        nested = {x.name for x in m.layers if x.sub is not None}
        d["inbound_nodes"] = [[[n, 1 if n in nested else 0, 0, {}] for n in (l.inbound or [m.input_name])]]
        layers.append(d)
    return {"class_name": "Functional",
            "config": {"name": m.name, "layers": layers, "input_layers": [[m.input_name, 0, 0]],
                       "output_layers": [[o, 0, 0] for o in m.outputs]}}


def _write_vars(f, prefix, layers, variant, weight_override):
    counts = {}
    if variant == "keras3":
        _empty(f, prefix + "layers/" + snake("InputLayer"))
    for l in layers:
        if variant == "keras3":
            s = snake(l.cls)
            n = counts.get(s, -1) + 1
            counts[s] = n
            base = prefix + "layers/" + s + (f"_{n}" if n else "")
        else:
            base = prefix + "_layer_checkpoint_dependencies/" + l.name
        if l.sub is not None:
            _write_vars(f, base + "/", l.sub.layers, variant, weight_override)
            f.require_group(base).require_group("vars")
            continue
        arrays = [a for _, a in l.weights]
        if weight_override:
            arrays = weight_override(l, arrays)
        g = f.require_group(base)
        vars_group = g.require_group("cell").require_group("vars") if l.cell else g.require_group("vars")
        if l.cell:
            g.require_group("vars")
        for i, a in enumerate(arrays):
            vars_group.create_dataset(str(i), data=a)


def _legacy_weights(l):
    """(weight name, array) of a layer as tf.keras lists them; a nested model's are its
    layers' in order, each named after its own layer."""
    if l.sub is not None:
        return [w for inner in l.sub.layers for w in _legacy_weights(inner)]
    prefix = f"{l.name}/{l.cell}/" if l.cell else f"{l.name}/"
    return [(prefix + n + ":0", a) for n, a in l.weights]


def _empty(f, path):
    f.require_group(path).require_group("vars")


def write_keras(path, m, variant="keras3", version="3.3.3", config_override=None, weight_override=None):
    """A .keras zip. `weight_override(layer, arrays)` may change what is written."""
    import io
    buf = io.BytesIO()
    with h5py.File(buf, "w") as f:
        _write_vars(f, "", m.layers, variant, weight_override)
        f.require_group("vars")
        f.require_group("optimizer").require_group("vars")
    config = config_override if config_override is not None else keras3_config(m)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("metadata.json", json.dumps({"keras_version": version, "date_saved": "2024-05-01@12:00:00"}))
        z.writestr("config.json", json.dumps(config))
        z.writestr("model.weights.h5", buf.getvalue())


def write_legacy_h5(path, m, version="2.15.0", with_config=True, config_override=None):
    with h5py.File(path, "w") as f:
        if with_config:
            config = config_override if config_override is not None else keras2_config(m)
            f.attrs["model_config"] = json.dumps(config).encode("utf8")
        f.attrs["keras_version"] = version.encode("utf8")
        f.attrs["backend"] = b"tensorflow"
        mw = f.create_group("model_weights")
        names = [m.input_name] + [l.name for l in m.layers]
        mw.attrs["layer_names"] = np.array([n.encode("utf8") for n in names])
        mw.attrs["keras_version"] = version.encode("utf8")
        mw.attrs["backend"] = b"tensorflow"
        mw.create_group(m.input_name).attrs["weight_names"] = np.array([], dtype="S1")
        for l in sorted(m.layers, key=lambda l: l.name):
            g = mw.create_group(l.name)
            ws = _legacy_weights(l)
            g.attrs["weight_names"] = np.array([n.encode("utf8") for n, _ in ws]) if ws else np.array([], dtype="S1")
            for n, a in ws:
                g.create_dataset(n, data=a)


def seed_files(m, tmp_dir):
    """The fuzz target's inputs for model `m` (tests/fuzz/fuzz_keras.cpp): the .keras zip,
    the legacy .h5, and the split forms CONFIG@@WEIGHTS@@H5 of both layouts."""
    import os
    k, h = os.path.join(tmp_dir, m.name + ".keras"), os.path.join(tmp_dir, m.name + ".h5")
    write_keras(k, m)
    write_legacy_h5(h, m)
    zipped, legacy = open(k, "rb").read(), open(h, "rb").read()
    with zipfile.ZipFile(k) as z:
        config, weights = z.read("config.json"), z.read("model.weights.h5")
    return {m.name + ".keras": zipped, m.name + ".h5": legacy,
            m.name + ".split": config + b"@@WEIGHTS@@" + weights,
            m.name + ".legacy.split": json.dumps(keras2_config(m)).encode() + b"@@WEIGHTS@@" + legacy}
