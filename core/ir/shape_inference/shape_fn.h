// What a shape function sees and writes: the inputs' shapes, dtypes and
// (where known) integer contents, and the outputs' inferred shapes. One file
// per op family implements the functions declared at the bottom; the table
// mapping OpKind to them is core/ir/shape_inference.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace ec::ir::shape_inference {

/// One element of a small integer tensor whose contents are tracked: a number
/// (any sign), a symbolic dim read by a Shape op ("batch"), or unknown.
struct Scalar {
  std::optional<std::int64_t> v;
  std::string symbol;
  static Scalar of(std::int64_t x) { return Scalar{x, {}}; }
  static Scalar from_dim(const Dim& d) {
    return d.is_static() ? of(d.value) : Scalar{std::nullopt, d.symbol};
  }
  /// As a dim: negative numbers are not dims (unknown).
  Dim to_dim() const {
    if (v) return *v >= 0 ? Dim::fixed(*v) : Dim::unknown();
    return symbol.empty() ? Dim::unknown() : Dim::named(symbol);
  }
  bool operator==(const Scalar&) const = default;
};
/// Known contents of a small integer tensor, flattened.
using Value = std::vector<Scalar>;

struct InputView {
  const Tensor* tensor = nullptr;  // nullptr: absent ("") or not in the graph
  const Shape* shape = nullptr;    // current shape (may come from this run)
  DType dtype = DType::Undefined;
  const Value* value = nullptr;    // known contents, if any
};

class InferContext {
 public:
  InferContext(const Operation& op, std::vector<InputView> inputs)
      : op_(op), in_(std::move(inputs)), shapes_(op.outputs.size(), Shape::unknown_rank()),
        dtypes_(op.outputs.size(), DType::Undefined), values_(op.outputs.size()) {}

  const Operation& op() const { return op_; }
  std::size_t num_inputs() const { return in_.size(); }
  bool has(std::size_t i) const { return i < in_.size() && in_[i].shape; }
  /// Input i's shape; unknown rank when absent.
  const Shape& shape(std::size_t i) const;
  DType dtype(std::size_t i) const { return i < in_.size() ? in_[i].dtype : DType::Undefined; }
  /// Input i's contents when known (constant or tracked), else nullptr.
  const Value* value(std::size_t i) const { return i < in_.size() ? in_[i].value : nullptr; }
  /// Input i's contents when known and all static.
  std::optional<std::vector<std::int64_t>> ints(std::size_t i) const;
  /// Input i's contents as doubles when it is a small float or integer constant.
  std::optional<std::vector<double>> reals(std::size_t i) const;

  std::size_t num_outputs() const { return shapes_.size(); }
  void set(std::size_t i, Shape s, DType t) {
    if (i >= shapes_.size()) return;
    shapes_[i] = std::move(s);
    dtypes_[i] = t;
  }
  void set_dtype(std::size_t i, DType t) {
    if (i < dtypes_.size()) dtypes_[i] = t;
  }
  void set_value(std::size_t i, Value v) {
    if (i < values_.size()) values_[i] = std::move(v);
  }
  /// The op's inputs contradict each other (message: one line, what is wrong).
  void conflict(std::string message) { conflicts_.push_back(std::move(message)); }

  const std::vector<Shape>& out_shapes() const { return shapes_; }
  const std::vector<DType>& out_dtypes() const { return dtypes_; }
  std::vector<std::optional<Value>>& out_values() { return values_; }
  const std::vector<std::string>& conflicts() const { return conflicts_; }

 private:
  const Operation& op_;
  std::vector<InputView> in_;
  std::vector<Shape> shapes_;
  std::vector<DType> dtypes_;
  std::vector<std::optional<Value>> values_;
  std::vector<std::string> conflicts_;
};

using ShapeFn = void (*)(InferContext&);

// ---- helpers shared by the families (shape_fn.cpp)

/// Normalises a possibly negative axis against `rank`; nullopt when out of range.
std::optional<std::int64_t> norm_axis(std::int64_t axis, std::int64_t rank);
/// numpy broadcasting of two dims; nullopt (with the reason in *why) when they cannot broadcast.
std::optional<Dim> broadcast_dim(const Dim& a, const Dim& b);
/// numpy broadcasting of shapes; unknown rank if any is; conflict reported on ctx.
Shape broadcast(InferContext& ctx, const std::vector<const Shape*>& shapes);
/// Product of dims as a monomial ("4*batch"); unknown when any dim is anonymous.
Dim dim_product(const std::vector<Dim>& dims, std::size_t from, std::size_t to);
/// numpy matmul of two shapes (linear.cpp; also the integer MatMuls).
Shape matmul_shape(InferContext& ctx, const Shape& a, const Shape& b);
/// A shape of `rank` unknown dims.
Shape unknown_dims(std::size_t rank);
/// A symbolic dim as a monomial: coefficient times named dims. Its text form is
/// the dim's symbol: "batch", "4*batch", "batch*seq" (names sorted), so equal
/// products compare equal and batch 1 is the coefficient. Anonymous dims ("?",
/// libonnx's "unk__N") are no monomial.
struct Monomial {
  std::int64_t coef = 1;
  std::vector<std::string> names;  // sorted, repeats allowed
  bool operator==(const Monomial&) const = default;
};
std::optional<Monomial> monomial(const Dim& d);
std::optional<Monomial> monomial(const Scalar& s);
Dim to_dim(const Monomial& m);
Scalar to_scalar(const Monomial& m);
std::optional<Monomial> mono_mul(const Monomial& a, const Monomial& b);
/// a / b when exact (b's names all in a, coefficients divide), else nullopt.
std::optional<Monomial> mono_div(const Monomial& a, const Monomial& b);
/// True for "?" and libonnx's "unk__N": a dim nothing is known about.
bool is_anonymous(const Dim& d);

/// Arithmetic on tracked values: numeric when both are, monomial products and
/// exact quotients of symbols (batch * 4, 4*batch / 4), x+0 and x-0.
Scalar scalar_add(const Scalar& a, const Scalar& b);
Scalar scalar_sub(const Scalar& a, const Scalar& b);
Scalar scalar_mul(const Scalar& a, const Scalar& b);
Scalar scalar_div(const Scalar& a, const Scalar& b);  // integer (floor) division
/// Output dtype named by a string attribute ("f32"), or `fallback`.
DType dtype_attr(const Operation& op, const std::string& key, DType fallback);

// ---- one function per op (group); grouped by the file that defines them

// elementwise.cpp: arithmetic, math, comparison, logic, Where, activations, Clip, softmax family
void infer_broadcast(InferContext&);       // same dtype as input 0, numpy broadcasting of all inputs
void infer_compare(InferContext&);         // broadcasting, bool result
void infer_unary(InferContext&);           // same shape and dtype as input 0
void infer_unary_bool(InferContext&);      // same shape, bool (IsNaN, IsInf, Not)
void infer_where(InferContext&);
// convolution.cpp
void infer_conv(InferContext&);
void infer_conv_transpose(InferContext&);
// pooling.cpp
void infer_pool(InferContext&);
void infer_global_pool(InferContext&);
void infer_max_unpool(InferContext&);
void infer_roi_pool(InferContext&);
// linear.cpp
void infer_gemm(InferContext&);
void infer_matmul(InferContext&);
void infer_fully_connected(InferContext&);
void infer_einsum(InferContext&);
void infer_det(InferContext&);
// normalization.cpp
void infer_batch_norm(InferContext&);
void infer_layer_norm(InferContext&);
// reduction.cpp
void infer_reduce(InferContext&);
void infer_arg_reduce(InferContext&);
void infer_topk(InferContext&);
// data_movement.cpp
void infer_reshape(InferContext&);
void infer_flatten(InferContext&);
void infer_squeeze(InferContext&);
void infer_unsqueeze(InferContext&);
void infer_transpose(InferContext&);
void infer_concat(InferContext&);
void infer_split(InferContext&);
void infer_slice(InferContext&);
void infer_gather(InferContext&);
void infer_gather_nd(InferContext&);
void infer_pad(InferContext&);
void infer_tile(InferContext&);
void infer_expand(InferContext&);
void infer_shape(InferContext&);
void infer_size(InferContext&);
void infer_identity(InferContext&);
void infer_cast(InferContext&);
void infer_cast_like(InferContext&);
void infer_depth_to_space(InferContext&);
void infer_space_to_depth(InferContext&);
void infer_resize(InferContext&);
void infer_compress(InferContext&);
void infer_one_hot(InferContext&);
void infer_non_zero(InferContext&);
void infer_unique(InferContext&);
void infer_eye_like(InferContext&);
void infer_grid_sample(InferContext&);
void infer_center_crop_pad(InferContext&);
// generators.cpp
void infer_constant_of_shape(InferContext&);
void infer_range(InferContext&);
void infer_random(InferContext&);
void infer_random_like(InferContext&);
void infer_multinomial(InferContext&);
// quantization.cpp
void infer_quantize(InferContext&);
void infer_dequantize(InferContext&);
void infer_dynamic_quantize(InferContext&);
void infer_conv_integer(InferContext&);
void infer_qlinear_conv(InferContext&);
void infer_matmul_integer(InferContext&);
void infer_qlinear_matmul(InferContext&);
// recurrent.cpp
void infer_recurrent(InferContext&);  // LSTM, GRU, RNN
// misc.cpp
void infer_dropout(InferContext&);
void infer_nms(InferContext&);
void infer_dft(InferContext&);
void infer_window(InferContext&);

}  // namespace ec::ir::shape_inference
