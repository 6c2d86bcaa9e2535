// LSTM, GRU and RNN (ONNX semantics) unrolled over their static sequence, in ops every
// TFLite runtime has (and the Edge TPU maps once quantised):
//
//   xw = FullyConnected(X as [T*B, I], W_d, Wb + Rb)   the input part of every step at once
//   per step t (reversed for the reverse direction), gates = xw_t + FullyConnected(h, R_d):
//   LSTM (gates i, o, f, c):  c = f c + i tanh(c~), h = o tanh(c)
//   GRU  (gates z, r, h):     n = tanh(xh + r (h Rh + Rbh))   (linear_before_reset = 1)
//                                 tanh(xh + (r h) Rh + Rbh)   (linear_before_reset = 0)
//                             h = n + z (h - n)
//   RNN (one gate):           h = f(clip(xw_t + h R))      f per direction (default Tanh)
//   Y = Concat of the steps' h as [T, dirs, B, H] (layout 1: [B, T, dirs, H]); Y_h, Y_c the last ones.
// LSTM / GRU: only the default activations and no clip; RNN: any activation the ONNX spec
// lists, alpha / beta read by activation index as the CPU runtime does, and clip. No
// peepholes, all sequences full length.
#include <algorithm>
#include <cstring>
#include <variant>

#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;

bool present(const ir::Operation& op, std::size_t i) { return op.inputs.size() > i && !op.inputs[i].empty(); }

bool all_zero(const std::vector<float>& v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return x == 0.f; });
}

std::vector<float> rows(const std::vector<float>& v, std::size_t begin, std::size_t count, std::size_t width) {
  return {v.begin() + static_cast<std::ptrdiff_t>(begin * width), v.begin() + static_cast<std::ptrdiff_t>((begin + count) * width)};
}

// An RNN activation's defaults, as the CPU runtime's (core/runtime/kernels/recurrent.cpp).
double default_alpha(const std::string& n) { return n == "LeakyRelu" ? 0.01 : n == "HardSigmoid" ? 0.2 : 1.0; }
double default_beta(const std::string& n) { return n == "HardSigmoid" ? 0.5 : n == "Affine" ? 0.0 : 1.0; }

struct Activation {
  std::string name;
  double alpha, beta;
};

bool known_activation(const std::string& n) {
  for (const char* k : {"Tanh", "Sigmoid", "Relu", "LeakyRelu", "ThresholdedRelu", "HardSigmoid", "Elu", "Softsign", "Softplus",
                        "Affine", "ScaledTanh"})
    if (n == k) return true;
  return false;
}

// f(v) as IR ops; ThresholdedRelu, HardSigmoid, Elu (alpha != 1), Softsign and Softplus are
// decomposed by LegaliseTflite's later steps.
std::string activate(OpBuilder& b, const Activation& a, const std::string& v) {
  using K = ir::OpKind;
  auto c = [&](const char* n, double x) { return b.f32_scalar(n, static_cast<float>(x)); };
  if (a.name == "Tanh") return b.op1(K::Tanh, {v});
  if (a.name == "Sigmoid") return b.op1(K::Sigmoid, {v});
  if (a.name == "Relu") return b.op1(K::Relu, {v});
  if (a.name == "Softsign") return b.op1(K::Softsign, {v});
  if (a.name == "Softplus") return b.op1(K::Softplus, {v});
  if (a.name == "LeakyRelu") return b.op1(K::LeakyRelu, {v}, {{"alpha", a.alpha}});
  if (a.name == "ThresholdedRelu") return b.op1(K::ThresholdedRelu, {v}, {{"alpha", a.alpha}});
  if (a.name == "Elu") return b.op1(K::Elu, {v}, {{"alpha", a.alpha}});
  if (a.name == "HardSigmoid") return b.op1(K::HardSigmoid, {v}, {{"alpha", a.alpha}, {"beta", a.beta}});
  if (a.name == "Affine") return b.op1(K::Add, {b.op1(K::Mul, {v, c("alpha", a.alpha)}), c("beta", a.beta)});
  // ScaledTanh: alpha tanh(beta v)
  return b.op1(K::Mul, {b.op1(K::Tanh, {b.op1(K::Mul, {v, c("beta", a.beta)})}), c("alpha", a.alpha)});
}

}  // namespace

std::size_t recurrent(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::LSTM && op.kind != K::GRU && op.kind != K::RNN) return 0;
  auto refuse = [&](const std::string& w) {
    if (why) *why = w;
    return std::size_t{0};
  };
  const bool lstm = op.kind == K::LSTM, rnn = op.kind == K::RNN;
  const std::int64_t G = lstm ? 4 : rnn ? 1 : 3;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || x->dtype != ir::DType::Float32 || x->quant || !x->shape.rank_known || x->shape.rank() != 3 || !x->shape.is_static())
    return refuse(op.op_type + " needs a float input of static shape [T, B, I] to unroll");
  const std::int64_t layout = op.attr_int("layout", 0);
  const auto xs = x->shape.sizes();
  const std::int64_t T = layout ? xs[1] : xs[0], B = layout ? xs[0] : xs[1], I = xs[2];
  // Weights and bias: constants (FullyConnected weights), or float tensors of static
  // shape computed at run time (sliced per direction, MatMul against their transpose).
  const auto W = f32_values(g, op.inputs[1]), R = f32_values(g, op.inputs[2]);
  auto runtime_ok = [&](std::size_t i) {
    return detail::is_float(g, op.inputs[i]) && detail::static_shape(g, op.inputs[i]) &&
           detail::static_shape(g, op.inputs[i])->size() == (i == 3 ? 2u : 3u);
  };
  if ((!W && !runtime_ok(1)) || (!R && !runtime_ok(2)))
    return refuse(op.op_type + " with weights neither constant nor float of static shape");
  auto count = [&](const std::optional<std::vector<float>>& v, std::size_t i) {
    if (v) return static_cast<std::int64_t>(v->size());
    const auto shape = detail::static_shape(g, op.inputs[i]);
    std::int64_t n = 1;
    for (auto e : *shape) n *= e;
    return n;
  };
  const std::string dir = op.attr_string("direction", "forward");
  const std::int64_t dirs = dir == "bidirectional" ? 2 : 1;
  std::int64_t H = op.attr_int("hidden_size", 0);
  if (H <= 0) {
    const ir::Tensor* rt = g.find_tensor(op.inputs[2]);
    if (!rt || !rt->shape.rank_known || rt->shape.rank() != 3 || !rt->shape.dims[2].is_static())
      return refuse(op.op_type + " without hidden_size");
    H = rt->shape.dims[2].value;
  }
  if (count(W, 1) != dirs * G * H * I || count(R, 2) != dirs * G * H * H)
    return refuse(op.op_type + " weights do not match hidden_size " + std::to_string(H));
  std::vector<Activation> acts;  // RNN: one per direction
  if (rnn) {
    std::vector<std::string> names;
    if (const auto* a = op.attr("activations"))
      if (const auto* v = std::get_if<std::vector<std::string>>(a)) names = *v;
    std::vector<double> alphas, betas;
    if (const auto* a = op.attr("activation_alpha"))
      if (const auto* v = std::get_if<std::vector<double>>(a)) alphas = *v;
    if (const auto* a = op.attr("activation_beta"))
      if (const auto* v = std::get_if<std::vector<double>>(a)) betas = *v;
    for (std::size_t d = 0; d < static_cast<std::size_t>(dirs); ++d) {
      const std::string n = d < names.size() ? names[d] : "Tanh";
      if (!known_activation(n)) return refuse("RNN with activation " + n);
      acts.push_back({n, d < alphas.size() ? alphas[d] : default_alpha(n), d < betas.size() ? betas[d] : default_beta(n)});
    }
  } else {
    if (op.attr("activations") || op.attr("activation_alpha") || op.attr("activation_beta"))
      return refuse(op.op_type + " with non-default activations");
    if (op.attr("clip")) return refuse(op.op_type + " with clip");
  }
  const ir::Attribute* clip_attr = op.attr("clip");
  const double* clip = clip_attr ? std::get_if<double>(clip_attr) : nullptr;
  if (clip_attr && !clip) return refuse(op.op_type + " with a non-float clip");
  if (lstm && op.attr_int("input_forget", 0) != 0) return refuse("LSTM with input_forget");
  std::vector<float> bias(static_cast<std::size_t>(dirs * 2 * G * H), 0.f);
  bool runtime_bias = false;
  if (present(op, 3)) {
    const auto bv = f32_values(g, op.inputs[3]);
    runtime_bias = !bv;
    if (runtime_bias ? !runtime_ok(3) || count(bv, 3) != static_cast<std::int64_t>(bias.size()) : bv->size() != bias.size())
      return refuse(op.op_type + " with a bias neither constant nor float of static shape [dirs, " + std::to_string(2 * G * H) + "]");
    if (bv) bias = *bv;
  }
  if (present(op, 4)) {
    const ir::Tensor* sl = g.find_tensor(op.inputs[4]);
    bool full = sl && sl->is_constant() && (sl->dtype == ir::DType::Int32 || sl->dtype == ir::DType::Int64);
    if (full)
      for (std::size_t i = 0; i < static_cast<std::size_t>(B); ++i) {
        const std::int64_t v = sl->dtype == ir::DType::Int32 ? sl->data->as<std::int32_t>()[i] : sl->data->as<std::int64_t>()[i];
        full &= v == T;
      }
    if (!full) return refuse(op.op_type + " with sequence_lens shorter than the sequence");
  }
  if (lstm && present(op, 7)) {
    const auto p = f32_values(g, op.inputs[7]);
    if (!p || !all_zero(*p)) return refuse("LSTM with peepholes");
  }
  // Initial states: a constant of zeros is the same as none.
  auto initial = [&](std::size_t i) -> std::optional<std::string> {
    if (!present(op, i)) return std::nullopt;
    if (const auto v = f32_values(g, op.inputs[i]); v && all_zero(*v)) return std::nullopt;
    return op.inputs[i];
  };
  const auto h0 = initial(5), c0 = lstm ? initial(6) : std::nullopt;
  const bool op_is_gru = op.kind == K::GRU;
  const bool lbr = op_is_gru && op.attr_int("linear_before_reset", 0) != 0;

  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  // A weight block [rows, cols]: a constant in FullyConnected's [out, in] form, or a run-time
  // tensor already transposed to MatMul's [in, out].
  struct Weight {
    std::string name;
    bool constant;
  };
  // rows [begin, begin + n) of direction d of input `i` ([dirs, per_dir, width]).
  auto block = [&](std::size_t i, const std::optional<std::vector<float>>& v, std::int64_t d, std::int64_t per_dir,
                   std::int64_t begin, std::int64_t n, std::int64_t width, const char* what) -> Weight {
    if (v)
      return {b.f32(what, {n, width}, rows(*v, static_cast<std::size_t>(d * per_dir + begin), static_cast<std::size_t>(n),
                                           static_cast<std::size_t>(width))),
              true};
    const std::string sl = b.op1(K::Slice, {op.inputs[i], b.i64("starts", {d, begin, 0}), b.i64("ends", {d + 1, begin + n, width})});
    return {b.op1(K::Transpose, {b.reshape(sl, {n, width})}, {{"perm", std::vector<std::int64_t>{1, 0}}}), false};
  };
  auto fc = [&](const std::string& in, const Weight& w, const std::string& bias_name) {
    if (!w.constant) {
      const std::string y = b.op1(K::MatMul, {in, w.name});
      return bias_name.empty() ? y : b.op1(K::Add, {y, bias_name});
    }
    std::vector<std::string> ins{in, w.name};
    if (!bias_name.empty()) ins.push_back(bias_name);
    return b.op1(K::FullyConnected, ins);
  };
  // Elements [begin, begin + n) of direction d's bias row, as [n] (run-time bias).
  auto bias_part = [&](std::int64_t d, std::int64_t begin, std::int64_t n) {
    return b.reshape(b.op1(K::Slice, {op.inputs[3], b.i64("starts", {d, begin}), b.i64("ends", {d + 1, begin + n})}), {n});
  };
  auto split = [&](const std::string& v, std::int64_t n, std::int64_t axis) {
    std::vector<std::string> outs;
    for (std::int64_t i = 0; i < n; ++i) outs.push_back(b.activation("part", ir::DType::Float32));
    b.op(K::Split, {v}, outs, {{"axis", axis}});
    return outs;
  };
  auto state_of = [&](const std::optional<std::string>& s, std::int64_t d, const char* what) {
    if (!s) return b.f32(what, {B, H}, std::vector<float>(static_cast<std::size_t>(B * H), 0.f));
    // [dirs, B, H] (layout 1: [B, dirs, H]) -> direction d as [B, H]
    const std::vector<std::int64_t> starts = layout ? std::vector<std::int64_t>{0, d, 0} : std::vector<std::int64_t>{d, 0, 0};
    const std::vector<std::int64_t> ends = layout ? std::vector<std::int64_t>{B, d + 1, H} : std::vector<std::int64_t>{d + 1, B, H};
    const std::string sl = b.op1(K::Slice, {*s, b.i64("starts", starts), b.i64("ends", ends)});
    return b.reshape(sl, {B, H});
  };

  std::string xt = op.inputs[0];
  if (layout) xt = b.op1(K::Transpose, {xt}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
  const std::string x2 = b.reshape(xt, {T * B, I});
  std::vector<std::vector<std::string>> hs(static_cast<std::size_t>(dirs));  // per direction, h of each step in time order
  std::vector<std::string> h_last, c_last;
  const auto GH = static_cast<std::size_t>(G * H), Hs = static_cast<std::size_t>(H);
  for (std::int64_t d = 0; d < dirs; ++d) {
    const auto du = static_cast<std::size_t>(d);
    const float* wb = bias.data() + du * 2 * GH;
    const float* rb = wb + GH;
    // the input part's bias: Wb + Rb (GRU with linear_before_reset: Rbh stays inside r (...))
    std::string bias_x, rbh;
    if (runtime_bias) {
      std::string rbx = bias_part(d, G * H, G * H);
      if (lbr) {
        std::vector<float> keep(GH, 1.f);
        std::fill(keep.begin() + 2 * H, keep.end(), 0.f);
        rbx = b.op1(K::Mul, {rbx, b.f32("keep_zr", {G * H}, keep)});
        rbh = bias_part(d, G * H + 2 * H, H);
      }
      bias_x = b.op1(K::Add, {bias_part(d, 0, G * H), rbx});
    } else {
      std::vector<float> bx(GH);
      for (std::size_t i = 0; i < GH; ++i) bx[i] = wb[i] + ((lbr && i >= 2 * Hs) ? 0.f : rb[i]);
      bias_x = b.f32("bias", {G * H}, bx);
      if (lbr) rbh = b.f32("rb_h", {H}, std::vector<float>(rb + 2 * Hs, rb + 3 * Hs));
    }
    const std::string xw = fc(x2, block(1, W, d, G * H, 0, G * H, I, "w"), bias_x);
    std::vector<std::string> steps;
    if (T == 1) steps = {xw};
    else
      for (const auto& s : split(b.reshape(xw, {T, B * G * H}), T, 0)) steps.push_back(b.reshape(s, {B, G * H}));
    // A zero initial state (none, or a constant of zeros) contributes nothing to the first step:
    // its terms are left out, rather than computed from a constant of zeros (which would
    // stay float when quantised: a zero range has no int8 scale).
    bool h_zero = !h0, c_zero = lstm && !c0;
    std::string h = h_zero ? std::string() : state_of(h0, d, "h0");
    std::string c = lstm && !c_zero ? state_of(c0, d, "c0") : std::string();
    hs[du].assign(static_cast<std::size_t>(T), {});
    const bool reverse = dir == "reverse" || d == 1;
    Weight r_all, r_zr, r_h;
    if (!op_is_gru) r_all = block(2, R, d, G * H, 0, G * H, H, "r");
    else {
      r_zr = block(2, R, d, G * H, 0, 2 * H, H, "r_zr");
      r_h = block(2, R, d, G * H, 2 * H, H, H, "r_h");
    }
    for (std::int64_t k = 0; k < T; ++k) {
      const std::int64_t t = reverse ? T - 1 - k : k;
      const std::string& gx = steps[static_cast<std::size_t>(t)];
      if (rnn) {
        std::string v = h_zero ? gx : b.op1(K::Add, {gx, fc(h, r_all, "")});
        if (clip)
          v = b.op1(K::Clip, {v, b.f32_scalar("clip_min", static_cast<float>(-*clip)), b.f32_scalar("clip_max", static_cast<float>(*clip))});
        h = activate(b, acts[du], v);
      } else if (lstm) {
        const auto p = split(h_zero ? gx : b.op1(K::Add, {gx, fc(h, r_all, "")}), 4, 1);  // i, o, f, c~
        const std::string i = b.op1(K::Sigmoid, {p[0]}), o = b.op1(K::Sigmoid, {p[1]});
        const std::string ic = b.op1(K::Mul, {i, b.op1(K::Tanh, {p[3]})});
        c = c_zero ? ic : b.op1(K::Add, {b.op1(K::Mul, {b.op1(K::Sigmoid, {p[2]}), c}), ic});
        h = b.op1(K::Mul, {o, b.op1(K::Tanh, {c})});
      } else {
        const auto xp = split(gx, 3, 1);  // z, r, h
        if (h_zero) {
          // h = 0: z = sigmoid(xz), n = tanh(xh + r Rbh) (r's other term is 0), h' = n - z n
          const std::string z = b.op1(K::Sigmoid, {xp[0]});
          std::string xn = xp[2];
          if (lbr) xn = b.op1(K::Add, {xn, b.op1(K::Mul, {b.op1(K::Sigmoid, {xp[1]}), rbh})});
          const std::string n = b.op1(K::Tanh, {xn});
          h = b.op1(K::Sub, {n, b.op1(K::Mul, {z, n})});
        } else {
          const auto hp = split(fc(h, r_zr, ""), 2, 1);
          const std::string z = b.op1(K::Sigmoid, {b.op1(K::Add, {xp[0], hp[0]})});
          const std::string r = b.op1(K::Sigmoid, {b.op1(K::Add, {xp[1], hp[1]})});
          const std::string hh = lbr ? b.op1(K::Mul, {r, fc(h, r_h, rbh)}) : fc(b.op1(K::Mul, {r, h}), r_h, "");
          const std::string n = b.op1(K::Tanh, {b.op1(K::Add, {xp[2], hh})});
          h = b.op1(K::Add, {n, b.op1(K::Mul, {z, b.op1(K::Sub, {h, n})})});
        }
      }
      hs[du][static_cast<std::size_t>(t)] = h;
      h_zero = c_zero = false;
    }
    h_last.push_back(h);
    c_last.push_back(c);
  }
  // Outputs: each written by the last op made for it.
  auto concat = [&](const std::vector<std::string>& v, std::int64_t axis) {
    return v.size() == 1 ? v[0] : b.op1(K::Concat, v, {{"axis", axis}});
  };
  auto emit = [&](const std::string& value, const std::string& out) { detail::emit_as(b, value, out); };
  if (!op.outputs.empty() && !op.outputs[0].empty()) {
    std::vector<std::string> per_dir;
    for (std::int64_t d = 0; d < dirs; ++d) {
      std::vector<std::string> steps;
      for (const auto& h : hs[static_cast<std::size_t>(d)]) steps.push_back(b.reshape(h, {1, 1, B, H}));
      per_dir.push_back(concat(steps, 0));
    }
    std::string y = concat(per_dir, 1);  // [T, dirs, B, H]
    if (layout) y = b.op1(K::Transpose, {y}, {{"perm", std::vector<std::int64_t>{2, 0, 1, 3}}});
    emit(y, op.outputs[0]);
  }
  auto last = [&](const std::vector<std::string>& v, std::size_t out) {
    if (op.outputs.size() <= out || op.outputs[out].empty()) return;
    std::vector<std::string> parts;
    for (const auto& s : v) parts.push_back(b.reshape(s, {1, B, H}));
    std::string y = concat(parts, 0);  // [dirs, B, H]
    if (layout) y = b.op1(K::Transpose, {y}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
    emit(y, op.outputs[out]);
  };
  last(h_last, 1);
  if (lstm) last(c_last, 2);
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

}  // namespace ec::passes::decompose
