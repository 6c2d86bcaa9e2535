// Shape functions of LSTM, GRU and RNN (ONNX layouts 0 and 1).
#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir::shape_inference {

// X [seq, batch, input] (layout 0) or [batch, seq, input] (layout 1);
// Y [seq, dirs, batch, hidden] / [batch, seq, dirs, hidden];
// Y_h (and LSTM's Y_c) [dirs, batch, hidden] / [batch, dirs, hidden].
void infer_recurrent(InferContext& ctx) {
  const Operation& op = ctx.op();
  const Shape &x = ctx.shape(0), &w = ctx.shape(1);
  const bool batch_first = op.attr_int("layout", 0) != 0;
  const std::int64_t gates = op.kind == OpKind::LSTM ? 4 : op.kind == OpKind::GRU ? 3 : 1;
  Dim seq = Dim::unknown(), batch = Dim::unknown();
  if (x.rank_known && x.rank() == 3) {
    seq = x.dims[batch_first ? 1 : 0];
    batch = x.dims[batch_first ? 0 : 1];
  }
  const std::string direction = op.attr_string("direction", "forward");
  Dim dirs = Dim::fixed(direction == "bidirectional" ? 2 : 1);
  Dim hidden = Dim::unknown();
  if (op.attr("hidden_size"))
    hidden = Dim::fixed(op.attr_int("hidden_size", 0));
  else if (w.rank_known && w.rank() == 3 && w.dims[1].is_static())
    hidden = Dim::fixed(w.dims[1].value / gates);
  if (w.rank_known && w.rank() == 3 && w.dims[0].is_static() && w.dims[0].value != dirs.value)
    ctx.conflict("W has " + std::to_string(w.dims[0].value) + " directions, direction is " + direction);
  const DType t = ctx.dtype(0);
  ctx.set(0, batch_first ? Shape{{batch, seq, dirs, hidden}, true} : Shape{{seq, dirs, batch, hidden}, true}, t);
  const Shape state = batch_first ? Shape{{batch, dirs, hidden}, true} : Shape{{dirs, batch, hidden}, true};
  for (std::size_t k = 1; k < ctx.num_outputs(); ++k) ctx.set(k, state, t);
}

}  // namespace ec::ir::shape_inference
