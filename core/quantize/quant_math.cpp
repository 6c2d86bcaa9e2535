#include "core/quantize/quant_math.h"

#include <algorithm>
#include <cmath>
#include <ranges>

#include "core/runtime/quantized/igemm.h"

namespace ec::quantize {

namespace {
constexpr double kMaxDb = 200;
}

ir::QuantParams activation_params(float lo, float hi) {
  lo = std::min(lo, 0.f);
  hi = std::max(hi, 0.f);
  ir::QuantParams p;
  p.dtype = ir::DType::Int8;
  float scale = (hi - lo) / 255.f;
  if (!(scale > 0) || !std::isfinite(scale)) scale = 1.f;
  // zero_point: the integer that represents 0.0 exactly.
  const double zp = std::nearbyint(-128.0 - static_cast<double>(lo) / scale);
  p.scales = {scale};
  p.zero_points = {static_cast<std::int64_t>(std::clamp(zp, -128.0, 127.0))};
  return p;
}

ir::QuantParams fixed_params(float scale, std::int64_t zero_point) {
  ir::QuantParams p;
  p.dtype = ir::DType::Int8;
  p.scales = {scale};
  p.zero_points = {zero_point};
  return p;
}

std::pair<float, float> represented_range(const ir::QuantParams& p) {
  const float s = p.scales.empty() ? 1.f : p.scales[0];
  const auto zp = static_cast<float>(p.zero_points.empty() ? 0 : p.zero_points[0]);
  return {(-128.f - zp) * s, (127.f - zp) * s};
}

QuantizedWeights quantize_weights(std::span<const float> w, const std::vector<std::int64_t>& shape,
                                  int axis, bool per_channel, const ir::QuantParams* given) {
  std::int64_t channels = 1, inner = 1;
  if (axis >= 0 && static_cast<std::size_t>(axis) < shape.size()) {
    channels = shape[static_cast<std::size_t>(axis)];
    for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  }
  // Channel of element i, (i / inner) % channels, stepped along without a division.
  struct ChannelWalk {
    std::int64_t inner, channels, k = 0;
    std::size_t c = 0;
    void next() {
      if (++k == inner) {
        k = 0;
        if (static_cast<std::int64_t>(++c) == channels) c = 0;
      }
    }
  };
  QuantizedWeights r;
  r.params.dtype = ir::DType::Int8;
  std::vector<float> max_abs(static_cast<std::size_t>(channels), 0.f);
  for (ChannelWalk ch{inner, channels}; std::size_t i : std::views::iota(std::size_t{0}, w.size())) {
    max_abs[ch.c] = std::max(max_abs[ch.c], std::abs(w[i]));
    ch.next();
  }
  std::vector<float> scale(static_cast<std::size_t>(channels));
  std::vector<std::int64_t> zp(static_cast<std::size_t>(channels), 0);
  std::int64_t qmin = -127, qmax = 127;
  if (given) {
    const bool pc = given->scales.size() > 1;
    for (std::size_t c = 0; c < scale.size(); ++c) {
      scale[c] = given->scales[pc ? c : 0];
      zp[c] = given->zero_points.empty() ? 0 : given->zero_points[pc ? c : 0];
    }
    qmin = -128;  // what QuantizeLinear does with the model's own params
    r.params = *given;
    r.params.dtype = ir::DType::Int8;
  } else if (per_channel) {
    for (std::size_t c = 0; c < scale.size(); ++c) scale[c] = max_abs[c] > 0 ? max_abs[c] / 127.f : 1.f;
    r.params.scales = scale;
    r.params.zero_points = zp;
    r.params.axis = axis;
  } else {
    const float m = *std::max_element(max_abs.begin(), max_abs.end());
    std::fill(scale.begin(), scale.end(), m > 0 ? m / 127.f : 1.f);
    r.params.scales = {scale[0]};
    r.params.zero_points = {0};
    r.params.axis = -1;
  }
  r.values.resize(w.size());
  r.dequantized.resize(w.size());
  std::vector<SqnrAccumulator> acc(static_cast<std::size_t>(channels));
  SqnrAccumulator all;
  // One value into a sum, as add() sums a run of one value.
  auto add_one = [](SqnrAccumulator& a, float x, float back) {
    const double xv = x, e = xv - static_cast<double>(back);
    a.signal += xv * xv;
    a.noise += e * e;
    a.max_abs_error = std::max(a.max_abs_error, static_cast<float>(std::abs(e)));
  };
  for (ChannelWalk ch{inner, channels}; std::size_t i : std::views::iota(std::size_t{0}, w.size())) {
    const std::size_t c = ch.c;
    ch.next();
    // q = clamp(round(w / s) + zp)  (round half to even, as QuantizeLinear)
    const double q = std::clamp(std::nearbyint(static_cast<double>(w[i] / scale[c])) + static_cast<double>(zp[c]),
                                static_cast<double>(qmin), static_cast<double>(qmax));
    r.values[i] = static_cast<std::int8_t>(q);
    const float back = static_cast<float>((q - static_cast<double>(zp[c])) * scale[c]);
    r.dequantized[i] = back;
    add_one(acc[c], w[i], back);
    add_one(all, w[i], back);
  }
  for (const auto& a : acc) {
    r.channel_sqnr_db.push_back(a.db());
    r.channel_max_abs_error.push_back(a.max_abs_error);
  }
  r.sqnr_db = all.db();
  return r;
}

QuantizedBias quantize_bias(std::span<const float> b, float input_scale, const ir::QuantParams& weight) {
  QuantizedBias r;
  r.params.dtype = ir::DType::Int32;
  const bool pc = weight.scales.size() > 1;
  r.params.axis = pc ? 0 : -1;
  for (std::size_t c = 0; c < (pc ? weight.scales.size() : 1); ++c) {
    r.params.scales.push_back(input_scale * weight.scales[c]);
    r.params.zero_points.push_back(0);
  }
  r.values.resize(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double s = r.params.scales[pc ? i : 0];
    const double q = std::nearbyint(static_cast<double>(b[i]) / s);
    r.max_abs_q = std::max(r.max_abs_q, std::abs(q));
    if (std::abs(q) > 1073741824.0) ++r.out_of_range;
    r.values[i] = static_cast<std::int32_t>(std::clamp(q, -2147483648.0, 2147483647.0));
  }
  return r;
}

std::vector<std::int8_t> quantize_values(std::span<const float> x, const ir::QuantParams& p) {
  std::vector<std::int8_t> q(x.size());
  const float s = p.scales[0];
  const double zp = static_cast<double>(p.zero_points[0]);
  for (std::size_t i = 0; i < x.size(); ++i)
    q[i] = static_cast<std::int8_t>(std::clamp(std::nearbyint(static_cast<double>(x[i] / s)) + zp, -128.0, 127.0));
  return q;
}

namespace {

// Sums of x^2 and e^2 over one buffer in 8 independent partial sums (one long chain of
// dependent double additions was the report stage's cost), combined in a fixed order:
// the result depends only on the data.
template <typename Approx>
void accumulate(SqnrAccumulator& acc, std::span<const float> reference, std::size_t n, Approx&& approx) {
  constexpr std::size_t kLanes = 8;
  double s[kLanes] = {}, z[kLanes] = {};
  float m[kLanes] = {};
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t l = 0; l < kLanes; ++l) {
      const double x = reference[i + l], e = x - static_cast<double>(approx(i + l));
      s[l] += x * x;
      z[l] += e * e;
      m[l] = std::max(m[l], static_cast<float>(std::abs(e)));
    }
  for (; i < n; ++i) {
    const double x = reference[i], e = x - static_cast<double>(approx(i));
    s[0] += x * x;
    z[0] += e * e;
    m[0] = std::max(m[0], static_cast<float>(std::abs(e)));
  }
  double ss = 0, zz = 0;
  for (std::size_t l = 0; l < kLanes; ++l) {
    ss += s[l];
    zz += z[l];
    acc.max_abs_error = std::max(acc.max_abs_error, m[l]);
  }
  acc.signal += ss;
  acc.noise += zz;
}

}  // namespace

void SqnrAccumulator::add(std::span<const float> reference, std::span<const float> approx) {
  if (runtime::quantized::use_avx2()) {
    runtime::quantized::sqnr_sums_avx2(reference.data(), approx.data(), nullptr,
                                       static_cast<std::int64_t>(std::min(reference.size(), approx.size())), 1.f, 0,
                                       signal, noise, max_abs_error);
    return;
  }
  accumulate(*this, reference, std::min(reference.size(), approx.size()), [&](std::size_t i) { return approx[i]; });
}

void SqnrAccumulator::add_dequantized(std::span<const float> reference, std::span<const std::int8_t> q, float scale,
                                      std::int32_t zero_point) {
  if (runtime::quantized::use_avx2()) {
    runtime::quantized::sqnr_sums_avx2(reference.data(), nullptr, q.data(),
                                       static_cast<std::int64_t>(std::min(reference.size(), q.size())), scale,
                                       zero_point, signal, noise, max_abs_error);
    return;
  }
  accumulate(*this, reference, std::min(reference.size(), q.size()), [&](std::size_t i) {
    return static_cast<float>(q[i] - zero_point) * scale;  // as the runtime's DequantizeLinear computes it
  });
}

double SqnrAccumulator::db() const {
  if (noise == 0) return kMaxDb;
  if (signal == 0) return 0;
  return std::min(kMaxDb, 10.0 * std::log10(signal / noise));
}

double sqnr_db(std::span<const float> reference, std::span<const float> approx) {
  SqnrAccumulator a;
  a.add(reference, approx);
  return a.db();
}

}  // namespace ec::quantize
