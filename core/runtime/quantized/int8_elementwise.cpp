// int8 Add, Sub, Mul with numpy broadcasting (per-tensor params on both inputs).
//   Add/Sub: TFLite's scheme (fixed_point.h AddParams: left shift 20, per-input
//            multipliers s_i / (2 max(s1, s2)), output multiplier 2 max(s1, s2) / (2^20 s_out)).
//   Mul:     y = clamp(zy + MBQM((a - za)(b - zb), s_a s_b / s_y)).
//   Max/Min: TFLite's MAXIMUM/MINIMUM, the int8 max/min of the inputs on the output's
//            params (an input on other params is requantised to them first).
// A second input may be a constant (with its own quant params). Inputs of
// the same shape take a flat loop; others the broadcasting odometer.
#include <algorithm>
#include <array>
#include <cmath>

#include "core/runtime/kernels/common.h"
#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

enum class Binary { Add, Sub, Mul, Max, Min };

class BinaryInt8 final : public PreparedOp {
 public:
  BinaryInt8(const ir::Operation& op, const ir::Graph& graph, Binary kind) : op_(op), kind_(kind) {
    const ir::Tensor& a = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& b = ir_tensor(graph, op.inputs[1]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qa = activation_quant_of(a), qb = activation_quant_of(b), qy = activation_quant_of(y);
    std::int32_t lo = -128, hi = 127;
    output_activation_range(op, qy, lo, hi);
    if (kind == Binary::Max || kind == Binary::Min) {
      // Inputs on other params than the output's are first requantised to them
      // (TFLite's converter gives all three one set of params; then this is exact).
      for (int k = 0; k < 2; ++k) {
        const QParams& q = k ? qb : qa;
        auto& lut = k ? lut_b_ : lut_a_;
        for (int v = -128; v < 128; ++v) {
          const double real = double(q.scale()) * (v - q.zero_point());
          const long r = std::lround(real / double(qy.scale())) + qy.zero_point();
          lut[static_cast<std::size_t>(v + 128)] = static_cast<std::int8_t>(std::clamp<long>(r, -128, 127));
        }
      }
    } else if (kind == Binary::Mul) {
      mul_ = quantize_multiplier(double(qa.scale()) * double(qb.scale()) / double(qy.scale()));
      // XNNPACK's scale, in float as it computes it (EC_INT8_REQUANT=fp32)
      fp32_scale_ = qa.scale() * qb.scale() / qy.scale();
      off_a_ = -qa.zero_point();
      off_b_ = -qb.zero_point();
      zy_ = qy.zero_point();
      lo_ = lo;
      hi_ = hi;
    } else {
      add_ = make_add_params(qa.scale(), qa.zero_point(), qb.scale(), qb.zero_point(), qy.scale(), qy.zero_point());
      add_.act_min = lo;
      add_.act_max = hi;
      row_ = {add_.input1_offset, add_.input2_offset, add_.output_offset, lo, hi,
              add_.input1.multiplier, add_.input2.multiplier, add_.output.multiplier,
              add_.input1.shift, add_.input2.shift, add_.output.shift, kind == Binary::Sub};
      // The vector rows take the smaller-than-one multipliers TFLite's scheme gives.
      vector_ok_ = add_.input1.shift <= 0 && add_.input2.shift <= 0 && add_.output.shift <= 0;
    }
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor &A = in[0], &B = in[1];
    if (A.dtype() != ir::DType::Int8 || B.dtype() != ir::DType::Int8)
      fail("int8 " + op_.op_type + " inputs are " + A.type_string() + " and " + B.type_string());
    const auto out = kernels::broadcast_shapes(A.shape(), B.shape());
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, out);
    const std::int8_t *a = A.data<std::int8_t>(), *b = B.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    auto apply = [&](auto&& f) {
      if (A.shape() == out && B.shape() == out) {
        for (std::int64_t i = 0; i < Y.numel(); ++i) y[i] = static_cast<std::int8_t>(f(a[i], b[i]));
      } else {
        kernels::for_each_broadcast2(out, A.shape(), B.shape(), [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
          y[i] = static_cast<std::int8_t>(f(a[ia], b[ib]));
        });
      }
    };
    if ((kind_ == Binary::Add || kind_ == Binary::Sub) && vector_ok_ && A.shape() == out && B.shape() == out) {
      if (const AddRowFn add_row = add_row_kernel()) {
        // Same shapes: flat rows, split over the pool (each element computed alone).
        constexpr std::int64_t kChunk = 16384;
        const std::int64_t n = Y.numel();
        parallel_for((n + kChunk - 1) / kChunk, [&](std::int64_t c) {
          add_row(a + c * kChunk, b + c * kChunk, std::min(kChunk, n - c * kChunk), row_, y + c * kChunk);
        });
        return {Y};
      }
    }
    if (kind_ == Binary::Mul && fp32_requantization()) {
      // XNNPACK's multiply: the integer product times a float scale, rounded half to even.
      apply([&](std::int32_t x1, std::int32_t x2) {
        const float v = static_cast<float>((x1 + off_a_) * (x2 + off_b_)) * fp32_scale_;
        return std::clamp<std::int32_t>(static_cast<std::int32_t>(std::nearbyint(v)) + zy_, lo_, hi_);
      });
      return {Y};
    }
    if (kind_ == Binary::Mul && use_mul_row_avx512() && mul_rows(A, B, out, y)) return {Y};
    switch (kind_) {
      case Binary::Add: apply([&](std::int32_t x1, std::int32_t x2) { return add_quantized(add_, x1, x2, false); }); break;
      case Binary::Sub: apply([&](std::int32_t x1, std::int32_t x2) { return add_quantized(add_, x1, x2, true); }); break;
      case Binary::Mul:
        apply([&](std::int32_t x1, std::int32_t x2) { return mul_quantized(x1, off_a_, x2, off_b_, mul_, zy_, lo_, hi_); });
        break;
      case Binary::Max:
        apply([&](std::int32_t x1, std::int32_t x2) { return std::max<std::int32_t>(lut_a_[x1 + 128], lut_b_[x2 + 128]); });
        break;
      case Binary::Min:
        apply([&](std::int32_t x1, std::int32_t x2) { return std::min<std::int32_t>(lut_a_[x1 + 128], lut_b_[x2 + 128]); });
        break;
    }
    return {Y};
  }

 private:
  // Mul of same shapes, or with one side broadcast over the trailing dims (a
  // squeeze-excite gate [N, C, 1, 1] on [N, C, H, W]) or the middle ones ([N, 1, 1, C] on
  // [N, H, W, C]): vector rows. False: not such a case.
  bool mul_rows(const Tensor& A, const Tensor& B, const std::vector<std::int64_t>& out, std::int8_t* y) const {
    const std::int64_t n = shape_numel(out);
    if (A.shape() == out && B.shape() == out) {
      mul_row_avx512(A.data<std::int8_t>(), B.data<std::int8_t>(), false, n, off_a_, off_b_, mul_.multiplier, mul_.shift,
                     zy_, lo_, hi_, y);
      return true;
    }
    // The full side and the broadcast side (the product is symmetric).
    const bool a_full = A.shape() == out;
    const Tensor& F = a_full ? A : B;
    const Tensor& S = a_full ? B : A;
    if (F.shape() != out || S.rank() > out.size()) return false;
    std::vector<std::int64_t> s(out.size() - S.rank(), 1);
    s.insert(s.end(), S.shape().begin(), S.shape().end());
    // s == out on [0, k), 1 on [k, t), == out on [t, rank): a gate broadcast over the
    // trailing dims ([N, C, 1, 1] on NCHW, t == rank) or over the middle ones ([N, 1, 1, C]
    // on NHWC: rows of C products, the gate's row for every pixel).
    std::size_t k = 0, t = out.size();
    while (k < out.size() && s[k] == out[k]) ++k;
    while (t > k && s[t - 1] == out[t - 1] && out[t - 1] != 1) --t;
    for (std::size_t d = k; d < t; ++d)
      if (s[d] != 1) return false;
    const std::int32_t off_f = a_full ? off_a_ : off_b_, off_s = a_full ? off_b_ : off_a_;
    std::int64_t lead = 1, mid = 1, tail = 1;
    for (std::size_t d = 0; d < out.size(); ++d) (d < k ? lead : d < t ? mid : tail) *= out[d];
    if (tail > 1) {
      // Rows in blocks of about 16K values (one call each: its setup once per block).
      const std::int64_t per = std::max<std::int64_t>(1, 16384 / tail),
                         blocks_per = (mid + per - 1) / per;
      parallel_for(lead * blocks_per, [&](std::int64_t t) {
        const std::int64_t l = t / blocks_per, m0 = (t % blocks_per) * per, r = l * mid + m0;
        mul_row_avx512(F.data<std::int8_t>() + r * tail, S.data<std::int8_t>() + l * tail, false,
                       tail, off_f, off_s, mul_.multiplier, mul_.shift, zy_, lo_, hi_, y + r * tail,
                       std::min(per, mid - m0));
      });
      return true;
    }
    const std::int64_t outer = S.numel(), inner = outer ? n / outer : 0;
    parallel_for(outer, [&](std::int64_t o) {
      mul_row_avx512(F.data<std::int8_t>() + o * inner, S.data<std::int8_t>() + o, true, inner, off_f, off_s,
                     mul_.multiplier, mul_.shift, zy_, lo_, hi_, y + o * inner);
    });
    return true;
  }

  ir::Operation op_;
  Binary kind_;
  AddParams add_;
  AddRowParams row_{};
  bool vector_ok_ = false;
  QuantizedMultiplier mul_;
  float fp32_scale_ = 0;
  std::int32_t off_a_ = 0, off_b_ = 0, zy_ = 0, lo_ = -128, hi_ = 127;
  std::array<std::int8_t, 256> lut_a_{}, lut_b_{};  // Max/Min: input value -> output params
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_Add(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<BinaryInt8>(op, graph, Binary::Add);
}
std::unique_ptr<PreparedOp> prepare_Sub(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<BinaryInt8>(op, graph, Binary::Sub);
}
std::unique_ptr<PreparedOp> prepare_Mul(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<BinaryInt8>(op, graph, Binary::Mul);
}

std::unique_ptr<PreparedOp> prepare_Max(const ir::Operation& op, const ir::Graph& graph) {
  if (op.inputs.size() != 2) fail("int8 Max takes exactly 2 inputs");
  return std::make_unique<BinaryInt8>(op, graph, Binary::Max);
}
std::unique_ptr<PreparedOp> prepare_Min(const ir::Operation& op, const ir::Graph& graph) {
  if (op.inputs.size() != 2) fail("int8 Min takes exactly 2 inputs");
  return std::make_unique<BinaryInt8>(op, graph, Binary::Min);
}

}  // namespace ec::runtime::quantized
