#include "core/backends/coral/op_rules.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ec::backends::coral {
namespace {

constexpr std::string_view kModelsIntro = "coral.ai/docs/edgetpu/models-intro#supported-operations";
constexpr std::string_view kModelReqs = "coral.ai/docs/edgetpu/models-intro#model-requirements";

constexpr SupportedOp kSupported[] = {
    {"ADD", "1.0", "none", kModelsIntro}, {"SUB", "1.0", "none", kModelsIntro},
    {"MUL", "1.0", "none", kModelsIntro}, {"MAXIMUM", "1.0", "none", kModelsIntro},
    {"MINIMUM", "1.0", "none", kModelsIntro}, {"LOGISTIC", "1.0", "none", kModelsIntro},
    {"TANH", "1.0", "none", kModelsIntro}, {"RELU", "1.0", "none", kModelsIntro},
    {"RELU6", "1.0", "none", kModelsIntro}, {"RELU_N1_TO_1", "1.0", "none", kModelsIntro},
    {"L2_NORMALIZATION", "1.0", "none", kModelsIntro}, {"SLICE", "1.0", "none", kModelsIntro},
    {"SPACE_TO_DEPTH", "1.0", "none", kModelsIntro},
    {"AVERAGE_POOL_2D", "1.0", "No fused activation function.", kModelsIntro},
    {"MAX_POOL_2D", "1.0", "No fused activation function.", kModelsIntro},
    {"CONCATENATION", "1.0",
     "No fused activation function. If any input is a compile-time constant tensor, there must be only 2 inputs, "
     "and this constant tensor must be all zeros (effectively, a zero-padding op).", kModelsIntro},
    {"CONV_2D", "1.0", "Must use the same dilation in x and y dimensions.", kModelsIntro},
    {"DEPTHWISE_CONV_2D", "1.0", "Must use the same dilation in x and y dimensions.", kModelsIntro},
    {"FULLY_CONNECTED", "1.0", "Only the default format is supported for fully-connected weights. Output tensor is one-dimensional.", kModelsIntro},
    {"MEAN", "1.0", "No reduction in batch dimension. If a z-reduction, the z-dimension must be multiple of 4.", kModelsIntro},
    {"PAD", "1.0", "No padding in batch dimension.", kModelsIntro},
    {"RESHAPE", "1.0", "Certain reshapes might not be mapped for large tensor sizes.", kModelsIntro},
    {"RESIZE_BILINEAR", "1.0", "Input/output is a 3-dimensional tensor. Depending on input/output size, this operation might not be mapped to the Edge TPU to avoid loss in precision.", kModelsIntro},
    {"RESIZE_NEAREST_NEIGHBOR", "1.0", "Input/output is a 3-dimensional tensor. Depending on input/output size, this operation might not be mapped to the Edge TPU to avoid loss in precision.", kModelsIntro},
    {"SOFTMAX", "1.0", "Supports only 1D input tensor with a max of 16,000 elements.", "2019 copy of models-intro (edgetpu.md §1, O)"},
    {"SQUEEZE", "1.0", "Supported only when input tensor dimensions that have leading 1s (that is, no relayout needed).", "2019 copy of models-intro (edgetpu.md §1, O)"},
    {"STRIDED_SLICE", "1.0", "Supported only when all strides are equal to 1 (that is, effectively a Stride op), and with ellipsis-axis-mask == 0, and new-axis-max == 0.", "2019 copy of models-intro (edgetpu.md §1, O)"},
    {"SPLIT", "1.0", "none (2019); current unconfirmed", "2019 copy of models-intro"},
    {"EXPAND_DIMS", "2.0.291256449", "none", "models-intro; google-coral/edgetpu CHANGES.md"},
    {"QUANTIZE", "2.0.291256449", "none", "models-intro; google-coral/edgetpu CHANGES.md"},
    {"PACK", "2.0.291256449", "No packing in batch dimension.", "models-intro; CHANGES.md"},
    {"SUM", "2.0.291256449", "unconfirmed", "google-coral/edgetpu CHANGES.md"},
    {"TRANSPOSE_CONV", "2.0.291256449", "unconfirmed", "google-coral/edgetpu CHANGES.md, #684"},
    {"PRELU", "unconfirmed", "Alpha must be 1-dimensional (only the innermost dimension can be >1 size).", "developer.axis.com supported-ops copy; #597"},
    {"LSTM", "unconfirmed", "Unidirectional LSTM only.", "developer.axis.com supported-ops copy"},
    {"REDUCE_MAX", "unconfirmed", "Cannot operate on the batch dimension.", "developer.axis.com supported-ops copy"},
    {"REDUCE_MIN", "unconfirmed", "Cannot operate on the batch dimension.", "developer.axis.com supported-ops copy"},
    {"RSQRT", "unconfirmed", "unconfirmed", "2024 copy of the table; #461"},
    {"SQUARED_DIFFERENCE", "unconfirmed", "unconfirmed", "2024 copy of the table; #461"},
    {"TRANSPOSE", "16", "unconfirmed; 5-D not supported (#274)", "google-coral/edgetpu #193, #242, #274"},
};

const ir::Tensor* tensor(const ir::Graph& g, const std::string& n) { return n.empty() ? nullptr : g.find_tensor(n); }

bool is_8bit(ir::DType d) { return d == ir::DType::Int8 || d == ir::DType::UInt8; }

std::string shape_str(const ir::Tensor& t) { return t.shape.to_string(); }

// Activation tensors of the op: non-constant inputs and outputs.
std::vector<const ir::Tensor*> activations(const UnitView& u) {
  std::vector<const ir::Tensor*> v;
  for (const auto& n : u.op.inputs)
    if (const auto* t = tensor(u.graph, n); t && !t->is_constant()) v.push_back(t);
  for (const auto& n : u.op.outputs)
    if (const auto* t = tensor(u.graph, n)) v.push_back(t);
  return v;
}

std::vector<std::int64_t> static_sizes(const ir::Tensor& t) {
  return t.shape.is_static() ? t.shape.sizes() : std::vector<std::int64_t>{};
}

// Whether only the innermost dim of `t` is > 1 (a "1-D" tensor to the Edge TPU).
bool effectively_1d(const ir::Tensor& t) {
  const auto s = static_sizes(t);
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] > 1) return false;
  return true;
}

// ---- model-wide rules (edgetpu.md §2)

std::optional<Message> check_known_op(const UnitView& u) {
  if (u.op.kind == ir::OpKind::QuantizeLinear || u.op.kind == ir::OpKind::DequantizeLinear) return std::nullopt;
  if (find_supported_op(u.tflite_op)) return std::nullopt;
  std::string r = u.tflite_op + " is not in the Edge TPU's supported-operation table";
  if (u.tflite_op == "HARD_SWISH")
    return message("coral.rule.hard_swish", {u.tflite_op},
                   r + " (google-coral/edgetpu #353, #272); rewrite it as x * relu6(x + 3) / 6 (the registered override does)");
  if (u.tflite_op == "LEAKY_RELU")
    return message("coral.rule.leaky_relu", {u.tflite_op},
                   r + " (#597); rewrite it as max(x, alpha * x) (the registered override does)");
  if (u.op.kind == ir::OpKind::Unknown)
    return message("coral.rule.custom_op", {u.tflite_op, u.op.op_type},
                   r + " (custom op '" + u.op.op_type + "'); it runs on the CPU; move it to the end of the model or replace it by supported ops");
  return message("coral.rule.op_unsupported", {u.tflite_op, u.op.op_type},
                 r + "; replace it by supported ops or register an override for " + u.op.op_type);
}

std::optional<Message> check_static_shapes(const UnitView& u) {
  for (const auto* t : activations(u))
    if (!t->shape.is_static())
      return message("coral.rule.dynamic_shape", {t->name, shape_str(*t)},
                     "tensor '" + t->name + "' has shape " + shape_str(*t) +
                         ": the Edge TPU needs sizes constant at compile time; export with fixed input sizes (batch 1)");
  return std::nullopt;
}

std::optional<Message> check_8bit(const UnitView& u) {
  if (u.op.kind == ir::OpKind::DequantizeLinear)
    return message("coral.rule.dequantize", {u.op.outputs.at(0)},
                   "DEQUANTIZE writes float tensor '" + u.op.outputs.at(0) +
                       "': the Edge TPU computes only 8-bit tensors; keep it at the model's end (it runs on the CPU) or give the model int8 outputs (compile writes int8 I/O for the models it quantises)");
  for (const auto* t : activations(u)) {
    if (u.op.kind == ir::OpKind::QuantizeLinear && t->name == u.op.inputs.at(0)) continue;  // float input of QUANTIZE
    if (u.op.kind == ir::OpKind::ArgMax || u.op.kind == ir::OpKind::ArgMin) continue;
    if (!is_8bit(t->dtype) || !t->quant)
      return message(t->quant ? "coral.rule.tensor_not_8bit" : "coral.rule.tensor_not_quantised",
                     {t->name, std::string(ir::dtype_name(t->dtype))},
                     "tensor '" + t->name + "' is " + std::string(ir::dtype_name(t->dtype)) +
                         (t->quant ? "" : " without quantisation params") +
                         ": the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model's edge");
  }
  // parameters: weights 8-bit, biases int32
  for (std::size_t i = 1; i < u.op.inputs.size(); ++i) {
    const auto* t = tensor(u.graph, u.op.inputs[i]);
    if (!t || !t->is_constant()) continue;
    const bool is_bias = i == 2 && (u.op.kind == ir::OpKind::Conv || u.op.kind == ir::OpKind::FullyConnected ||
                                    u.op.kind == ir::OpKind::Gemm || u.op.kind == ir::OpKind::ConvTranspose);
    if (is_bias && t->dtype == ir::DType::Int32) continue;
    if (t->dtype == ir::DType::Float32 && !is_bias &&
        (u.op.kind == ir::OpKind::Conv || u.op.kind == ir::OpKind::FullyConnected || u.op.kind == ir::OpKind::Gemm ||
         u.op.kind == ir::OpKind::MatMul || u.op.kind == ir::OpKind::Add || u.op.kind == ir::OpKind::Mul ||
         u.op.kind == ir::OpKind::Sub || u.op.kind == ir::OpKind::PRelu))
      return message("coral.rule.parameter_f32", {t->name},
                     "parameter '" + t->name + "' is f32: the Edge TPU needs 8-bit quantised parameters; quantise the model");
  }
  return std::nullopt;
}

std::optional<Message> check_rank(const UnitView& u) {
  for (const auto* t : activations(u)) {
    const auto s = static_sizes(*t);
    for (std::size_t i = 0; i + 3 < s.size(); ++i)
      if (s[i] > 1)
        return message("coral.rule.rank", {t->name, shape_str(*t), std::to_string(i), std::to_string(s[i])},
                       "tensor '" + t->name + "' has shape " + shape_str(*t) + ": dim " + std::to_string(i) + " (size " +
                           std::to_string(s[i]) + ") is outside the 3 innermost dims; only those may be > 1 (use batch 1, fold the extra dim)");
  }
  return std::nullopt;
}

// ---- per-op limits (edgetpu.md §1)

std::optional<Message> check_no_fused_activation(const UnitView& u) {
  if (u.has_fused_activation)
    return message("coral.rule.fused_activation", {u.tflite_op},
                   u.tflite_op + " has a fused activation function; the Edge TPU maps it only without one (apply the activation as a separate op)");
  return std::nullopt;
}

std::optional<Message> check_concat_constants(const UnitView& u) {
  int constants = 0;
  for (const auto& n : u.op.inputs) {
    const auto* t = tensor(u.graph, n);
    if (!t || !t->is_constant()) continue;
    ++constants;
    const auto* b = t->data->data();
    if (std::any_of(b, b + t->data->size(), [&](std::byte x) {
          return t->quant ? std::to_integer<std::int64_t>(x) != (t->quant->zero_points.empty() ? 0 : (t->quant->zero_points[0] & 0xff))
                          : x != std::byte{0};
        }))
      return message("coral.rule.concat_nonzero_constant", {t->name},
                     "constant input '" + t->name + "' is not all zeros; a constant CONCATENATION input must be a zero pad");
  }
  if (constants && u.op.inputs.size() != 2)
    return message("coral.rule.concat_constant_inputs", {std::to_string(u.op.inputs.size())},
                   "a constant input needs exactly 2 inputs (it has " + std::to_string(u.op.inputs.size()) + ")");
  return std::nullopt;
}

std::optional<Message> check_same_dilation(const UnitView& u) {
  const auto d = u.op.attr_ints("dilations");
  if (d.size() == 2 && d[0] != d[1])
    return message("coral.rule.dilation", {std::to_string(d[0]), std::to_string(d[1])},
                   "dilations are " + std::to_string(d[0]) + " (y) and " + std::to_string(d[1]) + " (x); use the same dilation in both");
  return std::nullopt;
}

std::optional<Message> check_no_groups(const UnitView& u) {
  const std::int64_t g = u.op.attr_int("group", 1);
  if (g > 1)
    return message("coral.rule.groups", {std::to_string(g)},
                   "a convolution in " + std::to_string(g) + " groups; the Edge TPU compiler (2021) predates TFLite's grouped "
                   "CONV_2D: write one CONV_2D per group (the grouped_conv_per_group override)");
  return std::nullopt;
}

std::optional<Message> check_output_1d(const UnitView& u) {
  const auto* y = tensor(u.graph, u.op.outputs.at(0));
  if (y && !effectively_1d(*y))
    return message("coral.rule.output_not_1d", {y->name, shape_str(*y)},
                   "output '" + y->name + "' has shape " + shape_str(*y) + "; the output must be one-dimensional (only the innermost dim > 1)");
  return std::nullopt;
}

std::optional<Message> check_softmax(const UnitView& u) {
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  if (!x) return std::nullopt;
  if (!effectively_1d(*x))
    return message("coral.rule.softmax_not_1d", {x->name, shape_str(*x)},
                   "input '" + x->name + "' has shape " + shape_str(*x) + "; SOFTMAX maps only a 1-D input (only the innermost dim > 1)");
  if (auto n = x->num_elements(); n && *n > 16000)
    return message("coral.rule.softmax_size", {std::to_string(*n)},
                   "input has " + std::to_string(*n) + " elements; SOFTMAX maps at most 16,000");
  return std::nullopt;
}

// Axes of a reduction normalised to [0, rank).
std::vector<std::int64_t> reduce_axes(const UnitView& u, std::size_t rank) {
  auto axes = u.op.attr_ints("axes");
  if (u.op.kind == ir::OpKind::GlobalAveragePool || u.op.kind == ir::OpKind::GlobalMaxPool) {
    // written as MEAN / REDUCE_MAX over the spatial axes of its layout
    const bool nhwc = u.op.attr_string("layout", "NCHW") == "NHWC";
    axes.clear();
    for (std::size_t a = nhwc ? 1 : 2; a < (nhwc ? rank - 1 : rank); ++a) axes.push_back(static_cast<std::int64_t>(a));
    return axes;
  }
  if (axes.empty())
    for (std::size_t i = 0; i < rank; ++i) axes.push_back(static_cast<std::int64_t>(i));
  for (auto& a : axes)
    if (a < 0) a += static_cast<std::int64_t>(rank);
  return axes;
}

std::optional<Message> check_no_batch_reduction(const UnitView& u) {
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  if (!x || x->shape.rank() < 2) return std::nullopt;
  for (auto a : reduce_axes(u, x->shape.rank()))
    if (a == 0)
      return message("coral.rule.reduce_batch", {}, "reduces over the batch dimension (axis 0); reduce over the other axes only");
  return std::nullopt;
}

std::optional<Message> check_mean_z(const UnitView& u) {
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  if (!x || x->shape.rank() < 2 || !x->shape.is_static()) return std::nullopt;
  const auto s = x->shape.sizes();
  const auto z = static_cast<std::int64_t>(s.size()) - 1;
  for (auto a : reduce_axes(u, s.size()))
    if (a == z && s.back() % 4 != 0)
      return message("coral.rule.mean_z", {std::to_string(s.back())},
                     "reduces the z (innermost) dimension of size " + std::to_string(s.back()) + ", which is not a multiple of 4");
  return std::nullopt;
}

std::optional<Message> check_pad_batch(const UnitView& u) {
  if (u.op.inputs.size() < 2) return std::nullopt;
  const auto* p = tensor(u.graph, u.op.inputs[1]);
  if (!p || !p->is_constant() || p->dtype != ir::DType::Int64) return std::nullopt;
  const auto n = p->data->size() / sizeof(std::int64_t);
  std::vector<std::int64_t> v(n);
  std::memcpy(v.data(), p->data->data(), n * sizeof(std::int64_t));
  if (n >= 2 && (v[0] != 0 || v[n / 2] != 0))
    return message("coral.rule.pad_batch", {}, "pads the batch dimension; pad only the other dimensions");
  return std::nullopt;
}

// Our inference (unconfirmed): the compiler maps a resize only with a whole-number
// scale; with align_corners the scale is (out - 1) / (in - 1), which needs in > 1.
// Checked against deeplabv3 (1x1 -> 33x33 align_corners stays on the CPU).
std::optional<Message> check_resize(const UnitView& u) {
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  const auto* y = tensor(u.graph, u.op.outputs.at(0));
  if (!x || !y || x->shape.rank() != 4 || y->shape.rank() != 4 || !x->shape.is_static() || !y->shape.is_static())
    return std::nullopt;
  if (x->shape.sizes()[0] != 1)
    return message("coral.rule.resize_batch", {std::to_string(x->shape.sizes()[0])},
                   "batch " + std::to_string(x->shape.sizes()[0]) + ": input/output must be 3-dimensional (batch 1)");
  const auto xs = x->shape.sizes(), ys = y->shape.sizes();
  const bool nhwc = xs[3] == ys[3];  // channels kept: NHWC (TFLite) unless dim 1 is the channel dim
  const bool align = u.op.attr_string("coordinate_transformation_mode", "") == "align_corners";
  for (int d : {1, 2}) {
    const std::int64_t in = xs[static_cast<std::size_t>(nhwc ? d : d + 1)], out = ys[static_cast<std::size_t>(nhwc ? d : d + 1)];
    if (align) {
      if (in <= 1 && out > 1)
        return message("coral.rule.resize_align_one_pixel", {std::to_string(in), std::to_string(out)},
                       "resizes " + std::to_string(in) + " -> " + std::to_string(out) +
                           " with align_corners: a 1-pixel input has no corner-aligned scale (loss in precision); use a broadcast (e.g. TILE on CPU) or align_corners=false");
      if (in > 1 && (out - 1) % (in - 1) != 0)
        return message("coral.rule.resize_align_scale", {std::to_string(in), std::to_string(out)},
                       "resizes " + std::to_string(in) + " -> " + std::to_string(out) +
                           " with align_corners: (out-1)/(in-1) is not a whole number (loss in precision); pick sizes with a whole scale");
    } else if (out % in != 0 && in % out != 0) {
      return message("coral.rule.resize_scale", {std::to_string(in), std::to_string(out)},
                     "resizes " + std::to_string(in) + " -> " + std::to_string(out) + ": not a whole scale factor (loss in precision)");
    }
  }
  return std::nullopt;
}

std::optional<Message> check_strided_slice(const UnitView& u) {
  if (u.op.inputs.size() < 5) return std::nullopt;
  const auto* s = tensor(u.graph, u.op.inputs[4]);
  if (!s || !s->is_constant() || s->dtype != ir::DType::Int64) return std::nullopt;
  const auto n = s->data->size() / sizeof(std::int64_t);
  std::vector<std::int64_t> v(n);
  std::memcpy(v.data(), s->data->data(), n * sizeof(std::int64_t));
  for (auto k : v)
    if (k != 1)
      return message("coral.rule.strided_slice", {std::to_string(k)},
                     "a stride is " + std::to_string(k) + "; STRIDED_SLICE maps only with all strides 1");
  return std::nullopt;
}

std::optional<Message> check_squeeze(const UnitView& u) {
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  if (!x || !x->shape.is_static() || u.op.inputs.size() < 2) return std::nullopt;
  const auto* a = tensor(u.graph, u.op.inputs[1]);
  if (!a || !a->is_constant() || a->dtype != ir::DType::Int64) return std::nullopt;
  const auto s = x->shape.sizes();
  std::size_t leading = 0;
  while (leading < s.size() && s[leading] == 1) ++leading;
  const auto n = a->data->size() / sizeof(std::int64_t);
  std::vector<std::int64_t> v(n);
  std::memcpy(v.data(), a->data->data(), n * sizeof(std::int64_t));
  for (auto k : v) {
    if (k < 0) k += static_cast<std::int64_t>(s.size());
    if (static_cast<std::size_t>(k) >= leading)
      return message("coral.rule.squeeze", {std::to_string(k), shape_str(*x)},
                     "squeezes axis " + std::to_string(k) + " after a dim > 1 of " + shape_str(*x) + " (needs a relayout); squeeze only leading 1s");
  }
  return std::nullopt;
}

std::optional<Message> check_prelu_alpha(const UnitView& u) {
  const auto* a = tensor(u.graph, u.op.inputs.at(1));
  if (a && !effectively_1d(*a))
    return message("coral.rule.prelu_alpha", {a->name, shape_str(*a)},
                   "alpha '" + a->name + "' has shape " + shape_str(*a) + "; alpha must be 1-dimensional (Keras: shared_axes=[1,2])");
  return std::nullopt;
}

std::optional<Message> check_transpose_rank(const UnitView& u) {
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  if (x && x->shape.rank() > 4)
    return message("coral.rule.transpose_rank", {std::to_string(x->shape.rank())},
                   "a " + std::to_string(x->shape.rank()) + "-D TRANSPOSE is not supported (#274); use at most 4-D");
  return std::nullopt;
}

std::optional<Message> check_clip_bounds(const UnitView& u) {
  if (u.op.kind != ir::OpKind::Clip) return std::nullopt;
  auto bound = [&](std::size_t i, float& v) {
    const auto* t = i < u.op.inputs.size() ? tensor(u.graph, u.op.inputs[i]) : nullptr;
    if (!t || !t->is_constant() || t->dtype != ir::DType::Float32 || t->data->size() != 4) return false;
    std::memcpy(&v, t->data->data(), 4);
    return true;
  };
  float lo = 0, hi = 0;
  const bool has_lo = bound(1, lo), has_hi = bound(2, hi);
  if (has_lo && has_hi && ((lo == 0.f && hi == 6.f) || (lo == -1.f && hi == 1.f))) return std::nullopt;
  if (has_lo && !has_hi && lo == 0.f) return std::nullopt;  // RELU
  return message("coral.rule.clip_bounds", {},
                 "Clip with bounds other than [0, 6], [-1, 1] or [0, inf) has no TFLite op the Edge TPU maps (RELU6, RELU_N1_TO_1, RELU)");
}

std::optional<Message> check_quantize(const UnitView& u) {
  if (u.op.kind != ir::OpKind::QuantizeLinear) return std::nullopt;
  const auto* x = tensor(u.graph, u.op.inputs.at(0));
  if (x && !is_8bit(x->dtype))
    return message("coral.rule.quantize_float", {std::string(ir::dtype_name(x->dtype)), x->name},
                   "QUANTIZE reads " + std::string(ir::dtype_name(x->dtype)) + " tensor '" + x->name +
                       "': float -> 8-bit conversion runs on the CPU (a leading QUANTIZE does not split the model)");
  return std::nullopt;
}

constexpr Rule kRules[] = {
    {"op.supported", "*", "The model uses only the operations supported by the Edge TPU", kModelsIntro, kNotSupported, check_known_op},
    {"quantize.float_input", "QUANTIZE", "Only 8-bit tensors are mapped; a float->int8 QUANTIZE stays on the CPU",
     "google-coral/edgetpu #461, nrf20 log (edgetpu.md §3 E)", kUnspecified, check_quantize},
    {"model.static_shapes", "*", "Tensor sizes are constant at compile-time (no dynamic sizes)", kModelReqs, kUnspecified, check_static_shapes},
    {"model.8bit", "*", "Tensor parameters are quantized (8-bit fixed-point numbers)", kModelReqs, kUnsupportedDataType, check_8bit},
    {"relu.bounds", "RELU6", "Clip maps as RELU6 / RELU_N1_TO_1 / RELU only", "TFLite builtin ops (tflite_schema.fbs)", kNotSupported, check_clip_bounds},
    {"pool.no_fused_activation", "AVERAGE_POOL_2D", "No fused activation function.", kModelsIntro, kUnspecified, check_no_fused_activation},
    {"pool.no_fused_activation", "MAX_POOL_2D", "No fused activation function.", kModelsIntro, kUnspecified, check_no_fused_activation},
    {"concat.no_fused_activation", "CONCATENATION", "No fused activation function.", kModelsIntro, kUnspecified, check_no_fused_activation},
    {"concat.constant_zero_pad", "CONCATENATION", "A constant input: only 2 inputs and all zeros", kModelsIntro, kUnspecified, check_concat_constants},
    {"conv.same_dilation", "CONV_2D", "Must use the same dilation in x and y dimensions.", kModelsIntro, kUnspecified, check_same_dilation},
    {"conv.no_groups", "CONV_2D",
     "No groups: grouped CONV_2D arrived in TFLite 2.9 (2022), after edgetpu_compiler 16 (2021) (inferred, unconfirmed)",
     "TFLite conv.cc history; edgetpu_compiler release notes", kNotSupported, check_no_groups},
    {"conv.same_dilation", "DEPTHWISE_CONV_2D", "Must use the same dilation in x and y dimensions.", kModelsIntro, kUnspecified, check_same_dilation},
    {"fc.output_1d", "FULLY_CONNECTED", "Output tensor is one-dimensional.", kModelsIntro,
     "For example, a fully-connected or softmax layer with 2D output", check_output_1d},
    {"mean.no_batch", "MEAN", "No reduction in batch dimension.", kModelsIntro, kUnspecified, check_no_batch_reduction},
    {"mean.z_multiple_of_4", "MEAN", "If a z-reduction, the z-dimension must be multiple of 4.", kModelsIntro, kUnspecified, check_mean_z},
    {"reduce.no_batch", "REDUCE_MAX", "Cannot operate on the batch dimension.", "developer.axis.com copy", kUnspecified, check_no_batch_reduction},
    {"reduce.no_batch", "REDUCE_MIN", "Cannot operate on the batch dimension.", "developer.axis.com copy", kUnspecified, check_no_batch_reduction},
    {"pad.no_batch", "PAD", "No padding in batch dimension.", kModelsIntro, kUnspecified, check_pad_batch},
    {"resize.whole_scale", "RESIZE_BILINEAR",
     "Depending on input/output size, not mapped to avoid loss in precision (ours: whole-number scale; align_corners needs input > 1; inferred from deeplabv3, unconfirmed)",
     "models-intro; #597; testdata deeplabv3 pair", kUnspecified, check_resize},
    {"resize.whole_scale", "RESIZE_NEAREST_NEIGHBOR", "as RESIZE_BILINEAR (inferred, unconfirmed)", "models-intro; #597", kUnspecified, check_resize},
    {"softmax.1d_16000", "SOFTMAX", "Supports only 1D input tensor with a max of 16,000 elements.", "2019 models-intro copy",
     "For example, a fully-connected or softmax layer with 2D output", check_softmax},
    {"strided_slice.unit_strides", "STRIDED_SLICE", "All strides equal to 1", "2019 models-intro copy", kUnspecified, check_strided_slice},
    {"squeeze.leading_ones", "SQUEEZE", "Only leading 1s (no relayout)", "2019 models-intro copy", kUnspecified, check_squeeze},
    {"prelu.alpha_1d", "PRELU", "Alpha must be 1-dimensional", "developer.axis.com copy; #597", kUnspecified, check_prelu_alpha},
    {"transpose.max_4d", "TRANSPOSE", "5-D not supported", "google-coral/edgetpu #274", kUnspecified, check_transpose_rank},
    // last: a per-op limit names the more specific cause
    {"model.rank", "*", "If a tensor has more than 3 dimensions, then only the 3 innermost dimensions may have a size greater than 1",
     "models-intro, quoted in google-coral/edgetpu #121", kUnsupportedRank, check_rank},
};

}  // namespace

std::span<const SupportedOp> supported_ops() { return kSupported; }

const SupportedOp* find_supported_op(std::string_view tflite_op) {
  for (const auto& s : kSupported)
    if (s.tflite_op == tflite_op) return &s;
  return nullptr;
}

std::span<const Rule> rules() { return kRules; }

RuleVerdict check_unit(const UnitView& u) {
  for (const auto& r : kRules) {
    if (r.applies_to != "*" && r.applies_to != u.tflite_op) continue;
    if (auto failed = r.check(u))
      return {false, std::string(r.status), failed->text + " [rule " + std::string(r.id) + ", " + std::string(r.source) + "]",
              std::string(r.id), std::move(*failed)};
  }
  return {true, std::string(kMapped), "every rule holds", "", message("coral.rule.all_hold", {}, "every rule holds")};
}

}  // namespace ec::backends::coral
