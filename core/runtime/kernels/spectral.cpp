// DFT, STFT and MelWeightMatrix (ONNX opset 17): signals are [batch, ..., 1] (real) or
// [batch, ..., 2] (complex), spectra [..., 2].
//
//   X[k] = sum_j x[j] e^(-2 pi i j k / n)        (inverse: e^(+...), then / n)
//
// computed in double: a radix-2 FFT when n is a power of two, else the direct sum over a
// table of the n twiddles (j k mod n indexes it exactly).
#include <cmath>
#include <complex>

#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using cd = std::complex<double>;

// The DFT of one line `in` (n values) into `out` (n values).
class Dft {
 public:
  Dft(std::int64_t n, bool inverse) : n_(n), inverse_(inverse), tw_(static_cast<std::size_t>(n)) {
    const double sign = inverse ? 1.0 : -1.0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double a = 2.0 * M_PI * double(k) / double(n);
      tw_[static_cast<std::size_t>(k)] = cd(std::cos(a), sign * std::sin(a));
    }
  }
  void run(const cd* in, cd* out) const {
    const auto n = static_cast<std::size_t>(n_);
    if (n_ > 1 && (n_ & (n_ - 1)) == 0) {
      fft(in, out);
    } else {
      for (std::size_t k = 0; k < n; ++k) {
        cd s = 0;
        for (std::size_t j = 0; j < n; ++j) s += in[j] * tw_[(j * k) % n];
        out[k] = s;
      }
    }
    if (inverse_)
      for (std::size_t k = 0; k < n; ++k) out[k] /= double(n_);
  }

 private:
  // Iterative radix-2 (n a power of two): bit-reversed copy, then log2(n) butterfly passes.
  void fft(const cd* in, cd* out) const {
    const auto n = static_cast<std::size_t>(n_);
    for (std::size_t i = 0, j = 0; i < n; ++i) {
      out[j] = in[i];
      for (std::size_t bit = n >> 1; bit; bit >>= 1) {
        j ^= bit;
        if (j & bit) break;
      }
    }
    for (std::size_t len = 2; len <= n; len <<= 1) {
      const std::size_t step = n / len;
      for (std::size_t i = 0; i < n; i += len)
        for (std::size_t k = 0; k < len / 2; ++k) {
          const cd u = out[i + k], v = out[i + k + len / 2] * tw_[k * step];
          out[i + k] = u + v;
          out[i + k + len / 2] = u - v;
        }
    }
  }

  std::int64_t n_;
  bool inverse_;
  std::vector<cd> tw_;
};

// Value i of a [..., 1 | 2] signal as a complex number.
cd sample(const Tensor& x, std::int64_t i, bool complex_in) {
  return complex_in ? cd(x.get_double(2 * i), x.get_double(2 * i + 1)) : cd(x.get_double(i), 0.0);
}

std::int64_t scalar_int(const Tensor& t, const char* what, const char* name) {
  if (!t.defined() || t.numel() != 1) fail(std::string(what) + ": '" + name + "' must be one integer");
  return t.get_int(0);
}

}  // namespace

// x [batch, ..., 1 | 2]; the transform runs along `axis` (a signal dim, not the last),
// zero-padded or cut to dft_length; onesided keeps bins 0 .. n / 2.
Outputs kernel_DFT(const ir::Operation& op, Inputs in_) {
  const Tensor& X = in(in_, 0);
  if (X.rank() < 3 || (X.shape().back() != 1 && X.shape().back() != 2))
    fail("DFT: input must be [batch, ..., 1 or 2], got " + X.type_string());
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 1), rank);
  if (axis == 0 || axis == rank - 1) fail("DFT: axis must be a signal dim, got " + std::to_string(attr_int(op, "axis", 1)));
  const bool inverse = attr_int(op, "inverse", 0) != 0, onesided = attr_int(op, "onesided", 0) != 0;
  if (inverse && onesided) fail("DFT: inverse and onesided together are not supported");
  const bool complex_in = X.shape().back() == 2;
  const std::int64_t len = X.dim(static_cast<std::size_t>(axis));
  const std::int64_t n = in(in_, 1).defined() ? scalar_int(in(in_, 1), "DFT", "dft_length") : len;
  if (n <= 0) fail("DFT: dft_length must be positive, got " + std::to_string(n));
  const std::int64_t bins = onesided ? n / 2 + 1 : n;
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= X.dim(static_cast<std::size_t>(d));
  for (std::int64_t d = axis + 1; d < rank - 1; ++d) inner *= X.dim(static_cast<std::size_t>(d));
  Shape yshape = X.shape();
  yshape[static_cast<std::size_t>(axis)] = bins;
  yshape.back() = 2;
  const DType dt = X.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
  Tensor Y(dt, yshape);
  const Dft dft(n, inverse);
  dispatch_float(dt, [&]<typename T>() {
    T* y = Y.mutable_data<T>();
    parallel_for_if(outer * inner * n >= 4096, outer * inner, [&](std::int64_t line) {
      const std::int64_t o = line / inner, i = line % inner;
      std::vector<cd> a(static_cast<std::size_t>(n), cd(0, 0)), b(static_cast<std::size_t>(n));
      for (std::int64_t j = 0; j < std::min(n, len); ++j) a[static_cast<std::size_t>(j)] = sample(X, (o * len + j) * inner + i, complex_in);
      dft.run(a.data(), b.data());
      for (std::int64_t k = 0; k < bins; ++k) {
        T* out = y + ((o * bins + k) * inner + i) * 2;
        out[0] = static_cast<T>(b[static_cast<std::size_t>(k)].real());
        out[1] = static_cast<T>(b[static_cast<std::size_t>(k)].imag());
      }
    });
  }, "DFT");
  return {Y};
}

// signal [batch, length, 1 | 2], frame_step, window [frame_length] (optional), frame_length
// (optional): frame f is signal[f * step + j] * window[j], j < frame_length, transformed;
// output [batch, frames, bins, 2], frames = 1 + (length - frame_length) / step.
Outputs kernel_STFT(const ir::Operation& op, Inputs in_) {
  const Tensor &X = in(in_, 0), &Wd = in(in_, 2);
  if (X.rank() != 3 || (X.dim(2) != 1 && X.dim(2) != 2))
    fail("STFT: signal must be [batch, length, 1 or 2], got " + X.type_string());
  const std::int64_t step = scalar_int(in(in_, 1), "STFT", "frame_step");
  if (Wd.defined() && Wd.rank() != 1) fail("STFT: window must be 1-D, got " + Wd.type_string());
  std::int64_t flen = Wd.defined() ? Wd.dim(0) : -1;
  if (in(in_, 3).defined()) {
    const std::int64_t f = scalar_int(in(in_, 3), "STFT", "frame_length");
    if (flen >= 0 && f != flen) fail("STFT: frame_length " + std::to_string(f) + " differs from the window's " + std::to_string(flen));
    flen = f;
  }
  if (flen <= 0) fail("STFT: a window or a positive frame_length is required");
  if (step <= 0) fail("STFT: frame_step must be positive, got " + std::to_string(step));
  const std::int64_t B = X.dim(0), len = X.dim(1);
  if (len < flen) fail("STFT: signal of " + std::to_string(len) + " values is shorter than a frame (" + std::to_string(flen) + ")");
  const bool complex_in = X.dim(2) == 2, onesided = attr_int(op, "onesided", 1) != 0;
  if (complex_in && onesided) fail("STFT: onesided needs a real signal");
  const std::int64_t frames = 1 + (len - flen) / step, bins = onesided ? flen / 2 + 1 : flen;
  const DType dt = X.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
  Tensor Y(dt, {B, frames, bins, 2});
  const Dft dft(flen, false);
  dispatch_float(dt, [&]<typename T>() {
    T* y = Y.mutable_data<T>();
    parallel_for_if(B * frames * flen >= 4096, B * frames, [&](std::int64_t bf) {
      const std::int64_t b = bf / frames, f = bf % frames;
      std::vector<cd> a(static_cast<std::size_t>(flen)), out(static_cast<std::size_t>(flen));
      for (std::int64_t j = 0; j < flen; ++j)
        a[static_cast<std::size_t>(j)] = sample(X, b * len + f * step + j, complex_in) * (Wd.defined() ? Wd.get_double(j) : 1.0);
      dft.run(a.data(), out.data());
      T* o = y + bf * bins * 2;
      for (std::int64_t k = 0; k < bins; ++k) {
        o[2 * k] = static_cast<T>(out[static_cast<std::size_t>(k)].real());
        o[2 * k + 1] = static_cast<T>(out[static_cast<std::size_t>(k)].imag());
      }
    });
  }, "STFT");
  return {Y};
}

// [dft_length / 2 + 1, num_mel_bins] triangular filters, as the ONNX reference: num_mel_bins
// + 2 points evenly spaced in mel (m = 2595 log10(1 + f / 700)) from lower to upper edge,
// each mapped to the spectrogram bin floor((dft_length + 1) f / sample_rate); filter i
// rises from point i to point i + 1 and falls to point i + 2.
Outputs kernel_MelWeightMatrix(const ir::Operation& op, Inputs in_) {
  const std::int64_t mels = scalar_int(in(in_, 0), "MelWeightMatrix", "num_mel_bins"),
                     dft_length = scalar_int(in(in_, 1), "MelWeightMatrix", "dft_length"),
                     rate = scalar_int(in(in_, 2), "MelWeightMatrix", "sample_rate");
  if (mels <= 0 || dft_length <= 0 || rate <= 0)
    fail("MelWeightMatrix: num_mel_bins, dft_length and sample_rate must be positive");
  if (!in(in_, 3).defined() || !in(in_, 4).defined()) fail("MelWeightMatrix: the edge frequencies are required");
  const double lo = in(in_, 3).get_double(0), hi = in(in_, 4).get_double(0);
  const std::int64_t spec_bins = dft_length / 2 + 1;
  const auto mel = [](double f) { return 2595.0 * std::log10(1.0 + f / 700.0); };
  const double lo_mel = mel(lo), step = (mel(hi) - lo_mel) / double(mels + 2);
  std::vector<std::int64_t> points(static_cast<std::size_t>(mels + 2));
  for (std::int64_t i = 0; i < mels + 2; ++i) {
    const double f = 700.0 * (std::pow(10.0, (double(i) * step + lo_mel) / 2595.0) - 1.0);
    points[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(std::floor(double(dft_length + 1) * f / double(rate)));
  }
  for (auto p : points)
    if (p < 0 || p >= spec_bins)
      fail("MelWeightMatrix: the edge frequencies map outside the " + std::to_string(spec_bins) + " spectrogram bins");
  std::vector<double> w(static_cast<std::size_t>(spec_bins * mels), 0.0);
  auto at = [&](std::int64_t j, std::int64_t i) -> double& { return w[static_cast<std::size_t>(j * mels + i)]; };
  for (std::int64_t i = 0; i < mels; ++i) {
    const std::int64_t l = points[static_cast<std::size_t>(i)], c = points[static_cast<std::size_t>(i + 1)],
                       h = points[static_cast<std::size_t>(i + 2)];
    if (c == l) at(c, i) = 1;
    else for (std::int64_t j = l; j <= c; ++j) at(j, i) = double(j - l) / double(c - l);
    if (h > c)
      for (std::int64_t j = c; j < h; ++j) at(j, i) = double(h - j) / double(h - c);
  }
  const DType dt = dtype_attr(op, "output_datatype", DType::Float32);
  Tensor Y(dt, {spec_bins, mels});
  dispatch_numeric(dt, [&]<typename T>() {
    for (std::size_t k = 0; k < w.size(); ++k) Y.mutable_data<T>()[k] = static_cast<T>(w[k]);
  }, "MelWeightMatrix");
  return {Y};
}

}  // namespace ec::runtime::kernels
