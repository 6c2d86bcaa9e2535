#!/usr/bin/env python3
"""Writes edgecompiler's bundled sample model: a small image classifier CNN.

Deterministic (fixed seed), built with the onnx package's helpers so it needs no
PyTorch. The structure is what a MobileNet-style export looks like: Conv +
BatchNormalization + Relu stem, a depthwise-separable block with a residual
Add, global pooling, and a Gemm classifier, with PyTorch-style name scopes.

usage: make_sample_model.py OUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(20261122)
initializers = []
nodes = []


def weight(name, shape, scale=0.1):
    arr = (rng.standard_normal(shape) * scale).astype(np.float32)
    initializers.append(numpy_helper.from_array(arr, name))
    return name


def conv_bn_relu(scope, x, cin, cout, k, stride, group=1, relu=True):
    w = weight(f"{scope}.conv.weight", (cout, cin // group, k, k))
    y = f"{scope}/conv/Conv_output_0"
    nodes.append(helper.make_node("Conv", [x, w], [y], name=f"{scope}/conv/Conv",
                                  kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[k // 2] * 4, group=group))
    bn = [weight(f"{scope}.bn.weight", (cout,), 1.0), weight(f"{scope}.bn.bias", (cout,)),
          weight(f"{scope}.bn.running_mean", (cout,)), f"{scope}.bn.running_var"]
    initializers.append(numpy_helper.from_array(
        (rng.uniform(0.5, 1.5, cout)).astype(np.float32), bn[3]))
    z = f"{scope}/bn/BatchNormalization_output_0"
    nodes.append(helper.make_node("BatchNormalization", [y] + bn, [z],
                                  name=f"{scope}/bn/BatchNormalization", epsilon=1e-5))
    if not relu:
        return z
    r = f"{scope}/act/Relu_output_0"
    nodes.append(helper.make_node("Relu", [z], [r], name=f"{scope}/act/Relu"))
    return r


def main(out):
    x = "image"
    h = conv_bn_relu("/stem", x, 3, 16, 3, 2)
    h = conv_bn_relu("/block1/pw_expand", h, 16, 32, 1, 1)
    h = conv_bn_relu("/block1/dw", h, 32, 32, 3, 1, group=32)
    p = conv_bn_relu("/block1/pw_project", h, 32, 16, 1, 1, relu=False)
    skip = "/stem/act/Relu_output_0"
    nodes.append(helper.make_node("Add", [p, skip], ["/block1/Add_output_0"], name="/block1/Add"))
    h = conv_bn_relu("/block2", "/block1/Add_output_0", 16, 32, 3, 2)
    nodes.append(helper.make_node("GlobalAveragePool", [h], ["/pool/GlobalAveragePool_output_0"],
                                  name="/pool/GlobalAveragePool"))
    nodes.append(helper.make_node("Flatten", ["/pool/GlobalAveragePool_output_0"],
                                  ["/Flatten_output_0"], name="/Flatten", axis=1))
    fc_w = weight("classifier.weight", (10, 32))
    fc_b = weight("classifier.bias", (10,))
    nodes.append(helper.make_node("Gemm", ["/Flatten_output_0", fc_w, fc_b], ["logits"],
                                  name="/classifier/Gemm", transB=1))
    nodes.append(helper.make_node("Softmax", ["logits"], ["probabilities"],
                                  name="/Softmax", axis=1))
    graph = helper.make_graph(
        nodes, "sample_cnn",
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", 3, 64, 64])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", 10])],
        initializers)
    model = helper.make_model(graph, producer_name="edgecompiler-sample",
                              producer_version="1", opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    model.doc_string = "edgecompiler's bundled sample CNN (random weights, seed 20261122)"
    onnx.checker.check_model(model)
    onnx.save(model, out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
