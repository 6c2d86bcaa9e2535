// Network-like graphs for the graph-view benchmarks: a stem, four stages of
// residual blocks (conv/bn/relu chains, a parallel branch in some blocks, an
// attention-like fan-out in others, a skip connection around every block) and
// a head, with PyTorch-style scope names ("/stages/stages.2/blocks.7/conv1/Conv").
#pragma once

#include <string>

#include "core/layout/compound_layout.h"

namespace ec::bench {

/// About `target_ops` ops (+ an input and an output item); `scoped = false`
/// drops the scope names, as in ONNX-named models, so nothing is grouped.
inline ec::layout::CompoundInput synthetic_network(int target_ops, bool scoped = true) {
  ec::layout::CompoundInput in;
  auto add = [&](const std::string& name, int from) {
    in.items.push_back({name, 90, 42});
    const int id = int(in.items.size()) - 1;
    if (from >= 0) in.edges.emplace_back(from, id);
    return id;
  };
  int x = add("", -1);  // graph input
  x = add("/stem/Conv", x);
  x = add("/stem/BatchNormalization", x);
  x = add("/stem/Relu", x);
  const int per_block = 11;  // average of the three block kinds below
  const int blocks = std::max(1, (target_ops - 8) / per_block);
  const int stages = 4;
  for (int b = 0; b < blocks; ++b) {
    const int s = b * stages / blocks;
    const std::string scope =
        "/stages/stages." + std::to_string(s) + "/blocks." + std::to_string(b);
    const int in_x = x;
    int y = add(scope + "/conv1/Conv", in_x);
    y = add(scope + "/bn1/BatchNormalization", y);
    y = add(scope + "/Relu", y);
    if (b % 3 == 0) {  // attention-like fan-out and fan-in
      const int q = add(scope + "/attn/q/MatMul", y);
      const int k = add(scope + "/attn/k/MatMul", y);
      const int v = add(scope + "/attn/v/MatMul", y);
      const int qk = add(scope + "/attn/MatMul", q);
      in.edges.emplace_back(k, qk);
      const int sm = add(scope + "/attn/Softmax", qk);
      y = add(scope + "/attn/MatMul_1", sm);
      in.edges.emplace_back(v, y);
    } else {
      y = add(scope + "/conv2/Conv", y);
      y = add(scope + "/bn2/BatchNormalization", y);
      int z = -1;
      if (b % 3 == 1) {  // a parallel 1x1 branch
        z = add(scope + "/branch/Conv", in_x);
        z = add(scope + "/branch/BatchNormalization", z);
      }
      y = add(scope + "/Relu_1", y);
      if (z >= 0) y = add(scope + "/Concat", y), in.edges.emplace_back(z, y);
      y = add(scope + "/conv3/Conv", y);
    }
    y = add(scope + "/Add", y);
    in.edges.emplace_back(in_x, y);  // residual
    x = add(scope + "/Relu_2", y);
  }
  x = add("/head/GlobalAveragePool", x);
  x = add("/head/Flatten", x);
  x = add("/head/fc/Gemm", x);
  add("", x);  // graph output
  if (!scoped) {
    for (auto& item : in.items) item.name.clear();
  }
  return in;
}

}  // namespace ec::bench
