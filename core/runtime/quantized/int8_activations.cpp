// int8 activations and softmax.
//   Relu, Clip: mirror TFLite's QuantizedReluX: y = clamp(zy + MBQM(x - zx, sx / sy),
//     act_min, act_max) with the bounds quantised on the output (0 for Relu; Clip's
//     constant min/max).
//   Sigmoid, Tanh, HardSwish, HardSigmoid, Gelu, Erf: a 256-entry table built at load by dequantising
//     every input value, applying the function in float and quantising to the
//     output (TFLite's int8 LOGISTIC/TANH Prepare: PopulateLookupTable). HardSwish
//     uses the same table scheme (TFLite's own int8 hard_swish is a fixed-point
//     routine; results may differ from it by 1 LSB).
//   Softmax: TFLite's optimised int8 softmax (SoftmaxInt8LUT scheme): a table
//     e[d] = exp(-sx * d) for d = row max - x in [0, 255], the row sum in float,
//     y = clamp(round(e[d] / (sum * sy)) + zy). TFLite's fixed-point reference
//     (gemmlowp exp) may differ from it by 1 LSB. Output params are the graph's
//     (docs/QUANTISATION.md: scale 1/256, zero point -128).
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

struct IO {
  QParams x, y;
};

IO io_params(const ir::Operation& op, const ir::Graph& graph) {
  const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
  const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
  IO io{activation_quant_of(x), activation_quant_of(y)};
  return io;
}

void check_int8(const ir::Operation& op, const Tensor& x) {
  if (x.dtype() != ir::DType::Int8) fail("int8 " + op.op_type + " input is " + x.type_string());
}

class RequantOp final : public PreparedOp {
 public:
  RequantOp(const ir::Operation& op, Requantizer r) : op_(op), r_(r) {
    std::array<std::int8_t, 256> x;
    for (int v = 0; v < 256; ++v) x[static_cast<std::size_t>(v)] = static_cast<std::int8_t>(v - 128);
    r_.apply(x.data(), table_.data(), 256);
  }
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    check_int8(op_, in[0]);
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, in[0].shape());
    r_.apply(in[0].data<std::int8_t>(), Y.mutable_data<std::int8_t>(), Y.numel());
    return {Y};
  }
  const std::int8_t* as_table() const override { return table_.data(); }

 private:
  ir::Operation op_;
  Requantizer r_;
  std::array<std::int8_t, 256> table_{};  // r_ of every int8 value
};

class LutOp final : public PreparedOp {
 public:
  LutOp(const ir::Operation& op, Lut lut) : op_(op), lut_(lut) {}
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    check_int8(op_, in[0]);
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, in[0].shape());
    const std::int8_t* x = in[0].data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    constexpr std::int64_t kChunk = 16384;
    parallel_for((Y.numel() + kChunk - 1) / kChunk, [&](std::int64_t b) {
      const std::int64_t i = b * kChunk;
      lut_apply(lut_.data(), x + i, std::min(kChunk, Y.numel() - i), y + i);
    });
    return {Y};
  }
  const std::int8_t* as_table() const override { return lut_.data(); }

 private:
  ir::Operation op_;
  Lut lut_;
};

// Inference BatchNormalization (NCHW, channel axis 1) left standalone (DenseNet's BN
// after a Concat): y = x * a[c] + b[c], a = gamma / sqrt(var + eps), b = beta - mean * a,
// as one 256-entry table per channel (float transform, like HardSwish).
// Channels-last rows y[p, c] = clamp((x[p, c] * A[c] + B[c]) >> S[c], lo, hi) (AVX2, 8
// channels a step): the per-channel tables of an affine op in arithmetic (ChannelLutOp).
__attribute__((target("avx2"))) void affine_rows_avx2(const std::int8_t* x, std::int64_t pixels, std::int64_t C,
                                                      const std::int32_t* A, const std::int32_t* B,
                                                      const std::int32_t* S, std::int32_t lo32, std::int32_t hi32,
                                                      std::int8_t* y) {
  const std::int64_t C8 = C / 8 * 8;
  const __m256i lo = _mm256_set1_epi32(lo32), hi = _mm256_set1_epi32(hi32);
  for (std::int64_t p = 0; p < pixels; ++p, x += C, y += C) {
    std::int64_t c = 0;
    for (; c < C8; c += 8) {
      const __m256i v = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + c)));
      __m256i r = _mm256_add_epi32(_mm256_mullo_epi32(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(A + c))),
                                   _mm256_loadu_si256(reinterpret_cast<const __m256i*>(B + c)));
      r = _mm256_srav_epi32(r, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(S + c)));
      r = _mm256_min_epi32(_mm256_max_epi32(r, lo), hi);
      const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(y + c), _mm_packs_epi16(w, w));
    }
    for (; c < C; ++c) y[c] = static_cast<std::int8_t>(std::clamp((std::int32_t(x[c]) * A[c] + B[c]) >> S[c], lo32, hi32));
  }
}

// A table per channel: the channel axis 1 (NCHW) or last (NHWC, `channels_last`).
// Channels-last, per-element table reads do not vectorise; when the tables are those of
// an affine map y = round(alpha_c x + beta_c) (BatchNormalization), each channel's table
// is matched by fixed point (up to 24 fraction bits), checked on all 256 inputs at load: the channels that
// match run as vector arithmetic, the others (rounding near a tie) read their table.
class ChannelLutOp final : public PreparedOp {
 public:
  /// `affine`: alpha_c, beta_c of each table, when the tables are those of an affine map.
  ChannelLutOp(const ir::Operation& op, std::vector<Lut> luts, bool channels_last,
               const std::vector<std::pair<double, double>>& affine = {})
      : op_(op), luts_(std::move(luts)), last_(channels_last) {
    if (!last_ || affine.size() != luts_.size()) return;
    for (std::size_t c = 0; c < luts_.size(); ++c) {
      // As many fraction bits as keep |v A| + |B| < 2^30 for every input v (at most 24).
      const double alpha = affine[c].first, beta = affine[c].second;
      const double reach = std::abs(alpha) * 128 + std::abs(beta) + 1;
      int shift = 0;
      while (shift < 24 && reach * std::ldexp(1.0, shift + 1) < std::ldexp(1.0, 30)) ++shift;
      bool ok = shift >= 8 && std::isfinite(reach);
      const auto A = ok ? static_cast<std::int32_t>(std::llround(std::ldexp(alpha, shift))) : 0;
      const auto B = ok ? static_cast<std::int32_t>(std::llround(std::ldexp(beta + 0.5, shift))) : 0;
      for (int v = -128; ok && v < 128; ++v)
        ok = std::clamp((v * A + B) >> shift, -128, 127) == luts_[c][static_cast<std::size_t>(v + 128)];
      A_.push_back(ok ? A : 0);
      B_.push_back(ok ? B : 0);
      S_.push_back(ok ? shift : 0);
      if (!ok) patched_.push_back(static_cast<std::int64_t>(c));
    }
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    check_int8(op_, in[0]);
    const Tensor& X = in[0];
    const auto C = static_cast<std::int64_t>(luts_.size());
    if (X.rank() < 2 || X.dim(last_ ? X.rank() - 1 : 1) != C)
      fail("int8 " + op_.op_type + " input " + X.type_string() + " does not have " + std::to_string(C) + " channels");
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, X.shape());
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    if (last_) {
      const std::int64_t pixels = X.numel() / C, per = std::max<std::int64_t>(1, 16384 / C);
      const bool affine = !A_.empty() && use_avx2();
      parallel_for((pixels + per - 1) / per, [&](std::int64_t b) {
        const std::int64_t p0 = b * per, p1 = std::min(pixels, p0 + per);
        if (affine) {
          affine_rows_avx2(x + p0 * C, p1 - p0, C, A_.data(), B_.data(), S_.data(), lo_, hi_, y + p0 * C);
          for (std::int64_t c : patched_)
            for (std::int64_t p = p0; p < p1; ++p)
              y[p * C + c] = luts_[static_cast<std::size_t>(c)][static_cast<std::size_t>(x[p * C + c] + 128)];
          return;
        }
        for (std::int64_t p = p0; p < p1; ++p)
          for (std::int64_t c = 0; c < C; ++c)
            y[p * C + c] = luts_[static_cast<std::size_t>(c)][static_cast<std::size_t>(x[p * C + c] + 128)];
      });
      return {Y};
    }
    const std::int64_t inner = X.numel() / (X.dim(0) * C);
    parallel_for(X.dim(0) * C, [&](std::int64_t nc) {
      lut_apply(luts_[static_cast<std::size_t>(nc % C)].data(), x + nc * inner, inner, y + nc * inner);
    });
    return {Y};
  }

  // Every channel's table composed with `table` (a Relu after DenseNet's BatchNormalization).
  // The channels-last arithmetic takes only a table that clamps, t(v) = clamp(v, lo, hi):
  // then clamp(clamp(v, lo_, hi_), lo, hi) = clamp(v, max(lo_, lo), min(hi_, hi)).
  bool take_output_table(const std::int8_t* table) override {
    std::int32_t lo = 127, hi = -128;  // the table's range
    for (int v = 0; v < 256; ++v) {
      lo = std::min<std::int32_t>(lo, table[v]);
      hi = std::max<std::int32_t>(hi, table[v]);
    }
    bool clamps = lo <= hi;
    for (int v = -128; clamps && v < 128; ++v) clamps = table[v + 128] == std::clamp(v, lo, hi);
    if (!A_.empty() && !clamps) return false;
    for (Lut& t : luts_)
      for (auto& e : t) e = table[e + 128];
    if (clamps) {
      lo_ = std::max(lo_, lo);
      hi_ = std::min(hi_, hi);
    }
    return true;
  }

 private:
  ir::Operation op_;
  std::vector<Lut> luts_;
  bool last_;
  std::int32_t lo_ = -128, hi_ = 127;  // the arithmetic's clamp (narrowed by a Relu taken after)
  std::vector<std::int32_t> A_, B_, S_;  // channels-last fixed point (0, 0, 0 for patched channels)
  std::vector<std::int64_t> patched_;  // channels whose table the fixed point does not match
};

// A Clip bound: a constant scalar input, else the attribute, else none.
bool clip_bound(const ir::Operation& op, const ir::Graph& graph, std::size_t input, const char* attr, float& v) {
  if (op.inputs.size() > input && !op.inputs[input].empty()) {
    const ir::Tensor& t = ir_tensor(graph, op.inputs[input]);
    if (!t.is_constant() || t.dtype != ir::DType::Float32 || t.data->size() != sizeof(float))
      throw UnsupportedOpError("Clip with a non-constant or non-f32 bound", "the CPU runtime's int8 kernels",
                               "give Clip constant f32 bounds");
    std::memcpy(&v, t.data->data(), sizeof v);
    return true;
  }
  if (const ir::Attribute* a = op.attr(attr))
    if (const auto* d = std::get_if<double>(a)) {
      v = static_cast<float>(*d);
      return true;
    }
  return false;
}

class SoftmaxInt8 final : public PreparedOp {
 public:
  SoftmaxInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const IO io = io_params(op, graph);
    sy_ = io.y.scale();
    zy_ = io.y.zero_point();
    for (int d = 0; d < 256; ++d) exp_[static_cast<std::size_t>(d)] = std::exp(-io.x.scale() * float(d));
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    check_int8(op_, X);
    const auto rank = static_cast<std::int64_t>(X.rank());
    std::int64_t axis = op_.attr_int("axis", -1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= std::max<std::int64_t>(rank, 1)) fail("axis out of range for " + X.type_string());
    std::int64_t outer = 1, len = rank ? X.dim(static_cast<std::size_t>(axis)) : 1, inner = 1;
    for (std::int64_t d = 0; d < axis; ++d) outer *= X.dim(static_cast<std::size_t>(d));
    for (std::int64_t d = axis + 1; d < rank; ++d) inner *= X.dim(static_cast<std::size_t>(d));
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, X.shape());
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    parallel_for(outer * inner, [&](std::int64_t r) {
      const std::int64_t o = r / inner, i = r % inner;
      const std::int8_t* xr = x + o * len * inner + i;
      std::int8_t* yr = y + o * len * inner + i;
      std::int32_t mx = -128;
      for (std::int64_t j = 0; j < len; ++j) mx = std::max<std::int32_t>(mx, xr[j * inner]);
      float sum = 0.f;
      for (std::int64_t j = 0; j < len; ++j) sum += exp_[static_cast<std::size_t>(mx - xr[j * inner])];
      const float inv = 1.f / (sum * sy_);
      for (std::int64_t j = 0; j < len; ++j) {
        const float p = exp_[static_cast<std::size_t>(mx - xr[j * inner])] * inv;
        const std::int32_t q = static_cast<std::int32_t>(std::round(p)) + zy_;
        yr[j * inner] = static_cast<std::int8_t>(std::clamp(q, -128, 127));
      }
    });
    return {Y};
  }

 private:
  ir::Operation op_;
  float sy_ = 1.f / 256;
  std::int32_t zy_ = -128;
  std::array<float, 256> exp_{};
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_Relu(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  std::int32_t lo = -128, hi = 127;
  activation_range(ir::Activation::Relu, io.y.scale(), io.y.zero_point(), -128, 127, lo, hi);
  return std::make_unique<RequantOp>(op, Requantizer(io.x, io.y, lo, hi));
}

std::unique_ptr<PreparedOp> prepare_Clip(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  std::int32_t lo = -128, hi = 127;
  float v = 0.f;
  auto quantize = [&](float f) { return io.y.zero_point() + static_cast<std::int32_t>(std::round(f / io.y.scale())); };
  if (clip_bound(op, graph, 1, "min", v)) lo = std::clamp(quantize(v), -128, 127);
  if (clip_bound(op, graph, 2, "max", v)) hi = std::clamp(quantize(v), -128, 127);
  return std::make_unique<RequantOp>(op, Requantizer(io.x, io.y, lo, hi));
}

std::unique_ptr<PreparedOp> prepare_Sigmoid(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  return std::make_unique<LutOp>(op, make_lut(io.x, io.y, [](float x) { return 1.f / (1.f + std::exp(-x)); }));
}

std::unique_ptr<PreparedOp> prepare_Tanh(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  return std::make_unique<LutOp>(op, make_lut(io.x, io.y, [](float x) { return std::tanh(x); }));
}

std::unique_ptr<PreparedOp> prepare_HardSwish(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  return std::make_unique<LutOp>(
      op, make_lut(io.x, io.y, [](float x) { return x * std::min(std::max(x + 3.f, 0.f), 6.f) / 6.f; }));
}

// y = max(0, min(1, alpha * x + beta)) (ONNX HardSigmoid; MobileNetV3's squeeze-excite gate).
std::unique_ptr<PreparedOp> prepare_HardSigmoid(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  const float alpha = static_cast<float>(op.attr("alpha") ? std::get<double>(*op.attr("alpha")) : 0.2);
  const float beta = static_cast<float>(op.attr("beta") ? std::get<double>(*op.attr("beta")) : 0.5);
  return std::make_unique<LutOp>(
      op, make_lut(io.x, io.y, [=](float x) { return std::max(0.f, std::min(1.f, alpha * x + beta)); }));
}

std::unique_ptr<PreparedOp> prepare_BatchNormalization(const ir::Operation& op, const ir::Graph& graph) {
  const std::string layout = op.attr_string("layout", "NCHW");
  if (layout != "NHWC") require_nchw(op);
  if (op.attr_int("training_mode", 0) != 0 || op.outputs.size() > 1)
    throw UnsupportedOpError("BatchNormalization in training mode", "the CPU runtime's int8 kernels", "export for inference");
  const IO io = io_params(op, graph);
  std::vector<std::vector<float>> p;  // scale, B, mean, var
  for (std::size_t k = 1; k <= 4; ++k) {
    const Tensor t = constant_of(graph, op, op.inputs[k], ir::DType::Float32, "BatchNormalization parameter");
    p.emplace_back(t.data<float>(), t.data<float>() + t.numel());
    if (p.back().size() != p[0].size()) fail("BatchNormalization parameters differ in length");
  }
  const double eps = op.attr("epsilon") ? std::get<double>(*op.attr("epsilon")) : 1e-5;
  std::vector<Lut> luts;
  std::vector<std::pair<double, double>> affine;  // y = alpha q + beta before rounding
  for (std::size_t c = 0; c < p[0].size(); ++c) {
    const float a = static_cast<float>(double(p[0][c]) / std::sqrt(double(p[3][c]) + eps));
    const float b = p[1][c] - p[2][c] * a;
    luts.push_back(make_lut(io.x, io.y, [=](float x) { return x * a + b; }));
    const double alpha = double(io.x.scale()) * a / double(io.y.scale());
    affine.emplace_back(alpha, (double(b) - double(a) * io.x.scale() * io.x.zero_point()) / io.y.scale() +
                                   io.y.zero_point());
  }
  return std::make_unique<ChannelLutOp>(op, std::move(luts), layout == "NHWC", affine);
}

// GELU, exact (erf) or the tanh approximation, as a table: TFLite's int8 GELU is the same
// PopulateLookupTable scheme (kernels/gelu.cc), the function evaluated in double here.
std::unique_ptr<PreparedOp> prepare_Gelu(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  const std::string approx = op.attr_string("approximate", "none");
  if (approx != "none" && approx != "tanh")
    throw UnsupportedOpError("Gelu with approximate '" + approx + "'", "the CPU runtime's int8 kernels",
                             "use 'none' or 'tanh'");
  if (approx == "tanh")
    return std::make_unique<LutOp>(op, make_lut(io.x, io.y, [](float v) {
                                     const double d = v;
                                     return float(0.5 * d * (1 + std::tanh(std::sqrt(2 / M_PI) * (d + 0.044715 * d * d * d))));
                                   }));
  return std::make_unique<LutOp>(
      op, make_lut(io.x, io.y, [](float v) { return float(0.5 * double(v) * (1 + std::erf(double(v) / std::sqrt(2.0)))); }));
}

// Erf (an unfused GELU's middle op) as a table.
std::unique_ptr<PreparedOp> prepare_Erf(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  return std::make_unique<LutOp>(op, make_lut(io.x, io.y, [](float v) { return float(std::erf(double(v))); }));
}

std::unique_ptr<PreparedOp> prepare_LeakyRelu(const ir::Operation& op, const ir::Graph& graph) {
  const IO io = io_params(op, graph);
  const float alpha = static_cast<float>(op.attr("alpha") ? std::get<double>(*op.attr("alpha")) : 0.01);
  return std::make_unique<LutOp>(op, make_lut(io.x, io.y, [alpha](float x) { return x >= 0.f ? x : alpha * x; }));
}

std::unique_ptr<PreparedOp> prepare_Softmax(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<SoftmaxInt8>(op, graph);
}

}  // namespace ec::runtime::quantized
