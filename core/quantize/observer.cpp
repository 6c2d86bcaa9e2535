#include "core/quantize/observer.h"

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
// GCC 12's avx512fintrin.h initialises its "undefined" vectors from themselves, which
// -W(maybe-)uninitialized reports wherever they are inlined (GCC bug 105593; fixed in 13).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/quantized/igemm.h"

namespace ec::quantize {
namespace {

constexpr int kBins = HistogramBins::kBins;

// Bin of v at [-R, R] (inv = kBins / 2R), as the vector path computes it.
inline int bin_of(float v, float r, float inv) {
  const int b = static_cast<int>((v + r) * inv);
  return std::clamp(b, 0, kBins - 1);
}

// Bin indices of 8 values: truncate (v + R) * inv, clamp to [0, kBins - 1].
__attribute__((target("avx2"))) void bin_indices_avx2(const float* x, std::int64_t n, float r, float inv,
                                                      std::int32_t* idx) {
  const __m256 vr = _mm256_set1_ps(r), vi = _mm256_set1_ps(inv);
  const __m256i top = _mm256_set1_epi32(kBins - 1), zero = _mm256_setzero_si256();
  for (std::int64_t k = 0; k < n; k += 8) {
    const __m256i b = _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(x + k), vr), vi));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(idx + k), _mm256_min_epi32(_mm256_max_epi32(b, zero), top));
  }
}

// Bin indices of the non-zero values among 16 * k (AVX-512), packed to the front of
// `idx` (which has 16 entries of room beyond n); returns how many. Zeros (+0 and -0,
// the bin of 0) are only counted: after a ReLU they are half of a tensor.
__attribute__((target("avx512f"))) std::int64_t nonzero_bin_indices_avx512(const float* x, std::int64_t n, float r,
                                                                          float inv, std::int32_t* idx) {
  const __m512 vr = _mm512_set1_ps(r), vi = _mm512_set1_ps(inv), zero = _mm512_setzero_ps();
  const __m512i top = _mm512_set1_epi32(kBins - 1), lo = _mm512_setzero_si512();
  std::int64_t m = 0;
  for (std::int64_t k = 0; k < n; k += 16) {
    const __m512 v = _mm512_loadu_ps(x + k);
    const __mmask16 nonzero = _mm512_cmp_ps_mask(v, zero, _CMP_NEQ_UQ);
    const __m512i b = _mm512_cvttps_epi32(_mm512_mul_ps(_mm512_add_ps(v, vr), vi));
    _mm512_storeu_si512(idx + m, _mm512_maskz_compress_epi32(nonzero, _mm512_min_epi32(_mm512_max_epi32(b, lo), top)));
    m += __builtin_popcount(nonzero);
  }
  return m;
}

// Adds the bins of `values` to `counts`. Long runs go through four interleaved
// 32-bit sub-histograms: a run of equal bins (the zeros after a ReLU, values
// crowded near 0) is then four independent chains of increments, not one chain
// whose every step waits for the store before it.
void add_bins(std::span<const float> values, float r, float inv, std::int64_t* counts) {
  constexpr std::int64_t kBlock = 256;
  const auto n = static_cast<std::int64_t>(values.size());
  const float* x = values.data();
  const bool avx2 = runtime::quantized::use_avx2();
  const bool avx512 = runtime::gemm::active_isa() == runtime::gemm::Isa::Avx512;
  if (n < 4 * kBins) {  // flushing the sub-histograms would cost more than it saves
    for (float v : values) ++counts[bin_of(v, r, inv)];
    return;
  }
  thread_local std::vector<std::uint32_t> sub(4 * kBins, 0);  // all 0 between calls (flush)
  std::uint32_t* s0 = sub.data();
  std::uint32_t* s1 = s0 + kBins;
  std::uint32_t* s2 = s1 + kBins;
  std::uint32_t* s3 = s2 + kBins;
  alignas(64) std::array<std::int32_t, kBlock + 16> idx;
  std::int64_t i = 0, zeros = 0;
  std::int64_t since_flush = 0;
  auto flush = [&] {
    for (int b = 0; b < kBins; ++b) {
      counts[b] += static_cast<std::int64_t>(s0[b]) + s1[b] + s2[b] + s3[b];
      s0[b] = s1[b] = s2[b] = s3[b] = 0;
    }
    since_flush = 0;
  };
  for (; i + kBlock <= n; i += kBlock) {
    std::size_t m = kBlock;
    if (avx512) {
      m = static_cast<std::size_t>(nonzero_bin_indices_avx512(x + i, kBlock, r, inv, idx.data()));
      zeros += kBlock - static_cast<std::int64_t>(m);
    } else if (avx2) {
      bin_indices_avx2(x + i, kBlock, r, inv, idx.data());
    } else {
      for (std::int64_t k = 0; k < kBlock; ++k) idx[static_cast<std::size_t>(k)] = bin_of(x[i + k], r, inv);
    }
    std::size_t k = 0;
    for (; k + 4 <= m; k += 4) {
      ++s0[idx[k]];
      ++s1[idx[k + 1]];
      ++s2[idx[k + 2]];
      ++s3[idx[k + 3]];
    }
    for (; k < m; ++k) ++s0[idx[k]];
    if ((since_flush += kBlock) >= (std::int64_t{1} << 30)) flush();  // 32-bit counts never wrap
  }
  counts[bin_of(0.f, r, inv)] += zeros;  // the bin of +0 and -0 ((0 + R) * inv either way)
  for (; i < n; ++i) ++counts[bin_of(x[i], r, inv)];
  flush();
}

}  // namespace

void HistogramBins::rescale(float r) {
  if (half_range_ == 0 || bins_.empty()) {
    half_range_ = std::max(half_range_, r);
    return;
  }
  while (r > half_range_) {
    // Doubling R: new bin j covers old bins 2(j - kBins/4) and 2(j - kBins/4) + 1.
    std::vector<std::int64_t> merged(kBins, 0);
    for (int b = 0; b < kBins; ++b) merged[kBins / 4 + b / 2] += bins_[static_cast<std::size_t>(b)];
    bins_.swap(merged);
    half_range_ *= 2;
  }
}

void HistogramBins::add(std::span<const float> values, float r) {
  if (values.empty()) return;
  if (bins_.empty()) bins_.assign(kBins, 0);
  rescale(r);
  if (half_range_ == 0) {
    bins_[kBins / 2] += static_cast<std::int64_t>(values.size());  // all zeros
    return;
  }
  add_bins(values, half_range_, kBins / (2 * half_range_), bins_.data());
}

void HistogramBins::absorb(const HistogramBins& other) {
  if (other.bins_.empty()) return;
  if (bins_.empty()) bins_.assign(kBins, 0);
  const float r = std::max(half_range_, other.half_range_);
  rescale(r);
  auto add = [&](const std::vector<std::int64_t>& o) {
    for (std::size_t b = 0; b < bins_.size(); ++b) bins_[b] += o[b];
  };
  if (other.half_range_ == r || other.half_range_ == 0) {  // already at R (from 0: no merge either)
    add(other.bins_);
    return;
  }
  HistogramBins o = other;
  o.rescale(r);
  add(o.bins_);
}

void HistogramBins::reset() {
  std::fill(bins_.begin(), bins_.end(), 0);
  half_range_ = 0;
}

Extent CalibrationObserver::extent(std::span<const float> values) {
  Extent e;
  if (values.empty()) return e;
  e.count = static_cast<std::int64_t>(values.size());
  e.lo = e.hi = values[0];
  if (runtime::quantized::use_avx2()) {
    e.finite = runtime::quantized::minmax_finite_avx2(values.data(), e.count, e.lo, e.hi);
    return e;
  }
  for (float v : values) {
    e.lo = std::min(e.lo, v);
    e.hi = std::max(e.hi, v);
    e.finite &= std::isfinite(v);
  }
  return e;
}

float CalibrationObserver::add_extent(const Extent& e) {
  if (e.count == 0) return half_range_;
  if (count_ == 0) {
    min_ = e.lo;
    max_ = e.hi;
  } else {
    min_ = std::min(min_, e.lo);
    max_ = std::max(max_, e.hi);
  }
  count_ += e.count;
  half_range_ = grown_range(half_range_, e);
  return half_range_;
}

float CalibrationObserver::grown_range(float r, const Extent& e) {
  const float a = std::max(std::abs(e.lo), std::abs(e.hi));
  if (e.count == 0 || !(a > 0)) return r;
  if (r == 0) {
    // Smallest power of two >= a (at least 2^-20, so tiny tensors keep a usable resolution).
    r = std::exp2(std::ceil(std::log2(std::max(a, 1e-6f))));
    if (r < a) r *= 2;
  }
  while (a > r) r *= 2;
  return r;
}

bool CalibrationObserver::observe(std::span<const float> values) {
  const Extent e = extent(values);
  if (!e.finite) return false;
  bins_.add(values, add_extent(e));
  return true;
}

std::pair<float, float> CalibrationObserver::range(double percentile) const {
  // The range always contains 0 (zero must be exactly representable: padding, ReLU).
  float lo = std::min(min_, 0.f), hi = std::max(max_, 0.f);
  if (percentile >= 100 || count_ == 0 || half_range_ == 0) return {lo, hi};
  // |x| percentile: fold the signed bins around 0 and walk up from the centre.
  const double target = percentile / 100.0 * static_cast<double>(count_);
  double seen = 0;
  float t = half_range_;
  for (int k = 0; k < kBins / 2; ++k) {
    seen += static_cast<double>(bins_[kBins / 2 + k] + bins_[kBins / 2 - 1 - k]);
    if (seen >= target) {
      t = (static_cast<float>(k) + 1) * bin_width();
      break;
    }
  }
  return {std::max(lo, -t), std::min(hi, t)};
}

double CalibrationObserver::clip_fraction(float lo, float hi) const {
  if (count_ == 0 || half_range_ == 0) return 0;
  if (lo <= min_ && hi >= max_) return 0;
  std::int64_t out = 0;
  for (int b = 0; b < kBins; ++b) {
    const float c = bin_centre(b);
    if (c < lo || c > hi) out += bins_[b];
  }
  return static_cast<double>(out) / static_cast<double>(count_);
}

std::vector<std::int64_t> CalibrationObserver::histogram(float lo, float hi, int bins) const {
  std::vector<std::int64_t> h(static_cast<std::size_t>(std::max(bins, 1)), 0);
  if (count_ == 0) return h;
  if (half_range_ == 0 || !(hi > lo)) {
    h[0] = count_;
    return h;
  }
  for (int b = 0; b < kBins; ++b) {
    if (!bins_[b]) continue;
    const float c = bin_centre(b);
    const int k = static_cast<int>((c - lo) / (hi - lo) * static_cast<float>(bins));
    h[static_cast<std::size_t>(std::clamp(k, 0, bins - 1))] += bins_[b];
  }
  return h;
}

}  // namespace ec::quantize
