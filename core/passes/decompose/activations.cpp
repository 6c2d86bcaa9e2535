// Activations without a TFLite builtin (or without an Edge TPU mapping), as ops with one.
//
//   HardSigmoid(x) = clip(a x + b, 0, 1) = relu6(6a x + 6b) / 6          Mul, Add, Clip, Mul
//   Gelu(x) ~ x sigmoid(2c (x + 0.044715 x^3)), c = sqrt(2/pi)           (the tanh form:
//            0.5 x (1 + tanh(u)) = x sigmoid(2u))                        Mul, Mul, Add, Mul, Sigmoid, Mul
//   erf(x) = sign(x) (1 - (a1 t + ... + a5 t^5) e^(-x^2)), t = 1/(1 + p|x|)   A&S 7.1.26
//   Softplus(x) = max(x, 0) + log(1 + e^-|x|)                           (never overflows)
//   Softsign(x) = x / (1 + |x|),  Mish(x) = x tanh(Softplus(x))
//   Elu_a(x)  = relu(x) + a min(elu(x), 0)                              (elu: TFLite's ELU, a = 1)
//   Selu(x)   = g relu(x) + g a min(elu(x), 0)
//   Celu_a(x) = relu(x) + a min(elu(x / a), 0)                          (a > 0)
//   ThresholdedRelu(x) = x relu(sign(x - a))                            (0 at x == a; x is relu(x)
//                        when a >= 0, so x = -inf gives 0, not 0 * -inf)
//   Softmax / LogSoftmax over a non-last axis: Transpose (swap it with the last), the op, Transpose back
//
// int8 forms take each intermediate's params from the real range it can hold,
// derived from the input's params (as TFLite's converter would calibrate them).
#include <algorithm>
#include <cmath>

#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;

using detail::attr_double;
using detail::finish;

// The op's single input/output, and whether they are per-tensor int8 (else float32).
struct Io {
  const ir::Tensor* x = nullptr;
  const ir::Tensor* y = nullptr;
  bool int8 = false;
};

std::optional<Io> unary_io(const ir::Graph& g, const ir::Operation& op, bool allow_int8, std::string* why) {
  if (op.inputs.empty() || op.outputs.empty()) return std::nullopt;
  Io io{g.find_tensor(op.inputs[0]), g.find_tensor(op.outputs[0])};
  if (!io.x || !io.y) return std::nullopt;
  const bool q8 = io.x->dtype == ir::DType::Int8 && io.y->dtype == ir::DType::Int8 && io.x->quant && io.y->quant &&
                  io.x->quant->scales.size() == 1 && io.y->quant->scales.size() == 1;
  if (q8 && allow_int8) {
    io.int8 = true;
    return io;
  }
  if (io.x->dtype == ir::DType::Float32 && io.y->dtype == ir::DType::Float32 && !io.x->quant) return io;
  if (why) *why = op.op_type + " on " + std::string(ir::dtype_name(io.x->dtype)) + (q8 ? " (int8 form not written)" : "");
  return std::nullopt;
}

// An intermediate: float32, or int8 over [lo, hi].
std::string mid(OpBuilder& b, const Io& io, const std::string& suffix, double lo, double hi) {
  return io.int8 ? b.activation(suffix, ir::DType::Int8, int8_range(lo, hi)) : b.activation(suffix, ir::DType::Float32);
}

}  // namespace

std::size_t hard_sigmoid(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::HardSigmoid) return 0;
  const auto io = unary_io(g, op, true, why);
  if (!io) return 0;
  const double a6 = 6 * attr_double(op, "alpha", 0.2), b6 = 6 * attr_double(op, "beta", 0.5);
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  double lo = -1e3, hi = 1e3;
  if (io->int8) std::tie(lo, hi) = real_range(*io->x->quant);
  std::string v = op.inputs[0];
  if (std::fabs(a6 - 1.0) > 1e-7) {
    const double l = std::min(lo * a6, hi * a6), h = std::max(lo * a6, hi * a6);
    v = b.op(K::Mul, {v, b.scalar("six_alpha", a6, io->int8)}, {mid(b, *io, "scaled", l, h)});
    lo = l;
    hi = h;
  }
  v = b.op(K::Add, {v, b.scalar("six_beta", b6, io->int8)}, {mid(b, *io, "shifted", lo + b6, hi + b6)});
  v = b.op(K::Clip, {v, b.f32_scalar("zero", 0.f), b.f32_scalar("six", 6.f)}, {mid(b, *io, "relu6", 0, 6)});
  b.op(K::Mul, {v, b.scalar("one_sixth", 1.0 / 6, io->int8)}, {op.outputs[0]}, {}, op.name);
  return finish(g, index, b);
}

std::size_t gelu_tanh(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Gelu) return 0;
  const auto io = unary_io(g, op, true, why);
  if (!io) return 0;
  const double c2 = 2 * std::sqrt(2.0 / M_PI), k = c2 * 0.044715;
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  double lo = -10, hi = 10;
  if (io->int8) std::tie(lo, hi) = real_range(*io->x->quant);
  const double m2 = std::max(lo * lo, hi * hi);
  const std::string& x = op.inputs[0];
  // m = 2c (1 + 0.044715 x^2); v = x m, the sigmoid's argument (beyond +-8 it is 0 or 1 to 3e-4)
  std::string x2 = b.op(K::Mul, {x, x}, {mid(b, *io, "x_squared", 0, m2)});
  std::string m = b.op(K::Mul, {x2, b.scalar("k", k, io->int8)}, {mid(b, *io, "k_x_squared", 0, k * m2)});
  m = b.op(K::Add, {m, b.scalar("two_c", c2, io->int8)}, {mid(b, *io, "m", c2, c2 + k * m2)});
  const std::string v = b.op(K::Mul, {x, m}, {mid(b, *io, "v", std::max(lo * (c2 + k * m2), -8.0), std::min(hi * (c2 + k * m2), 8.0))});
  const std::string s = b.op(K::Sigmoid, {v}, {io->int8 ? b.activation("sigmoid", ir::DType::Int8, ir::QuantParams{ir::DType::Int8, {1.f / 256}, {-128}, -1})
                                                         : b.activation("sigmoid", ir::DType::Float32)});
  b.op(K::Mul, {x, s}, {op.outputs[0]}, {}, op.name);
  return finish(g, index, b);
}

std::size_t erf(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Erf) return 0;
  const auto io = unary_io(g, op, false, why);
  if (!io) return 0;
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const std::string& x = op.inputs[0];
  auto f = [&](K kind, std::vector<std::string> in) { return b.op1(kind, std::move(in)); };
  auto c = [&](const char* n, double v) { return b.f32_scalar(n, static_cast<float>(v)); };
  const std::string ax = f(K::Abs, {x});
  const std::string t = f(K::Div, {c("one", 1.0), f(K::Add, {f(K::Mul, {ax, c("p", 0.3275911)}), c("one", 1.0)})});
  static constexpr double kA[5] = {0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429};
  std::string h = f(K::Mul, {t, c("a5", kA[4])});
  for (int i = 3; i >= 0; --i) h = f(K::Mul, {f(K::Add, {h, c("a", kA[i])}), t});
  const std::string e = f(K::Exp, {f(K::Mul, {f(K::Mul, {x, x}), c("minus_one", -1.0)})});
  const std::string r = f(K::Sub, {c("one", 1.0), f(K::Mul, {h, e})});
  // sign(x) as x / max(|x|, 1e-30): at |x| < 1e-30, r is ~1e-30 anyway
  const std::string sign = f(K::Div, {x, f(K::Max, {ax, c("tiny", 1e-30)})});
  b.op(K::Mul, {r, sign}, {op.outputs[0]}, {}, op.name);
  return finish(g, index, b);
}

namespace {

// y = p relu(x) + q min(elu(s x), 0): Elu, Selu and Celu (see the table above).
void elu_family(OpBuilder& b, const ir::Operation& op, double p, double q, double s) {
  const std::string& x = op.inputs[0];
  auto scaled = [&](const std::string& v, double k, const char* name) {
    return k == 1.0 ? v : b.op1(K::Mul, {v, b.f32_scalar(name, static_cast<float>(k))});
  };
  const std::string e = b.op1(K::Elu, {scaled(x, s, "one_over_alpha")});
  const std::string neg = scaled(b.op1(K::Min, {e, b.f32_scalar("zero", 0.f)}), q, "negative_scale");
  const std::string pos = scaled(b.op1(K::Relu, {x}), p, "positive_scale");
  b.op1(K::Add, {pos, neg});
}

}  // namespace

std::size_t smooth_activations(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  const K k = op.kind;
  if (k != K::Softplus && k != K::Softsign && k != K::Mish && k != K::Elu && k != K::Selu && k != K::Celu &&
      k != K::ThresholdedRelu)
    return 0;
  const double alpha = attr_double(op, "alpha", k == K::Selu ? 1.67326319217681884765625 : 1.0);
  if (k == K::Elu && alpha == 1.0) return 0;  // TFLite's ELU
  if (!unary_io(g, op, false, why)) return 0;
  if (k == K::Celu && !(alpha > 0)) return detail::refuse(why, "Celu with alpha <= 0");
  OpBuilder b(g, detail::base_of(op));
  const std::string& x = op.inputs[0];
  auto f = [&](K kind, std::vector<std::string> in) { return b.op1(kind, std::move(in)); };
  auto softplus = [&] {
    const std::string t = f(K::Exp, {f(K::Neg, {f(K::Abs, {x})})});
    return f(K::Add, {f(K::Relu, {x}), f(K::Log, {f(K::Add, {t, b.f32_scalar("one", 1.f)})})});
  };
  switch (k) {
    case K::Softplus: softplus(); break;
    case K::Softsign: f(K::Div, {x, f(K::Add, {f(K::Abs, {x}), b.f32_scalar("one", 1.f)})}); break;
    case K::Mish: f(K::Mul, {x, f(K::Tanh, {softplus()})}); break;
    case K::Elu: elu_family(b, op, 1.0, alpha, 1.0); break;
    case K::Selu: {
      const double gamma = attr_double(op, "gamma", 1.05070102214813232421875);
      elu_family(b, op, gamma, gamma * alpha, 1.0);
      break;
    }
    case K::Celu: elu_family(b, op, 1.0, alpha, 1.0 / alpha); break;
    default: {  // ThresholdedRelu
      const std::string step = f(K::Relu, {f(K::Sign, {f(K::Sub, {x, b.f32_scalar("alpha", static_cast<float>(alpha))})})});
      f(K::Mul, {alpha >= 0 ? f(K::Relu, {x}) : x, step});
      break;
    }
  }
  detail::write_last_to(b, op);
  return finish(g, index, b);
}

std::size_t softmax_axis(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if ((op.kind != K::Softmax && op.kind != K::LogSoftmax) || op.inputs.empty() || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  if (!x || !y || !x->shape.rank_known) return 0;
  const auto r = static_cast<std::int64_t>(x->shape.rank());
  std::int64_t axis = op.attr_int("axis", -1);
  if (axis < 0) axis += r;
  if (axis == r - 1 || axis < 0 || axis >= r) return 0;
  if (!unary_io(g, op, true, why)) return 0;
  // swapping the axis with the last is its own inverse
  std::vector<std::int64_t> perm(static_cast<std::size_t>(r));
  for (std::int64_t d = 0; d < r; ++d) perm[static_cast<std::size_t>(d)] = d;
  std::swap(perm[static_cast<std::size_t>(axis)], perm.back());
  OpBuilder b(g, detail::base_of(op));
  const std::string t = b.op(K::Transpose, {op.inputs[0]}, {b.activation("last_axis_in", x->dtype, x->quant)}, {{"perm", perm}});
  auto attrs = op.attributes;
  attrs["axis"] = std::int64_t{-1};
  const std::string s = b.op(op.kind, {t}, {b.activation("last_axis_out", y->dtype, y->quant)}, attrs);
  b.op(K::Transpose, {s}, {op.outputs[0]}, {{"perm", perm}}, op.name);
  return finish(g, index, b);
}

}  // namespace ec::passes::decompose
