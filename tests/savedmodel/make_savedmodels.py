"""Builds the SavedModels the savedmodel tests open (see savedmodel_writer.py for the layout).

half_plus_two(dir): TensorFlow's own test model, rebuilt node for node from the published
  tensorflow/cc/saved_model/testdata/half_plus_two_pbtxt/00000123/saved_model.pbtxt
  (a TF1 graph: Variable + Assign + Identity "read" nodes, checkpoint keys a, b, c;
  y = a * x + b with a = 0.5, b = 2; signatures serving_default x -> y and
  tensorflow/serving/regress, which parses tf.Example strings).

small_cnn(dir): a TF2 SavedModel as tf.saved_model.save writes one for a Keras model:
  signature -> StatefulPartitionedCall (main graph, variables passed as VarHandleOp
  resources) -> signature wrapper FunctionDef -> StatefulPartitionedCall -> model
  FunctionDef; checkpoint keys from the object graph. The weights are a PyTorch module's
  of the same architecture (TinyNet); returns the module.
"""
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import savedmodel_writer as w

FLOAT, INT32, STRING, RESOURCE = 1, 3, 7, 20


# ---------------------------------------------------------------- half_plus_two (TF1)

def half_plus_two(out_dir, values=(0.5, 2.0, 3.0), with_variables=True):
    pb = w.pb
    sm = pb.saved_model.SavedModel(saved_model_schema_version=1)
    mg = sm.meta_graphs.add()
    mg.meta_info_def.tags.append("serve")
    mg.meta_info_def.tensorflow_version = "0.12.head"
    mg.meta_info_def.tensorflow_git_version = "unknown"
    g = mg.graph_def
    g.versions.producer = 19
    nodes = g.node
    scalar = pb.attr_value.AttrValue()
    scalar.list.shape.add()  # _output_shapes: [[]]

    def variable(name, init):
        w.const_node(nodes, f"{name}/initial_value", np.float32(init)).attr["_output_shapes"].CopyFrom(scalar)
        w.node(nodes, name, "Variable", dtype=w.attr_type(FLOAT), shape=w.attr_shape([]),
               container=pb.attr_value.AttrValue(s=b""), shared_name=pb.attr_value.AttrValue(s=b""),
               _output_shapes=scalar)
        w.node(nodes, f"{name}/Assign", "Assign", [name, f"{name}/initial_value"], T=w.attr_type(FLOAT),
               use_locking=pb.attr_value.AttrValue(b=True), validate_shape=pb.attr_value.AttrValue(b=True))
        w.node(nodes, f"{name}/read", "Identity", [name], T=w.attr_type(FLOAT), _output_shapes=scalar)

    for name, v in zip("abc", values):
        variable(name, v)
    batch1 = pb.attr_value.AttrValue()
    s = batch1.list.shape.add()
    s.dim.add().size = -1
    s.dim.add().size = 1
    unknown = pb.attr_value.AttrValue()
    unknown.list.shape.add().unknown_rank = True
    w.node(nodes, "tf_example", "Placeholder", dtype=w.attr_type(STRING), shape=w.attr_shape([]), _output_shapes=unknown)
    w.const_node(nodes, "ParseExample/Const", np.zeros([0], np.float32))
    names = w.node(nodes, "ParseExample/ParseExample/names", "Const", dtype=w.attr_type(STRING))
    names.attr["value"].tensor.dtype = STRING
    names.attr["value"].tensor.tensor_shape.dim.add().size = 0
    key = w.node(nodes, "ParseExample/ParseExample/dense_keys_0", "Const", dtype=w.attr_type(STRING))
    key.attr["value"].tensor.dtype = STRING
    key.attr["value"].tensor.string_val.append(b"x")
    pe = w.node(nodes, "ParseExample/ParseExample", "ParseExample",
                ["tf_example", "ParseExample/ParseExample/names", "ParseExample/ParseExample/dense_keys_0",
                 "ParseExample/Const"],
                Ndense=pb.attr_value.AttrValue(i=1), Nsparse=pb.attr_value.AttrValue(i=0), _output_shapes=batch1)
    pe.attr["Tdense"].list.type.append(FLOAT)
    pe.attr["dense_shapes"].list.shape.add().dim.add().size = 1
    w.node(nodes, "x", "Identity", ["ParseExample/ParseExample"], T=w.attr_type(FLOAT), _output_shapes=batch1)
    w.node(nodes, "Mul", "Mul", ["a/read", "x"], T=w.attr_type(FLOAT), _output_shapes=batch1)
    w.node(nodes, "y", "Add", ["Mul", "b/read"], T=w.attr_type(FLOAT), _output_shapes=batch1)
    w.node(nodes, "x2", "Placeholder", dtype=w.attr_type(FLOAT), shape=w.attr_shape([]), _output_shapes=unknown)
    w.node(nodes, "Mul_1", "Mul", ["a/read", "x2"], T=w.attr_type(FLOAT), _output_shapes=unknown)
    w.node(nodes, "y2", "Add", ["Mul_1", "c/read"], T=w.attr_type(FLOAT), _output_shapes=unknown)
    w.node(nodes, "Identity", "Identity", ["y"], T=w.attr_type(FLOAT), _output_shapes=batch1)
    w.node(nodes, "init", "NoOp", ["^a/Assign", "^b/Assign", "^c/Assign"])
    # The saver subgraph (save/*, RestoreV2 ...) and the asset nodes of the published file are
    # left out: nothing a signature computes reads them. saver_def, collection_def and
    # asset_file_def are fields the project's .proto subset does not hold.
    sig = mg.signature_def["serving_default"]
    sig.inputs["x"].name = "x:0"
    sig.outputs["y"].name = "y:0"
    sig.method_name = "tensorflow/serving/predict"
    reg = mg.signature_def["tensorflow/serving/regress"]
    reg.inputs["inputs"].name = "tf_example:0"
    reg.outputs["outputs"].name = "Identity:0"
    reg.method_name = "tensorflow/serving/regress"
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "saved_model.pb"), "wb") as f:
        f.write(sm.SerializeToString())
    if with_variables:  # TF1 checkpoint: keys are the variable names
        w.write_bundle(os.path.join(out_dir, "variables", "variables"),
                       {k: np.float32(v) for k, v in zip("abc", values)})


# ---------------------------------------------------------------- TF2 CNN

class TinyNet(nn.Module):
    """Conv(SAME)+bias+BN+ReLU6 -> pad -> depthwise(stride 2)+bias+ReLU -> [MaxPool 3x3/2 SAME,
    AvgPool 2x2/2] concat -> mean(H, W) -> flatten -> Linear -> softmax."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8, eps=1e-3)
        self.dw = nn.Conv2d(8, 8, 3, stride=2, groups=8)
        self.fc = nn.Linear(16, 10)

    def features(self, x):  # x: NCHW
        x = F.relu6(self.bn1(self.conv1(x)))
        x = F.pad(x, (0, 1, 0, 1))
        x = F.relu(self.dw(x))
        m = F.max_pool2d(F.pad(x, (0, 1, 0, 1), value=float("-inf")), 3, 2)  # TensorFlow SAME: the odd pixel after
        a = F.avg_pool2d(x, 2, 2)
        return torch.cat([m, a], 1).mean(dim=(2, 3))

    def forward(self, x):
        return F.softmax(self.fc(self.features(x)), dim=-1)


def tiny_net():
    torch.manual_seed(20240607)
    net = TinyNet()
    with torch.no_grad():
        net.bn1.running_mean.uniform_(-0.5, 0.5)
        net.bn1.running_var.uniform_(0.5, 1.5)
        net.bn1.weight.uniform_(0.5, 1.5)
        net.bn1.bias.uniform_(-0.2, 0.2)
    return net.eval()


# (object name, variable name, checkpoint key, value from the module)
def cnn_variables(net):
    c = lambda t: t.detach().numpy().astype(np.float32)
    return [
        ("conv1", "conv1/kernel", "layer_with_weights-0/kernel", c(net.conv1.weight.permute(2, 3, 1, 0))),  # OIHW -> HWIO
        ("conv1", "conv1/bias", "layer_with_weights-0/bias", c(net.conv1.bias)),
        ("bn1", "bn1/gamma", "layer_with_weights-1/gamma", c(net.bn1.weight)),
        ("bn1", "bn1/beta", "layer_with_weights-1/beta", c(net.bn1.bias)),
        ("bn1", "bn1/moving_mean", "layer_with_weights-1/moving_mean", c(net.bn1.running_mean)),
        ("bn1", "bn1/moving_variance", "layer_with_weights-1/moving_variance", c(net.bn1.running_var)),
        ("dw", "dw/depthwise_kernel", "layer_with_weights-2/depthwise_kernel", c(net.dw.weight.permute(2, 3, 0, 1))),  # [C,1,KH,KW] -> [KH,KW,C,1]
        ("dw", "dw/bias", "layer_with_weights-2/bias", c(net.dw.bias)),
        ("fc", "fc/kernel", "layer_with_weights-3/kernel", c(net.fc.weight.t())),  # [out,in] -> [in,out]
        ("fc", "fc/bias", "layer_with_weights-3/bias", c(net.fc.bias)),
    ]


def _model_function(lib, name, head, n_vars, unknown_op=None):
    """The model body as Keras traces it: ReadVariableOp per captured resource, outputs
    addressed as node:out_arg:index (FunctionDef encoding)."""
    pb = w.pb
    f = lib.function.add()
    f.signature.name = name
    f.signature.input_arg.add(name="input_1", type=FLOAT)
    res = ["conv1_conv2d_readvariableop_resource", "conv1_biasadd_readvariableop_resource", "bn1_readvariableop_resource",
           "bn1_readvariableop_1_resource", "bn1_fusedbatchnormv3_readvariableop_resource",
           "bn1_fusedbatchnormv3_readvariableop_1_resource", "dw_depthwise_readvariableop_resource",
           "dw_biasadd_readvariableop_resource", "fc_matmul_readvariableop_resource",
           "fc_biasadd_readvariableop_resource"][:n_vars]
    for r in res:
        f.signature.input_arg.add(name=r, type=RESOURCE)
    f.signature.output_arg.add(name="identity", type=FLOAT)
    n = f.node_def
    T = w.attr_type(FLOAT)
    f32 = lambda: dict(dtype=w.attr_type(FLOAT))

    def read(nm, r):
        w.node(n, nm, "ReadVariableOp", [r], **f32())
        return f"{nm}:value:0"

    k = read("conv1/Conv2D/ReadVariableOp", res[0])
    w.node(n, "conv1/Conv2D", "Conv2D", ["input_1", k], T=T, strides=w.attr_ints([1, 1, 1, 1]),
           padding=pb.attr_value.AttrValue(s=b"SAME"), data_format=pb.attr_value.AttrValue(s=b"NHWC"),
           dilations=w.attr_ints([1, 1, 1, 1]), explicit_paddings=w.attr_ints([]),
           use_cudnn_on_gpu=pb.attr_value.AttrValue(b=True))
    b = read("conv1/BiasAdd/ReadVariableOp", res[1])
    w.node(n, "conv1/BiasAdd", "BiasAdd", ["conv1/Conv2D:output:0", b], T=T, data_format=pb.attr_value.AttrValue(s=b"NHWC"))
    gam, bet = read("bn1/ReadVariableOp", res[2]), read("bn1/ReadVariableOp_1", res[3])
    mean, var = read("bn1/FusedBatchNormV3/ReadVariableOp", res[4]), read("bn1/FusedBatchNormV3/ReadVariableOp_1", res[5])
    w.node(n, "bn1/FusedBatchNormV3", "FusedBatchNormV3", ["conv1/BiasAdd:output:0", gam, bet, mean, var], T=T,
           U=w.attr_type(FLOAT), epsilon=pb.attr_value.AttrValue(f=1e-3),
           exponential_avg_factor=pb.attr_value.AttrValue(f=1.0), is_training=pb.attr_value.AttrValue(b=False),
           data_format=pb.attr_value.AttrValue(s=b"NHWC"))
    w.node(n, "re_lu/Relu6", "Relu6", ["bn1/FusedBatchNormV3:y:0"], T=T)
    w.const_node(n, "pad/Const", np.array([[0, 0], [0, 1], [0, 1], [0, 0]], np.int32))
    w.node(n, "pad/Pad", "Pad", ["re_lu/Relu6:activations:0", "pad/Const:output:0"], T=T, Tpaddings=w.attr_type(INT32))
    d = read("dw/depthwise/ReadVariableOp", res[6])
    w.node(n, "dw/depthwise", "DepthwiseConv2dNative", ["pad/Pad:output:0", d], T=T, strides=w.attr_ints([1, 2, 2, 1]),
           padding=pb.attr_value.AttrValue(s=b"VALID"), data_format=pb.attr_value.AttrValue(s=b"NHWC"),
           dilations=w.attr_ints([1, 1, 1, 1]), explicit_paddings=w.attr_ints([]))
    db = read("dw/BiasAdd/ReadVariableOp", res[7])
    w.node(n, "dw/BiasAdd", "BiasAdd", ["dw/depthwise:output:0", db], T=T, data_format=pb.attr_value.AttrValue(s=b"NHWC"))
    w.node(n, "dw/Relu", unknown_op or "Relu", ["dw/BiasAdd:output:0"], T=T)
    w.node(n, "max/MaxPool", "MaxPool", ["dw/Relu:activations:0"], T=T, ksize=w.attr_ints([1, 3, 3, 1]),
           strides=w.attr_ints([1, 2, 2, 1]), padding=pb.attr_value.AttrValue(s=b"SAME"),
           data_format=pb.attr_value.AttrValue(s=b"NHWC"))
    w.node(n, "avg/AvgPool", "AvgPool", ["dw/Relu:activations:0"], T=T, ksize=w.attr_ints([1, 2, 2, 1]),
           strides=w.attr_ints([1, 2, 2, 1]), padding=pb.attr_value.AttrValue(s=b"VALID"),
           data_format=pb.attr_value.AttrValue(s=b"NHWC"))
    w.const_node(n, "concat/axis", np.int32(-1))
    w.node(n, "concat/concat", "ConcatV2", ["max/MaxPool:output:0", "avg/AvgPool:output:0", "concat/axis:output:0"],
           T=T, N=pb.attr_value.AttrValue(i=2), Tidx=w.attr_type(INT32))
    w.const_node(n, "gap/Mean/reduction_indices", np.array([1, 2], np.int32))
    w.node(n, "gap/Mean", "Mean", ["concat/concat:output:0", "gap/Mean/reduction_indices:output:0"], T=T,
           Tidx=w.attr_type(INT32), keep_dims=pb.attr_value.AttrValue(b=False))
    # Flatten as Keras traces it: the batch size read from the tensor's shape.
    w.node(n, "flatten/Shape", "Shape", ["gap/Mean:output:0"], T=T, out_type=w.attr_type(INT32))
    for nm, v in (("flatten/strided_slice/stack", [0]), ("flatten/strided_slice/stack_1", [1]),
                  ("flatten/strided_slice/stack_2", [1])):
        w.const_node(n, nm, np.array(v, np.int32))
    w.node(n, "flatten/strided_slice", "StridedSlice",
           ["flatten/Shape:output:0", "flatten/strided_slice/stack:output:0", "flatten/strided_slice/stack_1:output:0",
            "flatten/strided_slice/stack_2:output:0"], T=w.attr_type(INT32), Index=w.attr_type(INT32),
           shrink_axis_mask=pb.attr_value.AttrValue(i=1), begin_mask=pb.attr_value.AttrValue(i=0),
           end_mask=pb.attr_value.AttrValue(i=0), ellipsis_mask=pb.attr_value.AttrValue(i=0),
           new_axis_mask=pb.attr_value.AttrValue(i=0))
    w.const_node(n, "flatten/Reshape/shape/1", np.int32(-1))
    w.node(n, "flatten/Reshape/shape", "Pack", ["flatten/strided_slice:output:0", "flatten/Reshape/shape/1:output:0"],
           T=w.attr_type(INT32), N=pb.attr_value.AttrValue(i=2), axis=pb.attr_value.AttrValue(i=0))
    w.node(n, "flatten/Reshape", "Reshape", ["gap/Mean:output:0", "flatten/Reshape/shape:output:0"], T=T,
           Tshape=w.attr_type(INT32))
    last = "flatten/Reshape:output:0"
    if head:
        fk = read("fc/MatMul/ReadVariableOp", res[8])
        w.node(n, "fc/MatMul", "MatMul", [last, fk], T=T, transpose_a=pb.attr_value.AttrValue(b=False),
               transpose_b=pb.attr_value.AttrValue(b=False))
        fb = read("fc/BiasAdd/ReadVariableOp", res[9])
        w.node(n, "fc/BiasAdd", "BiasAdd", ["fc/MatMul:product:0", fb], T=T)
        w.node(n, "softmax/Softmax", "Softmax", ["fc/BiasAdd:output:0"], T=T)
        last = "softmax/Softmax:softmax:0"
    w.node(n, "Identity", "Identity", [last], T=T)
    f.ret["identity"] = "Identity:output:0"


def _wrapper_function(lib, name, model_fn, n_vars, out_key):
    """__inference_signature_wrapper_*: the signature's inputs and captures in, one call."""
    pb = w.pb
    f = lib.function.add()
    f.signature.name = name
    f.signature.input_arg.add(name="input_1", type=FLOAT)
    args = ["unknown"] + [f"unknown_{i}" for i in range(n_vars - 1)]
    for a in args:
        f.signature.input_arg.add(name=a, type=RESOURCE)
    f.signature.output_arg.add(name=out_key, type=FLOAT)
    call = w.node(f.node_def, "StatefulPartitionedCall", "StatefulPartitionedCall", ["input_1"] + args, f=w.attr_func(model_fn))
    call.attr["Tin"].list.type.extend([FLOAT] + [RESOURCE] * n_vars)
    call.attr["Tout"].list.type.append(FLOAT)
    w.node(f.node_def, "Identity", "Identity", ["StatefulPartitionedCall:output:0"], T=w.attr_type(FLOAT))
    f.ret[out_key] = "Identity:output:0"


def small_cnn(out_dir, unknown_op=None, with_variables=True, entry_hook=None):
    pb = w.pb
    net = tiny_net()
    variables = cnn_variables(net)
    sm = pb.saved_model.SavedModel(saved_model_schema_version=1)
    mg = sm.meta_graphs.add()
    mg.meta_info_def.tags.append("serve")
    mg.meta_info_def.tensorflow_version = "2.13.0"
    mg.meta_info_def.tensorflow_git_version = "v2.13.0-rc2-7-g1cb1a030a62"
    mg.meta_info_def.stripped_default_attrs = True
    g = mg.graph_def
    g.versions.producer = 1575
    # main graph: one VarHandleOp per variable (shared_name = the variable's name)
    for _, vname, _, value in variables:
        w.node(g.node, vname, "VarHandleOp", dtype=w.attr_type(FLOAT), shape=w.attr_shape(value.shape),
               shared_name=pb.attr_value.AttrValue(s=vname.encode()), container=pb.attr_value.AttrValue(s=b""))
        w.node(g.node, f"{vname}/Read/ReadVariableOp", "ReadVariableOp", [vname], dtype=w.attr_type(FLOAT))
    sigs = [("serving_default", "serving_default_input_1", "StatefulPartitionedCall", "__inference_signature_wrapper_1024",
             "__inference__wrapped_model_512", True, 10, "output_0"),
            ("features", "features_input_1", "StatefulPartitionedCall_1", "__inference_signature_wrapper_2048",
             "__inference_features_1536", False, 8, "features")]
    for sig_name, ph, call_name, wrapper, model_fn, head, n_vars, out_key in sigs:
        w.node(g.node, ph, "Placeholder", dtype=w.attr_type(FLOAT), shape=w.attr_shape([-1, 16, 16, 3]))
        call = w.node(g.node, call_name, "StatefulPartitionedCall", [ph] + [v[1] for v in variables[:n_vars]],
                      f=w.attr_func(wrapper))
        call.attr["Tin"].list.type.extend([FLOAT] + [RESOURCE] * n_vars)
        call.attr["Tout"].list.type.append(FLOAT)
        call.attr["_read_only_resource_inputs"].list.i.extend(range(1, n_vars + 1))
        _wrapper_function(g.library, wrapper, model_fn, n_vars, out_key)
        _model_function(g.library, model_fn, head, n_vars, unknown_op)
        sig = mg.signature_def[sig_name]
        ti = sig.inputs["input_1"]
        ti.name = f"{ph}:0"
        ti.dtype = FLOAT
        ti.tensor_shape.CopyFrom(w.shape_proto([-1, 16, 16, 3]))
        to = sig.outputs[out_key]
        to.name = f"{call_name}:0"
        to.dtype = FLOAT
        to.tensor_shape.CopyFrom(w.shape_proto([-1, 10 if head else 16]))
        sig.method_name = "tensorflow/serving/predict"
    # The saver: a call nothing in a signature reads (its body is never inlined).
    w.node(g.node, "saver_filename", "Placeholder", dtype=w.attr_type(STRING), shape=w.attr_shape([]))
    w.node(g.node, "StatefulPartitionedCall_2", "StatefulPartitionedCall", ["saver_filename"],
           f=w.attr_func("__inference__traced_save_4096"))
    save = g.library.function.add()
    save.signature.name = "__inference__traced_save_4096"
    save.signature.input_arg.add(name="file_prefix", type=STRING)
    save.signature.output_arg.add(name="identity_1", type=STRING)
    w.node(save.node_def, "SaveV2", "SaveV2", ["file_prefix"])
    w.node(save.node_def, "Identity_1", "Identity", ["file_prefix"], T=w.attr_type(STRING))
    save.ret["identity_1"] = "Identity_1:output:0"

    # Object graphs: node 0 the model, 1-4 its layers, 5-14 the variables, 15 the signatures.
    layers = ["conv1", "bn1", "dw", "fc"]
    sog = mg.object_graph_def
    tog = pb.trackable_object_graph.TrackableObjectGraph()
    root, troot = sog.nodes.add(), tog.nodes.add()
    root.user_object.identifier = "_tf_keras_sequential"
    for i, l in enumerate(layers):
        root.children.add(node_id=1 + i, local_name=f"layer_with_weights-{i}")
        troot.children.add(node_id=1 + i, local_name=f"layer_with_weights-{i}")
    root.children.add(node_id=15, local_name="signatures")
    for i, l in enumerate(layers):
        o, t = sog.nodes.add(), tog.nodes.add()
        o.user_object.identifier = "_tf_keras_layer"
        for j, (layer, vname, key, _) in enumerate(variables):
            if layer == l:
                local = vname.split("/")[1]
                o.children.add(node_id=5 + j, local_name=local)
                t.children.add(node_id=5 + j, local_name=local)
    tensors = {}
    for j, (layer, vname, key, value) in enumerate(variables):
        o, t = sog.nodes.add(), tog.nodes.add()
        o.variable.dtype = FLOAT
        o.variable.shape.CopyFrom(w.shape_proto(value.shape))
        o.variable.trainable = True
        o.variable.name = vname
        ckey = f"{key}/.ATTRIBUTES/VARIABLE_VALUE"
        t.attributes.add(name="VARIABLE_VALUE", full_name=vname, checkpoint_key=ckey)
        tensors[ckey] = value
    sigobj = sog.nodes.add()
    sigobj.user_object.identifier = "signature_map"
    tog.nodes.add()
    for sig_name, _, _, wrapper, _, _, n_vars, _ in sigs:
        sog.concrete_functions[wrapper].bound_inputs.extend(range(5, 5 + n_vars))
    tensors["_CHECKPOINTABLE_OBJECT_GRAPH"] = tog.SerializeToString()
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "saved_model.pb"), "wb") as f:
        f.write(sm.SerializeToString())
    if with_variables:
        w.write_bundle(os.path.join(out_dir, "variables", "variables"), tensors, entry_hook)
    return net


# ---------------------------------------------------------------- op zoo (TF1 graph, resource variable)

def op_zoo(out_dir):
    """A TF1-style graph (VarHandleOp + ReadVariableOp in the graph itself, checkpoint key =
    the variable's name) over the ops the CNN does not use. Returns {output key: reference}
    for the input it also returns, computed with NumPy / PyTorch."""
    pb = w.pb
    rng = np.random.default_rng(11)
    x = rng.standard_normal((1, 4, 4, 2)).astype(np.float32)
    wv = rng.standard_normal((3, 2)).astype(np.float32)  # used as MatMul(a, w, transpose_b)
    sm = pb.saved_model.SavedModel(saved_model_schema_version=1)
    mg = sm.meta_graphs.add()
    mg.meta_info_def.tags.append("serve")
    g = mg.graph_def.node
    T = w.attr_type(FLOAT)
    b = lambda v: pb.attr_value.AttrValue(b=v)
    w.node(g, "x", "Placeholder", dtype=T, shape=w.attr_shape([1, 4, 4, 2]))
    w.node(g, "w", "VarHandleOp", dtype=T, shape=w.attr_shape([3, 2]), shared_name=pb.attr_value.AttrValue(s=b"w"))
    w.node(g, "w/Read", "ReadVariableOp", ["w"], dtype=T)
    w.const_node(g, "shape16x2", np.array([16, 2], np.int32))
    w.node(g, "a", "Reshape", ["x", "shape16x2"], T=T)
    w.node(g, "m", "MatMul", ["a", "w/Read"], T=T, transpose_a=b(False), transpose_b=b(True))
    w.node(g, "l", "LeakyRelu", ["m"], T=T, alpha=pb.attr_value.AttrValue(f=0.1))
    w.node(g, "sq", "Square", ["l"], T=T)
    w.const_node(g, "one", np.float32(1.0))
    w.node(g, "sq1", "AddV2", ["sq", "one"], T=T)
    w.node(g, "r", "Rsqrt", ["sq1"], T=T)
    w.const_node(g, "lo", np.float32(0.5))
    w.const_node(g, "hi", np.float32(0.9))
    w.node(g, "mx", "Maximum", ["r", "lo"], T=T)
    w.node(g, "mn", "Minimum", ["mx", "hi"], T=T)
    w.const_node(g, "axis1", np.array([1], np.int32))
    w.const_node(g, "axis0", np.int32(0))
    w.node(g, "s", "Sum", ["mn", "axis1"], T=T, keep_dims=b(True))
    w.node(g, "mxr", "Max", ["mn", "axis0"], T=T, keep_dims=b(False))
    w.const_node(g, "minus1", np.int32(-1))
    w.node(g, "e", "ExpandDims", ["s", "minus1"], T=T)
    w.node(g, "q", "Squeeze", ["e"], T=T, squeeze_dims=w.attr_ints([2]))
    w.const_node(g, "quarter", np.float32(0.25))
    w.const_node(g, "two", np.float32(2.0))
    w.node(g, "qs", "Sub", ["q", "quarter"], T=T)
    w.node(g, "d", "RealDiv", ["qs", "two"], T=T)
    w.node(g, "sig", "Sigmoid", ["d"], T=T)
    w.node(g, "th", "Tanh", ["mxr"], T=T)
    w.node(g, "ids", "IdentityN", ["sig", "th"])
    w.const_node(g, "perm", np.array([0, 3, 1, 2], np.int32))
    w.node(g, "tr", "Transpose", ["x", "perm"], T=T)
    w.const_node(g, "size8", np.array([8, 8], np.int32))
    w.node(g, "rb", "ResizeBilinear", ["x", "size8"], T=T, align_corners=b(False), half_pixel_centers=b(True))
    w.node(g, "rn", "ResizeNearestNeighbor", ["x", "size8"], T=T, align_corners=b(False), half_pixel_centers=b(False))
    for nm, v in (("sb", [0, 1, 0, 0]), ("se", [1, 3, 4, 2]), ("st", [1, 1, 2, 1])):
        w.const_node(g, nm, np.array(v, np.int32))
    w.node(g, "ss", "StridedSlice", ["x", "sb", "se", "st"], T=T, Index=w.attr_type(INT32))
    w.node(g, "pk", "Pack", ["ss", "ss"], T=T, N=pb.attr_value.AttrValue(i=2), axis=pb.attr_value.AttrValue(i=1))
    w.node(g, "rl", "Relu", ["x"], T=T)
    sig = mg.signature_def["serving_default"]
    sig.inputs["x"].name = "x:0"
    outs = {"sig": "ids:0", "tanh": "ids:1", "transpose": "tr:0", "resize_bilinear": "rb:0",
            "resize_nearest": "rn:0", "pack": "pk:0", "relu": "rl:0"}
    for k, v in outs.items():
        sig.outputs[k].name = v
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "saved_model.pb"), "wb") as f:
        f.write(sm.SerializeToString())
    w.write_bundle(os.path.join(out_dir, "variables", "variables"), {"w": wv})

    a = x.reshape(16, 2)
    m = a @ wv.T
    l = np.where(m > 0, m, 0.1 * m)
    mn = np.minimum(np.maximum(1 / np.sqrt(l * l + 1), 0.5), 0.9)
    s = mn.sum(1, keepdims=True)
    xt = torch.from_numpy(x).permute(0, 3, 1, 2)
    nhwc = lambda t: t.permute(0, 2, 3, 1).numpy()
    ss = x[:, 1:3, 0:4:2, :]
    ref = {
        "sig": 1 / (1 + np.exp(-(s - 0.25) / 2)),
        "tanh": np.tanh(mn.max(0)),
        "transpose": x.transpose(0, 3, 1, 2),
        "resize_bilinear": nhwc(F.interpolate(xt, size=(8, 8), mode="bilinear", align_corners=False)),
        "resize_nearest": nhwc(F.interpolate(xt, size=(8, 8), mode="nearest")),
        "pack": np.stack([ss, ss], 1),
        "relu": np.maximum(x, 0),
    }
    return x, ref
