#!/usr/bin/env python3
"""Writes a large synthetic ONNX model (an MLP of big Gemm layers) for the
import benchmark. Weights are random with a fixed seed.

usage: make_synthetic_model.py OUT.onnx MEGABYTES [--external]
With --external the weights go to OUT.onnx.data (ONNX external data).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    out, megabytes = args[0], int(args[1])
    width = 2048  # one 2048x2048 f32 layer = 16 MiB
    layers = max(1, megabytes * 1024 * 1024 // (width * width * 4))
    rng = np.random.default_rng(1)
    inits, nodes, x = [], [], "input"
    for i in range(layers):
        w = numpy_helper.from_array(rng.standard_normal((width, width), np.float32) * 0.01,
                                    f"layer{i}.weight")
        b = numpy_helper.from_array(np.zeros(width, np.float32), f"layer{i}.bias")
        inits += [w, b]
        y = f"/layer{i}/Gemm_output_0"
        nodes.append(helper.make_node("Gemm", [x, w.name, b.name], [y],
                                      name=f"/layer{i}/Gemm", transB=1))
        r = f"/layer{i}/Relu_output_0"
        nodes.append(helper.make_node("Relu", [y], [r], name=f"/layer{i}/Relu"))
        x = r
    g = helper.make_graph(nodes, "synthetic_mlp",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", width])],
                          [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", width])],
                          inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    if "--external" in sys.argv:
        onnx.save_model(m, out, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=os.path.basename(out) + ".data", size_threshold=1024)
    else:
        onnx.save_model(m, out)


if __name__ == "__main__":
    main()
