// TFLite's reference integer kernels for graphs read from .tflite files:
// NHWC layout (Conv with OHWI weights, depthwise as groups, pooling) and u8
// activations with asymmetric weights (the TOCO-era uint8 scheme, where every
// tensor, weights included, has its own zero point). Plain loops, maths next to
// the code; the NCHW int8 fast paths (int8_conv.cpp, ...) stay as they are.
//
//   Conv:    acc = bias[c] + sum (x - zx) * (w - zw[c]);  y = clamp(zy + MBQM(acc, sx sw[c] / sy))
//            (reference_ops::Conv for u8, reference_integer_ops::ConvPerChannel for i8)
//   AvgPool: y = (sum x + n/2) / n (i8: rounded away from zero), clamp  (reference AveragePool)
//   MaxPool: y = clamp(max x)
//   Add/Sub/Mul (u8): the int8 scheme of fixed_point.h with the u8 range
//   Concat:  ConcatenationWithScaling: y = round(x * si/so - zi * si/so) + zo
//   Softmax, Sigmoid, Tanh, HardSwish, Resize, Mean: dequantise, float, quantise
//            (TFLite's optimised kernels and XNNPACK differ from one another here
//            by up to 1 LSB as well)
//   ArgMax:  first index of the largest stored value
//   Reshape-like ops: bytes pass through; requantised when the output's params differ.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/runtime/kernel_registry.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/quantized/int8_common.h"

namespace ec::runtime::quantized {
namespace {

using K = ir::OpKind;

std::int32_t load(const Tensor& t, std::int64_t i) {
  return t.dtype() == ir::DType::UInt8 ? std::int32_t(t.data<std::uint8_t>()[i]) : std::int32_t(t.data<std::int8_t>()[i]);
}
void store(Tensor& t, std::int64_t i, std::int32_t v) {
  if (t.dtype() == ir::DType::UInt8) t.mutable_data<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
  else t.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(v);
}
std::vector<std::int32_t> widen(const Tensor& t, std::int32_t offset) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(t.numel()));
  for (std::int64_t i = 0; i < t.numel(); ++i) v[static_cast<std::size_t>(i)] = load(t, i) + offset;
  return v;
}

}  // namespace

// EC_INT8_REQUANT=fp32 selects the requantisation of XNNPACK (which the TFLite
// interpreter applies by default on CPU): y = zp + round-half-even((float) acc *
// (float) s_x s_w / s_y). Default: TFLite's reference fixed-point MBQM.
bool fp32_requantization() {
  static const bool fp32 = [] {
    const char* v = std::getenv("EC_INT8_REQUANT");
    return v && std::string(v) == "fp32";
  }();
  return fp32;
}

namespace {

const std::initializer_list<ir::DType> kQ8 = {ir::DType::Int8, ir::DType::UInt8};

QParams q8(const ir::Graph& g, const std::string& n) { return quant_of(g, n, kQ8); }

void check_dtype(const Tensor& t, ir::DType want, const ir::Operation& op) {
  if (t.dtype() != want)
    fail(op.op_type + " '" + op.name + "': input is " + t.type_string() + ", expected " + std::string(ir::dtype_name(want)));
}

// y = requantised x, element by element (QUANTIZE between two 8-bit params).
std::int32_t requant(std::int32_t x, const QParams& in, const QParams& out, const QuantizedMultiplier& m) {
  return std::clamp(multiply_by_quantized_multiplier(x - in.zero_point(), m) + out.zero_point(), qmin_of(out.dtype),
                    qmax_of(out.dtype));
}

// ---------------------------------------------------------------- Conv (NHWC)
class ConvNhwc final : public PreparedOp {
 public:
  ConvNhwc(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    const ir::Tensor& x = ir_tensor(g, op.inputs[0]);
    const ir::Tensor& w = ir_tensor(g, op.inputs[1]);
    const ir::Tensor& y = ir_tensor(g, op.outputs[0]);
    qx_ = q8(g, x.name);
    qy_ = q8(g, y.name);
    const QParams qw = q8(g, w.name);
    const Tensor W = constant_of(g, op, w.name, w.dtype, "weight");
    if (W.rank() != 4) fail("Conv '" + op.name + "': weight must be 4-D OHWI");
    co_ = W.dim(0), kh_ = W.dim(1), kw_ = W.dim(2), cg_ = W.dim(3);
    check_channels(w, qw, 0, co_);
    w_.resize(static_cast<std::size_t>(W.numel()));
    const std::int64_t per = kh_ * kw_ * cg_;
    for (std::int64_t o = 0; o < co_; ++o)
      for (std::int64_t i = 0; i < per; ++i)
        w_[static_cast<std::size_t>(o * per + i)] = load(W, o * per + i) - qw.zero_point(o);
    bias_.assign(static_cast<std::size_t>(co_), 0);
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const Tensor B = constant_of(g, op, op.inputs[2], ir::DType::Int32, "bias");
      if (B.numel() != co_) fail("Conv '" + op.name + "': bias has " + std::to_string(B.numel()) + " values");
      for (std::int64_t o = 0; o < co_; ++o) bias_[static_cast<std::size_t>(o)] = B.data<std::int32_t>()[o];
    }
    for (std::int64_t o = 0; o < co_; ++o)
      // u8 (per-tensor, TFLite's legacy path): GetQuantizedConvolutionMultipler takes the float
      // product s_x * s_w before widening; per-channel i8 widens each factor first.
      mult_.push_back(quantize_multiplier(
          (qw.per_channel() ? double(qx_.scale()) * double(qw.scale(o)) : double(qx_.scale() * qw.scale(o))) /
          double(qy_.scale()))),
      fscale_.push_back(qx_.scale() * qw.scale(o) / qy_.scale());
    output_activation_range(op, qy_, lo_, hi_);
    group_ = op.attr_int("group", 1);
    const auto s = op.attr_ints("strides"), d = op.attr_ints("dilations"), p = op.attr_ints("pads");
    sh_ = s.size() == 2 ? s[0] : 1, sw_ = s.size() == 2 ? s[1] : 1;
    dh_ = d.size() == 2 ? d[0] : 1, dw_ = d.size() == 2 ? d[1] : 1;
    pt_ = p.size() == 4 ? p[0] : 0, pl_ = p.size() == 4 ? p[1] : 0, pb_ = p.size() == 4 ? p[2] : 0, pr_ = p.size() == 4 ? p[3] : 0;
    if (op.attr_string("auto_pad", "NOTSET") != "NOTSET") fail("Conv '" + op.name + "': auto_pad is not supported here; use pads");
    if (group_ < 1 || co_ % group_ != 0) fail("Conv '" + op.name + "': bad group count");
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    check_dtype(X, qx_.dtype, op_);
    if (X.rank() != 4) fail("Conv '" + op_.name + "': input must be 4-D NHWC");
    const std::int64_t N = X.dim(0), H = X.dim(1), Wd = X.dim(2), C = X.dim(3);
    if (C != cg_ * group_) fail("Conv '" + op_.name + "': input has " + std::to_string(C) + " channels");
    const std::int64_t OH = (H + pt_ + pb_ - ((kh_ - 1) * dh_ + 1)) / sh_ + 1;
    const std::int64_t OW = (Wd + pl_ + pr_ - ((kw_ - 1) * dw_ + 1)) / sw_ + 1;
    Tensor Y = Tensor::uninitialized(qy_.dtype, {N, OH, OW, co_});
    const auto x = widen(X, -qx_.zero_point());
    const std::int64_t mg = co_ / group_;
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t oy = 0; oy < OH; ++oy)
        for (std::int64_t ox = 0; ox < OW; ++ox)
          for (std::int64_t o = 0; o < co_; ++o) {
            const std::int64_t g = o / mg;
            std::int32_t acc = 0;
            for (std::int64_t ky = 0; ky < kh_; ++ky) {
              const std::int64_t iy = oy * sh_ - pt_ + ky * dh_;
              if (iy < 0 || iy >= H) continue;
              for (std::int64_t kx = 0; kx < kw_; ++kx) {
                const std::int64_t ix = ox * sw_ - pl_ + kx * dw_;
                if (ix < 0 || ix >= Wd) continue;
                const std::int32_t* xp = &x[static_cast<std::size_t>(((n * H + iy) * Wd + ix) * C + g * cg_)];
                const std::int32_t* wp = &w_[static_cast<std::size_t>(((o * kh_ + ky) * kw_ + kx) * cg_)];
                for (std::int64_t c = 0; c < cg_; ++c) acc += xp[c] * wp[c];
              }
            }
            acc += bias_[static_cast<std::size_t>(o)];
            if (fp32_) {  // XNNPACK: round-to-nearest-even of acc * (float) s_x s_w / s_y
              float f = float(acc) * fscale_[static_cast<std::size_t>(o)];
              acc = static_cast<std::int32_t>(std::nearbyint(f)) + qy_.zero_point();
            } else
            acc = multiply_by_quantized_multiplier(acc, mult_[static_cast<std::size_t>(o)]) + qy_.zero_point();
            store(Y, ((n * OH + oy) * OW + ox) * co_ + o, std::clamp(acc, lo_, hi_));
          }
    return {Y};
  }

 private:
  ir::Operation op_;
  QParams qx_, qy_;
  std::vector<std::int32_t> w_, bias_;
  std::vector<QuantizedMultiplier> mult_;
  std::vector<float> fscale_;
  bool fp32_ = fp32_requantization();
  std::int64_t co_ = 0, kh_ = 0, kw_ = 0, cg_ = 0, group_ = 1, sh_ = 1, sw_ = 1, dh_ = 1, dw_ = 1, pt_ = 0, pl_ = 0, pb_ = 0, pr_ = 0;
  std::int32_t lo_ = -128, hi_ = 127;
};

// ---------------------------------------------------------------- pooling (NHWC)
class PoolNhwc final : public PreparedOp {
 public:
  PoolNhwc(const ir::Operation& op, const ir::Graph& g, bool avg) : op_(op), avg_(avg) {
    qx_ = q8(g, op.inputs[0]);
    qy_ = q8(g, op.outputs[0]);
    requant_ = !qx_.same_as(qy_);
    m_ = quantize_multiplier(double(qx_.scale()) / double(qy_.scale()));
    lo_ = qmin_of(qy_.dtype), hi_ = qmax_of(qy_.dtype);
    global_ = op.kind == K::GlobalAveragePool || op.kind == K::GlobalMaxPool;
    if (!global_) {
      const auto k = op.attr_ints("kernel_shape"), s = op.attr_ints("strides"), p = op.attr_ints("pads");
      if (k.size() != 2) fail(op.op_type + " '" + op.name + "': 2-D pooling only");
      kh_ = k[0], kw_ = k[1];
      sh_ = s.size() == 2 ? s[0] : 1, sw_ = s.size() == 2 ? s[1] : 1;
      pt_ = p.size() == 4 ? p[0] : 0, pl_ = p.size() == 4 ? p[1] : 0, pb_ = p.size() == 4 ? p[2] : 0, pr_ = p.size() == 4 ? p[3] : 0;
      if (op.attr_int("count_include_pad", 0) != 0) fail(op.op_type + " '" + op.name + "': count_include_pad is not TFLite's");
    }
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    check_dtype(X, qx_.dtype, op_);
    const std::int64_t N = X.dim(0), H = X.dim(1), W = X.dim(2), C = X.dim(3);
    std::int64_t kh = kh_, kw = kw_, sh = sh_, sw = sw_, pt = pt_, pl = pl_, pb = pb_, pr = pr_;
    if (global_) kh = H, kw = W, sh = sw = 1, pt = pl = pb = pr = 0;
    const std::int64_t OH = (H + pt + pb - kh) / sh + 1, OW = (W + pl + pr - kw) / sw + 1;
    Tensor Y = Tensor::uninitialized(qy_.dtype, {N, OH, OW, C});
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t oy = 0; oy < OH; ++oy)
        for (std::int64_t ox = 0; ox < OW; ++ox)
          for (std::int64_t c = 0; c < C; ++c) {
            std::int32_t acc = avg_ ? 0 : INT32_MIN, count = 0;
            for (std::int64_t ky = 0; ky < kh; ++ky) {
              const std::int64_t iy = oy * sh - pt + ky;
              if (iy < 0 || iy >= H) continue;
              for (std::int64_t kx = 0; kx < kw; ++kx) {
                const std::int64_t ix = ox * sw - pl + kx;
                if (ix < 0 || ix >= W) continue;
                const std::int32_t v = load(X, ((n * H + iy) * W + ix) * C + c);
                acc = avg_ ? acc + v : std::max(acc, v);
                ++count;
              }
            }
            if (avg_ && count) acc = acc >= 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
            if (requant_) acc = requant(acc, qx_, qy_, m_);
            store(Y, ((n * OH + oy) * OW + ox) * C + c, std::clamp(acc, lo_, hi_));
          }
    return {Y};
  }

 private:
  ir::Operation op_;
  bool avg_, global_ = false, requant_ = false;
  QParams qx_, qy_;
  QuantizedMultiplier m_;
  std::int64_t kh_ = 1, kw_ = 1, sh_ = 1, sw_ = 1, pt_ = 0, pl_ = 0, pb_ = 0, pr_ = 0;
  std::int32_t lo_ = 0, hi_ = 255;
};

// ---------------------------------------------------------------- Add/Sub/Mul (any 8-bit)
class Binary8 final : public PreparedOp {
 public:
  Binary8(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    qa_ = q8(g, op.inputs[0]), qb_ = q8(g, op.inputs[1]), qy_ = q8(g, op.outputs[0]);
    output_activation_range(op, qy_, lo_, hi_);
    if (op.kind == K::Mul) {
      mul_ = quantize_multiplier(double(qa_.scale()) * double(qb_.scale()) / double(qy_.scale()));
    } else {
      add_ = make_add_params(qa_.scale(), qa_.zero_point(), qb_.scale(), qb_.zero_point(), qy_.scale(), qy_.zero_point());
      add_.act_min = lo_;
      add_.act_max = hi_;
    }
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor &A = in[0], &B = in[1];
    const auto out = kernels::broadcast_shapes(A.shape(), B.shape());
    Tensor Y = Tensor::uninitialized(qy_.dtype, out);
    kernels::for_each_broadcast2(out, A.shape(), B.shape(), [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
      const std::int32_t a = load(A, ia), b = load(B, ib);
      std::int32_t v;
      if (op_.kind == K::Mul) v = mul_quantized(a, -qa_.zero_point(), b, -qb_.zero_point(), mul_, qy_.zero_point(), lo_, hi_);
      else v = add_quantized(add_, a, b, op_.kind == K::Sub);
      store(Y, i, v);
    });
    return {Y};
  }

 private:
  ir::Operation op_;
  QParams qa_, qb_, qy_;
  AddParams add_;
  QuantizedMultiplier mul_;
  std::int32_t lo_ = 0, hi_ = 255;
};

// ---------------------------------------------------------------- Concat (any 8-bit)
class Concat8 final : public PreparedOp {
 public:
  Concat8(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    for (const auto& n : op.inputs) qin_.push_back(q8(g, n));
    qy_ = q8(g, op.outputs[0]);
    axis_ = op.attr_int("axis", 0);
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const std::int64_t r = static_cast<std::int64_t>(in[0].rank());
    const std::int64_t axis = axis_ < 0 ? axis_ + r : axis_;
    auto shape = in[0].shape();
    shape[static_cast<std::size_t>(axis)] = 0;
    for (const auto& t : in) shape[static_cast<std::size_t>(axis)] += t.dim(static_cast<std::size_t>(axis));
    Tensor Y = Tensor::uninitialized(qy_.dtype, shape);
    std::int64_t outer = 1;
    for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
    const std::int64_t row = Y.numel() / std::max<std::int64_t>(outer, 1);
    std::int64_t off = 0;
    for (std::size_t k = 0; k < in.size(); ++k) {
      const Tensor& X = in[k];
      const std::int64_t chunk = X.numel() / std::max<std::int64_t>(outer, 1);
      const bool same = qin_[k].same_as(qy_);
      const float scale = qin_[k].scale() / qy_.scale(), bias = -float(qin_[k].zero_point()) * scale;
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < chunk; ++i) {
          std::int32_t v = load(X, o * chunk + i);
          if (!same)
            v = std::clamp(static_cast<std::int32_t>(std::round(float(v) * scale + bias)) + qy_.zero_point(),
                           qmin_of(qy_.dtype), qmax_of(qy_.dtype));
          store(Y, o * row + off + i, v);
        }
      off += chunk;
    }
    return {Y};
  }

 private:
  ir::Operation op_;
  std::vector<QParams> qin_;
  QParams qy_;
  std::int64_t axis_ = 0;
};

// ---------------------------------------------------------------- float-transform ops
// Dequantise, run the float reference kernel, quantise (TfLiteRound) to the output params.
class ViaFloat final : public PreparedOp {
 public:
  ViaFloat(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    qx_ = q8(g, op.inputs[0]);
    qy_ = q8(g, op.outputs[0]);
    // TFLite resizes the stored values themselves (its kernels ignore the params;
    // the converter gives input and output the same ones).
    raw_ = op.kind == K::Resize;
    // TFLite's 8-bit MEAN (reference QuantizedMeanOrSum): the mean of the stored values
    // in float, then round(mean * s_x / s_y - z_x s_x / s_y) + z_y.
    mean_ = op.kind == K::ReduceMean;
    fop_ = op;
    for (std::size_t i = 1; i < op.inputs.size(); ++i) {
      if (op.inputs[i].empty()) continue;
      const ir::Tensor& t = ir_tensor(g, op.inputs[i]);
      if (!t.is_constant()) fail(op.op_type + " '" + op.name + "': input " + t.name + " must be a constant");
      Tensor c = Tensor::from_constant(t.dtype, t.shape.sizes(), *t.data);
      if (t.quant && (t.dtype == ir::DType::UInt8 || t.dtype == ir::DType::Int8)) {
        const QParams q = q8(g, t.name);
        Tensor f(ir::DType::Float32, c.shape());
        for (std::int64_t k = 0; k < c.numel(); ++k) f.mutable_data<float>()[k] = q.scale() * float(load(c, k) - q.zero_point());
        c = f;
      }
      consts_.emplace_back(i, c);
    }
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    check_dtype(X, qx_.dtype, op_);
    Tensor F(ir::DType::Float32, X.shape());
    float* f = F.mutable_data<float>();
    for (std::int64_t i = 0; i < X.numel(); ++i)
      f[i] = raw_ || mean_ ? float(load(X, i)) : qx_.scale() * float(load(X, i) - qx_.zero_point());
    std::vector<Tensor> args(op_.inputs.size());
    args[0] = F;
    for (const auto& [i, c] : consts_) args[i] = c;
    auto outs = run_kernel(fop_, args);
    const Tensor& R = outs.at(0);
    Tensor Y = Tensor::uninitialized(qy_.dtype, R.shape());
    const float scale = qx_.scale() / qy_.scale(), bias = -float(qx_.zero_point()) * scale;
    for (std::int64_t i = 0; i < R.numel(); ++i)
      store(Y, i, mean_ ? std::clamp(static_cast<std::int32_t>(std::round(R.data<float>()[i] * scale + bias)) + qy_.zero_point(),
                                     qmin_of(qy_.dtype), qmax_of(qy_.dtype))
                  : raw_ ? std::clamp(static_cast<std::int32_t>(std::floor(R.data<float>()[i] + 0.5f)), qmin_of(qy_.dtype), qmax_of(qy_.dtype))
                       : quantize_value(R.data<float>()[i], qy_.scale(), qy_.zero_point(), qmin_of(qy_.dtype), qmax_of(qy_.dtype)));
    return {Y};
  }

 private:
  ir::Operation op_, fop_;
  QParams qx_, qy_;
  bool raw_ = false, mean_ = false;
  std::vector<std::pair<std::size_t, Tensor>> consts_;
};

// Softmax: TFLite's uint8/int8 kernels compute exp(beta * s_in * (x - max)) per row.
class Softmax8 final : public PreparedOp {
 public:
  Softmax8(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    qx_ = q8(g, op.inputs[0]);
    qy_ = q8(g, op.outputs[0]);
    if (op.attr_int("axis", -1) != -1) fail("Softmax '" + op.name + "': only the last axis (TFLite)");
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    check_dtype(X, qx_.dtype, op_);
    const std::int64_t d = X.dim(X.rank() - 1), rows = X.numel() / std::max<std::int64_t>(d, 1);
    Tensor Y = Tensor::uninitialized(qy_.dtype, X.shape());
    std::vector<float> e(static_cast<std::size_t>(d));
    for (std::int64_t r = 0; r < rows; ++r) {
      std::int32_t mx = INT32_MIN;
      for (std::int64_t i = 0; i < d; ++i) mx = std::max(mx, load(X, r * d + i));
      float sum = 0;
      for (std::int64_t i = 0; i < d; ++i) sum += e[static_cast<std::size_t>(i)] = std::exp(qx_.scale() * float(load(X, r * d + i) - mx));
      for (std::int64_t i = 0; i < d; ++i)
        store(Y, r * d + i, quantize_value(e[static_cast<std::size_t>(i)] / sum, qy_.scale(), qy_.zero_point(),
                                          qmin_of(qy_.dtype), qmax_of(qy_.dtype)));
    }
    return {Y};
  }

 private:
  ir::Operation op_;
  QParams qx_, qy_;
};

// ArgMax/ArgMin over stored values (monotonic in the real values).
class Arg8 final : public PreparedOp {
 public:
  Arg8(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    out_ = ir_tensor(g, op.outputs[0]).dtype;
    if (out_ != ir::DType::Int32 && out_ != ir::DType::Int64) out_ = ir::DType::Int64;
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    const std::int64_t r = static_cast<std::int64_t>(X.rank());
    std::int64_t axis = op_.attr_int("axis", 0);
    if (axis < 0) axis += r;
    const bool keep = op_.attr_int("keepdims", 1) != 0, is_max = op_.kind == K::ArgMax;
    std::int64_t outer = 1, inner = 1;
    const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
    for (std::int64_t d = 0; d < axis; ++d) outer *= X.dim(static_cast<std::size_t>(d));
    for (std::int64_t d = axis + 1; d < r; ++d) inner *= X.dim(static_cast<std::size_t>(d));
    std::vector<std::int64_t> shape;
    for (std::int64_t d = 0; d < r; ++d)
      if (d != axis) shape.push_back(X.dim(static_cast<std::size_t>(d)));
      else if (keep) shape.push_back(1);
    Tensor Y(out_, shape);
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        std::int64_t best = 0;
        std::int32_t bv = load(X, o * n * inner + i);
        for (std::int64_t k = 1; k < n; ++k) {
          const std::int32_t v = load(X, (o * n + k) * inner + i);
          if (is_max ? v > bv : v < bv) bv = v, best = k;
        }
        if (out_ == ir::DType::Int32) Y.mutable_data<std::int32_t>()[o * inner + i] = static_cast<std::int32_t>(best);
        else Y.mutable_data<std::int64_t>()[o * inner + i] = best;
      }
    return {Y};
  }

 private:
  ir::Operation op_;
  ir::DType out_;
};

// Reshape-like ops: the float kernel moves the bytes (it is dtype-agnostic),
// then the values are requantised when the output's params differ.
class Move8 final : public PreparedOp {
 public:
  Move8(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    qx_ = q8(g, op.inputs[0]);
    const ir::Tensor& y = ir_tensor(g, op.outputs[0]);
    qy_ = y.quant ? q8(g, y.name) : qx_;
    requant_ = !qx_.same_as(qy_);
    m_ = quantize_multiplier(double(qx_.scale()) / double(qy_.scale()));
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    auto outs = run_kernel(op_, in);
    if (!requant_ && qx_.dtype == qy_.dtype) return outs;
    for (auto& t : outs) {
      Tensor Y = Tensor::uninitialized(qy_.dtype, t.shape());
      for (std::int64_t i = 0; i < t.numel(); ++i) store(Y, i, requant(load(t, i), qx_, qy_, m_));
      t = Y;
    }
    return outs;
  }

 private:
  ir::Operation op_;
  QParams qx_, qy_;
  QuantizedMultiplier m_;
  bool requant_ = false;
};

// Pad with the stored value of real 0 (the output's zero point), or PADV2's constant.
class Pad8 final : public PreparedOp {
 public:
  Pad8(const ir::Operation& op, const ir::Graph& g) : op_(op) {
    qy_ = q8(g, op.outputs[0]);
    fill_ = qy_.zero_point();
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const ir::Tensor& c = ir_tensor(g, op.inputs[2]);
      if (!c.is_constant() || c.dtype != qy_.dtype) fail("Pad '" + op.name + "': the pad value must be a constant of the input's type");
      fill_ = c.dtype == ir::DType::UInt8 ? std::int32_t(c.data->as<std::uint8_t>()[0]) : std::int32_t(c.data->as<std::int8_t>()[0]);
    }
    if (op.attr_string("mode", "constant") != "constant") fail("Pad '" + op.name + "': only constant padding");
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    const auto pads = in[1].to_int64_vector();
    const std::size_t r = X.rank();
    if (pads.size() != 2 * r) fail("Pad '" + op_.name + "': pads do not match the rank");
    std::vector<std::int64_t> shape(r);
    for (std::size_t d = 0; d < r; ++d) {
      shape[d] = X.dim(d) + pads[d] + pads[r + d];
      if (shape[d] < 0) fail("Pad '" + op_.name + "': pads crop dim " + std::to_string(d) + " below zero");
    }
    Tensor Y = Tensor::uninitialized(X.dtype(), shape);
    // One byte per value (i8 or u8): the fill, then the input's innermost rows copied into
    // place, when no pad crops (a pad before MAX_POOL: 112x112x64 took 3.8 ms per value).
    if (r > 0 && X.numel() > 0 && std::all_of(pads.begin(), pads.end(), [](std::int64_t p) { return p >= 0; })) {
      std::memset(Y.mutable_raw(), static_cast<int>(static_cast<std::uint8_t>(fill_)), static_cast<std::size_t>(Y.numel()));
      const std::int64_t inner = X.dim(r - 1), rows = X.numel() / inner;
      const auto* src = reinterpret_cast<const std::uint8_t*>(X.raw());
      auto* dst = reinterpret_cast<std::uint8_t*>(Y.mutable_raw());
      std::vector<std::int64_t> idx(r, 0);  // the row's index over dims [0, r - 1)
      for (std::int64_t row = 0; row < rows; ++row) {
        std::int64_t o = 0;
        for (std::size_t d = 0; d + 1 < r; ++d) o = o * shape[d] + idx[d] + pads[d];
        o = o * shape[r - 1] + pads[r - 1];
        std::memcpy(dst + o, src + row * inner, static_cast<std::size_t>(inner));
        for (std::size_t d = r - 1; d-- > 0;) {
          if (++idx[d] < X.dim(d)) break;
          idx[d] = 0;
        }
      }
      return {Y};
    }
    for (std::int64_t i = 0; i < Y.numel(); ++i) store(Y, i, fill_);
    std::vector<std::int64_t> idx(r, 0);
    for (std::int64_t i = 0; i < X.numel(); ++i) {
      std::int64_t o = 0;
      bool inside = true;  // a negative pad crops: that input value has no place in y
      for (std::size_t d = 0; d < r; ++d) {
        const std::int64_t c = idx[d] + pads[d];
        inside &= c >= 0 && c < shape[d];
        o = o * shape[d] + c;
      }
      if (inside) store(Y, o, load(X, i));
      for (std::size_t d = r; d-- > 0;) {
        if (++idx[d] < X.dim(d)) break;
        idx[d] = 0;
      }
    }
    return {Y};
  }

 private:
  ir::Operation op_;
  QParams qy_;
  std::int32_t fill_ = 0;
};

bool is_nhwc(const ir::Operation& op) { return op.attr_string("layout", "NCHW") == "NHWC"; }

}  // namespace

std::unique_ptr<PreparedOp> prepare_Resize(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ViaFloat>(op, graph);
}

std::unique_ptr<PreparedOp> prepare_Reduce(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ViaFloat>(op, graph);
}

std::unique_ptr<PreparedOp> prepare_tflite_reference(const ir::Operation& op, const ir::Graph& graph) {
  const ir::Tensor* x = graph.find_tensor(op.inputs[0]);
  const bool u8 = x && x->dtype == ir::DType::UInt8;
  const bool nhwc = is_nhwc(op);
  switch (op.kind) {
    case K::Conv:
      if (nhwc || u8) {
        if (!nhwc) fail("Conv '" + op.name + "': u8 convolution needs layout NHWC");
        return std::make_unique<ConvNhwc>(op, graph);
      }
      return nullptr;
    case K::AveragePool: case K::MaxPool: case K::GlobalAveragePool: case K::GlobalMaxPool:
      if (nhwc) return std::make_unique<PoolNhwc>(op, graph, op.kind == K::AveragePool || op.kind == K::GlobalAveragePool);
      if (u8) fail(op.op_type + " '" + op.name + "': u8 pooling needs layout NHWC");
      return nullptr;
    case K::Add: case K::Sub: case K::Mul:
      return u8 ? std::make_unique<Binary8>(op, graph) : nullptr;
    case K::Concat:
      return u8 ? std::make_unique<Concat8>(op, graph) : nullptr;
    case K::Softmax:
      return u8 ? std::make_unique<Softmax8>(op, graph) : nullptr;
    case K::Relu: case K::Clip: case K::Sigmoid: case K::Tanh: case K::HardSwish: case K::LeakyRelu:
      return u8 ? std::make_unique<ViaFloat>(op, graph) : (op.kind == K::LeakyRelu ? std::make_unique<ViaFloat>(op, graph) : nullptr);
    case K::Resize: case K::ReduceMean: case K::ReduceSum: case K::ReduceMax: case K::ReduceMin: case K::LpNormalization:
      return std::make_unique<ViaFloat>(op, graph);
    case K::ArgMax: case K::ArgMin:
      return std::make_unique<Arg8>(op, graph);
    case K::Pad: {  // PADV2's integer constant and u8 here; i8 with a float or no value: the table's Pad
      const ir::Tensor* v = op.inputs.size() > 2 && !op.inputs[2].empty() ? graph.find_tensor(op.inputs[2]) : nullptr;
      const bool int_value = v && (v->dtype == ir::DType::Int8 || v->dtype == ir::DType::UInt8);
      return u8 || int_value ? std::make_unique<Pad8>(op, graph) : nullptr;
    }
    case K::Reshape: case K::Flatten: case K::Squeeze: case K::Unsqueeze: case K::Transpose: case K::Identity:
      return u8 ? std::make_unique<Move8>(op, graph) : nullptr;
    case K::Gather: case K::Slice: case K::Split: case K::DepthToSpace: case K::SpaceToDepth:
      return std::make_unique<Move8>(op, graph);
    default:
      return nullptr;
  }
}

}  // namespace ec::runtime::quantized
