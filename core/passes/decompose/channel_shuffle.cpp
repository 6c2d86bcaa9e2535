// A channel shuffle (ShuffleNet): Reshape [N, C, H, W] -> [N, g, C/g, H, W], Transpose
// [0, 2, 1, 3, 4], Reshape back to [N, C, H, W], as ONE 1x1 Conv whose weight is the
// permutation: out[j*g + i] = in[i*(C/g) + j]. The Edge TPU maps no 5-D tensor (only the
// three innermost dims may exceed 1), so the shuffle would end its segment; the Conv maps,
// and in int8 its weights are exactly 1 (scale 1/127, value 127), so it moves values as
// the shuffle does. Float, before quantisation.
#include <algorithm>

#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;

// The one op reading `t` (and `t` no graph output), else null.
const ir::Operation* only_reader(const ir::Graph& g, const std::string& t, std::size_t& at) {
  if (std::find(g.outputs.begin(), g.outputs.end(), t) != g.outputs.end()) return nullptr;
  const ir::Operation* found = nullptr;
  for (std::size_t i = 0; i < g.ops.size(); ++i)
    for (const auto& in : g.ops[i].inputs)
      if (in == t) {
        if (found && found != &g.ops[i]) return nullptr;
        found = &g.ops[i];
        at = i;
      }
  return found;
}

std::optional<std::vector<std::int64_t>> static_shape(const ir::Graph& g, const std::string& t) {
  const ir::Tensor* x = g.find_tensor(t);
  if (!x || !x->shape.rank_known || !x->shape.is_static() || x->dtype != ir::DType::Float32 || x->quant) return std::nullopt;
  return x->shape.sizes();
}

}  // namespace

std::size_t channel_shuffle_as_conv(ir::Graph& g, std::size_t index, std::string*) {
  const ir::Operation& r1 = g.ops[index];
  if (r1.kind != K::Reshape || r1.inputs.empty() || r1.outputs.empty()) return 0;
  const auto xs = static_shape(g, r1.inputs[0]);
  const auto s1 = static_shape(g, r1.outputs[0]);
  if (!xs || !s1 || xs->size() != 4 || s1->size() != 5) return 0;
  const std::int64_t N = (*xs)[0], C = (*xs)[1], H = (*xs)[2], W = (*xs)[3], G = (*s1)[1];
  if (G < 2 || (*s1)[0] != N || G * (*s1)[2] != C || (*s1)[3] != H || (*s1)[4] != W) return 0;
  std::size_t ti = 0, ri = 0;
  const ir::Operation* t = only_reader(g, r1.outputs[0], ti);
  if (!t || t->kind != K::Transpose || t->attr_ints("perm") != std::vector<std::int64_t>{0, 2, 1, 3, 4}) return 0;
  const ir::Operation* r2 = only_reader(g, t->outputs[0], ri);
  if (!r2 || r2->kind != K::Reshape || r2->outputs.empty()) return 0;
  const auto ys = static_shape(g, r2->outputs[0]);
  if (!ys || *ys != *xs) return 0;
  const std::int64_t per = C / G;
  std::vector<float> w(static_cast<std::size_t>(C * C), 0.f);
  for (std::int64_t j = 0; j < per; ++j)
    for (std::int64_t i = 0; i < G; ++i) w[static_cast<std::size_t>((j * G + i) * C + i * per + j)] = 1.f;
  const std::string x = r1.inputs[0], y = r2->outputs[0];
  const std::string name = r2->name.empty() ? y : r2->name;
  // the Conv replaces the last op of the three (every reader of y is after it); the other two go
  OpBuilder b(g, name);
  b.op(K::Conv, {x, b.f32("permutation", {C, C, 1, 1}, w)}, {y},
       {{"kernel_shape", std::vector<std::int64_t>{1, 1}}, {"strides", std::vector<std::int64_t>{1, 1}},
        {"pads", std::vector<std::int64_t>{0, 0, 0, 0}}, {"dilations", std::vector<std::int64_t>{1, 1}},
        {"group", std::int64_t{1}}},
       name + "/shuffle");
  const std::string mid1 = r1.outputs[0], mid2 = t->outputs[0];
  splice_ops(g, ri, std::move(b.ops()));
  g.ops.erase(g.ops.begin() + static_cast<std::ptrdiff_t>(std::max(index, ti)));
  g.ops.erase(g.ops.begin() + static_cast<std::ptrdiff_t>(std::min(index, ti)));
  g.tensors.erase(mid1);
  g.tensors.erase(mid2);
  return 1;
}

}  // namespace ec::passes::decompose
