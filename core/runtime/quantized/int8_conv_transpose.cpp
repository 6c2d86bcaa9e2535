// int8 ConvTranspose (NCHW, any spatial rank, dilations; group 1): TFLite's
// reference_integer_ops::TransposeConv arithmetic. Every input value, minus the input
// zero point, times every tap of the symmetric per-channel int8 weight is scattered
// into an int32 accumulator; the bias is added and each output channel requantised
// (MultiplyByQuantizedMultiplier, or under EC_INT8_REQUANT=fp32 XNNPACK's float
// scale rounded half to even), plus the output zero point, clamped to the fused
// activation's range.
//
// Weights [Cin, Cout, k...] with per-channel params along axis 1 (the output
// channel), as the quantiser makes them and TFLite's TRANSPOSE_CONV holds them
// ([Cout, kh, kw, Cin], axis 0). The accumulator runs channels-innermost
// ([pixel, Cout]) so each tap is one contiguous multiply-add over the output channels.
#include <algorithm>
#include <cmath>

#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

using Shape = std::vector<std::int64_t>;

class ConvTransposeInt8 final : public PreparedOp {
 public:
  ConvTransposeInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    require_nchw(op);
    if (op.attr_int("group", 1) != 1)
      throw UnsupportedOpError("grouped ConvTranspose", "the CPU runtime's int8 kernels", "group 1 only (per-channel weights)");
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& w = ir_tensor(graph, op.inputs[1]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qx = activation_quant_of(x), qy = activation_quant_of(y);
    const QParams qw = quant_of(w, {ir::DType::Int8});
    const Tensor W = constant_of(graph, op, op.inputs[1], ir::DType::Int8, "weight");
    if (W.rank() < 3) throw UnsupportedOpError("ConvTranspose with a weight of rank " + std::to_string(W.rank()),
                                               "the CPU runtime's int8 kernels", "");
    wshape_ = W.shape();
    cin_ = W.dim(0);
    m_ = W.dim(1);
    check_weight_params(w, qw, 1, m_);
    zx_ = qx.zero_point();
    zy_ = qy.zero_point();
    output_activation_range(op, qy, lo_, hi_);
    // [Cin, M, K] -> [Cin, K, M]
    k_sp_ = W.numel() / (cin_ * m_);
    wt_.resize(static_cast<std::size_t>(W.numel()));
    const std::int8_t* src = W.data<std::int8_t>();
    for (std::int64_t c = 0; c < cin_; ++c)
      for (std::int64_t m = 0; m < m_; ++m)
        for (std::int64_t k = 0; k < k_sp_; ++k)
          wt_[static_cast<std::size_t>((c * k_sp_ + k) * m_ + m)] = src[(c * m_ + m) * k_sp_ + k];
    bias_ = weighted_op_bias(op, graph, m_);
    for (std::int64_t c = 0; c < m_; ++c) {
      const double s = double(qx.scale()) * double(qw.scale(c)) / double(qy.scale());
      mult_.push_back(quantize_multiplier(s));
      fscale_.push_back(static_cast<float>(s));
    }
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 ConvTranspose input is " + X.type_string());
    const kernels::ConvGeometry g = kernels::conv_geometry(op_, X.shape(), wshape_, true);
    if (g.c != cin_) fail("ConvTranspose '" + op_.name + "': input has " + std::to_string(g.c) + " channels, the weight " +
                          std::to_string(cin_));
    Shape out{g.n, g.m};
    out.insert(out.end(), g.out.begin(), g.out.end());
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, out);
    const std::size_t rank = g.in.size();
    std::int64_t in_sp = 1, out_sp = 1;
    for (auto v : g.in) in_sp *= v;
    for (auto v : g.out) out_sp *= v;
    std::vector<std::int64_t> out_st(rank, 1);
    for (std::size_t d = rank; d-- > 1;) out_st[d - 1] = out_st[d] * g.out[d];
    const std::int8_t* px = X.data<std::int8_t>();
    std::int8_t* py = Y.mutable_data<std::int8_t>();
    const bool fp32 = fp32_requantization();
    parallel_for(g.n, [&](std::int64_t n) {
      std::vector<std::int32_t> acc(static_cast<std::size_t>(out_sp * m_), 0);
      std::vector<std::int64_t> i(rank, 0), kk(rank, 0);
      for (std::int64_t c = 0; c < g.c; ++c) {
        std::fill(i.begin(), i.end(), 0);
        for (std::int64_t ip = 0; ip < in_sp; ++ip) {
          const std::int32_t xv = std::int32_t(px[(n * g.c + c) * in_sp + ip]) - zx_;
          if (xv != 0) {
            std::fill(kk.begin(), kk.end(), 0);
            for (std::int64_t kp = 0; kp < k_sp_; ++kp) {
              std::int64_t off = 0;
              bool inside = true;
              for (std::size_t d = 0; d < rank; ++d) {
                const std::int64_t pos = i[d] * g.strides[d] - g.pad_begin[d] + kk[d] * g.dilations[d];
                if (pos < 0 || pos >= g.out[d]) {
                  inside = false;
                  break;
                }
                off += pos * out_st[d];
              }
              if (inside) {
                std::int32_t* a = acc.data() + off * m_;
                const std::int8_t* w = wt_.data() + (c * k_sp_ + kp) * m_;
                for (std::int64_t m = 0; m < m_; ++m) a[m] += xv * std::int32_t(w[m]);
              }
              for (std::size_t d = rank; d-- > 0;) {  // next tap
                if (++kk[d] < g.kernel[d]) break;
                kk[d] = 0;
              }
            }
          }
          for (std::size_t d = rank; d-- > 0;) {  // next input pixel
            if (++i[d] < g.in[d]) break;
            i[d] = 0;
          }
        }
      }
      for (std::int64_t m = 0; m < m_; ++m) {
        const auto mu = static_cast<std::size_t>(m);
        std::int8_t* ym = py + (n * m_ + m) * out_sp;
        for (std::int64_t p = 0; p < out_sp; ++p) {
          const std::int32_t a = acc[static_cast<std::size_t>(p * m_ + m)] + bias_[mu];
          if (fp32) {  // clamped in float first (XNNPACK's order), so the cast is always in range
            const float f = std::clamp(static_cast<float>(a) * fscale_[mu], float(lo_ - zy_), float(hi_ - zy_));
            ym[p] = static_cast<std::int8_t>(static_cast<std::int32_t>(std::nearbyint(f)) + zy_);
          } else {
            ym[p] = static_cast<std::int8_t>(std::clamp(multiply_by_quantized_multiplier(a, mult_[mu]) + zy_, lo_, hi_));
          }
        }
      }
    });
    return {Y};
  }

 private:
  ir::Operation op_;
  Shape wshape_;
  std::int64_t cin_ = 0, m_ = 0, k_sp_ = 0;
  std::vector<std::int8_t> wt_;
  std::vector<std::int32_t> bias_;
  std::vector<QuantizedMultiplier> mult_;
  std::vector<float> fscale_;
  std::int32_t zx_ = 0, zy_ = 0, lo_ = -128, hi_ = 127;
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_ConvTranspose(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ConvTransposeInt8>(op, graph);
}

}  // namespace ec::runtime::quantized
