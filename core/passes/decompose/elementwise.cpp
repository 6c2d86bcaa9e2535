// Element-wise ops TFLite has no builtin for, as ops it has.
//
//   Sum(x1..xn)  = x1 + x2 + ... + xn                   Add chain (broadcasting as Add does)
//   Mean(x1..xn) = (x1 + ... + xn) * (1/n)              Add chain, Mul
//   Max / Min of 1 or > 2 inputs                        Maximum / Minimum chain
//   one input: the identity                             Identity (written as a RESHAPE)
//   tan(x)   = sin(x) / cos(x)
//   sinh(x)  = (e^x - e^-x) / 2,  cosh(x) = (e^x + e^-x) / 2
//   asinh(x) = sign(x) log(|x| + sqrt(x^2 + 1))         (odd: no cancellation for x < 0)
//   acosh(x) = log(x + sqrt(x^2 - 1))                   (NaN below 1, as the op)
//   atanh(x) = log((1 + x) / (1 - x)) / 2
// x^2 overflows float past |x| = 1.8e19: asinh / acosh there are inf, not ~45.
// IsNaN / IsInf are left: with no comparison op written, no arithmetic form keeps
// NaN and the infinities apart cleanly.
#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;
using detail::refuse;

}  // namespace

std::size_t variadic(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Sum && op.kind != K::Mean && op.kind != K::Max && op.kind != K::Min) return 0;
  const std::size_t n = op.inputs.size();
  if (n == 0 || op.outputs.empty() || ((op.kind == K::Max || op.kind == K::Min) && n == 2)) return 0;
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  if (!y) return 0;
  OpBuilder b(g, detail::base_of(op));
  if (n == 1) {  // the identity (quantised too: the writer requantises when params differ)
    b.op(K::Identity, {op.inputs[0]}, {op.outputs[0]}, {}, op.name);
    return detail::finish(g, index, b);
  }
  for (const auto& in : op.inputs) {
    const ir::Tensor* t = g.find_tensor(in);
    if (!t || t->quant || y->quant || t->dtype != y->dtype)
      return refuse(why, op.op_type + " of " + std::to_string(n) + " quantised or mixed-type inputs");
  }
  if (op.kind == K::Mean && y->dtype != ir::DType::Float32)
    return refuse(why, "Mean on " + std::string(ir::dtype_name(y->dtype)));
  const K pair = op.kind == K::Max ? K::Max : op.kind == K::Min ? K::Min : K::Add;
  std::string v = op.inputs[0];
  for (std::size_t i = 1; i < n; ++i) {
    const bool last = i + 1 == n && op.kind != K::Mean;
    v = b.op(pair, {v, op.inputs[i]}, {last ? op.outputs[0] : b.activation("partial", y->dtype)}, {}, last ? op.name : "");
  }
  if (op.kind == K::Mean)
    b.op(K::Mul, {v, b.f32_scalar("one_over_n", static_cast<float>(1.0 / static_cast<double>(n)))}, {op.outputs[0]}, {},
         op.name);
  return detail::finish(g, index, b);
}

std::size_t trigonometric(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  const K k = op.kind;
  if (k != K::Tan && k != K::Sinh && k != K::Cosh && k != K::Asinh && k != K::Acosh && k != K::Atanh &&
      k != K::Atan && k != K::Asin && k != K::Acos)
    return 0;
  if (op.inputs.empty() || op.outputs.empty()) return 0;
  if (!detail::is_float(g, op.inputs[0]) || !detail::is_float(g, op.outputs[0]))
    return refuse(why, op.op_type + " on a non-float tensor");
  OpBuilder b(g, detail::base_of(op));
  const std::string& x = op.inputs[0];
  auto f = [&](K kind, std::vector<std::string> in) { return b.op1(kind, std::move(in)); };
  auto c = [&](const char* name, float v) { return b.f32_scalar(name, v); };
  // atan(v): on u = min(|v|, 1/|v|) in [0, 1] the polynomial of Abramowitz & Stegun 4.4.49
  // (|error| <= 2e-8), pi/2 - it where |v| > 1, the sign of v; atan(+-inf) = +-pi/2.
  auto atan_of = [&](const std::string& v) {
    static constexpr float kA[] = {-0.3333314528f, 0.1999355085f, -0.1420889944f, 0.1065626393f,
                                   -0.0752896400f, 0.0429096138f, -0.0161657367f, 0.0028662257f};
    const std::string t = f(K::Abs, {v});
    const std::string u = f(K::Min, {t, f(K::Reciprocal, {t})});
    const std::string u2 = f(K::Mul, {u, u});
    std::string poly = c("a16", kA[7]);  // Horner in u^2, highest term first
    for (int i = 6; i >= 0; --i) poly = f(K::Add, {f(K::Mul, {poly, u2}), c("a", kA[i])});
    const std::string p = f(K::Mul, {u, f(K::Add, {f(K::Mul, {poly, u2}), c("one", 1.f)})});
    const std::string r = f(K::Where, {b.op1(K::Greater, {t, c("one", 1.f)}, {}, ir::DType::Bool),
                                       f(K::Sub, {c("half_pi", 1.57079632679f), p}), p});
    return f(K::Mul, {r, f(K::Sign, {v})});
  };
  switch (k) {
    case K::Atan: atan_of(x); break;
    case K::Asin: {  // atan(x / sqrt((1 - x)(1 + x)))
      const std::string one = c("one", 1.f);
      atan_of(f(K::Div, {x, f(K::Sqrt, {f(K::Mul, {f(K::Sub, {one, x}), f(K::Add, {one, x})})})}));
      break;
    }
    case K::Acos: {  // 2 atan(sqrt((1 - x) / (1 + x))), accurate near x = 1; pi at x = -1
      const std::string one = c("one", 1.f);
      const std::string a = atan_of(f(K::Sqrt, {f(K::Div, {f(K::Sub, {one, x}), f(K::Add, {one, x})})}));
      f(K::Mul, {a, c("two", 2.f)});
      break;
    }
    case K::Tan: f(K::Div, {f(K::Sin, {x}), f(K::Cos, {x})}); break;
    case K::Sinh: case K::Cosh: {
      const std::string e = f(K::Exp, {x}), en = f(K::Exp, {f(K::Neg, {x})});
      f(K::Mul, {f(k == K::Sinh ? K::Sub : K::Add, {e, en}), c("half", 0.5f)});
      break;
    }
    case K::Asinh: {
      const std::string ax = f(K::Abs, {x});
      const std::string r = f(K::Sqrt, {f(K::Add, {f(K::Mul, {x, x}), c("one", 1.f)})});
      f(K::Mul, {f(K::Log, {f(K::Add, {ax, r})}), f(K::Sign, {x})});
      break;
    }
    case K::Acosh: f(K::Log, {f(K::Add, {x, f(K::Sqrt, {f(K::Sub, {f(K::Mul, {x, x}), c("one", 1.f)})})})}); break;
    default: {  // Atanh
      const std::string q = f(K::Div, {f(K::Add, {c("one", 1.f), x}), f(K::Sub, {c("one", 1.f), x})});
      f(K::Mul, {f(K::Log, {q}), c("half", 0.5f)});
      break;
    }
  }
  detail::write_last_to(b, op);
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
