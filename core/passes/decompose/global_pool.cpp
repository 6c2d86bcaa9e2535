// A global pool over more than two spatial dims (a video model's GlobalAveragePool
// over [N, C, D, H, W]) as ReduceMean / ReduceMax over every spatial axis (keepdims):
// TFLite's MEAN and REDUCE_MAX take any axes in int8, where the runtime's int8 pools are
// 1-D and 2-D only.
#include <numeric>

#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {

std::size_t global_pool_as_reduce(ir::Graph& g, std::size_t index, std::string*) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  if ((op.kind != K::GlobalAveragePool && op.kind != K::GlobalMaxPool) || op.inputs.empty() || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || x->shape.rank() <= 4 || x->quant) return 0;
  std::vector<std::int64_t> axes(x->shape.rank() - 2);
  std::iota(axes.begin(), axes.end(), std::int64_t{2});
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  ir::Operation r;
  r.kind = op.kind == K::GlobalAveragePool ? K::ReduceMean : K::ReduceMax;
  r.op_type = op.kind == K::GlobalAveragePool ? "ReduceMean" : "ReduceMax";
  r.name = op.name;
  r.inputs = {op.inputs[0]};
  r.attributes["axes"] = axes;
  r.outputs = op.outputs;
  r.attributes["keepdims"] = std::int64_t{1};
  b.ops().push_back(r);
  splice_ops(g, index, std::move(b.ops()));
  return 1;
}

}  // namespace ec::passes::decompose
