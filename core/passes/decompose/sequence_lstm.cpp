// Which LSTMs TFLite's own sequence ops express (UNIDIRECTIONAL_SEQUENCE_LSTM,
// BIDIRECTIONAL_SEQUENCE_LSTM, float), as the TensorFlow converter writes them:
// those stay whole in a float .tflite; every other LSTM is unrolled. The rules are
// those of the TFLite kernels (tensorflow/lite/kernels/lstm_shared.h and
// bidirectional_sequence_lstm.cc): gates i, f, c, o with sigmoid / tanh / tanh,
// optional peepholes, no clip on the gates' inputs (TFLite's cell_clip clips the
// cell state, ONNX's clip the gate inputs), states that start at zero (they are
// variable tensors the kernel resets), and only the full sequence as output (the
// last h is a slice of it; the last c is not an output of the op).
#include <algorithm>
#include <variant>

#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

bool present(const ir::Operation& op, std::size_t i) { return op.inputs.size() > i && !op.inputs[i].empty(); }

bool zeros_or_absent(const ir::Graph& g, const ir::Operation& op, std::size_t i) {
  if (!present(op, i)) return true;
  const auto v = f32_values(g, op.inputs[i]);
  return v && std::all_of(v->begin(), v->end(), [](float x) { return x == 0.f; });
}

bool used(const ir::Graph& g, const std::string& name) {
  if (name.empty()) return false;
  if (std::find(g.outputs.begin(), g.outputs.end(), name) != g.outputs.end()) return true;
  for (const auto& o : g.ops)
    if (std::find(o.inputs.begin(), o.inputs.end(), name) != o.inputs.end()) return true;
  return false;
}

}  // namespace

std::string tflite_sequence_lstm_refusal(const ir::Graph& g, const ir::Operation& op) {
  if (op.kind != ir::OpKind::LSTM) return "not an LSTM";
  const ir::Tensor* x = op.inputs.empty() ? nullptr : g.find_tensor(op.inputs[0]);
  if (!x || x->dtype != ir::DType::Float32 || x->quant || !x->shape.rank_known || x->shape.rank() != 3 || !x->shape.is_static())
    return "TFLite's sequence LSTM needs a float input of static shape";
  if (op.inputs.size() < 3 || !f32_values(g, op.inputs[1]) || !f32_values(g, op.inputs[2]))
    return "TFLite's sequence LSTM needs constant float weights";
  const ir::Tensor* r = g.find_tensor(op.inputs[2]);
  if (!r || !r->shape.is_static() || r->shape.rank() != 3) return "recurrence weight of unknown shape";
  if (present(op, 3) && !f32_values(g, op.inputs[3])) return "a non-constant bias";
  if (present(op, 7) && !f32_values(g, op.inputs[7])) return "non-constant peepholes";
  if (op.attr("activations") || op.attr("activation_alpha") || op.attr("activation_beta")) {
    // explicit defaults are fine
    const auto* a = op.attr("activations");
    const auto* list = a ? std::get_if<std::vector<std::string>>(a) : nullptr;
    const std::vector<std::string> acts = list ? *list : std::vector<std::string>{};
    for (std::size_t i = 0; i < acts.size(); ++i)
      if (acts[i] != (i % 3 == 0 ? "Sigmoid" : "Tanh")) return "activations other than sigmoid/tanh/tanh";
    if (op.attr("activation_alpha") || op.attr("activation_beta")) return "activation alpha/beta";
  }
  if (op.attr("clip")) return "clip on the gates' inputs (TFLite clips the cell state)";
  if (op.attr_int("input_forget", 0) != 0) return "input_forget (coupled gates)";
  if (present(op, 4)) {
    const ir::Tensor* sl = g.find_tensor(op.inputs[4]);
    const auto xs = x->shape.sizes();
    const std::int64_t T = op.attr_int("layout", 0) ? xs[1] : xs[0];
    if (!sl || !sl->is_constant() || (sl->dtype != ir::DType::Int32 && sl->dtype != ir::DType::Int64))
      return "sequence_lens that are not constant";
    for (std::size_t i = 0; i < sl->data->size() / ir::dtype_size(sl->dtype); ++i) {
      const std::int64_t v = sl->dtype == ir::DType::Int32 ? sl->data->as<std::int32_t>()[i] : sl->data->as<std::int64_t>()[i];
      if (v != T) return "sequence_lens shorter than the sequence";
    }
  }
  if (!zeros_or_absent(g, op, 5) || !zeros_or_absent(g, op, 6))
    return "initial states other than zero (TFLite's states are variable tensors that start at zero)";
  if (op.outputs.size() > 2 && used(g, op.outputs[2])) return "the last cell state Y_c is used (not an output of TFLite's op)";
  return {};
}

std::size_t recurrent_unless_sequence_op(ir::Graph& g, std::size_t index, std::string* why) {
  if (g.ops[index].kind == ir::OpKind::LSTM && tflite_sequence_lstm_refusal(g, g.ops[index]).empty()) return 0;
  return recurrent(g, index, why);
}

}  // namespace ec::passes::decompose
