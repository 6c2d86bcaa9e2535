// The op table of the SavedModel frontend: one row per TensorFlow op.
//
// TensorFlow's NHWC ops map to the IR's layout-sensitive ops with layout "NHWC",
// as the TFLite frontend does: Conv weights become OHWI ([O, KH, KW, I]; a
// DepthwiseConv2dNative's [KH, KW, C, M] becomes [C*M, KH, KW, 1] with group C),
// SAME padding becomes explicit pads (the odd pixel after, as TensorFlow pads).
// Shape, StridedSlice and Pack of constants fold to constants here.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "ec_tf/attr_value.pb.h"
#include "core/errors.h"
#include "core/frontends/savedmodel/savedmodel_import.h"
#include "core/ir/excerpt.h"
#include "ec_tf/node_def.pb.h"

namespace ec::frontends::savedmodel {
namespace {

using Ints = std::vector<std::int64_t>;

void require_nhwc(OpContext& c) {
  const std::string f = c.attr_string("data_format", "NHWC");
  if (f != "NHWC")
    c.fail("data_format '" + excerpt(f) + "' is not supported (only NHWC, what TensorFlow's CPU kernels run; "
           "re-export the model with channels-last layers)");
}

// Physically permutes a constant of any element size: out.shape[d] = in.shape[perm[d]].
std::string permute_const(OpContext& c, const std::string& name, const Ints& in_shape, const Ints& perm,
                          const std::string& suffix) {
  const ir::Tensor* t = c.im.tensor(name);
  const std::size_t es = ir::dtype_size(t->dtype);
  const std::size_t rank = in_shape.size();
  Ints out_shape(rank), in_strides(rank, 1);
  for (std::size_t d = rank; d-- > 1;) in_strides[d - 1] = in_strides[d] * in_shape[d];
  std::int64_t numel = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    out_shape[d] = in_shape[static_cast<std::size_t>(perm[d])];
    numel *= out_shape[d];
  }
  if (static_cast<std::size_t>(numel) * es != t->data->size()) c.fail("constant '" + excerpt(name) + "' has the wrong byte size");
  std::vector<std::byte> buf(t->data->size());
  Ints idx(rank, 0);
  for (std::int64_t o = 0; o < numel; ++o) {
    std::int64_t src = 0;
    for (std::size_t d = 0; d < rank; ++d) src += idx[d] * in_strides[static_cast<std::size_t>(perm[d])];
    std::memcpy(&buf[static_cast<std::size_t>(o) * es], t->data->data() + static_cast<std::size_t>(src) * es, es);
    for (std::size_t d = rank; d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return c.im.add_const(name + suffix, t->dtype, out_shape, ir::ConstantData::from_vector(std::move(buf)));
}

const ir::Tensor& const_input(OpContext& c, std::size_t i, std::size_t rank, const std::string& what) {
  const ir::Tensor* t = c.im.tensor(c.input(i));
  if (!t || !t->is_constant()) c.fail(what + " must be a constant (a variable or Const)");
  if (t->shape.rank() != rank || !t->shape.is_static()) c.fail(what + " must be a " + std::to_string(rank) + "-D constant");
  return *t;
}

// TensorFlow's SAME: total = max((ceil(in/s) - 1) * s + (k-1)*d + 1 - in, 0), before = total / 2.
// Empty when the input's height or width is unknown (after an op kept as Unknown): the op
// then says auto_pad SAME_UPPER, the same rule.
Ints spatial_pads(OpContext& c, const std::string& x, std::int64_t kh, std::int64_t kw, std::int64_t sh,
                  std::int64_t sw, std::int64_t dh, std::int64_t dw) {
  if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1) c.fail("has a window, stride or dilation below 1");
  const std::string p = c.attr_string("padding", "VALID");
  if (p == "VALID") return {0, 0, 0, 0};
  if (p == "EXPLICIT") {
    const Ints e = c.attr_ints("explicit_paddings");  // [N0, N1, H0, H1, W0, W1, C0, C1]
    if (e.size() != 8 || e[0] || e[1] || e[6] || e[7]) c.fail("has explicit_paddings that are not 8 values padding H and W only");
    return {e[2], e[4], e[3], e[5]};
  }
  if (p != "SAME") c.fail("has padding '" + excerpt(p) + "' (expected SAME, VALID or EXPLICIT)");
  const ir::Shape& s = c.im.shape_of(x);
  if (!s.rank_known || !s.dims[1].is_static() || !s.dims[2].is_static()) return {};
  if (s.rank() != 4) c.fail("needs a 4-D NHWC input, got " + s.to_string());
  auto same = [](std::int64_t in, std::int64_t k, std::int64_t st, std::int64_t d, std::int64_t& before, std::int64_t& after) {
    const std::int64_t out = (in + st - 1) / st;
    const std::int64_t total = std::max<std::int64_t>((out - 1) * st + (k - 1) * d + 1 - in, 0);
    before = total / 2;
    after = total - before;
  };
  std::int64_t t, b, l, r;
  same(s.dims[1].value, kh, sh, dh, t, b);
  same(s.dims[2].value, kw, sw, dw, l, r);
  return {t, l, b, r};
}

constexpr std::int64_t kMaxWindow = 1 << 20;  // strides, dilations, pooling windows

// strides / dilations given as [1, h, w, 1]
std::array<std::int64_t, 2> hw_attr(OpContext& c, const std::string& key) {
  Ints v = c.attr_ints(key);
  if (v.empty()) v = {1, 1, 1, 1};
  if (v.size() != 4 || v[0] != 1 || v[3] != 1) c.fail("has " + key + " that are not [1, h, w, 1]");
  if (v[1] < 1 || v[2] < 1 || v[1] > kMaxWindow || v[2] > kMaxWindow) c.fail("has " + key + " outside 1.." + std::to_string(kMaxWindow));
  return {v[1], v[2]};
}

void conv_attrs(ir::Operation& op, const Ints& kernel, std::array<std::int64_t, 2> s, std::array<std::int64_t, 2> d,
                const Ints& pads, std::int64_t group) {
  op.attributes["kernel_shape"] = kernel;
  op.attributes["strides"] = Ints{s[0], s[1]};
  op.attributes["dilations"] = Ints{d[0], d[1]};
  if (pads.empty()) op.attributes["auto_pad"] = std::string("SAME_UPPER");
  else op.attributes["pads"] = pads;
  op.attributes["layout"] = std::string("NHWC");
  op.attributes["group"] = group;
}

void op_conv2d(OpContext& c) {
  require_nhwc(c);
  const ir::Tensor& w = const_input(c, 1, 4, "the filter");
  const Ints ws = w.shape.sizes();  // HWIO
  const auto s = hw_attr(c, "strides"), d = hw_attr(c, "dilations");
  const ir::Shape& xs = c.im.shape_of(c.input(0));
  std::int64_t group = 1;
  if (xs.rank() == 4 && xs.dims[3].is_static() && ws[2] > 0) {
    if (xs.dims[3].value % ws[2] != 0) c.fail("input channels " + std::to_string(xs.dims[3].value) + " are not a multiple of the filter's " + std::to_string(ws[2]));
    group = xs.dims[3].value / ws[2];
  }
  const Ints pads = spatial_pads(c, c.input(0), ws[0], ws[1], s[0], s[1], d[0], d[1]);
  const std::string wt = permute_const(c, c.input(1), ws, {3, 0, 1, 2}, "/ohwi");  // HWIO -> OHWI
  conv_attrs(c.im.emit("Conv", {c.input(0), wt}, {c.out[0]}, c.name), {ws[0], ws[1]}, s, d, pads, group);
}

void op_depthwise(OpContext& c) {
  require_nhwc(c);
  const ir::Tensor& w = const_input(c, 1, 4, "the filter");
  const Ints ws = w.shape.sizes();  // [KH, KW, C, M]
  const auto s = hw_attr(c, "strides"), d = hw_attr(c, "dilations");
  const Ints pads = spatial_pads(c, c.input(0), ws[0], ws[1], s[0], s[1], d[0], d[1]);
  // [KH, KW, C*M] -> [C*M, KH, KW] (output channel c*M + m, as TensorFlow orders them), then [C*M, KH, KW, 1]
  std::string wt = permute_const(c, c.input(1), {ws[0], ws[1], ws[2] * ws[3]}, {2, 0, 1}, "/ohwi");
  const ir::Tensor* t = c.im.tensor(wt);
  wt = c.im.add_const(wt, t->dtype, {ws[2] * ws[3], ws[0], ws[1], 1}, *t->data);
  conv_attrs(c.im.emit("Conv", {c.input(0), wt}, {c.out[0]}, c.name), {ws[0], ws[1]}, s, d, pads, ws[2]);
}

// A transposed operand: a constant is permuted in place, anything else gets a Transpose op.
std::string transposed_2d(OpContext& c, const std::string& x, const std::string& suffix) {
  const ir::Tensor* t = c.im.tensor(x);
  if (t && t->is_constant() && t->shape.rank() == 2 && t->shape.is_static())
    return permute_const(c, x, t->shape.sizes(), {1, 0}, suffix);
  const std::string y = c.name + suffix;
  auto& op = c.im.emit("Transpose", {x}, {y}, y);
  op.attributes["perm"] = Ints{1, 0};
  return op.outputs[0];
}

void op_matmul(OpContext& c) {
  std::string a = c.input(0), b = c.input(1);
  if (c.attr_bool("transpose_a", false) || c.attr_bool("adj_x", false)) a = transposed_2d(c, a, "/a_t");
  if (c.attr_bool("transpose_b", false) || c.attr_bool("adj_y", false)) b = transposed_2d(c, b, "/b_t");
  c.im.emit("MatMul", {a, b}, {c.out[0]}, c.name);
}

void op_bias_add(OpContext& c) {
  std::string b = c.input(1);
  // Conv2D / DepthwiseConv2dNative + BiasAdd: the bias becomes the Conv's third input (as
  // TFLite and ONNX files hold it), when nothing else reads the Conv's own result.
  ir::Operation* conv = c.im.producer(c.input(0));
  const ir::Tensor* bt = c.im.tensor(b);
  if (conv && conv->kind == ir::OpKind::Conv && conv->inputs.size() == 2 && c.im.uses(c.input(0)) == 1 && bt &&
      bt->is_constant() && bt->shape.rank() == 1 && c.attr_string("data_format", "NHWC") == "NHWC") {
    const ir::Tensor* w = c.im.tensor(conv->inputs[1]);
    if (w && w->shape.rank() == 4 && w->shape.dims[0] == bt->shape.dims[0]) {
      conv->inputs.push_back(b);
      c.im.rewire_output(*conv, 0, c.out[0]);
      return;
    }
  }
  if (c.attr_string("data_format", "NHWC") == "NCHW") {  // bias over dim 1: [C] -> [C, 1, 1]
    const ir::Tensor& bt = const_input(c, 1, 1, "the bias of an NCHW BiasAdd");
    b = c.im.add_const(b + "/c11", bt.dtype, {bt.shape.dims[0].value, 1, 1}, *bt.data);
  }
  c.im.emit("Add", {c.input(0), b}, {c.out[0]}, c.name);
}

void op_batch_norm(OpContext& c) {
  require_nhwc(c);
  if (c.attr_bool("is_training", true)) c.fail("is in training mode (is_training true); export the model for inference");
  for (std::size_t i = 1; i < 5; ++i) c.input(i);
  auto& op = c.im.emit("BatchNormalization", {c.in[0], c.in[1], c.in[2], c.in[3], c.in[4]}, {c.out[0]}, c.name);
  op.attributes["epsilon"] = static_cast<double>(c.attr_float("epsilon", 1e-4f));
  op.attributes["layout"] = std::string("NHWC");
}

template <const char* kType>
void op_unary(OpContext& c) {
  c.im.emit(kType, {c.input(0)}, {c.out[0]}, c.name);
}
template <const char* kType>
void op_binary(OpContext& c) {
  c.im.emit(kType, {c.input(0), c.input(1)}, {c.out[0]}, c.name);
}
constexpr char kRelu[] = "Relu", kSigmoid[] = "Sigmoid", kTanh[] = "Tanh", kSqrt[] = "Sqrt", kExp[] = "Exp",
               kNeg[] = "Neg", kAbs[] = "Abs", kAdd[] = "Add", kSub[] = "Sub", kMul[] = "Mul", kDiv[] = "Div",
               kMax[] = "Max", kMin[] = "Min", kPow[] = "Pow";

void op_relu6(OpContext& c) {
  c.im.emit("Clip", {c.input(0), c.im.add_f32(c.name + "/min", 0.f), c.im.add_f32(c.name + "/max", 6.f)}, {c.out[0]}, c.name);
}

void op_leaky_relu(OpContext& c) {
  c.im.emit("LeakyRelu", {c.input(0)}, {c.out[0]}, c.name).attributes["alpha"] = static_cast<double>(c.attr_float("alpha", 0.2f));
}

void op_softmax(OpContext& c) { c.im.emit("Softmax", {c.input(0)}, {c.out[0]}, c.name).attributes["axis"] = std::int64_t{-1}; }

void op_rsqrt(OpContext& c) {  // 1 / sqrt(x)
  const std::string s = c.name + "/sqrt";
  c.im.emit("Sqrt", {c.input(0)}, {s}, s);
  c.im.emit("Reciprocal", {s}, {c.out[0]}, c.name);
}

void op_square(OpContext& c) { c.im.emit("Mul", {c.input(0), c.input(0)}, {c.out[0]}, c.name); }

template <const char* kType>
void op_reduce(OpContext& c) {
  const Ints axes = c.const_ints(1, "the reduction axes");
  if (axes.empty()) {  // TensorFlow reduces nothing
    c.im.emit("Identity", {c.input(0)}, {c.out[0]}, c.name);
    return;
  }
  auto& op = c.im.emit(kType, {c.input(0)}, {c.out[0]}, c.name);
  op.attributes["axes"] = axes;
  op.attributes["keepdims"] = std::int64_t{c.attr_bool("keep_dims", false) ? 1 : 0};
}
constexpr char kReduceMean[] = "ReduceMean", kReduceSum[] = "ReduceSum", kReduceMax[] = "ReduceMax",
               kReduceMin[] = "ReduceMin", kReduceProd[] = "ReduceProd";

void op_pad(OpContext& c) {
  const Ints p = c.const_ints(1, "the paddings");  // [rank, 2]
  const std::size_t r = p.size() / 2;
  Ints pads(2 * r);
  for (std::size_t d = 0; d < r; ++d) {  // ONNX: all begins, then all ends
    pads[d] = p[2 * d];
    pads[r + d] = p[2 * d + 1];
  }
  std::vector<std::string> ins = {c.input(0), c.im.add_i64(c.name + "/pads", pads)};
  std::string mode = "constant";
  if (c.def.op() == "PadV2") ins.push_back(c.input(2));
  if (c.def.op() == "MirrorPad") {
    const std::string m = c.attr_string("mode", "REFLECT");
    if (m != "REFLECT") c.fail("mode '" + excerpt(m) + "' has no IR equal (only REFLECT)");
    mode = "reflect";
  }
  c.im.emit("Pad", ins, {c.out[0]}, c.name).attributes["mode"] = mode;
}

void op_reshape(OpContext& c) {
  c.im.emit("Reshape", {c.input(0), c.im.add_i64(c.name + "/shape", c.const_ints(1, "the target shape"))}, {c.out[0]}, c.name);
}

void op_squeeze(OpContext& c) {
  Ints axes = c.attr_ints("squeeze_dims");
  if (axes.empty()) axes = c.attr_ints("axis");
  if (axes.empty()) {
    const ir::Shape& s = c.im.shape_of(c.input(0));
    if (!s.is_static()) c.fail("squeezes every size-1 dimension of an input whose shape is not known");
    for (std::size_t d = 0; d < s.rank(); ++d)
      if (s.dims[d].value == 1) axes.push_back(static_cast<std::int64_t>(d));
  }
  c.im.emit("Squeeze", {c.input(0), c.im.add_i64(c.name + "/axes", axes)}, {c.out[0]}, c.name);
}

void op_expand_dims(OpContext& c) {
  Ints axis = c.const_ints(1, "the axis");
  if (axis.size() != 1) c.fail("has an axis of " + std::to_string(axis.size()) + " values");
  if (axis[0] < 0) {
    const ir::Shape& s = c.im.shape_of(c.input(0));
    if (!s.rank_known) c.fail("has a negative axis on an input of unknown rank");
    axis[0] += static_cast<std::int64_t>(s.rank()) + 1;
  }
  c.im.emit("Unsqueeze", {c.input(0), c.im.add_i64(c.name + "/axes", axis)}, {c.out[0]}, c.name);
}

std::int64_t concat_axis(OpContext& c, std::int64_t axis, const std::string& first) {
  if (axis >= 0) return axis;
  const ir::Shape& s = c.im.shape_of(first);
  if (!s.rank_known) c.fail("has a negative axis on inputs of unknown rank");
  return axis + static_cast<std::int64_t>(s.rank());
}

void op_concat(OpContext& c) {
  if (c.in.size() < 2) c.fail("needs at least one value and an axis");
  const bool v1 = c.def.op() == "Concat";  // Concat(axis, values...) ; ConcatV2(values..., axis)
  const Ints axis = c.const_ints(v1 ? 0 : c.in.size() - 1, "the axis");
  if (axis.size() != 1) c.fail("has an axis of " + std::to_string(axis.size()) + " values");
  std::vector<std::string> values(c.in.begin() + (v1 ? 1 : 0), c.in.end() - (v1 ? 0 : 1));
  c.im.emit("Concat", values, {c.out[0]}, c.name).attributes["axis"] = concat_axis(c, axis[0], values[0]);
}

template <bool kMaxPool>
void op_pool(OpContext& c) {
  require_nhwc(c);
  const Ints k = c.attr_ints("ksize");
  if (k.size() != 4 || k[0] != 1 || k[3] != 1) c.fail("has ksize that is not [1, h, w, 1]");
  if (k[1] < 1 || k[2] < 1 || k[1] > kMaxWindow || k[2] > kMaxWindow) c.fail("has ksize outside 1.." + std::to_string(kMaxWindow));
  const auto s = hw_attr(c, "strides");
  const Ints pads = spatial_pads(c, c.input(0), k[1], k[2], s[0], s[1], 1, 1);
  auto& op = c.im.emit(kMaxPool ? "MaxPool" : "AveragePool", {c.input(0)}, {c.out[0]}, c.name);
  op.attributes["kernel_shape"] = Ints{k[1], k[2]};
  op.attributes["strides"] = Ints{s[0], s[1]};
  if (pads.empty()) op.attributes["auto_pad"] = std::string("SAME_UPPER");
  else op.attributes["pads"] = pads;
  op.attributes["layout"] = std::string("NHWC");
  if (!kMaxPool) op.attributes["count_include_pad"] = std::int64_t{0};  // TensorFlow averages the real pixels only
}

void op_transpose(OpContext& c) {
  c.im.emit("Transpose", {c.input(0)}, {c.out[0]}, c.name).attributes["perm"] = c.const_ints(1, "the permutation");
}

void op_cast(OpContext& c) {
  const auto* t = c.attr("DstT");
  const ir::DType to = t ? ir_dtype_of(t->type()) : ir::DType::Undefined;
  if (to == ir::DType::Undefined || to == ir::DType::String) c.fail("casts to a type this frontend does not take");
  c.im.emit("Cast", {c.input(0)}, {c.out[0]}, c.name).attributes["to"] = std::string(ir::dtype_name(to));
}

// Integer constants of a folded op, as the op's declared integer type.
void set_ints(OpContext& c, const Ints& v, const Ints& shape, ir::DType dt) {
  if (dt == ir::DType::Int64) {
    c.im.set_const(c.out[0], dt, shape, ir::ConstantData::copy_of(v.data(), v.size() * 8));
    return;
  }
  std::vector<std::int32_t> w(v.begin(), v.end());
  c.im.set_const(c.out[0], ir::DType::Int32, shape, ir::ConstantData::copy_of(w.data(), w.size() * 4));
}

ir::DType int_type(OpContext& c, const std::string& key, ir::DType fallback) {
  const auto* a = c.attr(key);
  return a && a->value_case() == ec_tf::AttrValue::kType ? ir_dtype_of(a->type()) : fallback;
}

void op_const(OpContext& c) {
  const auto* v = c.attr("value");
  if (!v || v->value_case() != ec_tf::AttrValue::kTensor) c.fail("has no tensor 'value'");
  c.im.const_from_proto(v->tensor(), c.out[0], c.where());
}

void op_shape(OpContext& c) {  // folded: shapes are static once the inputs' are
  const ir::Shape& s = c.im.shape_of(c.input(0));
  if (!s.rank_known || !s.is_static())
    c.fail("reads the shape " + s.to_string() + ", which is not fully known; give the inputs' sizes with --input-shape");
  const Ints v = s.sizes();
  set_ints(c, v, {static_cast<std::int64_t>(v.size())}, int_type(c, "out_type", ir::DType::Int32));
}

void op_strided_slice(OpContext& c) {
  const Ints begin = c.const_ints(1, "begin"), end = c.const_ints(2, "end"), strides = c.const_ints(3, "strides");
  if (begin.size() != end.size() || begin.size() != strides.size()) c.fail("has begin, end and strides of different lengths");
  if (c.attr_int("ellipsis_mask", 0) || c.attr_int("new_axis_mask", 0)) c.fail("uses ellipsis_mask or new_axis_mask (not supported)");
  const std::int64_t bm = c.attr_int("begin_mask", 0), em = c.attr_int("end_mask", 0), sm = c.attr_int("shrink_axis_mask", 0);
  const auto value = c.im.ints_of(c.input(0));
  const ir::Shape& xs = c.im.shape_of(c.input(0));
  if (!xs.rank_known || xs.rank() < begin.size()) c.fail("slices more dimensions than its input has");
  // Normalised per-axis [start, stop) with step, TensorFlow's rules for masks and negative indices.
  Ints starts, stops, steps, axes, shrink;
  for (std::size_t d = 0; d < begin.size(); ++d) {
    if (!xs.dims[d].is_static()) c.fail("slices a dimension of unknown size");
    const std::int64_t n = xs.dims[d].value, st = strides[d];
    if (st == 0 || st > kMaxWindow || st < -kMaxWindow) c.fail("has a stride of 0 or beyond " + std::to_string(kMaxWindow));
    const bool shr = (sm >> d) & 1;
    auto clampi = [&](std::int64_t i, bool is_begin) {
      if (i < 0) i += n;
      if (st > 0) return std::clamp<std::int64_t>(i, 0, n);
      return std::clamp<std::int64_t>(i, -1, n - 1) + (is_begin ? 0 : 0);
    };
    std::int64_t b = (bm >> d) & 1 ? (st > 0 ? 0 : n - 1) : clampi(begin[d], true);
    std::int64_t e = (em >> d) & 1 ? (st > 0 ? n : -1) : clampi(end[d], false);
    if (shr) {
      b = begin[d] < 0 ? begin[d] + n : begin[d];
      if (b < 0 || b >= n) c.fail("shrinks axis " + std::to_string(d) + " at an index outside it");
      e = b + 1;
      shrink.push_back(static_cast<std::int64_t>(d));
    }
    starts.push_back(b);
    stops.push_back(e);
    steps.push_back(shr ? 1 : st);
    axes.push_back(static_cast<std::int64_t>(d));
  }
  if (value && xs.rank() == 1) {  // fold (the Shape -> StridedSlice -> Pack pattern)
    Ints out;
    for (std::int64_t i = starts[0]; steps[0] > 0 ? i < stops[0] : i > stops[0]; i += steps[0]) out.push_back((*value)[static_cast<std::size_t>(i)]);
    const ir::Tensor* x = c.im.tensor(c.input(0));
    set_ints(c, out, shrink.empty() ? Ints{static_cast<std::int64_t>(out.size())} : Ints{}, x->dtype);
    return;
  }
  // Slice takes ends past the last element as "to the end"; -1 with a negative step would mean "before the last".
  for (std::size_t d = 0; d < stops.size(); ++d)
    if (stops[d] < 0) stops[d] = std::numeric_limits<std::int64_t>::min();
  std::string y = shrink.empty() ? c.out[0] : c.name + "/slice";
  c.im.emit("Slice", {c.input(0), c.im.add_i64(c.name + "/starts", starts), c.im.add_i64(c.name + "/ends", stops),
                      c.im.add_i64(c.name + "/axes", axes), c.im.add_i64(c.name + "/steps", steps)},
            {y}, shrink.empty() ? c.name : y);
  if (!shrink.empty()) c.im.emit("Squeeze", {y, c.im.add_i64(c.name + "/shrink", shrink)}, {c.out[0]}, c.name);
}

void op_pack(OpContext& c) {
  std::int64_t axis = c.attr_int("axis", 0);
  bool all_const = true;
  std::vector<Ints> values;
  for (const auto& n : c.in) {
    const auto v = c.im.ints_of(n);
    const ir::Tensor* t = c.im.tensor(n);
    all_const = all_const && v && t->shape.rank() == 0;
    if (v) values.push_back(*v);
  }
  if (c.in.empty()) c.fail("packs no values");
  if (all_const && (axis == 0 || axis == -1)) {  // scalars -> a vector
    Ints out;
    for (const auto& v : values) out.push_back(v.at(0));
    set_ints(c, out, {static_cast<std::int64_t>(out.size())}, c.im.tensor(c.in[0])->dtype);
    return;
  }
  if (axis < 0) {
    const ir::Shape& s = c.im.shape_of(c.in[0]);
    if (!s.rank_known) c.fail("has a negative axis on inputs of unknown rank");
    axis += static_cast<std::int64_t>(s.rank()) + 1;
  }
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < c.in.size(); ++i) {
    const std::string u = c.name + "/expand_" + std::to_string(i);
    parts.push_back(c.im.emit("Unsqueeze", {c.in[i], c.im.add_i64(u + "/axes", {axis})}, {u}, u).outputs[0]);
  }
  c.im.emit("Concat", parts, {c.out[0]}, c.name).attributes["axis"] = axis;
}

template <bool kBilinear>
void op_resize(OpContext& c) {
  const Ints size = c.const_ints(1, "the output size");
  const ir::Shape& xs = c.im.shape_of(c.input(0));
  if (size.size() != 2 || xs.rank() != 4 || !xs.dims[0].is_static() || !xs.dims[3].is_static())
    c.fail("needs a 4-D NHWC input of known batch and channels and a size [h, w]");
  const std::string sizes = c.im.add_i64(c.name + "/sizes", {xs.dims[0].value, size[0], size[1], xs.dims[3].value});
  auto& op = c.im.emit("Resize", {c.input(0), "", "", sizes}, {c.out[0]}, c.name);
  const bool align = c.attr_bool("align_corners", false), half = c.attr_bool("half_pixel_centers", false);
  if (align && half) c.fail("sets both align_corners and half_pixel_centers");
  op.attributes["mode"] = std::string(kBilinear ? "linear" : "nearest");
  // TensorFlow's scalers (image_resizer_state.h): legacy = asymmetric; nearest picks floor,
  // or round (half away from zero) with align_corners; half-pixel nearest is (o + 0.5) * scale.
  op.attributes["coordinate_transformation_mode"] =
      std::string(align ? "align_corners" : half ? (kBilinear ? "half_pixel" : "tf_half_pixel_for_nn") : "asymmetric");
  if (!kBilinear) op.attributes["nearest_mode"] = std::string(align ? "round_prefer_ceil" : "floor");
}

void op_variable(OpContext& c) { c.im.variable(c); }

void op_placeholder(OpContext& c) {
  c.fail("is a Placeholder the chosen signature does not feed (pick the signature that does with --signature NAME)");
}

// The one table: Map rows name the function mapping the op; Alias rows are forwarded
// by the walker (output i is input i for IdentityN, input 0 otherwise); Call rows are
// inlined from the function library.
constexpr OpRow kOps[] = {
    {"Abs", RowKind::Map, &op_unary<kAbs>, 1, "Abs"},
    {"Add", RowKind::Map, &op_binary<kAdd>, 1, "Add"},
    {"AddV2", RowKind::Map, &op_binary<kAdd>, 1, "Add"},
    {"AvgPool", RowKind::Map, &op_pool<false>, 1, "AveragePool (NHWC)"},
    {"BiasAdd", RowKind::Map, &op_bias_add, 1, "Add"},
    {"Cast", RowKind::Map, &op_cast, 1, "Cast"},
    {"CheckNumerics", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"Concat", RowKind::Map, &op_concat, 1, "Concat"},
    {"ConcatV2", RowKind::Map, &op_concat, 1, "Concat"},
    {"Const", RowKind::Map, &op_const, 1, "constant"},
    {"Conv2D", RowKind::Map, &op_conv2d, 1, "Conv (NHWC, OHWI weights)"},
    {"DepthwiseConv2dNative", RowKind::Map, &op_depthwise, 1, "Conv (NHWC, group = C)"},
    {"Div", RowKind::Map, &op_binary<kDiv>, 1, "Div"},
    {"EnsureShape", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"Exp", RowKind::Map, &op_unary<kExp>, 1, "Exp"},
    {"ExpandDims", RowKind::Map, &op_expand_dims, 1, "Unsqueeze"},
    {"FusedBatchNorm", RowKind::Map, &op_batch_norm, 1, "BatchNormalization (NHWC)"},
    {"FusedBatchNormV2", RowKind::Map, &op_batch_norm, 1, "BatchNormalization (NHWC)"},
    {"FusedBatchNormV3", RowKind::Map, &op_batch_norm, 1, "BatchNormalization (NHWC)"},
    {"Identity", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"IdentityN", RowKind::Alias, nullptr, -1, "(forwarded)"},
    {"LeakyRelu", RowKind::Map, &op_leaky_relu, 1, "LeakyRelu"},
    {"MatMul", RowKind::Map, &op_matmul, 1, "MatMul (+ Transpose for transpose_a/b)"},
    {"Max", RowKind::Map, &op_reduce<kReduceMax>, 1, "ReduceMax"},
    {"MaxPool", RowKind::Map, &op_pool<true>, 1, "MaxPool (NHWC)"},
    {"Maximum", RowKind::Map, &op_binary<kMax>, 1, "Max"},
    {"Mean", RowKind::Map, &op_reduce<kReduceMean>, 1, "ReduceMean"},
    {"Min", RowKind::Map, &op_reduce<kReduceMin>, 1, "ReduceMin"},
    {"Minimum", RowKind::Map, &op_binary<kMin>, 1, "Min"},
    {"MirrorPad", RowKind::Map, &op_pad, 1, "Pad (reflect)"},
    {"Mul", RowKind::Map, &op_binary<kMul>, 1, "Mul"},
    {"Neg", RowKind::Map, &op_unary<kNeg>, 1, "Neg"},
    {"Pack", RowKind::Map, &op_pack, 1, "folded, or Unsqueeze + Concat"},
    {"Pad", RowKind::Map, &op_pad, 1, "Pad"},
    {"PadV2", RowKind::Map, &op_pad, 1, "Pad"},
    {"PartitionedCall", RowKind::Call, nullptr, -1, "(inlined)"},
    {"Placeholder", RowKind::Map, &op_placeholder, 1, "graph input (when the signature feeds it)"},
    {"PlaceholderWithDefault", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"Pow", RowKind::Map, &op_binary<kPow>, 1, "Pow"},
    {"PreventGradient", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"Prod", RowKind::Map, &op_reduce<kReduceProd>, 1, "ReduceProd"},
    {"ReadVariableOp", RowKind::Alias, nullptr, 1, "(forwarded to the variable's value)"},
    {"RealDiv", RowKind::Map, &op_binary<kDiv>, 1, "Div"},
    {"Relu", RowKind::Map, &op_unary<kRelu>, 1, "Relu"},
    {"Relu6", RowKind::Map, &op_relu6, 1, "Clip(0, 6)"},
    {"Reshape", RowKind::Map, &op_reshape, 1, "Reshape"},
    {"ResizeBilinear", RowKind::Map, &op_resize<true>, 1, "Resize (linear)"},
    {"ResizeNearestNeighbor", RowKind::Map, &op_resize<false>, 1, "Resize (nearest)"},
    {"Rsqrt", RowKind::Map, &op_rsqrt, 1, "Sqrt + Reciprocal"},
    {"Shape", RowKind::Map, &op_shape, 1, "folded"},
    {"Sigmoid", RowKind::Map, &op_unary<kSigmoid>, 1, "Sigmoid"},
    {"Snapshot", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"Softmax", RowKind::Map, &op_softmax, 1, "Softmax (last axis)"},
    {"Sqrt", RowKind::Map, &op_unary<kSqrt>, 1, "Sqrt"},
    {"Square", RowKind::Map, &op_square, 1, "Mul(x, x)"},
    {"Squeeze", RowKind::Map, &op_squeeze, 1, "Squeeze"},
    {"StatefulPartitionedCall", RowKind::Call, nullptr, -1, "(inlined)"},
    {"StopGradient", RowKind::Alias, nullptr, 1, "(forwarded)"},
    {"StridedSlice", RowKind::Map, &op_strided_slice, 1, "folded, or Slice (+ Squeeze)"},
    {"Sub", RowKind::Map, &op_binary<kSub>, 1, "Sub"},
    {"Sum", RowKind::Map, &op_reduce<kReduceSum>, 1, "ReduceSum"},
    {"Tanh", RowKind::Map, &op_unary<kTanh>, 1, "Tanh"},
    {"Transpose", RowKind::Map, &op_transpose, 1, "Transpose"},
    {"VarHandleOp", RowKind::Map, &op_variable, 1, "constant (checkpoint value)"},
    {"Variable", RowKind::Map, &op_variable, 1, "constant (checkpoint value)"},
    {"VariableV2", RowKind::Map, &op_variable, 1, "constant (checkpoint value)"},
};

}  // namespace

const OpRow* find_op_row(std::string_view tf_op) {
  static_assert(std::is_sorted(std::begin(kOps), std::end(kOps), [](const OpRow& a, const OpRow& b) { return a.tf_op < b.tf_op; }),
                "kOps must stay sorted by TensorFlow op name");
  const auto it = std::lower_bound(std::begin(kOps), std::end(kOps), tf_op,
                                   [](const OpRow& r, std::string_view n) { return r.tf_op < n; });
  return it != std::end(kOps) && it->tf_op == tf_op ? it : nullptr;
}

std::vector<std::string_view> op_table_names() {
  std::vector<std::string_view> v;
  for (const auto& r : kOps) v.push_back(r.tf_op);
  return v;
}

}  // namespace ec::frontends::savedmodel
