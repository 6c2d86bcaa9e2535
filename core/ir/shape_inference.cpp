// Shape inference driver and THE table of shape functions (one row per op of
// ops.def that has one; the functions live in shape_inference/<family>.cpp).
#include "core/ir/shape_inference.h"

#include <array>
#include <cstring>
#include <unordered_map>

#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir {
namespace {

using namespace shape_inference;
using K = OpKind;

struct ShapeFnEntry {
  OpKind kind;
  ShapeFn fn;
};

const ShapeFnEntry kShapeFns[] = {
    // convolution and linear algebra
    {K::Conv, &infer_conv},
    {K::ConvTranspose, &infer_conv_transpose},
    {K::ConvInteger, &infer_conv_integer},
    {K::QLinearConv, &infer_qlinear_conv},
    {K::Gemm, &infer_gemm},
    {K::MatMul, &infer_matmul},
    {K::MatMulInteger, &infer_matmul_integer},
    {K::QLinearMatMul, &infer_qlinear_matmul},
    {K::FullyConnected, &infer_fully_connected},
    {K::Einsum, &infer_einsum},
    {K::Det, &infer_det},
    // pooling
    {K::MaxPool, &infer_pool},
    {K::AveragePool, &infer_pool},
    {K::LpPool, &infer_pool},
    {K::GlobalAveragePool, &infer_global_pool},
    {K::GlobalMaxPool, &infer_global_pool},
    {K::GlobalLpPool, &infer_global_pool},
    {K::MaxUnpool, &infer_max_unpool},
    {K::MaxRoiPool, &infer_roi_pool},
    {K::RoiAlign, &infer_roi_pool},
    // normalisation
    {K::BatchNormalization, &infer_batch_norm},
    {K::InstanceNormalization, &infer_unary},
    {K::LayerNormalization, &infer_layer_norm},
    {K::GroupNormalization, &infer_unary},
    {K::LpNormalization, &infer_unary},
    {K::LRN, &infer_unary},
    {K::MeanVarianceNormalization, &infer_unary},
    // activations
    {K::Relu, &infer_unary},
    {K::LeakyRelu, &infer_unary},
    {K::PRelu, &infer_broadcast},
    {K::Elu, &infer_unary},
    {K::Selu, &infer_unary},
    {K::Celu, &infer_unary},
    {K::ThresholdedRelu, &infer_unary},
    {K::Sigmoid, &infer_unary},
    {K::HardSigmoid, &infer_unary},
    {K::HardSwish, &infer_unary},
    {K::Tanh, &infer_unary},
    {K::Softplus, &infer_unary},
    {K::Softsign, &infer_unary},
    {K::Gelu, &infer_unary},
    {K::Mish, &infer_unary},
    {K::Clip, &infer_unary},
    {K::Softmax, &infer_unary},
    {K::LogSoftmax, &infer_unary},
    {K::Hardmax, &infer_unary},
    // element-wise arithmetic
    {K::Add, &infer_broadcast},
    {K::Sub, &infer_broadcast},
    {K::Mul, &infer_broadcast},
    {K::Div, &infer_broadcast},
    {K::Pow, &infer_broadcast},
    {K::Mod, &infer_broadcast},
    {K::Max, &infer_broadcast},
    {K::Min, &infer_broadcast},
    {K::Mean, &infer_broadcast},
    {K::Sum, &infer_broadcast},
    {K::Abs, &infer_unary},
    {K::Neg, &infer_unary},
    {K::Sign, &infer_unary},
    {K::Reciprocal, &infer_unary},
    {K::Sqrt, &infer_unary},
    {K::Exp, &infer_unary},
    {K::Log, &infer_unary},
    {K::Floor, &infer_unary},
    {K::Ceil, &infer_unary},
    {K::Round, &infer_unary},
    {K::Erf, &infer_unary},
    {K::Sin, &infer_unary},
    {K::Cos, &infer_unary},
    {K::Tan, &infer_unary},
    {K::Asin, &infer_unary},
    {K::Acos, &infer_unary},
    {K::Atan, &infer_unary},
    {K::Sinh, &infer_unary},
    {K::Cosh, &infer_unary},
    {K::Asinh, &infer_unary},
    {K::Acosh, &infer_unary},
    {K::Atanh, &infer_unary},
    {K::IsNaN, &infer_unary_bool},
    {K::IsInf, &infer_unary_bool},
    {K::BitShift, &infer_broadcast},
    {K::BitwiseAnd, &infer_broadcast},
    {K::BitwiseOr, &infer_broadcast},
    {K::BitwiseXor, &infer_broadcast},
    {K::BitwiseNot, &infer_unary},
    // comparison and logic
    {K::Equal, &infer_compare},
    {K::Greater, &infer_compare},
    {K::GreaterOrEqual, &infer_compare},
    {K::Less, &infer_compare},
    {K::LessOrEqual, &infer_compare},
    {K::And, &infer_compare},
    {K::Or, &infer_compare},
    {K::Xor, &infer_compare},
    {K::Not, &infer_unary_bool},
    {K::Where, &infer_where},
    // reductions
    {K::ReduceSum, &infer_reduce},
    {K::ReduceMean, &infer_reduce},
    {K::ReduceMax, &infer_reduce},
    {K::ReduceMin, &infer_reduce},
    {K::ReduceProd, &infer_reduce},
    {K::ReduceL1, &infer_reduce},
    {K::ReduceL2, &infer_reduce},
    {K::ReduceLogSum, &infer_reduce},
    {K::ReduceLogSumExp, &infer_reduce},
    {K::ReduceSumSquare, &infer_reduce},
    {K::ArgMax, &infer_arg_reduce},
    {K::ArgMin, &infer_arg_reduce},
    {K::CumSum, &infer_unary},
    {K::TopK, &infer_topk},
    // shape and data movement
    {K::Reshape, &infer_reshape},
    {K::Flatten, &infer_flatten},
    {K::Squeeze, &infer_squeeze},
    {K::Unsqueeze, &infer_unsqueeze},
    {K::Transpose, &infer_transpose},
    {K::Concat, &infer_concat},
    {K::Split, &infer_split},
    {K::Slice, &infer_slice},
    {K::Gather, &infer_gather},
    {K::GatherElements, &infer_gather_nd},
    {K::GatherND, &infer_gather_nd},
    {K::ScatterElements, &infer_unary},
    {K::ScatterND, &infer_unary},
    {K::Pad, &infer_pad},
    {K::Tile, &infer_tile},
    {K::Expand, &infer_expand},
    {K::Shape, &infer_shape},
    {K::Size, &infer_size},
    {K::Identity, &infer_identity},
    {K::Cast, &infer_cast},
    {K::CastLike, &infer_cast_like},
    {K::DepthToSpace, &infer_depth_to_space},
    {K::SpaceToDepth, &infer_space_to_depth},
    {K::Resize, &infer_resize},
    {K::Compress, &infer_compress},
    {K::ReverseSequence, &infer_unary},
    {K::Trilu, &infer_unary},
    {K::OneHot, &infer_one_hot},
    {K::NonZero, &infer_non_zero},
    {K::Unique, &infer_unique},
    {K::EyeLike, &infer_eye_like},
    {K::GridSample, &infer_grid_sample},
    {K::CenterCropPad, &infer_center_crop_pad},
    // generators
    {K::ConstantOfShape, &infer_constant_of_shape},
    {K::Range, &infer_range},
    {K::RandomNormal, &infer_random},
    {K::RandomUniform, &infer_random},
    {K::RandomNormalLike, &infer_random_like},
    {K::RandomUniformLike, &infer_random_like},
    {K::Bernoulli, &infer_random_like},
    {K::Multinomial, &infer_multinomial},
    // quantisation
    {K::QuantizeLinear, &infer_quantize},
    {K::DequantizeLinear, &infer_dequantize},
    {K::DynamicQuantizeLinear, &infer_dynamic_quantize},
    // recurrent
    {K::LSTM, &infer_recurrent},
    {K::GRU, &infer_recurrent},
    {K::RNN, &infer_recurrent},
    // other
    {K::Dropout, &infer_dropout},
    {K::NonMaxSuppression, &infer_nms},
    {K::DFT, &infer_dft},
    {K::HannWindow, &infer_window},
    {K::HammingWindow, &infer_window},
    {K::BlackmanWindow, &infer_window},
};

constexpr std::size_t kNumOps = static_cast<std::size_t>(OpKind::Unknown);

// Table lookup by OpKind, built once from kShapeFns.
const std::array<ShapeFn, kNumOps>& shape_fn_index() {
  static const auto index = [] {
    std::array<ShapeFn, kNumOps> a{};
    for (const auto& e : kShapeFns) a[static_cast<std::size_t>(e.kind)] = e.fn;
    return a;
  }();
  return index;
}

// Tracked contents are limited to small tensors: shape arithmetic, not data.
constexpr std::size_t kMaxTrackedElements = 64;

std::optional<Value> constant_value(const Tensor& t) {
  if (!t.is_constant() || (t.dtype != DType::Int64 && t.dtype != DType::Int32)) return std::nullopt;
  const std::size_t esize = dtype_size(t.dtype);
  const std::size_t n = t.data->size() / esize;
  if (n > kMaxTrackedElements) return std::nullopt;
  if (auto ne = t.num_elements(); ne && static_cast<std::size_t>(*ne) != n) return std::nullopt;
  Value v;
  v.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (t.dtype == DType::Int64) {
      std::int64_t x;
      std::memcpy(&x, t.data->data() + k * 8, 8);
      v.push_back(Scalar::of(x));
    } else {
      std::int32_t x;
      std::memcpy(&x, t.data->data() + k * 4, 4);
      v.push_back(Scalar::of(x));
    }
  }
  return v;
}

bool anonymous(const Dim& d) {
  return !d.is_static() && (d.symbol.empty() || d.symbol.rfind("unk__", 0) == 0);
}

std::string op_label(const Operation& op, std::size_t index) {
  return op.name.empty() ? "#" + std::to_string(index) : op.name;
}

// Merges `inferred` into `declared`; returns true when `declared` gained
// information. A static declared dim is never changed: a different static
// inferred dim is a conflict.
bool merge_shape(Shape& declared, const Shape& inferred, std::string* conflict) {
  if (!inferred.rank_known) return false;
  if (!declared.rank_known) {
    declared = inferred;
    return true;
  }
  if (declared.rank() != inferred.rank()) {
    *conflict = "declared shape " + declared.to_string() + " has rank " +
                std::to_string(declared.rank()) + ", the op's inputs give " + inferred.to_string();
    return false;
  }
  bool changed = false;
  for (std::size_t k = 0; k < declared.rank(); ++k) {
    Dim& d = declared.dims[k];
    const Dim& i = inferred.dims[k];
    if (d.is_static()) {
      if (i.is_static() && i.value != d.value) {
        *conflict = "declared shape " + declared.to_string() + " but the op's inputs give " +
                    inferred.to_string();
        return false;
      }
    } else if (i.is_static() || (anonymous(d) && !anonymous(i))) {
      d = i;
      changed = true;
    }
  }
  return changed;
}

// The walk shared by infer_shapes (apply = true) and check_shapes.
ShapeInferenceResult run(Graph& g, bool apply) {
  ShapeInferenceResult result;
  const auto& fns = shape_fn_index();
  std::unordered_map<std::string, Value> values;  // tracked contents of non-constant tensors
  std::unordered_map<std::string, Value> constants;
  std::unordered_map<std::string, std::pair<Shape, DType>> shadow;  // check mode: inferred, not written
  auto current = [&](const Tensor& t) -> std::pair<const Shape*, DType> {
    if (!apply) {
      auto it = shadow.find(t.name);
      if (it != shadow.end()) return {&it->second.first, it->second.second};
    }
    return {&t.shape, t.dtype};
  };
  for (std::size_t idx = 0; idx < g.ops.size(); ++idx) {
    const Operation& op = g.ops[idx];
    if (!op.is_known()) continue;
    const ShapeFn fn = fns[static_cast<std::size_t>(op.kind)];
    if (!fn) continue;
    std::vector<InputView> in;
    in.reserve(op.inputs.size());
    for (const auto& name : op.inputs) {
      InputView v;
      const Tensor* t = name.empty() ? nullptr : g.find_tensor(name);
      if (t) {
        v.tensor = t;
        auto [s, dt] = current(*t);
        v.shape = s;
        v.dtype = dt;
        if (t->is_constant()) {
          auto it = constants.find(name);
          if (it == constants.end()) {
            if (auto cv = constant_value(*t)) it = constants.emplace(name, std::move(*cv)).first;
          }
          if (it != constants.end()) v.value = &it->second;
        } else if (auto it = values.find(name); it != values.end()) {
          v.value = &it->second;
        }
      }
      in.push_back(v);
    }
    InferContext ctx(op, std::move(in));
    fn(ctx);
    for (const auto& msg : ctx.conflicts()) result.conflicts.push_back({op_label(op, idx), {}, msg});
    for (std::size_t k = 0; k < op.outputs.size(); ++k) {
      if (op.outputs[k].empty()) continue;
      Tensor* t = g.find_tensor(op.outputs[k]);
      if (!t || t->is_constant()) continue;
      Shape shape = t->shape;
      DType dtype = t->dtype;
      if (!apply)
        if (auto it = shadow.find(t->name); it != shadow.end()) std::tie(shape, dtype) = it->second;
      std::string conflict;
      bool changed = merge_shape(shape, ctx.out_shapes()[k], &conflict);
      if (!conflict.empty()) result.conflicts.push_back({op_label(op, idx), t->name, conflict});
      const DType want = ctx.out_dtypes()[k];
      if (want != DType::Undefined) {
        if (dtype == DType::Undefined) {
          dtype = want;
          changed = true;
        } else if (dtype != want) {
          result.conflicts.push_back({op_label(op, idx), t->name,
                                      "declared element type " + std::string(dtype_name(dtype)) +
                                          " but the op's inputs give " + std::string(dtype_name(want))});
        }
      }
      if (changed) {
        ++result.tensors_refined;
        if (apply) {
          t->shape = std::move(shape);
          t->dtype = dtype;
        } else {
          shadow[t->name] = {std::move(shape), dtype};
        }
      }
      auto& v = ctx.out_values()[k];
      if (v && v->size() <= kMaxTrackedElements) values[t->name] = std::move(*v);
    }
  }
  return result;
}

}  // namespace

ShapeInferenceResult infer_shapes(Graph& g) { return run(g, true); }

std::vector<ShapeConflict> check_shapes(const Graph& g) {
  // run() only writes to the graph when apply is true.
  return run(const_cast<Graph&>(g), false).conflicts;
}

}  // namespace ec::ir
