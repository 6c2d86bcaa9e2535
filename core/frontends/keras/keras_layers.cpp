// THE Keras layer table: one row per Keras class (aliases included), each with a
// converter to IR ops. Layouts are kept as the model states them (channels_last:
// the IR's NHWC Conv with OHWI weights, as the TFLite frontend imports them);
// channels_first is refused. Weight layouts (Keras's build()):
//   Conv1D/Conv2D kernel      [k..., in/groups, filters]  -> OHWI [filters, kh, kw, in/groups]
//   DepthwiseConv2D kernel    [kh, kw, in, mult]          -> [in*mult, kh, kw, 1], group = in
//   SeparableConv2D           depthwise as above, pointwise [1, 1, in*mult, filters]
//   Conv2DTranspose kernel    [kh, kw, filters, in]       -> IOHW for the IR's NCHW ConvTranspose
//   Dense kernel              [in, units]
//   LSTM kernel/recurrent     [in|units, 4*units], gates i, f, c, o -> ONNX W/R of gates i, o, f, c
//   GRU                       [in|units, 3*units], gates z, r, h (ONNX's order); bias [2, 3*units]
//                             with reset_after (ONNX linear_before_reset = 1), else [3*units]
// `padding="same"` pads as TensorFlow does: total = max((ceil(in/s)-1)*s + (k-1)*d+1 - in, 0),
// total/2 before and the rest after.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/frontends/keras/keras_model.h"
#include "core/ir/excerpt.h"
#include "core/util/json_text.h"

namespace ec::frontends::keras {
namespace {

using Shape = std::vector<std::int64_t>;
using Ints = std::vector<std::int64_t>;

std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (auto v : s) n *= v;
  return n;
}

// ------------------------------------------------------------ shared helpers

void channels_last(Builder& b, const LayerCall& c) {
  const std::string f = b.get_string(c, "data_format", std::string("channels_last"));
  if (f != "channels_last")
    b.fail(c, "data_format '" + excerpt(f, 20) + "' is not supported; only channels_last models are read");
}

std::string padding_of(Builder& b, const LayerCall& c, bool causal_ok = false) {
  std::string p = b.get_string(c, "padding", std::string("valid"));
  std::transform(p.begin(), p.end(), p.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (p == "same" || p == "valid" || (causal_ok && p == "causal")) return p;
  b.fail(c, "padding '" + excerpt(p, 20) + "' is not supported (same, valid" + (causal_ok ? ", causal" : "") + ")");
}

// Before/after padding of one spatial dim (TensorFlow's SAME).
void same_pads(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d, std::int64_t& before, std::int64_t& after) {
  const std::int64_t out = (in + s - 1) / s;
  const std::int64_t total = std::max<std::int64_t>((out - 1) * s + (k - 1) * d + 1 - in, 0);
  before = total / 2;
  after = total - before;
}

void check_positive(Builder& b, const LayerCall& c, const Ints& v, const char* what, std::int64_t max = 1 << 16) {
  for (auto x : v)
    if (x < 1 || x > max) b.fail(c, std::string(what) + " " + std::to_string(x) + " is out of range (1.." + std::to_string(max) + ")");
}

// pads {t, l, b, r} of a 2-D window over NHWC `xs`.
Ints window_pads(Builder& b, const LayerCall& c, const std::string& padding, const Shape& xs, const Ints& k, const Ints& s,
                 const Ints& d) {
  if (padding == "valid") {
    for (int i = 0; i < 2; ++i)
      if ((k[i] - 1) * d[i] + 1 > xs[1 + i])
        b.fail(c, "window " + std::to_string(k[i]) + " is larger than the input (" + std::to_string(xs[1 + i]) + ")");
    return {0, 0, 0, 0};
  }
  Ints p(4);
  same_pads(xs[1], k[0], s[0], d[0], p[0], p[2]);
  same_pads(xs[2], k[1], s[1], d[1], p[1], p[3]);
  return p;
}

// An activation name (Keras 2 and 3 spellings) -> IR ops on x, writing the layer's result.
std::string act_name(const json& act) {
  if (act.is_null()) return "linear";
  if (act.is_string()) return act.get<std::string>();
  if (act.is_object() && act.contains("config") && act["config"].is_string()) return act["config"].get<std::string>();
  if (act.is_object() && act.contains("class_name") && act["class_name"].is_string() &&
      act["class_name"].get<std::string>() == "function" && act.contains("config") && act["config"].is_object() &&
      act["config"].contains("name") && act["config"]["name"].is_string())
    return act["config"]["name"].get<std::string>();
  return {};
}

bool is_linear(const json* act) {
  if (!act) return true;
  const std::string n = act_name(*act);
  return n == "linear" || n == "None";
}

std::string strip_package(std::string n) {  // "keras_nlp>gelu_approximate" -> "gelu_approximate"
  if (const auto gt = n.rfind('>'); gt != std::string::npos) n = n.substr(gt + 1);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return n;
}

std::string named_activation(Builder& b, const LayerCall& c, const std::string& raw, const std::string& x) {
  const std::string n = strip_package(raw);
  const std::string y = b.result(c);
  const std::string op = c.out + "/" + (n.empty() ? "activation" : n);
  auto unary = [&](const char* type) -> ir::Operation& { return b.emit(type, {x}, {y}, op); };
  if (n == "relu") unary("Relu");
  else if (n == "relu6") b.emit("Clip", {x, b.scalar(c.out + "/min", 0.f), b.scalar(c.out + "/max", 6.f)}, {y}, op);
  else if (n == "hard_tanh") b.emit("Clip", {x, b.scalar(c.out + "/min", -1.f), b.scalar(c.out + "/max", 1.f)}, {y}, op);
  else if (n == "sigmoid") unary("Sigmoid");
  else if (n == "tanh") unary("Tanh");
  else if (n == "softmax") unary("Softmax").attributes["axis"] = std::int64_t{-1};
  else if (n == "log_softmax") unary("LogSoftmax").attributes["axis"] = std::int64_t{-1};
  else if (n == "silu" || n == "swish") {  // x * sigmoid(x)
    const std::string s = b.tensor(c.out + "/sigmoid");
    b.emit("Sigmoid", {x}, {s}, c.out + "/sigmoid");
    b.emit("Mul", {x, s}, {y}, op);
  } else if (n == "hard_silu" || n == "hard_swish") unary("HardSwish");
  else if (n == "hard_sigmoid") {
    // Keras 3: relu6(x + 3) / 6; Keras 2: clip(0.2 x + 0.5, 0, 1)
    auto& o = unary("HardSigmoid");
    o.attributes["alpha"] = b.keras_major() >= 3 ? 1.0 / 6.0 : 0.2;
    o.attributes["beta"] = 0.5;
  } else if (n == "gelu") unary("Gelu").attributes["approximate"] = std::string("none");
  else if (n == "gelu_approximate" || n == "approximate_gelu") unary("Gelu").attributes["approximate"] = std::string("tanh");
  else if (n == "elu") unary("Elu").attributes["alpha"] = 1.0;
  else if (n == "selu") {
    auto& o = unary("Selu");
    o.attributes["alpha"] = 1.6732632423543772;
    o.attributes["gamma"] = 1.0507009873554805;
  } else if (n == "leaky_relu") unary("LeakyRelu").attributes["alpha"] = 0.2;
  else if (n == "softplus") unary("Softplus");
  else if (n == "softsign") unary("Softsign");
  else if (n == "mish") unary("Mish");
  else if (n == "exponential") unary("Exp");
  else b.fail(c, "activation '" + excerpt(raw, 40) + "' is not supported (relu, relu6, sigmoid, tanh, softmax, silu/swish, "
                 "hard_silu/hard_swish, hard_sigmoid, gelu, elu, selu, leaky_relu, softplus, softsign, mish, linear)");
  return y;
}

// The layer's `activation` (absent or linear: x itself).
std::string activate(Builder& b, const LayerCall& c, const std::string& x) {
  const json* act = c.config->contains("activation") ? &(*c.config)["activation"] : nullptr;
  if (is_linear(act)) return x;
  const std::string n = act_name(*act);
  if (!n.empty()) return named_activation(b, c, n, x);
  // An activation layer object (Keras 2 allows activation=LeakyReLU(...)).
  if (act->is_object() && act->contains("class_name") && (*act)["class_name"].is_string()) {
    const std::string cls = (*act)["class_name"].get<std::string>();
    if (const LayerEntry* e = find_layer(cls); e && e->max_inputs == 1) {
      LayerCall sub = c;
      sub.cls = cls;
      static const json kEmpty = json::object();
      sub.config = act->contains("config") && (*act)["config"].is_object() ? &(*act)["config"] : &kEmpty;
      sub.inputs = {x};
      sub.weights = {};
      return e->convert(b, sub).at(0);
    }
  }
  b.fail(c, "activation " + util::json_excerpt(*act) + " is not supported");
}

// The tensor a layer's main op writes: its result, or a pre-activation tensor.
std::string main_output(Builder& b, const LayerCall& c) {
  const json* act = c.config->contains("activation") ? &(*c.config)["activation"] : nullptr;
  return is_linear(act) ? b.result(c) : b.result(c, "/pre_activation");
}

// A row-major [n0, n1, n2] array with its axes reordered: out dims are n[perm[0]],
// n[perm[1]], n[perm[2]] (HWIO -> OHWI is [taps, in, out] with perm {2, 0, 1}).
std::vector<float> permuted(const std::vector<float>& v, const std::array<std::int64_t, 3>& n, const std::array<int, 3>& perm) {
  std::vector<float> out(v.size());
  const std::array<std::int64_t, 3> stride{n[1] * n[2], n[2], 1};
  const std::int64_t a = n[static_cast<std::size_t>(perm[0])], b = n[static_cast<std::size_t>(perm[1])],
                     c = n[static_cast<std::size_t>(perm[2])];
  const std::int64_t sa = stride[static_cast<std::size_t>(perm[0])], sb = stride[static_cast<std::size_t>(perm[1])],
                     sc = stride[static_cast<std::size_t>(perm[2])];
  std::size_t o = 0;
  for (std::int64_t i = 0; i < a; ++i)
    for (std::int64_t j = 0; j < b; ++j)
      for (std::int64_t k = 0; k < c; ++k) out[o++] = v[static_cast<std::size_t>(i * sa + j * sb + k * sc)];
  return out;
}

// [N, L, C] <-> [N, 1, L, C]: 1-D layers run as their 2-D forms.
std::string to_2d(Builder& b, const LayerCall& c, const std::string& x, const Shape& xs) {
  const std::string y = b.tensor(c.out + "/as_2d");
  b.emit("Reshape", {x, b.ints(c.out + "/shape_2d", {xs[0], 1, xs[1], xs[2]})}, {y}, c.out + "/as_2d");
  return y;
}
std::string from_2d(Builder& b, const LayerCall& c, const std::string& y2, const std::string& y) {
  const Shape s = b.shape_of(c, y2);
  b.emit("Reshape", {y2, b.ints(c.out + "/shape_1d", {s[0], s[2], s[3]})}, {y}, c.out + "/as_1d");
  return y;
}

// ------------------------------------------------------------ convolution

std::string conv_core(Builder& b, const LayerCall& c, const std::string& x, int rank, const std::string& out_tensor) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, x);
  if (xs.size() != 4) b.fail(c, "needs a " + std::to_string(rank + 2) + "-D input, got rank " + std::to_string(xs.size() - (rank == 1)));
  const std::int64_t filters = b.get_int(c, "filters");
  Ints k = b.get_ints(c, "kernel_size", static_cast<std::size_t>(rank));
  Ints s = b.get_ints(c, "strides", static_cast<std::size_t>(rank), Ints(static_cast<std::size_t>(rank), 1));
  Ints d = b.get_ints(c, "dilation_rate", static_cast<std::size_t>(rank), Ints(static_cast<std::size_t>(rank), 1));
  const std::int64_t groups = b.get_int(c, "groups", 1);
  const std::string padding = padding_of(b, c, rank == 1);
  if (rank == 1) {
    k.insert(k.begin(), 1);
    s.insert(s.begin(), 1);
    d.insert(d.begin(), 1);
  }
  check_positive(b, c, {filters, groups}, "filters/groups", 1 << 20);
  check_positive(b, c, k, "kernel size");
  check_positive(b, c, s, "stride");
  check_positive(b, c, d, "dilation");
  const std::int64_t cin = xs[3];
  if (cin % groups || filters % groups)
    b.fail(c, "groups " + std::to_string(groups) + " does not divide the input channels " + std::to_string(cin) + " and filters");
  const std::int64_t ci = cin / groups;
  Shape kshape = rank == 1 ? Shape{k[1], ci, filters} : Shape{k[0], k[1], ci, filters};
  std::vector<ExpectedWeight> want{{"kernel", kshape}};
  const bool bias = b.get_bool(c, "use_bias", true);
  if (bias) want.push_back({"bias", {filters}});
  const auto w = b.weights(c, want);
  std::vector<float> ohwi = permuted(w[0].values, {k[0] * k[1], ci, filters}, {2, 0, 1});  // HWIO -> OHWI
  Ints pads;
  if (padding == "causal") pads = {0, (k[1] - 1) * d[1], 0, 0};
  else pads = window_pads(b, c, padding, xs, k, s, d);
  std::vector<std::string> ins{x, b.constant(c.out + "/kernel", {filters, k[0], k[1], ci}, std::move(ohwi))};
  if (bias) ins.push_back(b.constant(c.out + "/bias", {filters}, w[1].values));
  auto& op = b.emit("Conv", ins, {out_tensor}, c.out);
  op.attributes["kernel_shape"] = Ints{k[0], k[1]};
  op.attributes["strides"] = s;
  op.attributes["dilations"] = d;
  op.attributes["pads"] = pads;
  op.attributes["group"] = groups;
  op.attributes["layout"] = std::string("NHWC");
  return out_tensor;
}

std::vector<std::string> conv2d(Builder& b, const LayerCall& c) {
  return {activate(b, c, conv_core(b, c, c.inputs[0], 2, main_output(b, c)))};
}

std::vector<std::string> conv1d(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 3) b.fail(c, "needs a 3-D input [batch, steps, channels], got rank " + std::to_string(xs.size()));
  const std::string y2 = conv_core(b, c, to_2d(b, c, c.inputs[0], xs), 1, b.tensor(c.out + "/conv_2d"));
  return {activate(b, c, from_2d(b, c, y2, main_output(b, c)))};
}

// Depthwise part of DepthwiseConv2D / SeparableConv2D: [kh, kw, in, mult] -> [in*mult, kh, kw, 1].
std::string depthwise(Builder& b, const LayerCall& c, const std::string& x, const WeightArray& w, const float* bias,
                      const Ints& k, const Ints& s, const Ints& d, const std::string& padding, const std::string& out,
                      const std::string& name) {
  const Shape xs = b.shape_of(c, x);
  const std::int64_t cin = w.shape[2], mult = w.shape[3];
  std::vector<float> dw = permuted(w.values, {k[0] * k[1], cin, mult}, {1, 2, 0});  // channel c*mult+m major
  std::vector<std::string> ins{x, b.constant(name + "/depthwise_kernel", {cin * mult, k[0], k[1], 1}, std::move(dw))};
  if (bias) ins.push_back(b.constant(name + "/bias", {cin * mult}, std::vector<float>(bias, bias + cin * mult)));
  auto& op = b.emit("Conv", ins, {out}, name);
  op.attributes["kernel_shape"] = Ints{k[0], k[1]};
  op.attributes["strides"] = s;
  op.attributes["dilations"] = d;
  op.attributes["pads"] = window_pads(b, c, padding, xs, k, s, d);
  op.attributes["group"] = cin;
  op.attributes["layout"] = std::string("NHWC");
  return out;
}

struct DepthwiseGeometry {
  Shape xs;
  Ints k, s, d;
  std::string padding;
  std::int64_t mult;
};

DepthwiseGeometry depthwise_geometry(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  DepthwiseGeometry g;
  g.xs = b.shape_of(c, c.inputs[0]);
  if (g.xs.size() != 4) b.fail(c, "needs a 4-D input, got rank " + std::to_string(g.xs.size()));
  g.k = b.get_ints(c, "kernel_size", 2);
  g.s = b.get_ints(c, "strides", 2, Ints{1, 1});
  g.d = b.get_ints(c, "dilation_rate", 2, Ints{1, 1});
  g.padding = padding_of(b, c);
  g.mult = b.get_int(c, "depth_multiplier", 1);
  check_positive(b, c, g.k, "kernel size");
  check_positive(b, c, g.s, "stride");
  check_positive(b, c, g.d, "dilation");
  check_positive(b, c, {g.mult}, "depth_multiplier", 1 << 12);
  return g;
}

std::vector<std::string> depthwise_conv2d(Builder& b, const LayerCall& c) {
  const auto g = depthwise_geometry(b, c);
  const std::int64_t cin = g.xs[3];
  std::vector<ExpectedWeight> want{{"depthwise_kernel", {g.k[0], g.k[1], cin, g.mult}}};
  const bool bias = b.get_bool(c, "use_bias", true);
  if (bias) want.push_back({"bias", {cin * g.mult}});
  const auto w = b.weights(c, want);
  const std::string y = depthwise(b, c, c.inputs[0], w[0], bias ? w[1].values.data() : nullptr, g.k, g.s, g.d, g.padding,
                                  main_output(b, c), c.out);
  return {activate(b, c, y)};
}

std::vector<std::string> separable_conv2d(Builder& b, const LayerCall& c) {
  const auto g = depthwise_geometry(b, c);
  const std::int64_t cin = g.xs[3], filters = b.get_int(c, "filters");
  check_positive(b, c, {filters}, "filters", 1 << 20);
  std::vector<ExpectedWeight> want{{"depthwise_kernel", {g.k[0], g.k[1], cin, g.mult}},
                                   {"pointwise_kernel", {1, 1, cin * g.mult, filters}}};
  const bool bias = b.get_bool(c, "use_bias", true);
  if (bias) want.push_back({"bias", {filters}});
  const auto w = b.weights(c, want);
  const std::string mid = depthwise(b, c, c.inputs[0], w[0], nullptr, g.k, g.s, g.d, g.padding,
                                    b.tensor(c.out + "/depthwise"), c.out + "/depthwise");
  // pointwise [1, 1, in*mult, filters] -> OHWI [filters, 1, 1, in*mult]
  const std::int64_t ci = cin * g.mult;
  std::vector<float> pw = permuted(w[1].values, {1, ci, filters}, {2, 0, 1});
  std::vector<std::string> ins{mid, b.constant(c.out + "/pointwise_kernel", {filters, 1, 1, ci}, std::move(pw))};
  if (bias) ins.push_back(b.constant(c.out + "/bias", {filters}, w[2].values));
  auto& op = b.emit("Conv", ins, {main_output(b, c)}, c.out);
  op.attributes["kernel_shape"] = Ints{1, 1};
  op.attributes["strides"] = Ints{1, 1};
  op.attributes["dilations"] = Ints{1, 1};
  op.attributes["pads"] = Ints{0, 0, 0, 0};
  op.attributes["group"] = std::int64_t{1};
  op.attributes["layout"] = std::string("NHWC");
  return {activate(b, c, op.outputs[0])};
}

// Conv2DTranspose: the output size as Keras computes it (deconv_output_length), the
// padding TensorFlow derives from it, then the IR's NCHW ConvTranspose between two
// Transposes (as the TFLite frontend does for TRANSPOSE_CONV).
std::vector<std::string> conv2d_transpose(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 4) b.fail(c, "needs a 4-D input, got rank " + std::to_string(xs.size()));
  const std::int64_t filters = b.get_int(c, "filters"), cin = xs[3];
  const Ints k = b.get_ints(c, "kernel_size", 2), s = b.get_ints(c, "strides", 2, Ints{1, 1}),
             d = b.get_ints(c, "dilation_rate", 2, Ints{1, 1});
  const std::string padding = padding_of(b, c);
  check_positive(b, c, {filters}, "filters", 1 << 20);
  check_positive(b, c, k, "kernel size");
  check_positive(b, c, s, "stride");
  check_positive(b, c, d, "dilation");
  const bool has_op = b.has(c, "output_padding");
  const Ints opad = has_op ? b.get_ints(c, "output_padding", 2) : Ints{0, 0};
  if (b.get_int(c, "groups", 1) != 1) b.fail(c, "groups other than 1 are not supported");
  std::vector<ExpectedWeight> want{{"kernel", {k[0], k[1], filters, cin}}};
  const bool bias = b.get_bool(c, "use_bias", true);
  if (bias) want.push_back({"bias", {filters}});
  const auto w = b.weights(c, want);
  Ints pads(4), out_pad(2);
  for (int i = 0; i < 2; ++i) {
    const std::int64_t in = xs[1 + i], ke = (k[i] - 1) * d[i] + 1;
    std::int64_t out;
    if (!has_op) out = padding == "valid" ? in * s[i] + std::max<std::int64_t>(ke - s[i], 0) : in * s[i];
    else out = (in - 1) * s[i] + ke - 2 * (padding == "same" ? ke / 2 : 0) + opad[i];
    if (out < 1) b.fail(c, "output size " + std::to_string(out) + " is below 1");
    const std::int64_t pb = padding == "same" ? std::max<std::int64_t>((in - 1) * s[i] + ke - out, 0) / 2 : 0;
    const std::int64_t rest = s[i] * (in - 1) + ke - pb - out;  // ONNX: out = s(in-1) + ke - pb - pe + output_padding
    pads[i] = pb;
    pads[2 + i] = std::max<std::int64_t>(rest, 0);
    out_pad[i] = std::max<std::int64_t>(-rest, 0);
  }
  std::vector<float> iohw = permuted(w[0].values, {k[0] * k[1], filters, cin}, {2, 1, 0});  // -> [in, filters, kh, kw]
  const std::string nchw = b.tensor(c.out + "/nchw_in"), nchw_out = b.tensor(c.out + "/nchw_out");
  b.emit("Transpose", {c.inputs[0]}, {nchw}, c.out + "/to_nchw").attributes["perm"] = Ints{0, 3, 1, 2};
  std::vector<std::string> ins{nchw, b.constant(c.out + "/kernel", {cin, filters, k[0], k[1]}, std::move(iohw))};
  if (bias) ins.push_back(b.constant(c.out + "/bias", {filters}, w[1].values));
  auto& op = b.emit("ConvTranspose", ins, {nchw_out}, c.out);
  op.attributes["kernel_shape"] = k;
  op.attributes["strides"] = s;
  op.attributes["dilations"] = d;
  op.attributes["pads"] = pads;
  if (out_pad[0] || out_pad[1]) op.attributes["output_padding"] = out_pad;
  op.attributes["group"] = std::int64_t{1};
  const std::string y = main_output(b, c);
  b.emit("Transpose", {nchw_out}, {y}, c.out + "/to_nhwc").attributes["perm"] = Ints{0, 2, 3, 1};
  return {activate(b, c, y)};
}

// ------------------------------------------------------------ linear, normalisation

std::vector<std::string> dense(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() < 2) b.fail(c, "needs an input of rank 2 or more");
  const std::int64_t units = b.get_int(c, "units"), in = xs.back();
  check_positive(b, c, {units}, "units", 1 << 24);
  std::vector<ExpectedWeight> want{{"kernel", {in, units}}};
  const bool bias = b.get_bool(c, "use_bias", true);
  if (bias) want.push_back({"bias", {units}});
  const auto w = b.weights(c, want);
  const std::string y = main_output(b, c);
  if (xs.size() == 2) {  // Gemm(x, W^T [units, in], bias), transB = 1 (PyTorch's Linear form)
    std::vector<float> wt = permuted(w[0].values, {1, in, units}, {2, 0, 1});
    std::vector<std::string> ins{c.inputs[0], b.constant(c.out + "/kernel", {units, in}, std::move(wt))};
    if (bias) ins.push_back(b.constant(c.out + "/bias", {units}, w[1].values));
    b.emit("Gemm", ins, {y}, c.out).attributes["transB"] = std::int64_t{1};
  } else {  // on the last axis: MatMul + Add
    const std::string k = b.constant(c.out + "/kernel", {in, units}, w[0].values);
    if (!bias) {
      b.emit("MatMul", {c.inputs[0], k}, {y}, c.out);
    } else {
      const std::string mm = b.tensor(c.out + "/matmul");
      b.emit("MatMul", {c.inputs[0], k}, {mm}, c.out);
      b.emit("Add", {mm, b.constant(c.out + "/bias", {units}, w[1].values)}, {y}, c.out + "/bias_add");
    }
  }
  return {activate(b, c, y)};
}

// The axes of a normalisation layer as non-negative, sorted values.
Ints norm_axes(Builder& b, const LayerCall& c, std::size_t rank, const Ints& fallback) {
  Ints axes = b.has(c, "axis") ? b.get_int_list(c, "axis") : fallback;
  for (auto& a : axes) {
    if (a < -static_cast<std::int64_t>(rank) || a >= static_cast<std::int64_t>(rank))
      b.fail(c, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    if (a < 0) a += static_cast<std::int64_t>(rank);
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

std::vector<std::string> batch_norm(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  const Ints axes = norm_axes(b, c, xs.size(), Ints{-1});
  if (axes.size() != 1 || axes[0] != static_cast<std::int64_t>(xs.size()) - 1 || xs.size() < 2)
    b.fail(c, "normalises axis " + (axes.empty() ? std::string("?") : std::to_string(axes[0])) +
                  "; only the last (channels) axis is supported");
  const std::int64_t ch = xs.back();
  const bool scale = b.get_bool(c, "scale", true), center = b.get_bool(c, "center", true);
  std::vector<ExpectedWeight> want;
  if (scale) want.push_back({"gamma", {ch}});
  if (center) want.push_back({"beta", {ch}});
  want.push_back({"moving_mean", {ch}});
  want.push_back({"moving_variance", {ch}});
  const auto w = b.weights(c, want);
  std::size_t i = 0;
  std::vector<float> gamma = scale ? w[i++].values : std::vector<float>(static_cast<std::size_t>(ch), 1.f);
  std::vector<float> beta = center ? w[i++].values : std::vector<float>(static_cast<std::size_t>(ch), 0.f);
  auto& op = b.emit("BatchNormalization",
                    {c.inputs[0], b.constant(c.out + "/gamma", {ch}, std::move(gamma)), b.constant(c.out + "/beta", {ch}, std::move(beta)),
                     b.constant(c.out + "/moving_mean", {ch}, w[i].values), b.constant(c.out + "/moving_variance", {ch}, w[i + 1].values)},
                    {b.result(c)}, c.out);
  op.attributes["epsilon"] = b.get_float(c, "epsilon", 1e-3);
  if (xs.size() > 2) op.attributes["layout"] = std::string("NHWC");
  return {op.outputs[0]};
}

std::vector<std::string> layer_norm(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  const Ints axes = norm_axes(b, c, xs.size(), Ints{-1});
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != static_cast<std::int64_t>(xs.size() - axes.size() + i))
      b.fail(c, "normalises axes that are not the trailing ones; not supported");
  if (b.get_bool(c, "rms_scaling", false)) b.fail(c, "rms_scaling=True is not supported");
  Shape ns(xs.end() - static_cast<std::ptrdiff_t>(axes.size()), xs.end());
  const bool scale = b.get_bool(c, "scale", true), center = b.get_bool(c, "center", true);
  std::vector<ExpectedWeight> want;
  if (scale) want.push_back({"gamma", ns});
  if (center) want.push_back({"beta", ns});
  const auto w = b.weights(c, want);
  std::vector<std::string> ins{c.inputs[0], b.constant(c.out + "/gamma", ns, scale ? w[0].values
                                                                                  : std::vector<float>(static_cast<std::size_t>(numel(ns)), 1.f))};
  if (center) ins.push_back(b.constant(c.out + "/beta", ns, w[scale ? 1 : 0].values));
  auto& op = b.emit("LayerNormalization", ins, {b.result(c)}, c.out);
  op.attributes["axis"] = axes.front();
  op.attributes["epsilon"] = b.get_float(c, "epsilon", 1e-3);
  return {op.outputs[0]};
}

// y = (x - mean) / max(sqrt(var), 1e-7), mean and var from the config or the weights.
std::vector<std::string> normalization(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (b.get_bool(c, "invert", false)) b.fail(c, "invert=True is not supported");
  const Ints keep = norm_axes(b, c, xs.size(), Ints{-1});
  Shape stat, bshape(xs.size(), 1);
  for (auto a : keep) {
    stat.push_back(xs[static_cast<std::size_t>(a)]);
    bshape[static_cast<std::size_t>(a)] = xs[static_cast<std::size_t>(a)];
  }
  const std::int64_t n = numel(stat);
  std::vector<float> mean, var;
  auto from_config = [&](const char* key) {
    const json& j = (*c.config)[key];
    std::vector<float> v;
    if (j.is_number()) v.assign(static_cast<std::size_t>(n), j.get<float>());
    else if (j.is_array() && static_cast<std::int64_t>(j.size()) == n)
      for (const auto& e : j) v.push_back(e.is_number() ? e.get<float>() : NAN);
    else b.fail(c, std::string("config '") + key + "' does not have " + std::to_string(n) + " values");
    return v;
  };
  if (b.has(c, "mean") && b.has(c, "variance")) {
    mean = from_config("mean");
    var = from_config("variance");
  } else {
    const auto w = b.weights(c, {{"mean", stat}, {"variance", stat}, {"count", {}}}, 2);
    mean = w[0].values;
    var = w[1].values;
  }
  std::vector<float> inv(var.size());
  for (std::size_t i = 0; i < var.size(); ++i) inv[i] = 1.0f / std::max(std::sqrt(var[i]), 1e-7f);
  const std::string centred = b.tensor(c.out + "/centred");
  b.emit("Sub", {c.inputs[0], b.constant(c.out + "/mean", bshape, std::move(mean))}, {centred}, c.out + "/sub_mean");
  b.emit("Mul", {centred, b.constant(c.out + "/inv_std", bshape, std::move(inv))}, {b.result(c)}, c.out);
  return {c.out};
}

std::vector<std::string> rescaling(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  auto values = [&](const char* key, float fallback) {
    if (!b.has(c, key)) return std::vector<float>{fallback};
    const json& j = (*c.config)[key];
    if (j.is_number()) return std::vector<float>{j.get<float>()};
    std::vector<float> v;
    if (j.is_array() && !j.empty() && static_cast<std::int64_t>(j.size()) == xs.back())
      for (const auto& e : j) v.push_back(e.is_number() ? e.get<float>() : NAN);
    else b.fail(c, std::string("config '") + key + "' is neither a number nor one per channel");
    return v;
  };
  auto scale = values("scale", 1.f), offset = values("offset", 0.f);
  const Shape ss = scale.size() == 1 ? Shape{} : Shape{xs.back()}, os = offset.size() == 1 ? Shape{} : Shape{xs.back()};
  const std::string scaled = b.tensor(c.out + "/scaled");
  b.emit("Mul", {c.inputs[0], b.constant(c.out + "/scale", ss, std::move(scale))}, {scaled}, c.out + "/scale");
  b.emit("Add", {scaled, b.constant(c.out + "/offset", os, std::move(offset))}, {b.result(c)}, c.out);
  return {c.out};
}

// ------------------------------------------------------------ activations

std::vector<std::string> activation_layer(Builder& b, const LayerCall& c) {
  const std::string y = activate(b, c, c.inputs[0]);
  return {y};
}

std::vector<std::string> relu_layer(Builder& b, const LayerCall& c) {
  const double slope = b.get_float(c, "negative_slope", 0.0), threshold = b.get_float(c, "threshold", 0.0);
  const bool has_max = b.has(c, "max_value");
  const double mx = has_max ? b.get_float(c, "max_value") : 0.0;
  if (threshold != 0.0) b.fail(c, "threshold " + std::to_string(threshold) + " is not supported (only 0)");
  const std::string x = c.inputs[0];
  if (slope == 0.0) {
    if (!has_max) return {b.emit("Relu", {x}, {b.result(c)}, c.out).outputs[0]};
    return {b.emit("Clip", {x, b.scalar(c.out + "/min", 0.f), b.scalar(c.out + "/max", static_cast<float>(mx))}, {b.result(c)}, c.out)
                .outputs[0]};
  }
  const std::string leaky = has_max ? b.tensor(c.out + "/leaky") : b.result(c);
  b.emit("LeakyRelu", {x}, {leaky}, c.out).attributes["alpha"] = slope;
  if (!has_max) return {leaky};
  b.emit("Clip", {leaky, "", b.scalar(c.out + "/max", static_cast<float>(mx))}, {b.result(c)}, c.out + "/max");
  return {c.out};
}

std::vector<std::string> leaky_relu_layer(Builder& b, const LayerCall& c) {
  const double a = b.has(c, "negative_slope") ? b.get_float(c, "negative_slope") : b.get_float(c, "alpha", 0.3);
  b.emit("LeakyRelu", {c.inputs[0]}, {b.result(c)}, c.out).attributes["alpha"] = a;
  return {c.out};
}

std::vector<std::string> elu_layer(Builder& b, const LayerCall& c) {
  b.emit("Elu", {c.inputs[0]}, {b.result(c)}, c.out).attributes["alpha"] = b.get_float(c, "alpha", 1.0);
  return {c.out};
}

std::vector<std::string> prelu_layer(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  Shape ps(xs.begin() + 1, xs.end());
  if (b.has(c, "shared_axes"))
    for (auto a : b.get_int_list(c, "shared_axes")) {
      if (a < 1 || a >= static_cast<std::int64_t>(xs.size())) b.fail(c, "shared axis " + std::to_string(a) + " is out of range");
      ps[static_cast<std::size_t>(a - 1)] = 1;
    }
  const auto w = b.weights(c, {{"alpha", ps}});
  b.emit("PRelu", {c.inputs[0], b.constant(c.out + "/alpha", ps, w[0].values)}, {b.result(c)}, c.out);
  return {c.out};
}

std::vector<std::string> softmax_layer(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  const Ints axes = norm_axes(b, c, xs.size(), Ints{-1});
  if (axes.size() != 1) b.fail(c, "softmax over several axes is not supported");
  b.emit("Softmax", {c.inputs[0]}, {b.result(c)}, c.out).attributes["axis"] = axes[0];
  return {c.out};
}

// ------------------------------------------------------------ pooling

std::vector<std::string> pool_core(Builder& b, const LayerCall& c, const std::string& x, int rank, bool max,
                                   const std::string& out) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, x);
  Ints k = b.get_ints(c, "pool_size", static_cast<std::size_t>(rank), Ints(static_cast<std::size_t>(rank), 2));
  Ints s = b.has(c, "strides") ? b.get_ints(c, "strides", static_cast<std::size_t>(rank)) : k;
  if (rank == 1) {
    k.insert(k.begin(), 1);
    s.insert(s.begin(), 1);
  }
  check_positive(b, c, k, "pool size");
  check_positive(b, c, s, "stride");
  auto& op = b.emit(max ? "MaxPool" : "AveragePool", {x}, {out}, c.out);
  op.attributes["kernel_shape"] = k;
  op.attributes["strides"] = s;
  op.attributes["pads"] = window_pads(b, c, padding_of(b, c), xs, k, s, Ints{1, 1});
  op.attributes["layout"] = std::string("NHWC");
  if (!max) op.attributes["count_include_pad"] = std::int64_t{0};
  return {out};
}

template <bool Max>
std::vector<std::string> pool2d(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 4) b.fail(c, "needs a 4-D input, got rank " + std::to_string(xs.size()));
  return pool_core(b, c, c.inputs[0], 2, Max, b.result(c));
}

template <bool Max>
std::vector<std::string> pool1d(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 3) b.fail(c, "needs a 3-D input, got rank " + std::to_string(xs.size()));
  const std::string y2 = pool_core(b, c, to_2d(b, c, c.inputs[0], xs), 1, Max, b.tensor(c.out + "/pool_2d"))[0];
  return {from_2d(b, c, y2, b.result(c))};
}

template <bool Max>
std::vector<std::string> global_pool(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() < 3) b.fail(c, "needs an input of rank 3 or more");
  Ints axes;
  for (std::size_t a = 1; a + 1 < xs.size(); ++a) axes.push_back(static_cast<std::int64_t>(a));
  auto& op = b.emit(Max ? "ReduceMax" : "ReduceMean", {c.inputs[0]}, {b.result(c)}, c.out);
  op.attributes["axes"] = axes;
  op.attributes["keepdims"] = std::int64_t{b.get_bool(c, "keepdims", false) ? 1 : 0};
  return {c.out};
}

// ------------------------------------------------------------ merging

std::vector<std::string> merge(Builder& b, const LayerCall& c, const char* type) {
  std::string acc = c.inputs[0];
  for (std::size_t i = 1; i < c.inputs.size(); ++i) {
    const bool last = i + 1 == c.inputs.size();
    const std::string y = last ? b.result(c) : b.tensor(c.out + "/partial");
    b.emit(type, {acc, c.inputs[i]}, {y}, last ? c.out : c.out + "/partial");
    acc = y;
  }
  return {acc};
}
std::vector<std::string> add(Builder& b, const LayerCall& c) { return merge(b, c, "Add"); }
std::vector<std::string> subtract(Builder& b, const LayerCall& c) { return merge(b, c, "Sub"); }
std::vector<std::string> multiply(Builder& b, const LayerCall& c) { return merge(b, c, "Mul"); }
std::vector<std::string> maximum(Builder& b, const LayerCall& c) { return merge(b, c, "Max"); }
std::vector<std::string> minimum(Builder& b, const LayerCall& c) { return merge(b, c, "Min"); }

std::vector<std::string> average(Builder& b, const LayerCall& c) {
  LayerCall sum = c;
  sum.out = b.fresh(c.out + "/sum");
  const std::string s = merge(b, sum, "Add")[0];
  b.emit("Mul", {s, b.scalar(c.out + "/inv_n", 1.0f / static_cast<float>(c.inputs.size()))}, {b.result(c)}, c.out);
  return {c.out};
}

std::vector<std::string> concatenate(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  std::int64_t axis = b.get_int(c, "axis", -1);
  const auto r = static_cast<std::int64_t>(xs.size());
  if (axis < -r || axis >= r) b.fail(c, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  if (axis < 0) axis += r;
  b.emit("Concat", c.inputs, {b.result(c)}, c.out).attributes["axis"] = axis;
  return {c.out};
}

// ------------------------------------------------------------ shape and data movement

std::vector<std::string> reshape(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  Ints target{xs[0]};
  for (auto v : b.get_int_list(c, "target_shape")) {
    if (v < -1 || v == 0) b.fail(c, "target_shape holds " + std::to_string(v));
    target.push_back(v);
  }
  b.emit("Reshape", {c.inputs[0], b.ints(c.out + "/shape", target)}, {b.result(c)}, c.out);
  return {c.out};
}

std::vector<std::string> flatten(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, c.inputs[0]);
  b.emit("Reshape", {c.inputs[0], b.ints(c.out + "/shape", {xs[0], xs.size() > 1 ? numel(xs) / std::max<std::int64_t>(xs[0], 1) : 1})},
         {b.result(c)}, c.out);
  return {c.out};
}

std::vector<std::string> permute(Builder& b, const LayerCall& c) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  Ints perm{0};
  for (auto v : b.get_int_list(c, "dims")) perm.push_back(v);
  Ints sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<std::int64_t>(i) || sorted.size() != xs.size())
      b.fail(c, "dims is not a permutation of 1.." + std::to_string(xs.size() - 1));
  b.emit("Transpose", {c.inputs[0]}, {b.result(c)}, c.out).attributes["perm"] = perm;
  return {c.out};
}

std::vector<std::string> identity(Builder&, const LayerCall& c) { return {c.inputs[0]}; }

// ((top, bottom), (left, right)) from an int, a pair or a pair of pairs.
Ints pairs2d(Builder& b, const LayerCall& c, const char* key, std::int64_t fallback) {
  if (!b.has(c, key)) return Ints(4, fallback);
  const json& j = (*c.config)[key];
  auto as_int = [&](const json& v) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > (1 << 20))
      b.fail(c, std::string("config '") + key + "' holds " + util::json_excerpt(v) + ", not a size");
    return v.get<std::int64_t>();
  };
  if (j.is_number_integer()) return Ints(4, as_int(j));
  if (j.is_array() && j.size() == 2 && j[0].is_number_integer()) return {as_int(j[0]), as_int(j[0]), as_int(j[1]), as_int(j[1])};
  if (j.is_array() && j.size() == 2 && j[0].is_array() && j[1].is_array() && j[0].size() == 2 && j[1].size() == 2)
    return {as_int(j[0][0]), as_int(j[0][1]), as_int(j[1][0]), as_int(j[1][1])};
  b.fail(c, std::string("config '") + key + "' is not an int, a pair or a pair of pairs");
}

std::vector<std::string> zero_padding2d(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 4) b.fail(c, "needs a 4-D input");
  const Ints p = pairs2d(b, c, "padding", 1);  // t, b, l, r
  b.emit("Pad", {c.inputs[0], b.ints(c.out + "/pads", {0, p[0], p[2], 0, 0, p[1], p[3], 0})}, {b.result(c)}, c.out)
      .attributes["mode"] = std::string("constant");
  return {c.out};
}

std::vector<std::string> cropping2d(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 4) b.fail(c, "needs a 4-D input");
  const Ints p = pairs2d(b, c, "cropping", 0);
  if (p[0] + p[1] >= xs[1] || p[2] + p[3] >= xs[2]) b.fail(c, "crops the whole input away");
  b.emit("Slice", {c.inputs[0], b.ints(c.out + "/starts", {p[0], p[2]}), b.ints(c.out + "/ends", {xs[1] - p[1], xs[2] - p[3]}),
                   b.ints(c.out + "/axes", {1, 2})},
         {b.result(c)}, c.out);
  return {c.out};
}

// UpSampling2D: integer factors; nearest picks floor(o / s) (TensorFlow's half-pixel
// nearest gives the same for integer factors), bilinear is half-pixel.
std::vector<std::string> upsampling2d(Builder& b, const LayerCall& c) {
  channels_last(b, c);
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 4) b.fail(c, "needs a 4-D input");
  const Ints s = b.get_ints(c, "size", 2, Ints{2, 2});
  check_positive(b, c, s, "size", 1 << 10);
  const std::string mode = b.get_string(c, "interpolation", std::string("nearest"));
  if (mode != "nearest" && mode != "bilinear")
    b.fail(c, "interpolation '" + excerpt(mode, 20) + "' is not supported (nearest, bilinear)");
  auto& op = b.emit("Resize", {c.inputs[0], "", "", b.ints(c.out + "/sizes", {xs[0], xs[1] * s[0], xs[2] * s[1], xs[3]})},
                    {b.result(c)}, c.out);
  if (mode == "nearest") {
    op.attributes["mode"] = std::string("nearest");
    op.attributes["coordinate_transformation_mode"] = std::string("asymmetric");
    op.attributes["nearest_mode"] = std::string("floor");
  } else {
    op.attributes["mode"] = std::string("linear");
    op.attributes["coordinate_transformation_mode"] = std::string("half_pixel");
  }
  return {c.out};
}

std::vector<std::string> embedding(Builder& b, const LayerCall& c) {
  const std::int64_t vocab = b.get_int(c, "input_dim"), dim = b.get_int(c, "output_dim");
  check_positive(b, c, {vocab, dim}, "input_dim/output_dim", 1 << 26);
  if (b.get_bool(c, "mask_zero", false))
    b.fail(c, "mask_zero=True (padding steps masked in the layers that follow) is not supported");
  const auto w = b.weights(c, {{"embeddings", {vocab, dim}}});
  std::string idx = c.inputs[0];
  const ir::DType dt = b.dtype_of(idx);
  if (dt != ir::DType::Int32 && dt != ir::DType::Int64) {
    const std::string cast = b.tensor(c.out + "/indices", ir::DType::Int64);
    b.emit("Cast", {idx}, {cast}, c.out + "/indices").attributes["to"] = std::string("i64");
    idx = cast;
  }
  b.emit("Gather", {b.constant(c.out + "/embeddings", {vocab, dim}, w[0].values), idx}, {b.result(c)}, c.out)
      .attributes["axis"] = std::int64_t{0};
  return {c.out};
}

// ------------------------------------------------------------ recurrent

std::string onnx_activation(Builder& b, const LayerCall& c, const char* key, const char* fallback, std::vector<double>& alpha,
                            std::vector<double>& beta) {
  const json* j = c.config->contains(key) ? &(*c.config)[key] : nullptr;
  const std::string n = strip_package(j && !j->is_null() ? act_name(*j) : fallback);
  if (n == "sigmoid") { alpha.push_back(0); beta.push_back(0); return "Sigmoid"; }
  if (n == "tanh") { alpha.push_back(0); beta.push_back(0); return "Tanh"; }
  if (n == "relu") { alpha.push_back(0); beta.push_back(0); return "Relu"; }
  if (n == "hard_sigmoid") {
    alpha.push_back(b.keras_major() >= 3 ? 1.0 / 6.0 : 0.2);
    beta.push_back(0.5);
    return "HardSigmoid";
  }
  if (n == "linear") { alpha.push_back(1); beta.push_back(0); return "Affine"; }
  b.fail(c, std::string(key) + " '" + excerpt(n, 30) + "' is not supported in a recurrent layer (sigmoid, tanh, relu, "
                                                       "hard_sigmoid, linear)");
}

// LSTM (4 gates) and GRU (3): the IR's ONNX op (layout 1: batch first), then the
// Keras outputs: the sequence or the last state, and the states with return_state.
std::vector<std::string> recurrent(Builder& b, const LayerCall& c, bool lstm) {
  const Shape xs = b.shape_of(c, c.inputs[0]);
  if (xs.size() != 3) b.fail(c, "needs a 3-D input [batch, steps, features], got rank " + std::to_string(xs.size()));
  if (b.get_bool(c, "time_major", false)) b.fail(c, "time_major=True is not supported");
  if (b.get_bool(c, "stateful", false)) b.fail(c, "stateful=True is not supported (states start at zero)");
  const std::int64_t U = b.get_int(c, "units"), I = xs[2], G = lstm ? 4 : 3;
  check_positive(b, c, {U}, "units", 1 << 16);
  const bool bias = b.get_bool(c, "use_bias", true);
  const bool reset_after = !lstm && b.get_bool(c, "reset_after", true);
  std::vector<ExpectedWeight> want{{"kernel", {I, G * U}}, {"recurrent_kernel", {U, G * U}}};
  if (bias) want.push_back({"bias", reset_after ? Shape{2, G * U} : Shape{G * U}});
  const auto w = b.weights(c, want);
  // ONNX gate g takes Keras block kmap[g]: LSTM i,o,f,c <- Keras i,f,c,o; GRU z,r,h as is.
  const std::vector<std::int64_t> kmap = lstm ? Ints{0, 3, 1, 2} : Ints{0, 1, 2};
  auto gates_t = [&](const WeightArray& k, std::int64_t rows) {  // [rows, G*U] -> [G*U, rows] reordered
    std::vector<float> out(static_cast<std::size_t>(G * U * rows));
    for (std::int64_t g = 0; g < G; ++g)
      for (std::int64_t u = 0; u < U; ++u)
        for (std::int64_t r = 0; r < rows; ++r)
          out[static_cast<std::size_t>((g * U + u) * rows + r)] = k.values[static_cast<std::size_t>(r * G * U + kmap[static_cast<std::size_t>(g)] * U + u)];
    return out;
  };
  std::vector<float> B(static_cast<std::size_t>(2 * G * U), 0.f);
  if (bias)
    for (std::int64_t half = 0; half < (reset_after ? 2 : 1); ++half)
      for (std::int64_t g = 0; g < G; ++g)
        for (std::int64_t u = 0; u < U; ++u)
          B[static_cast<std::size_t>(half * G * U + g * U + u)] =
              w[2].values[static_cast<std::size_t>(half * G * U + kmap[static_cast<std::size_t>(g)] * U + u)];
  std::vector<double> alpha, beta;
  std::vector<std::string> acts{onnx_activation(b, c, "recurrent_activation", "sigmoid", alpha, beta),
                                onnx_activation(b, c, "activation", "tanh", alpha, beta)};
  if (lstm) {
    acts.push_back(acts[1]);
    alpha.push_back(alpha[1]);
    beta.push_back(beta[1]);
  }
  const bool seq = b.get_bool(c, "return_sequences", false), state = b.get_bool(c, "return_state", false),
             backwards = b.get_bool(c, "go_backwards", false);
  const std::string Y = b.tensor(c.out + "/onnx_y"), Yh = b.tensor(c.out + "/onnx_h");
  std::vector<std::string> outs{Y, Yh};
  if (lstm) outs.push_back(b.tensor(c.out + "/onnx_c"));
  auto& op = b.emit(lstm ? "LSTM" : "GRU",
                    {c.inputs[0], b.constant(c.out + "/W", {1, G * U, I}, gates_t(w[0], I)),
                     b.constant(c.out + "/R", {1, G * U, U}, gates_t(w[1], U)), b.constant(c.out + "/B", {1, 2 * G * U}, std::move(B))},
                    outs, c.out);
  op.attributes["hidden_size"] = U;
  op.attributes["layout"] = std::int64_t{1};
  op.attributes["direction"] = std::string(backwards ? "reverse" : "forward");
  if (!lstm) op.attributes["linear_before_reset"] = std::int64_t{reset_after ? 1 : 0};
  const bool plain = acts[0] == "Sigmoid" && acts[1] == "Tanh";
  if (!plain) {
    op.attributes["activations"] = acts;
    op.attributes["activation_alpha"] = alpha;
    op.attributes["activation_beta"] = beta;
  }
  const std::int64_t N = xs[0], T = xs[1];
  std::vector<std::string> result;
  if (seq) {
    std::string y = backwards ? b.tensor(c.out + "/sequence") : b.result(c);
    b.emit("Reshape", {Y, b.ints(c.out + "/seq_shape", {N, T, U})}, {y}, c.out + "/sequence");
    if (backwards) {  // Keras returns the reversed run in its own (reversed) order
      const std::string r = b.result(c);
      b.emit("Slice", {y, b.ints(c.out + "/starts", {-1}), b.ints(c.out + "/ends", {INT64_MIN}), b.ints(c.out + "/axes", {1}),
                       b.ints(c.out + "/steps", {-1})},
             {r}, c.out + "/reverse");
      y = r;
    }
    result.push_back(y);
  } else {
    result.push_back(b.result(c));
    b.emit("Reshape", {Yh, b.ints(c.out + "/last_shape", {N, U})}, {result.back()}, c.out + "/last");
  }
  if (state)
    for (std::size_t i = 1; i < outs.size(); ++i) {
      const std::string s = b.result(c, i == 1 ? "/state_h" : "/state_c");
      b.emit("Reshape", {outs[i], b.ints(c.out + "/state_shape", {N, U})}, {s}, s);
      result.push_back(s);
    }
  return result;
}

std::vector<std::string> lstm(Builder& b, const LayerCall& c) { return recurrent(b, c, true); }
std::vector<std::string> gru(Builder& b, const LayerCall& c) { return recurrent(b, c, false); }

}  // namespace

// ------------------------------------------------------------ the table

const std::vector<LayerEntry>& layer_table() {
  static const std::vector<LayerEntry> kTable{
      // convolution
      {"Conv2D", &conv2d, 1, 1, "Conv (NHWC, OHWI weights), groups, dilation"},
      {"Convolution2D", &conv2d, 1, 1, "alias of Conv2D"},
      {"Conv1D", &conv1d, 1, 1, "Conv over [N, 1, L, C]; padding causal too"},
      {"Convolution1D", &conv1d, 1, 1, "alias of Conv1D"},
      {"DepthwiseConv2D", &depthwise_conv2d, 1, 1, "Conv with group = channels"},
      {"SeparableConv2D", &separable_conv2d, 1, 1, "depthwise Conv + 1x1 Conv"},
      {"SeparableConvolution2D", &separable_conv2d, 1, 1, "alias of SeparableConv2D"},
      {"Conv2DTranspose", &conv2d_transpose, 1, 1, "ConvTranspose between NHWC<->NCHW Transposes"},
      {"Convolution2DTranspose", &conv2d_transpose, 1, 1, "alias of Conv2DTranspose"},
      // linear and normalisation
      {"Dense", &dense, 1, 1, "Gemm (rank 2) or MatMul + Add on the last axis"},
      {"BatchNormalization", &batch_norm, 1, 1, "BatchNormalization (NHWC), last axis"},
      {"LayerNormalization", &layer_norm, 1, 1, "LayerNormalization over trailing axes"},
      {"Normalization", &normalization, 1, 1, "Sub + Mul with the adapted mean/variance"},
      {"Rescaling", &rescaling, 1, 1, "Mul + Add"},
      {"Embedding", &embedding, 1, 1, "Gather (indices cast to int64)"},
      // activations
      {"Activation", &activation_layer, 1, 1, "the named activation"},
      {"ReLU", &relu_layer, 1, 1, "Relu, Clip (max_value), LeakyRelu (negative_slope)"},
      {"LeakyReLU", &leaky_relu_layer, 1, 1, "LeakyRelu"},
      {"PReLU", &prelu_layer, 1, 1, "PRelu (shared_axes)"},
      {"ELU", &elu_layer, 1, 1, "Elu"},
      {"Softmax", &softmax_layer, 1, 1, "Softmax"},
      // pooling
      {"MaxPooling2D", &pool2d<true>, 1, 1, "MaxPool (NHWC)"},
      {"MaxPool2D", &pool2d<true>, 1, 1, "alias of MaxPooling2D"},
      {"AveragePooling2D", &pool2d<false>, 1, 1, "AveragePool (NHWC, padding not counted)"},
      {"AvgPool2D", &pool2d<false>, 1, 1, "alias of AveragePooling2D"},
      {"MaxPooling1D", &pool1d<true>, 1, 1, "MaxPool over [N, 1, L, C]"},
      {"MaxPool1D", &pool1d<true>, 1, 1, "alias of MaxPooling1D"},
      {"AveragePooling1D", &pool1d<false>, 1, 1, "AveragePool over [N, 1, L, C]"},
      {"AvgPool1D", &pool1d<false>, 1, 1, "alias of AveragePooling1D"},
      {"GlobalAveragePooling2D", &global_pool<false>, 1, 1, "ReduceMean over H, W (keepdims)"},
      {"GlobalAvgPool2D", &global_pool<false>, 1, 1, "alias of GlobalAveragePooling2D"},
      {"GlobalMaxPooling2D", &global_pool<true>, 1, 1, "ReduceMax over H, W (keepdims)"},
      {"GlobalMaxPool2D", &global_pool<true>, 1, 1, "alias of GlobalMaxPooling2D"},
      {"GlobalAveragePooling1D", &global_pool<false>, 1, 1, "ReduceMean over steps"},
      {"GlobalAvgPool1D", &global_pool<false>, 1, 1, "alias of GlobalAveragePooling1D"},
      {"GlobalMaxPooling1D", &global_pool<true>, 1, 1, "ReduceMax over steps"},
      {"GlobalMaxPool1D", &global_pool<true>, 1, 1, "alias of GlobalMaxPooling1D"},
      // merging
      {"Add", &add, 2, -1, "Add chain"},
      {"Subtract", &subtract, 2, 2, "Sub"},
      {"Multiply", &multiply, 2, -1, "Mul chain"},
      {"Average", &average, 2, -1, "Add chain, Mul 1/n"},
      {"Maximum", &maximum, 2, -1, "Max chain"},
      {"Minimum", &minimum, 2, -1, "Min chain"},
      {"Concatenate", &concatenate, 1, -1, "Concat"},
      // shape and data movement
      {"Reshape", &reshape, 1, 1, "Reshape (batch kept)"},
      {"Flatten", &flatten, 1, 1, "Reshape to [N, -1] (NHWC order, as Keras)"},
      {"Permute", &permute, 1, 1, "Transpose"},
      {"ZeroPadding2D", &zero_padding2d, 1, 1, "Pad"},
      {"Cropping2D", &cropping2d, 1, 1, "Slice"},
      {"UpSampling2D", &upsampling2d, 1, 1, "Resize (nearest, bilinear)"},
      {"Dropout", &identity, 1, 1, "identity at inference"},
      {"SpatialDropout1D", &identity, 1, 1, "identity at inference"},
      {"SpatialDropout2D", &identity, 1, 1, "identity at inference"},
      {"GaussianNoise", &identity, 1, 1, "identity at inference"},
      {"GaussianDropout", &identity, 1, 1, "identity at inference"},
      {"AlphaDropout", &identity, 1, 1, "identity at inference"},
      {"ActivityRegularization", &identity, 1, 1, "identity at inference"},
      // recurrent
      {"LSTM", &lstm, 1, 1, "LSTM (gates i,f,c,o -> ONNX i,o,f,c), return_sequences/state, go_backwards"},
      {"GRU", &gru, 1, 1, "GRU (z,r,h), reset_after -> linear_before_reset"},
  };
  return kTable;
}

const LayerEntry* find_layer(const std::string& cls) {
  for (const auto& e : layer_table())
    if (cls == e.cls) return &e;
  return nullptr;
}

}  // namespace ec::frontends::keras
