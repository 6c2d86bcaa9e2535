// GridSample (opset 16, 4-D) and RoiAlign: sampling an NCHW image at computed positions.
// Both follow ONNX Runtime's CPU kernels, which the ONNX reference implementation
// mirrors: coordinates in float, the same out-of-bounds rules.
#include <cmath>

#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

// Normalised [-1, 1] -> pixel coordinate:
//   align_corners: x = (n + 1) / 2 (L - 1)     (-1 and 1 are the corner pixels' centres)
//   else:          x = ((n + 1) L - 1) / 2     (-1 and 1 are the image's outer edges)
float denormalize(float n, std::int64_t len, bool align_corners) {
  return align_corners ? (n + 1) / 2.0f * float(len - 1) : ((n + 1) * float(len) - 1) / 2.0f;
}

// Reflects x by the nearer border until it lies in [lo, hi]: dx past the border is
// n whole ranges and r, and an even n reflects once.
float reflect(float x, float lo, float hi) {
  const float range = hi - lo;
  if (!std::isfinite(x)) return x;  // the caller samples nothing there
  if (!(range > 0)) return lo;
  if (x >= lo && x <= hi) return x;
  const float dx = x < lo ? lo - x : x - hi;
  const float q = std::floor(dx / range);
  bool even;
  float r;
  if (q < 1e9f) {  // as ONNX Runtime, in float
    const auto n = static_cast<std::int64_t>(q);
    r = dx - float(n) * range;
    even = n % 2 == 0;
  } else {  // far out (a huge grid value): the same reflection without an integer overflow
    r = std::clamp(float(double(dx) - double(q) * range), 0.f, range);
    even = std::fmod(double(q), 2.0) == 0;
  }
  return x < lo ? (even ? lo + r : hi - r) : (even ? hi - r : lo + r);
}

enum class Pad { Zeros, Border, Reflection };
enum class Mode { Nearest, Bilinear, Bicubic };

// Keys' cubic convolution weights (a = -0.75) of the four taps around a point at
// fraction t past the second tap.
void cubic_weights(float t, float w[4]) {
  constexpr float a = -0.75f;
  const float x = std::abs(t);
  w[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
  w[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  w[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
  w[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

}  // namespace

// Y[n, c, oy, ox] = X[n, c] sampled at grid[n, oy, ox] = (x, y) normalised to [-1, 1].
Outputs kernel_GridSample(const ir::Operation& op, Inputs in_) {
  const Tensor &X = in(in_, 0), &G = in(in_, 1);
  if (X.rank() != 4 || G.rank() != 4)
    fail("GridSample: X and grid must be 4-D (N, C, H, W) and (N, H_out, W_out, 2), got " + X.type_string() +
         " and " + G.type_string());
  if (G.dim(0) != X.dim(0) || G.dim(3) != 2)
    fail("GridSample: grid " + G.type_string() + " does not match X " + X.type_string());
  if (G.dtype() != DType::Float32 && G.dtype() != DType::Float64)
    fail("GridSample: grid must be f32 or f64, got " + G.type_string());
  const std::string ms = attr_str(op, "mode", "bilinear"), pm = attr_str(op, "padding_mode", "zeros");
  const bool align = attr_int(op, "align_corners", 0) != 0;
  Mode mode = Mode::Bilinear;
  if (ms == "nearest") mode = Mode::Nearest;
  else if (ms == "bicubic") mode = Mode::Bicubic;
  else if (ms != "bilinear") fail("GridSample: unknown mode '" + ms + "'");
  Pad pad = Pad::Zeros;
  if (pm == "border") pad = Pad::Border;
  else if (pm == "reflection") pad = Pad::Reflection;
  else if (pm != "zeros") fail("GridSample: unknown padding_mode '" + pm + "'");
  const std::int64_t N = X.dim(0), C = X.dim(1), H = X.dim(2), W = X.dim(3), Ho = G.dim(1), Wo = G.dim(2);
  Tensor Y = Tensor::uninitialized(X.dtype(), {N, C, Ho, Wo});
  if (Y.numel() == 0) return {Y};
  if (H == 0 || W == 0) fail("GridSample: X has an empty spatial dim: " + X.type_string());
  const float x_min = align ? 0.f : -0.5f, x_max = align ? float(W) - 1 : float(W) - 0.5f;
  const float y_min = align ? 0.f : -0.5f, y_max = align ? float(H) - 1 : float(H) - 0.5f;

  dispatch_float(X.dtype(), [&]<typename T>() {
    const std::vector<float> grid = G.to_float_vector();
    const T* x = X.data<T>();
    T* y = Y.mutable_data<T>();
    // One pixel of image `img` (H x W), the padding mode applied to the integer position.
    const auto pixel = [&](const T* img, std::int64_t r, std::int64_t c) -> float {
      switch (pad) {
        case Pad::Zeros:
          return r >= 0 && r < H && c >= 0 && c < W ? float(img[r * W + c]) : 0.f;
        case Pad::Border:
          return float(img[std::clamp<std::int64_t>(r, 0, H - 1) * W + std::clamp<std::int64_t>(c, 0, W - 1)]);
        case Pad::Reflection: {
          const auto cc = std::clamp<std::int64_t>(static_cast<std::int64_t>(reflect(float(c), x_min, x_max)), 0, W - 1);
          const auto rr = std::clamp<std::int64_t>(static_cast<std::int64_t>(reflect(float(r), y_min, y_max)), 0, H - 1);
          return float(img[rr * W + cc]);
        }
      }
      return 0.f;
    };
    parallel_for_if(Y.numel() >= 4096, N * C, [&](std::int64_t nc) {
      const std::int64_t n = nc / C;
      const T* img = x + nc * H * W;
      const float* g = grid.data() + n * Ho * Wo * 2;
      T* out = y + nc * Ho * Wo;
      for (std::int64_t p = 0; p < Ho * Wo; ++p) {
        float fx = denormalize(g[2 * p], W, align), fy = denormalize(g[2 * p + 1], H, align);
        if (mode == Mode::Nearest) {
          fx = std::nearbyint(fx);
          fy = std::nearbyint(fy);
        }
        if (fx < x_min || fx > x_max || fy < y_min || fy > y_max) {  // outside: the padding mode moves it
          if (pad == Pad::Border) {
            fx = std::clamp(fx, 0.f, float(W - 1));
            fy = std::clamp(fy, 0.f, float(H - 1));
          } else if (pad == Pad::Reflection) {
            fx = reflect(fx, x_min, x_max);
            fy = reflect(fy, y_min, y_max);
          }
        }
        // A NaN or infinite position, or one so far outside that every tap (bicubic: 2 away)
        // reads zero padding, samples nothing (and keeps the integer casts below defined).
        if (!std::isfinite(fx) || !std::isfinite(fy) ||
            (pad == Pad::Zeros && (fx < x_min - 3 || fx > x_max + 3 || fy < y_min - 3 || fy > y_max + 3))) {
          out[p] = T(0);
          continue;
        }
        if (mode == Mode::Nearest) {
          out[p] = T(pixel(img, static_cast<std::int64_t>(fy), static_cast<std::int64_t>(fx)));
        } else if (mode == Mode::Bilinear) {
          const auto x1 = static_cast<std::int64_t>(std::floor(fx)), y1 = static_cast<std::int64_t>(std::floor(fy));
          const float dx1 = fx - float(x1), dx2 = float(x1 + 1) - fx, dy1 = fy - float(y1), dy2 = float(y1 + 1) - fy;
          // y = (1 - dy)((1 - dx) p11 + dx p12) + dy((1 - dx) p21 + dx p22)
          out[p] = T(dy2 * (dx2 * pixel(img, y1, x1) + dx1 * pixel(img, y1, x1 + 1)) +
                     dy1 * (dx2 * pixel(img, y1 + 1, x1) + dx1 * pixel(img, y1 + 1, x1 + 1)));
        } else {  // bicubic over the 4 x 4 taps around the point
          const auto x0 = static_cast<std::int64_t>(std::floor(fx)) - 1, y0 = static_cast<std::int64_t>(std::floor(fy)) - 1;
          float wx[4], wy[4];
          cubic_weights(fx - float(x0) - 1, wx);
          cubic_weights(fy - float(y0) - 1, wy);
          float acc = 0;
          for (int r = 0; r < 4; ++r) {
            float row = 0;
            for (int c = 0; c < 4; ++c) row += wx[c] * pixel(img, y0 + r, x0 + c);
            acc += wy[r] * row;
          }
          out[p] = T(acc);
        }
      }
    });
  }, "GridSample");
  return {Y};
}

// Y[r, c, ph, pw] = the average (or maximum) of bilinear samples on a grid inside bin
// (ph, pw) of region r of image batch_indices[r]; rois are (x1, y1, x2, y2) in input
// pixels before spatial_scale. "half_pixel" shifts the region by -0.5 pixel; the legacy
// "output_half_pixel" does not and makes every region at least 1 x 1. Max mode takes the
// maximum over samples of each sample's largest weighted corner, as ONNX Runtime does.
Outputs kernel_RoiAlign(const ir::Operation& op, Inputs in_) {
  const Tensor &X = in(in_, 0), &R = in(in_, 1), &B = in(in_, 2);
  if (X.rank() != 4) fail("RoiAlign: X must be 4-D (N, C, H, W), got " + X.type_string());
  if (R.rank() != 2 || R.dim(1) != 4) fail("RoiAlign: rois must be [num_rois, 4], got " + R.type_string());
  if (B.rank() != 1 || B.dim(0) != R.dim(0))
    fail("RoiAlign: batch_indices must be [" + std::to_string(R.dim(0)) + "], got " + B.type_string());
  const std::string mode = attr_str(op, "mode", "avg");
  if (mode != "avg" && mode != "max") fail("RoiAlign: unknown mode '" + mode + "'");
  const bool half_pixel = attr_str(op, "coordinate_transformation_mode", "half_pixel") == "half_pixel";
  const std::int64_t ph_n = attr_int(op, "output_height", 1), pw_n = attr_int(op, "output_width", 1);
  const std::int64_t ratio = attr_int(op, "sampling_ratio", 0);
  const float scale = static_cast<float>(attr_float(op, "spatial_scale", 1.0));
  if (ph_n <= 0 || pw_n <= 0 || ratio < 0) fail("RoiAlign: output sizes must be positive, sampling_ratio >= 0");
  const std::int64_t N = X.dim(0), C = X.dim(1), H = X.dim(2), W = X.dim(3), nr = R.dim(0);
  if ((H == 0 || W == 0) && nr > 0) fail("RoiAlign: X has an empty spatial dim: " + X.type_string());
  for (std::int64_t r = 0; r < nr; ++r)
    if (B.get_int(r) < 0 || B.get_int(r) >= N)
      fail("RoiAlign: batch index " + std::to_string(B.get_int(r)) + " is out of range for batch " + std::to_string(N));
  Tensor Y = Tensor::uninitialized(X.dtype(), {nr, C, ph_n, pw_n});
  if (Y.numel() == 0) return {Y};
  const std::vector<float> rois = R.to_float_vector();
  const bool avg = mode == "avg";

  // One bilinear sample: four positions and weights (all 0 outside the image).
  struct Sample {
    std::int64_t pos[4] = {0, 0, 0, 0};
    float w[4] = {0, 0, 0, 0};
  };
  dispatch_float(X.dtype(), [&]<typename T>() {
    const T* x = X.data<T>();
    T* y = Y.mutable_data<T>();
    parallel_for_if(Y.numel() >= 4096, nr, [&](std::int64_t r) {
      const float* roi = rois.data() + r * 4;
      const float off = half_pixel ? 0.5f : 0.f;
      const float x0 = roi[0] * scale - off, y0 = roi[1] * scale - off;
      float rw = roi[2] * scale - off - x0, rh = roi[3] * scale - off - y0;
      if (!half_pixel) {
        rw = std::max(rw, 1.0f);
        rh = std::max(rh, 1.0f);
      }
      const float bh = rh / float(ph_n), bw = rw / float(pw_n);
      // Samples per bin: sampling_ratio, or enough for about one per input pixel.
      const float fgh = ratio > 0 ? float(ratio) : std::ceil(rh / float(ph_n));
      const float fgw = ratio > 0 ? float(ratio) : std::ceil(rw / float(pw_n));
      if (!(fgh >= 0 && fgw >= 0 && fgh * fgw * float(ph_n * pw_n) <= float(1 << 26)))
        fail("RoiAlign: region " + std::to_string(r) + " (" + std::to_string(roi[0]) + ", " + std::to_string(roi[1]) +
             ", " + std::to_string(roi[2]) + ", " + std::to_string(roi[3]) + ") needs too many samples");
      const auto gh = static_cast<std::int64_t>(fgh), gw = static_cast<std::int64_t>(fgw);
      const float count = float(std::max<std::int64_t>(gh * gw, 1));
      // Samples of every bin, shared by the channels.
      std::vector<Sample> samples(static_cast<std::size_t>(ph_n * pw_n * std::max<std::int64_t>(gh, 0) * std::max<std::int64_t>(gw, 0)));
      std::size_t k = 0;
      for (std::int64_t ph = 0; ph < ph_n; ++ph)
        for (std::int64_t pw = 0; pw < pw_n; ++pw)
          for (std::int64_t iy = 0; iy < gh; ++iy)
            for (std::int64_t ix = 0; ix < gw; ++ix, ++k) {
              float sy = y0 + float(ph) * bh + (float(iy) + 0.5f) * bh / float(gh);
              float sx = x0 + float(pw) * bw + (float(ix) + 0.5f) * bw / float(gw);
              Sample& s = samples[k];
              if (!(sy >= -1.0f && sy <= float(H) && sx >= -1.0f && sx <= float(W))) continue;  // zero weights (NaN too)
              sy = std::max(sy, 0.f);
              sx = std::max(sx, 0.f);
              auto ylo = static_cast<std::int64_t>(sy), xlo = static_cast<std::int64_t>(sx), yhi = ylo + 1, xhi = xlo + 1;
              if (ylo >= H - 1) { ylo = yhi = H - 1; sy = float(ylo); }
              if (xlo >= W - 1) { xlo = xhi = W - 1; sx = float(xlo); }
              const float ly = sy - float(ylo), lx = sx - float(xlo), hy = 1 - ly, hx = 1 - lx;
              s.pos[0] = ylo * W + xlo;
              s.pos[1] = ylo * W + xhi;
              s.pos[2] = yhi * W + xlo;
              s.pos[3] = yhi * W + xhi;
              s.w[0] = hy * hx;
              s.w[1] = hy * lx;
              s.w[2] = ly * hx;
              s.w[3] = ly * lx;
            }
      const std::int64_t b = B.get_int(r), per_bin = gh * gw;
      for (std::int64_t c = 0; c < C; ++c) {
        const T* img = x + (b * C + c) * H * W;
        T* out = y + ((r * C + c) * ph_n) * pw_n;
        for (std::int64_t bin = 0; bin < ph_n * pw_n; ++bin) {
          const Sample* s = samples.data() + bin * per_bin;
          float v = 0;
          for (std::int64_t i = 0; i < per_bin; ++i) {
            if (avg) {
              v += s[i].w[0] * float(img[s[i].pos[0]]) + s[i].w[1] * float(img[s[i].pos[1]]) +
                   s[i].w[2] * float(img[s[i].pos[2]]) + s[i].w[3] * float(img[s[i].pos[3]]);
            } else {
              const float m = std::max(std::max(s[i].w[0] * float(img[s[i].pos[0]]), s[i].w[1] * float(img[s[i].pos[1]])),
                                       std::max(s[i].w[2] * float(img[s[i].pos[2]]), s[i].w[3] * float(img[s[i].pos[3]])));
              v = i == 0 ? m : std::max(v, m);
            }
          }
          out[bin] = T(avg ? v / count : v);
        }
      }
    });
  }, "RoiAlign");
  return {Y};
}

}  // namespace ec::runtime::kernels
