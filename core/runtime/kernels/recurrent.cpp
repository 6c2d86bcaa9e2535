// Recurrent ops: RNN, GRU, LSTM (ONNX semantics, forward/reverse/bidirectional,
// sequence_lens, initial states, LSTM peepholes, clip, layout 0 and 1).
// Gate order in W/R/B: LSTM i, o, f, c; GRU z, r, h; RNN one gate.
// Two implementations behind one validation (parse): the plain reference loops
// (double accumulation, any activation) and, for f32 with the default
// activations (Sigmoid, Tanh, Tanh), a fast one: the input part X W^T + Wb (+ Rb)
// of every step in ONE GEMM over the whole sequence, then per step a
// vectorised H R^T (gemm's dot-product path) and vectorised gate maths (vmath).
#include "core/runtime/kernels/recurrent.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/vmath.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using Act = std::function<double(double)>;

Act make_act(const std::string& name, double alpha, double beta) {
  if (name == "Sigmoid") return [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  if (name == "Tanh") return [](double v) { return std::tanh(v); };
  if (name == "Relu") return [](double v) { return std::max(v, 0.0); };
  if (name == "LeakyRelu") return [alpha](double v) { return v >= 0 ? v : alpha * v; };
  if (name == "ThresholdedRelu") return [alpha](double v) { return v > alpha ? v : 0.0; };
  if (name == "HardSigmoid") return [alpha, beta](double v) { return std::clamp(alpha * v + beta, 0.0, 1.0); };
  if (name == "Elu") return [alpha](double v) { return v >= 0 ? v : alpha * (std::exp(v) - 1); };
  if (name == "Softsign") return [](double v) { return v / (1 + std::abs(v)); };
  if (name == "Softplus") return [](double v) { return std::log1p(std::exp(v)); };
  if (name == "Affine") return [alpha, beta](double v) { return alpha * v + beta; };
  if (name == "ScaledTanh") return [alpha, beta](double v) { return alpha * std::tanh(beta * v); };
  throw UnsupportedOpError("recurrent activation " + name, "the CPU runtime", "");
}

using Cell = RecurrentCell;

// Default alpha/beta of the activations that take them.
double default_alpha(const std::string& n) {
  if (n == "LeakyRelu") return 0.01;
  if (n == "HardSigmoid") return 0.2;
  return 1.0;
}
double default_beta(const std::string& n) { return n == "HardSigmoid" ? 0.5 : (n == "Affine" ? 0.0 : 1.0); }

// The op's attributes and inputs, checked against the spec.
struct Rec {
  Cell cell;
  int G, nact, dirs;
  bool layout1, has_clip, input_forget, lbr;
  double clip;
  std::string direction;
  std::int64_t S, Bt, I, H;
  const Tensor *X0, *W, *R, *B, *L, *H0, *C0, *P;
  std::vector<std::string> act_names;  // per direction, nact each
  std::vector<Act> acts;
};

Rec parse(const ir::Operation& op, Inputs x, Cell cell) {
  const int G = cell == Cell::Lstm ? 4 : cell == Cell::Gru ? 3 : 1;
  const int nact = cell == Cell::Lstm ? 3 : cell == Cell::Gru ? 2 : 1;
  const Tensor &X0 = x[0], &W = x[1], &R = x[2], &B = in(x, 3), &L = in(x, 4), &H0 = in(x, 5);
  const Tensor &C0 = in(x, 6), &P = in(x, 7);
  if (X0.dtype() != DType::Float32) throw UnsupportedOpError(op.op_type + " on non-f32", "the CPU runtime", "");
  const std::string direction = attr_str(op, "direction", "forward");
  const int dirs = direction == "bidirectional" ? 2 : 1;
  const bool layout1 = attr_int(op, "layout", 0) != 0;
  if (X0.rank() != 3 || W.rank() != 3 || R.rank() != 3) fail("X, W and R must be 3-D");
  const std::int64_t S = layout1 ? X0.dim(1) : X0.dim(0), Bt = layout1 ? X0.dim(0) : X0.dim(1), I = X0.dim(2);
  const std::int64_t H = R.dim(2);
  if (W.dim(0) != dirs || W.dim(1) != G * H || W.dim(2) != I || R.dim(1) != G * H)
    fail("W " + W.type_string() + " / R " + R.type_string() + " do not match hidden_size " + std::to_string(H));
  // The loops below index every optional input by the spec's shape, so a tensor of
  // another shape or type would be read out of bounds: check each against the spec first.
  auto expect = [&](const Tensor& t, const char* what, DType dt, const Shape& shape) {
    if (!t.defined()) return;
    if (t.dtype() != dt || t.shape() != shape)
      fail("input " + std::string(what) + " is " + t.type_string() + ", the " + op.op_type + " spec needs " +
           std::string(ir::dtype_name(dt)) + shape_string(shape));
  };
  expect(W, "W", DType::Float32, {dirs, G * H, I});
  expect(R, "R", DType::Float32, {dirs, G * H, H});
  expect(B, "B", DType::Float32, {dirs, 2 * G * H});
  if (L.defined()) {
    if (!ir::dtype_is_integer(L.dtype()) || L.shape() != Shape{Bt})
      fail("input sequence_lens is " + L.type_string() + ", the " + op.op_type + " spec needs i32[" +
           std::to_string(Bt) + "]");
    for (std::int64_t b = 0; b < Bt; ++b)
      if (L.get_int(b) < 0 || L.get_int(b) > S)
        fail("input sequence_lens holds " + std::to_string(L.get_int(b)) + ", outside [0, " + std::to_string(S) + "]");
  }
  // Initial states are [num_directions, batch, hidden], layout 1: [batch, num_directions, hidden]
  // (the ONNX reference swaps their first two axes with X's, onnx/reference/ops/op_lstm.py).
  const Shape state = layout1 ? Shape{Bt, dirs, H} : Shape{dirs, Bt, H};
  expect(H0, "initial_h", DType::Float32, state);
  if (cell == Cell::Lstm) {
    expect(C0, "initial_c", DType::Float32, state);
    expect(P, "P", DType::Float32, {dirs, 3 * H});
  }
  const double clip = attr_float(op, "clip", 0.0);
  const bool has_clip = op.attr("clip") != nullptr;
  const bool input_forget = attr_int(op, "input_forget", 0) != 0;
  const bool lbr = attr_int(op, "linear_before_reset", 0) != 0;
  std::vector<std::string> names;
  if (const auto* a = op.attr("activations"))
    if (const auto* v = std::get_if<std::vector<std::string>>(a)) names = *v;
  const auto alphas = attr_floats(op, "activation_alpha"), betas = attr_floats(op, "activation_beta");
  std::vector<Act> acts;
  std::vector<std::string> act_names;
  for (int d = 0; d < dirs; ++d)
    for (int k = 0; k < nact; ++k) {
      const std::size_t i = static_cast<std::size_t>(d * nact + k);
      std::string n = i < names.size() ? names[i] : (cell == Cell::Lstm ? (k == 0 ? "Sigmoid" : "Tanh")
                                                     : cell == Cell::Gru ? (k == 0 ? "Sigmoid" : "Tanh") : "Tanh");
      acts.push_back(make_act(n, i < alphas.size() ? alphas[i] : default_alpha(n), i < betas.size() ? betas[i] : default_beta(n)));
      act_names.push_back(n);
    }
  return Rec{cell, G, nact, dirs, layout1, has_clip, input_forget, lbr, clip, direction, S, Bt, I, H,
             &X0, &W, &R, &B, &L, &H0, &C0, &P, act_names, acts};
}
Outputs reference(const Rec& rc) {
  const Cell cell = rc.cell;
  const int G = rc.G, nact = rc.nact, dirs = rc.dirs;
  const bool layout1 = rc.layout1, has_clip = rc.has_clip, input_forget = rc.input_forget, lbr = rc.lbr;
  const double clip = rc.clip;
  const std::string& direction = rc.direction;
  const std::int64_t S = rc.S, Bt = rc.Bt, I = rc.I, H = rc.H;
  const Tensor &X0 = *rc.X0, &W = *rc.W, &R = *rc.R, &B = *rc.B, &L = *rc.L, &H0 = *rc.H0, &C0 = *rc.C0, &P = *rc.P;
  const std::vector<Act>& acts = rc.acts;
  auto xv = [&](std::int64_t t, std::int64_t b, std::int64_t i) {
    return double(X0.data<float>()[(layout1 ? b * S + t : t * Bt + b) * I + i]);
  };
  Tensor Y(DType::Float32, layout1 ? Shape{Bt, S, dirs, H} : Shape{S, dirs, Bt, H});
  Tensor YH(DType::Float32, layout1 ? Shape{Bt, dirs, H} : Shape{dirs, Bt, H});
  Tensor YC(DType::Float32, YH.shape());
  auto yidx = [&](std::int64_t t, int d, std::int64_t b) { return layout1 ? ((b * S + t) * dirs + d) * H : ((t * dirs + d) * Bt + b) * H; };
  auto hidx = [&](int d, std::int64_t b) { return layout1 ? (b * dirs + d) * H : (d * Bt + b) * H; };
  const float *w = W.data<float>(), *r = R.data<float>();
  std::vector<double> h(static_cast<std::size_t>(H)), c(static_cast<std::size_t>(H)), gates(static_cast<std::size_t>(G * H)),
      rh(static_cast<std::size_t>(G * H));
  for (int d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    const Act &f = acts[static_cast<std::size_t>(d * nact)], &g = acts[static_cast<std::size_t>(d * nact + (nact > 1 ? 1 : 0))],
              &hf = acts[static_cast<std::size_t>(d * nact + (nact > 2 ? 2 : 0))];
    auto bias = [&](int part, std::int64_t j) { return B.defined() ? double(B.data<float>()[(d * 2 + part) * G * H + j]) : 0.0; };
    for (std::int64_t b = 0; b < Bt; ++b) {
      const std::int64_t len = L.defined() ? L.get_int(b) : S;
      for (std::int64_t j = 0; j < H; ++j) {
        h[static_cast<std::size_t>(j)] = H0.defined() ? H0.data<float>()[(layout1 ? b * dirs + d : d * Bt + b) * H + j] : 0.0;
        c[static_cast<std::size_t>(j)] = C0.defined() ? C0.data<float>()[(layout1 ? b * dirs + d : d * Bt + b) * H + j] : 0.0;
      }
      for (std::int64_t step = 0; step < len; ++step) {
        const std::int64_t t = reverse ? len - 1 - step : step;
        // gates = X_t W^T + Wb ; rh = H_{t-1} R^T + Rb
        for (std::int64_t j = 0; j < G * H; ++j) {
          double a = bias(0, j), e = bias(1, j);
          for (std::int64_t i = 0; i < I; ++i) a += xv(t, b, i) * w[(d * G * H + j) * I + i];
          for (std::int64_t i = 0; i < H; ++i) e += h[static_cast<std::size_t>(i)] * r[(d * G * H + j) * H + i];
          gates[static_cast<std::size_t>(j)] = a;
          rh[static_cast<std::size_t>(j)] = e;
        }
        auto clipv = [&](double v) { return has_clip ? std::clamp(v, -clip, clip) : v; };
        if (cell == Cell::Rnn) {
          for (std::int64_t j = 0; j < H; ++j) h[static_cast<std::size_t>(j)] = f(clipv(gates[static_cast<std::size_t>(j)] + rh[static_cast<std::size_t>(j)]));
        } else if (cell == Cell::Gru) {
          // z = f(.), r = f(.), h~ = g(X Wh + (r * H) Rh + ...) or g(X Wh + r * (H Rh + Rbh) + Wbh)
          std::vector<double> z(static_cast<std::size_t>(H)), rr(static_cast<std::size_t>(H));
          for (std::int64_t j = 0; j < H; ++j) {
            z[static_cast<std::size_t>(j)] = f(clipv(gates[static_cast<std::size_t>(j)] + rh[static_cast<std::size_t>(j)]));
            rr[static_cast<std::size_t>(j)] = f(clipv(gates[static_cast<std::size_t>(H + j)] + rh[static_cast<std::size_t>(H + j)]));
          }
          std::vector<double> hn(static_cast<std::size_t>(H));
          for (std::int64_t j = 0; j < H; ++j) {
            double v;
            if (lbr) {
              v = gates[static_cast<std::size_t>(2 * H + j)] + rr[static_cast<std::size_t>(j)] * rh[static_cast<std::size_t>(2 * H + j)];
            } else {
              double e = bias(1, 2 * H + j);
              for (std::int64_t i = 0; i < H; ++i)
                e += rr[static_cast<std::size_t>(i)] * h[static_cast<std::size_t>(i)] * r[(d * G * H + 2 * H + j) * H + i];
              v = gates[static_cast<std::size_t>(2 * H + j)] + e;
            }
            const double ht = g(clipv(v));
            hn[static_cast<std::size_t>(j)] = (1 - z[static_cast<std::size_t>(j)]) * ht + z[static_cast<std::size_t>(j)] * h[static_cast<std::size_t>(j)];
          }
          h = hn;
        } else {
          // i, o, f, c gates; peepholes P = [Pi, Po, Pf]
          auto peep = [&](int k, std::int64_t j) { return P.defined() ? double(P.data<float>()[(d * 3 + k) * H + j]) : 0.0; };
          for (std::int64_t j = 0; j < H; ++j) {
            const auto J = static_cast<std::size_t>(j);
            const double it = f(clipv(gates[J] + rh[J] + peep(0, j) * c[J]));
            const double ft = input_forget ? 1 - it : f(clipv(gates[static_cast<std::size_t>(2 * H + j)] + rh[static_cast<std::size_t>(2 * H + j)] + peep(2, j) * c[J]));
            const double ct = g(clipv(gates[static_cast<std::size_t>(3 * H + j)] + rh[static_cast<std::size_t>(3 * H + j)]));
            c[J] = ft * c[J] + it * ct;
            const double ot = f(clipv(gates[static_cast<std::size_t>(H + j)] + rh[static_cast<std::size_t>(H + j)] + peep(1, j) * c[J]));
            h[J] = ot * hf(c[J]);
          }
        }
        for (std::int64_t j = 0; j < H; ++j) Y.mutable_data<float>()[yidx(t, d, b) + j] = static_cast<float>(h[static_cast<std::size_t>(j)]);
      }
      for (std::int64_t j = 0; j < H; ++j) {
        YH.mutable_data<float>()[hidx(d, b) + j] = static_cast<float>(h[static_cast<std::size_t>(j)]);
        YC.mutable_data<float>()[hidx(d, b) + j] = static_cast<float>(c[static_cast<std::size_t>(j)]);
      }
    }
  }
  Outputs out{Y, YH};
  if (cell == Cell::Lstm) out.push_back(YC);
  return out;
}

// The attribute `clip` on pre-activations v[0, n), when the op has it.
void clip_in_place(const Rec& rc, float* v, std::int64_t n) {
  if (!rc.has_clip) return;
  const auto c = static_cast<float>(rc.clip);
  for (std::int64_t j = 0; j < n; ++j) v[j] = std::min(std::max(v[j], -c), c);
}

// The fast path covers f32 with each direction's default activations.
bool fast_applies(const Rec& rc) {
  for (int d = 0; d < rc.dirs; ++d)
    for (int k = 0; k < rc.nact; ++k) {
      const std::string& n = rc.act_names[static_cast<std::size_t>(d * rc.nact + k)];
      if (n != ((rc.cell != Cell::Rnn && k == 0) ? "Sigmoid" : "Tanh")) return false;
    }
  return true;
}

// GRU without linear_before_reset: the h gate's recurrent product takes r * h, which needs
// every unit's r first; per step three GEMVs (gemm's dot-product path) and vmath.
Outputs fast_gru_reset_first(const Rec& rc) {
  const Cell cell = rc.cell;
  const int G = rc.G, dirs = rc.dirs;
  const std::int64_t S = rc.S, Bt = rc.Bt, I = rc.I, H = rc.H, GH = G * H;
  const Tensor &X0 = *rc.X0, &W = *rc.W, &R = *rc.R, &B = *rc.B, &L = *rc.L, &H0 = *rc.H0, &C0 = *rc.C0, &P = *rc.P;
  const bool layout1 = rc.layout1;
  Tensor Y(DType::Float32, layout1 ? Shape{Bt, S, dirs, H} : Shape{S, dirs, Bt, H});
  Tensor YH(DType::Float32, layout1 ? Shape{Bt, dirs, H} : Shape{dirs, Bt, H});
  Tensor YC(DType::Float32, YH.shape());
  float *y = Y.mutable_data<float>(), *yh = YH.mutable_data<float>(), *yc = YC.mutable_data<float>();
  const auto h_ = static_cast<std::size_t>(H);
  std::vector<float> xw(static_cast<std::size_t>(S * Bt * GH)), bias(static_cast<std::size_t>(GH)), rec(static_cast<std::size_t>(GH)),
      h(h_), c(h_), tmp(h_), tmp2(h_);
  auto clamp = [&](float* v, std::int64_t n) { clip_in_place(rc, v, n); };
  for (int d = 0; d < dirs; ++d) {
    const bool reverse = rc.direction == "reverse" || d == 1;
    const float* w = W.data<float>() + d * GH * I;
    const float* r = R.data<float>() + d * GH * H;
    const float* wb = B.defined() ? B.data<float>() + d * 2 * GH : nullptr;
    const float* rb = wb ? wb + GH : nullptr;
    // Recurrent biases that can be added before the step: all but GRU's h gate with linear_before_reset.
    const std::int64_t folded = cell == Cell::Gru && rc.lbr ? 2 * H : GH;
    for (std::int64_t j = 0; j < GH; ++j) bias[static_cast<std::size_t>(j)] = wb ? wb[j] + (j < folded ? rb[j] : 0.f) : 0.f;
    // xw[row] = X[row] W^T + bias for every (t, b) at once; rows in X's own order.
    gemm::Epilogue ep;
    ep.bias_kind = gemm::Epilogue::Bias::PerColumn;
    ep.bias = bias.data();
    gemm::sgemm(S * Bt, GH, I, 1.f, X0.data<float>(), I, false, w, I, true, false, xw.data(), GH, ep);
    const float* peep = P.defined() ? P.data<float>() + d * 3 * H : nullptr;
    for (std::int64_t b = 0; b < Bt; ++b) {
      const std::int64_t len = L.defined() ? L.get_int(b) : S;
      for (std::int64_t j = 0; j < H; ++j) {
        h[static_cast<std::size_t>(j)] = H0.defined() ? H0.data<float>()[(layout1 ? b * dirs + d : d * Bt + b) * H + j] : 0.f;
        c[static_cast<std::size_t>(j)] = C0.defined() ? C0.data<float>()[(layout1 ? b * dirs + d : d * Bt + b) * H + j] : 0.f;
      }
      for (std::int64_t step = 0; step < len; ++step) {
        const std::int64_t t = reverse ? len - 1 - step : step;
        float* g = xw.data() + (layout1 ? b * S + t : t * Bt + b) * GH;  // this step's gate pre-activations
        float* hv = h.data();
        float* cv = c.data();
        if (cell == Cell::Rnn) {
          // h = tanh(clip(x W^T + h R^T + Wb + Rb))
          gemm::sgemm(1, H, H, 1.f, hv, H, false, r, H, true, true, g, H);
          clamp(g, H);
          vmath::apply(vmath::Fn::Tanh, g, hv, H);
        } else if (cell == Cell::Gru) {
          // z, r = sigmoid(clip(x W^T + h R^T + b)); gates z at 0, r at H, h at 2H
          gemm::sgemm(1, 2 * H, H, 1.f, hv, H, false, r, H, true, true, g, 2 * H);
          clamp(g, 2 * H);
          vmath::apply(vmath::Fn::Sigmoid, g, g, 2 * H);
          const float *z = g, *rr = g + H;
          float* hh = g + 2 * H;
          if (rc.lbr) {
            // h~ = tanh(x Wh + Wbh + r (h Rh^T + Rbh))
            for (std::int64_t j = 0; j < H; ++j) tmp[static_cast<std::size_t>(j)] = rb ? rb[2 * H + j] : 0.f;
            gemm::sgemm(1, H, H, 1.f, hv, H, false, r + 2 * H * H, H, true, true, tmp.data(), H);
            for (std::int64_t j = 0; j < H; ++j) hh[j] += rr[j] * tmp[static_cast<std::size_t>(j)];
          } else {
            // h~ = tanh(x Wh + (r h) Rh^T + Rbh + Wbh)
            for (std::int64_t j = 0; j < H; ++j) tmp[static_cast<std::size_t>(j)] = rr[j] * hv[j];
            gemm::sgemm(1, H, H, 1.f, tmp.data(), H, false, r + 2 * H * H, H, true, true, hh, H);
          }
          clamp(hh, H);
          vmath::apply(vmath::Fn::Tanh, hh, hh, H);
          // h = (1 - z) h~ + z h
          for (std::int64_t j = 0; j < H; ++j) hv[j] = hh[j] + z[j] * (hv[j] - hh[j]);
        } else {
          // gates i at 0, o at H, f at 2H, c at 3H; peepholes P = [Pi, Po, Pf]
          gemm::sgemm(1, GH, H, 1.f, hv, H, false, r, H, true, true, g, GH);
          float *gi = g, *go = g + H, *gf = g + 2 * H, *gc = g + 3 * H;
          if (peep)
            for (std::int64_t j = 0; j < H; ++j) {
              gi[j] += peep[j] * cv[j];
              gf[j] += peep[2 * H + j] * cv[j];
            }
          clamp(gi, H);
          clamp(gf, 2 * H);  // f and c
          vmath::apply(vmath::Fn::Sigmoid, gi, gi, H);
          if (rc.input_forget)
            for (std::int64_t j = 0; j < H; ++j) gf[j] = 1.f - gi[j];
          else
            vmath::apply(vmath::Fn::Sigmoid, gf, gf, H);
          vmath::apply(vmath::Fn::Tanh, gc, gc, H);
          for (std::int64_t j = 0; j < H; ++j) cv[j] = gf[j] * cv[j] + gi[j] * gc[j];
          if (peep)  // o sees the new c
            for (std::int64_t j = 0; j < H; ++j) go[j] += peep[H + j] * cv[j];
          clamp(go, H);
          vmath::apply(vmath::Fn::Sigmoid, go, go, H);
          vmath::apply(vmath::Fn::Tanh, cv, tmp.data(), H);
          for (std::int64_t j = 0; j < H; ++j) hv[j] = go[j] * tmp[static_cast<std::size_t>(j)];
        }
        float* yrow = y + (layout1 ? ((b * S + t) * dirs + d) * H : ((t * dirs + d) * Bt + b) * H);
        std::copy(hv, hv + H, yrow);
      }
      const std::int64_t hi = layout1 ? (b * dirs + d) * H : (d * Bt + b) * H;
      std::copy(h.begin(), h.end(), yh + hi);
      std::copy(c.begin(), c.end(), yc + hi);
    }
  }
  Outputs out{Y, YH};
  if (cell == Cell::Lstm) out.push_back(YC);
  return out;
}

// ---- the fast path: packed weights, steps cut into chunks of units ----------------
//
// Per direction, packed once (kept in the session's cache when W and R are session
// constants): the units in chunks of U (a multiple of 16), and within a chunk the gates in
// slots with the sigmoid gates first (LSTM i f o c, GRU z r h, RNN h), U columns each:
// column (q G + s) U + u is unit q U + u of slot s's gate, zero past H. Wp [cols, I] (rows)
// turns the whole sequence's input part into one GEMM (biases folded); Rt is R transposed,
// chunk by chunk ([chunks][H][G U]), so one step's recurrent part for a chunk is G U / 16
// vector accumulators, each k adding h[k] times G U contiguous floats: a chunk's weights
// are one stream in address order (the step reads them all from L2; a GEMV's bound). A chunk's gate
// maths runs on its contiguous slots. A step's chunks are independent (they read the previous h,
// write their own units), so the threads of the pool share them: each takes the next (step, chunk)
// ticket, waits until the step before is complete, and the thread finishing a step's last chunk
// publishes it. A lone thread takes every ticket in order and never waits.

// Slot s of a cell: which ONNX gate (LSTM W/R order i o f c, GRU z r h).
constexpr int kLstmSlotGate[4] = {0, 2, 1, 3};  // slots i f o c
int slot_gate(Cell cell, int s) { return cell == Cell::Lstm ? kLstmSlotGate[s] : s; }

struct Packed {
  std::int64_t U = 0, chunks = 0, cols = 0;
  std::vector<float> wp, rt, bias, rbh, peep;  // per direction, one after the other
};

std::int64_t chunk_units(std::int64_t H) {
  // 64 units x 4 gates = 16 accumulators of 16 lanes (AVX-512); 16 units (8 of 8 lanes) otherwise.
  const std::int64_t u = gemm::active_isa() == gemm::Isa::Avx512 ? 64 : 16;
  return std::min(u, (H + 15) / 16 * 16);
}

std::shared_ptr<const Packed> pack(const Rec& rc) {
  const int G = rc.G;
  const std::int64_t H = rc.H, I = rc.I, U = chunk_units(H);
  auto make = [&] {
    auto p = std::make_shared<Packed>();
    p->U = U;
    p->chunks = (H + U - 1) / U;
    p->cols = p->chunks * G * U;
    const auto cols = static_cast<std::size_t>(p->cols), dirs = static_cast<std::size_t>(rc.dirs);
    p->wp.assign(dirs * cols * static_cast<std::size_t>(I), 0.f);
    p->rt.assign(dirs * cols * static_cast<std::size_t>(H), 0.f);
    p->bias.assign(dirs * cols, 0.f);
    p->rbh.assign(dirs * static_cast<std::size_t>(p->chunks * U), 0.f);
    p->peep.assign(dirs * 3 * static_cast<std::size_t>(p->chunks * U), 0.f);
    const std::int64_t GH = G * H, hp = p->chunks * U;
    // Recurrent biases that can be added before the step: all but GRU's h gate with
    // linear_before_reset.
    const int folded = rc.cell == Cell::Gru && rc.lbr ? 2 : G;
    for (int d = 0; d < rc.dirs; ++d) {
      const float* w = rc.W->data<float>() + d * GH * I;
      const float* r = rc.R->data<float>() + d * GH * H;
      const float* wb = rc.B->defined() ? rc.B->data<float>() + d * 2 * GH : nullptr;
      float* wp = p->wp.data() + d * p->cols * I;
      float* rt = p->rt.data() + d * p->cols * H;
      float* bias = p->bias.data() + d * p->cols;
      for (std::int64_t j = 0; j < H; ++j) {
        const std::int64_t q = j / U, u = j % U;
        for (int s = 0; s < G; ++s) {
          const int gate = slot_gate(rc.cell, s);
          const std::int64_t col = (q * G + s) * U + u, row = gate * H + j;
          std::copy(w + row * I, w + row * I + I, wp + col * I);
          for (std::int64_t k = 0; k < H; ++k) rt[(q * H + k) * G * U + s * U + u] = r[row * H + k];
          if (wb) bias[col] = wb[row] + (gate < folded ? wb[GH + row] : 0.f);
        }
        if (wb && rc.cell == Cell::Gru && rc.lbr)
          p->rbh[static_cast<std::size_t>(d * hp + j)] = wb[GH + 2 * H + j];
        if (rc.P->defined())
          for (int k = 0; k < 3; ++k)
            p->peep[static_cast<std::size_t>((d * 3 + k) * hp + j)] =
                rc.P->data<float>()[(d * 3 + k) * H + j];
      }
    }
    return p;
  };
  gemm::PackCache* cache = gemm::current_pack_cache();
  const auto wbytes = static_cast<std::size_t>(rc.W->numel()) * sizeof(float);
  const auto rbytes = static_cast<std::size_t>(rc.R->numel()) * sizeof(float);
  const bool constant =
      cache && cache->is_constant(rc.W->data<float>(), wbytes) &&
      cache->is_constant(rc.R->data<float>(), rbytes) &&
      (!rc.B->defined() || cache->is_constant(rc.B->raw(), rc.B->numel() * sizeof(float))) &&
      (!rc.P->defined() || cache->is_constant(rc.P->raw(), rc.P->numel() * sizeof(float)));
  if (!constant) return make();
  auto id = [](const Tensor* t) {
    return std::to_string(t->defined() ? reinterpret_cast<std::uintptr_t>(t->raw()) : 0);
  };
  const std::string key = "recurrent|" + std::to_string(static_cast<int>(rc.cell)) + "|" +
                          id(rc.W) + "|" + id(rc.R) + "|" + id(rc.B) + "|" + id(rc.P) + "|" +
                          std::to_string(U) + "|" + std::to_string(rc.lbr);
  if (auto found = cache->find_prepared(key)) return std::static_pointer_cast<const Packed>(found);
  auto made = make();
  const std::size_t bytes = (made->wp.size() + made->rt.size()) * sizeof(float);
  auto stored = std::static_pointer_cast<const Packed>(cache->put_prepared(key, made, bytes));
  // Wp lives as long as the cache: the GEMM may keep its packed copy too.
  if (stored == made) cache->add_constant_range(made->wp.data(), made->wp.size() * sizeof(float));
  return stored;
}

// out[s U + u] = sum_k h[k] rt[k ld + s U + u] for G slots of U units, in vectors of L
// lanes (U / L each): L is the ISA's register width (8 for AVX2, 16 for AVX-512). A vector
// type wider than the registers made GCC split every accumulator through the stack
// (AVX2: 84 % of a GRU's time in spills, 4x slower than ORT on bigru80).
typedef float V16 __attribute__((vector_size(64)));
typedef float V8 __attribute__((vector_size(32)));
template <class V, int G, int U>
[[gnu::always_inline]] inline void chunk_product_body(const float* h, std::int64_t H,
                                                      const float* rt, std::int64_t ld,
                                                      float* out) {
  constexpr int kL = sizeof(V) / sizeof(float), kV = U / kL;
  V acc[G][kV];
  for (int s = 0; s < G; ++s)
    for (int v = 0; v < kV; ++v) acc[s][v] = V{};
  for (std::int64_t k = 0; k < H; ++k) {
    const V hk = V{} + h[k];
    const float* r = rt + k * ld;
    // unrolled, so the accumulators live in registers (at -O2 GCC kept an LSTM's in memory)
#pragma GCC unroll 16
    for (int s = 0; s < G; ++s)
#pragma GCC unroll 16
      for (int v = 0; v < kV; ++v) {
        V x;
        std::memcpy(&x, r + s * U + v * kL, sizeof x);
        acc[s][v] += hk * x;
      }
  }
  for (int s = 0; s < G; ++s)
    for (int v = 0; v < kV; ++v) std::memcpy(out + s * U + v * kL, &acc[s][v], sizeof(V));
}

using ProductFn = void (*)(const float*, std::int64_t, const float*, std::int64_t, float*);
template <int G, int U>
void product_generic(const float* h, std::int64_t H, const float* rt, std::int64_t ld, float* out) {
  chunk_product_body<V16, G, U>(h, H, rt, ld, out);
}
#if defined(__x86_64__)
template <int G, int U>
__attribute__((target("avx2,fma"))) void product_avx2(const float* h, std::int64_t H,
                                                      const float* rt, std::int64_t ld,
                                                      float* out) {
  chunk_product_body<V8, G, U>(h, H, rt, ld, out);
}
template <int G, int U>
__attribute__((target("avx512f,avx512vl,fma,prefer-vector-width=512"))) void product_avx512(
    const float* h, std::int64_t H, const float* rt, std::int64_t ld, float* out) {
  chunk_product_body<V16, G, U>(h, H, rt, ld, out);
}
#endif

template <int G>
ProductFn product_for(std::int64_t U) {
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  if (isa == gemm::Isa::Avx512) {
    if (U == 64) return &product_avx512<G, 64>;
    if (U == 48) return &product_avx512<G, 48>;
    if (U == 32) return &product_avx512<G, 32>;
    return &product_avx512<G, 16>;
  }
  if (isa == gemm::Isa::Avx2) return &product_avx2<G, 16>;
#endif
  (void)U;
  (void)isa;
  return &product_generic<G, 16>;
}
ProductFn product_for(Cell cell, std::int64_t U) {
  return cell == Cell::Lstm  ? product_for<4>(U)
         : cell == Cell::Gru ? product_for<3>(U)
                             : product_for<1>(U);
}

// Hands out (step, chunk) tickets to the threads sharing one sequence.
struct Tickets {
  std::atomic<std::int64_t> next{0}, finished{0}, steps_done{0};
  // Blocks until every chunk of steps before `step` is finished.
  void wait_for(std::int64_t step) const {
    for (int spins = 0; steps_done.load(std::memory_order_acquire) < step; ++spins) {
#if defined(__x86_64__)
      __builtin_ia32_pause();
#endif
      if (spins > 4096) std::this_thread::yield();  // the thread we wait for may be descheduled
    }
  }
  void finish(std::int64_t step, std::int64_t chunks) {
    if (finished.fetch_add(1, std::memory_order_acq_rel) + 1 == (step + 1) * chunks)
      steps_done.store(step + 1, std::memory_order_release);
  }
};

Outputs fast(const Rec& rc) {
  const Cell cell = rc.cell;
  const int G = rc.G, dirs = rc.dirs;
  const std::int64_t S = rc.S, Bt = rc.Bt, I = rc.I, H = rc.H;
  const Tensor &X0 = *rc.X0, &L = *rc.L, &H0 = *rc.H0, &C0 = *rc.C0;
  const bool layout1 = rc.layout1, peepholes = rc.P->defined();
  Tensor Y(DType::Float32, layout1 ? Shape{Bt, S, dirs, H} : Shape{S, dirs, Bt, H});
  Tensor YH(DType::Float32, layout1 ? Shape{Bt, dirs, H} : Shape{dirs, Bt, H});
  Tensor YC(DType::Float32, YH.shape());
  float *y = Y.mutable_data<float>(), *yh = YH.mutable_data<float>(),
        *yc = YC.mutable_data<float>();
  const auto packed = pack(rc);
  const std::int64_t U = packed->U, chunks = packed->chunks, cols = packed->cols, hp = chunks * U;
  const ProductFn product = product_for(cell, U);
  std::vector<float> xw(static_cast<std::size_t>(S * Bt * cols));
  // Two h buffers (the step's input and output) and c, padded to whole chunks.
  std::vector<float> hbuf(static_cast<std::size_t>(2 * hp)), c(static_cast<std::size_t>(hp));
  const ThreadPool* pool = current_pool();
  const std::int64_t threads = std::min<std::int64_t>(pool ? pool->size() : 1, chunks);
  auto clamp = [&](float* v, std::int64_t n) { clip_in_place(rc, v, n); };
  for (int d = 0; d < dirs; ++d) {
    const bool reverse = rc.direction == "reverse" || d == 1;
    const float* rt = packed->rt.data() + d * cols * H;
    const float* rbh = packed->rbh.data() + d * hp;
    const float* peep = packed->peep.data() + d * 3 * hp;  // Pi, Po, Pf
    // xw[row] = X[row] Wp^T + bias for every (t, b) at once; rows in X's own order.
    gemm::Epilogue ep;
    ep.bias_kind = gemm::Epilogue::Bias::PerColumn;
    ep.bias = packed->bias.data() + d * cols;
    gemm::sgemm(S * Bt, cols, I, 1.f, X0.data<float>(), I, false, packed->wp.data() + d * cols * I,
                I, true, false, xw.data(), cols, ep);
    for (std::int64_t b = 0; b < Bt; ++b) {
      const std::int64_t len = L.defined() ? L.get_int(b) : S;
      std::fill(hbuf.begin(), hbuf.end(), 0.f);
      std::fill(c.begin(), c.end(), 0.f);
      for (std::int64_t j = 0; j < H; ++j) {
        if (H0.defined())
          hbuf[static_cast<std::size_t>(j)] = H0.data<float>()[(layout1 ? b * dirs + d : d * Bt + b) * H + j];
        if (C0.defined()) c[static_cast<std::size_t>(j)] = C0.data<float>()[(layout1 ? b * dirs + d : d * Bt + b) * H + j];
      }
      // One chunk q of step `step`: reads h (all units), writes its units of the next h and c.
      auto chunk = [&](std::int64_t step, std::int64_t q) {
        const std::int64_t t = reverse ? len - 1 - step : step;
        const float* hv = hbuf.data() + (step % 2) * hp;
        float* hn = hbuf.data() + ((step + 1) % 2) * hp + q * U;
        float* cv = c.data() + q * U;
        float* g = xw.data() + (layout1 ? b * S + t : t * Bt + b) * cols +
                   q * G * U;  // this chunk's slots
        alignas(64) float prod[4 * 64];
        product(hv, H, rt + q * H * G * U, G * U, prod);
        if (cell == Cell::Lstm) {  // slots i, f, o, c
          float *gi = g, *gf = g + U, *go = g + 2 * U, *gc = g + 3 * U;
          for (std::int64_t j = 0; j < 4 * U; ++j) g[j] += prod[j];
          if (peepholes) {
            const float *pi = peep + q * U, *pf = peep + 2 * hp + q * U;
            for (std::int64_t j = 0; j < U; ++j) {
              gi[j] += pi[j] * cv[j];
              gf[j] += pf[j] * cv[j];
            }
          }
          if (!peepholes && !rc.input_forget) {  // i, f, o in one call
            clamp(g, 4 * U);
            vmath::apply(vmath::Fn::Sigmoid, g, g, 3 * U);
          } else {
            clamp(g, 2 * U);
            clamp(gc, U);
            vmath::apply(vmath::Fn::Sigmoid, gi, gi, rc.input_forget ? U : 2 * U);
            if (rc.input_forget)
              for (std::int64_t j = 0; j < U; ++j) gf[j] = 1.f - gi[j];
          }
          vmath::apply(vmath::Fn::Tanh, gc, gc, U);
          for (std::int64_t j = 0; j < U; ++j) cv[j] = gf[j] * cv[j] + gi[j] * gc[j];
          if (peepholes || rc.input_forget) {  // o sees the new c
            const float* po = peep + hp + q * U;
            if (peepholes)
              for (std::int64_t j = 0; j < U; ++j) go[j] += po[j] * cv[j];
            clamp(go, U);
            vmath::apply(vmath::Fn::Sigmoid, go, go, U);
          }
          vmath::apply(vmath::Fn::Tanh, cv, gc, U);
          for (std::int64_t j = 0; j < U; ++j) hn[j] = go[j] * gc[j];
        } else if (cell == Cell::Gru) {  // slots z, r, h (linear_before_reset)
          float *gz = g, *gr = g + U, *gh = g + 2 * U;
          for (std::int64_t j = 0; j < 2 * U; ++j) g[j] += prod[j];
          clamp(g, 2 * U);
          vmath::apply(vmath::Fn::Sigmoid, g, g, 2 * U);
          for (std::int64_t j = 0; j < U; ++j) gh[j] += gr[j] * (prod[2 * U + j] + rbh[q * U + j]);
          clamp(gh, U);
          vmath::apply(vmath::Fn::Tanh, gh, gh, U);
          const float* hq = hv + q * U;
          for (std::int64_t j = 0; j < U; ++j) hn[j] = gh[j] + gz[j] * (hq[j] - gh[j]);
        } else {
          for (std::int64_t j = 0; j < U; ++j) g[j] += prod[j];
          clamp(g, U);
          vmath::apply(vmath::Fn::Tanh, g, hn, U);
        }
        float* yrow = y + (layout1 ? ((b * S + t) * dirs + d) * H : ((t * dirs + d) * Bt + b) * H);
        const std::int64_t n = std::min(U, H - q * U);
        std::copy(hn, hn + n, yrow + q * U);
      };
      Tickets tickets;
      auto run = [&](std::int64_t) {
        for (;;) {
          const std::int64_t ticket = tickets.next.fetch_add(1, std::memory_order_relaxed);
          const std::int64_t step = ticket / chunks;
          if (step >= len) return;
          tickets.wait_for(step);
          chunk(step, ticket % chunks);
          tickets.finish(step, chunks);
        }
      };
      if (threads > 1 && len > 1)
        parallel_for(threads, run);
      else
        run(0);
      const float* hlast = hbuf.data() + (len % 2) * hp;
      const std::int64_t hi = layout1 ? (b * dirs + d) * H : (d * Bt + b) * H;
      std::copy(hlast, hlast + H, yh + hi);
      std::copy(c.begin(), c.begin() + H, yc + hi);
    }
  }
  Outputs out{Y, YH};
  if (cell == Cell::Lstm) out.push_back(YC);
  return out;
}

}  // namespace

Outputs recurrent_reference(const ir::Operation& op, Inputs x, RecurrentCell cell) { return reference(parse(op, x, cell)); }

Outputs recurrent(const ir::Operation& op, Inputs x, RecurrentCell cell) {
  const Rec rc = parse(op, x, cell);
  if (!fast_applies(rc)) return reference(rc);
  return rc.cell == Cell::Gru && !rc.lbr ? fast_gru_reset_first(rc) : fast(rc);
}

Outputs kernel_RNN(const ir::Operation& op, Inputs x) { return recurrent(op, x, Cell::Rnn); }
Outputs kernel_GRU(const ir::Operation& op, Inputs x) { return recurrent(op, x, Cell::Gru); }
Outputs kernel_LSTM(const ir::Operation& op, Inputs x) { return recurrent(op, x, Cell::Lstm); }

}  // namespace ec::runtime::kernels
