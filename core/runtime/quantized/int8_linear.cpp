// int8 and hybrid FullyConnected, Gemm and MatMul.
//
// int8 with a constant weight mirrors TFLite's reference_integer_ops::
// FullyConnected (per-channel: FullyConnectedPerChannel):
//   acc[r, n] = bias[n] + sum_k (x[r, k] - zx) * w[n, k]
//   y[r, n]   = clamp(MBQM(acc, M_n) + zy, act_min, act_max),   M_n = sx * sw[n] / sy
// computed as sum_k x*w + (bias[n] - zx * sum_k w[n, k]) by the int8 GEMM
// (igemm.h; weights packed once as the A side, rows of x packed per run).
// Weight layouts: FullyConnected [N, K] (per-channel axis 0), Gemm transB=1
// [N, K] (axis 0), Gemm transB=0 and MatMul [K, N] (axis 1). Gemm's alpha is
// folded into the multiplier (the bias divided by it); its C must be the i32
// bias (beta 1).
//
// MatMul of two int8 activations (per-tensor params, TFLite BATCH_MATMUL):
//   acc = sum_k (a - za)(b - zb) = sum a*b - za*colsum(b) - zb*rowsum(a) + K*za*zb
//
// Hybrid (TFLite's hybrid FullyConnected): each row of x is quantised
// asymmetrically (s_r, z_r) per run, then
//   y[r, n] = (sum_k q[r, k] * w[n, k] - z_r * sum_k w[n, k]) * s_r * sw[n] + bias[n].
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/igemm_u8.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

using Shape = std::vector<std::int64_t>;

// A constant weight seen as W(n, k) = base[n * rs + k * cs].
struct LinearWeights {
  std::int64_t N = 0, K = 0;
  PackedA a;
  std::vector<std::int32_t> wsum;
  std::vector<float> scales;  // per output column n
};

LinearWeights prepare_linear_weights(const ir::Graph& graph, const ir::Operation& op, const std::string& name,
                                     std::int64_t N, std::int64_t K, std::int64_t rs, std::int64_t cs, int axis) {
  const ir::Tensor& w = ir_tensor(graph, name);
  const QParams qw = quant_of(w, {ir::DType::Int8});
  const Tensor W = constant_of(graph, op, name, ir::DType::Int8, "weight");
  check_weight_params(w, qw, axis, N);
  LinearWeights lw;
  lw.N = N;
  lw.K = K;
  const std::int8_t* p = W.data<std::int8_t>();
  lw.a = pack_a(p, N, K, rs, cs);
  lw.wsum.assign(static_cast<std::size_t>(N), 0);
  for (std::int64_t n = 0; n < N; ++n) {
    for (std::int64_t k = 0; k < K; ++k) lw.wsum[static_cast<std::size_t>(n)] += p[n * rs + k * cs];
    lw.scales.push_back(qw.scale(n));
  }
  return lw;
}

// Weight geometry of each op: {N, K, rs, cs, per-channel axis}.
struct WeightView {
  std::int64_t N, K, rs, cs;
  int axis;
};

WeightView weight_view(const ir::Operation& op, const ir::Graph& graph) {
  const ir::Tensor& w = ir_tensor(graph, op.inputs[1]);
  if (!w.shape.is_static() || w.shape.rank() != 2)
    throw UnsupportedOpError(op.op_type + " with a weight of shape " + w.shape.to_string(),
                             "the CPU runtime's int8 kernels", "a 2-D constant weight is needed");
  const auto s = w.shape.sizes();
  const bool nk = op.kind == ir::OpKind::FullyConnected || (op.kind == ir::OpKind::Gemm && op.attr_int("transB", 0) != 0);
  if (nk) return {s[0], s[1], s[1], 1, 0};
  return {s[1], s[0], 1, s[1], 1};
}

// The activation side: rows r of x with x(r, k) = base[r * rs + k * cs].
struct Rows {
  std::int64_t R, rs, cs;
  Shape out_shape;
};

Rows rows_of(const ir::Operation& op, const Tensor& X, std::int64_t K, std::int64_t N) {
  if (op.kind == ir::OpKind::Gemm) {
    if (X.rank() != 2) fail("Gemm input must be 2-D, got " + X.type_string());
    const bool ta = op.attr_int("transA", 0) != 0;
    const std::int64_t R = ta ? X.dim(1) : X.dim(0), k = ta ? X.dim(0) : X.dim(1);
    if (k != K) fail("Gemm inner dims differ: " + X.type_string() + " and K = " + std::to_string(K));
    return ta ? Rows{R, 1, R, {R, N}} : Rows{R, K, 1, {R, N}};
  }
  if (op.kind == ir::OpKind::FullyConnected) {
    if (X.numel() % K) fail("input size is not a multiple of " + std::to_string(K));
    return {X.numel() / K, K, 1, {X.numel() / K, N}};
  }
  // MatMul: [..., M, K] x [K, N] -> [..., M, N]
  if (X.rank() < 1 || X.dim(X.rank() - 1) != K) fail("MatMul inner dims differ: " + X.type_string());
  Shape out = X.shape();
  if (X.rank() == 1) out.clear();
  else out.pop_back();
  out.push_back(N);
  return {X.numel() / K, K, 1, out};
}

class LinearInt8 final : public PreparedOp {
 public:
  LinearInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qx = activation_quant_of(x), qy = activation_quant_of(y);
    const WeightView v = weight_view(op, graph);
    w_ = prepare_linear_weights(graph, op, op.inputs[1], v.N, v.K, v.rs, v.cs, v.axis);
    zx_ = qx.zero_point();
    zy_ = qy.zero_point();
    output_activation_range(op, qy, act_min_, act_max_);
    double alpha = 1.0;
    if (op.kind == ir::OpKind::Gemm) {
      if (const auto* a = op.attr("alpha")) alpha = std::get_if<double>(a) ? *std::get_if<double>(a) : 1.0;
      const auto* b = op.attr("beta");
      const double beta = b && std::get_if<double>(b) ? *std::get_if<double>(b) : 1.0;
      if (op.inputs.size() > 2 && !op.inputs[2].empty() && beta != 1.0)
        throw UnsupportedOpError(op.op_type + " with beta != 1", "the CPU runtime's int8 kernels",
                                 "fold beta into the bias");
      if (!(alpha > 0)) throw UnsupportedOpError(op.op_type + " with alpha <= 0", "the CPU runtime's int8 kernels", "");
    }
    std::vector<std::int32_t> bias(static_cast<std::size_t>(w_.N), 0);
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const Tensor B = constant_of(graph, op, op.inputs[2], ir::DType::Int32, "bias");
      if (B.numel() != w_.N)
        throw QuantizationError(op.inputs[2], "bias has " + std::to_string(B.numel()) + " values for " +
                                                  std::to_string(w_.N) + " outputs");
      std::copy(B.data<std::int32_t>(), B.data<std::int32_t>() + w_.N, bias.begin());
    }
    for (std::int64_t n = 0; n < w_.N; ++n) {
      const auto i = static_cast<std::size_t>(n);
      mult_.push_back(quantize_multiplier(alpha * double(qx.scale()) * double(w_.scales[i]) / double(qy.scale())));
      // XNNPACK's requantisation scale, computed in float as it does (EC_INT8_REQUANT=fp32)
      fscale_.push_back(static_cast<float>(alpha) * (qx.scale() * w_.scales[i] / qy.scale()));
      // alpha scales the product only: (alpha * acc + bias) = alpha * (acc + bias / alpha).
      const auto b = alpha == 1.0 ? bias[i] : static_cast<std::int32_t>(std::round(double(bias[i]) / alpha));
      bias_adj_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(b) -
                                                    static_cast<std::uint32_t>(zx_) * static_cast<std::uint32_t>(w_.wsum[i])));
      bias_adj4_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(bias_adj_.back()) -
                                                     128u * static_cast<std::uint32_t>(w_.wsum[i])));
    }
    if (use_vnni()) {  // the swapped VNNI GEMM: activation rows broadcast, weight panels as vectors
      const Tensor W = constant_of(graph, op, op.inputs[1], ir::DType::Int8, "weight");
      rows_ = RowsGemm(W.data<std::int8_t>(), v.N, v.K, v.rs, v.cs, bias_adj4_, mult_);
    }
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 " + op_.op_type + " input is " + X.type_string());
    const Rows r = rows_of(op_, X, w_.K, w_.N);
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, r.out_shape);
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    const std::int64_t N = w_.N;
    const bool fp32 = fp32_requantization();
    if (!fp32 && !rows_.w.data.empty() && use_vnni() && r.cs == 1) {
      rows_.run(x, r.R, r.rs, zy_, act_min_, act_max_, y);
      return {Y};
    }
    igemm(
        w_.a, r.R,
        [&](std::int64_t j0, std::int64_t nc, std::int16_t* out) { pack_b_strided(x, w_.K, w_.a.kp, r.cs, r.rs, j0, nc, out); },
        [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* t) {
          for (int i = 0; i < mr; ++i) {
            const auto n = static_cast<std::size_t>(m0 + i);
            for (int j = 0; j < nr; ++j) {
              const auto acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(t[i * kNR + j]) +
                                                         static_cast<std::uint32_t>(bias_adj_[n]));
              // XNNPACK (fp32 mode): the accumulator times a float scale, rounded half to even
              const std::int32_t v = (fp32 ? static_cast<std::int32_t>(std::nearbyint(static_cast<float>(acc) * fscale_[n]))
                                           : multiply_by_quantized_multiplier(acc, mult_[n])) + zy_;
              y[(j0 + j) * N + m0 + i] = static_cast<std::int8_t>(std::clamp(v, act_min_, act_max_));
            }
          }
        });
    return {Y};
  }

 private:
  ir::Operation op_;
  LinearWeights w_;
  std::int32_t zx_ = 0, zy_ = 0, act_min_ = -128, act_max_ = 127;
  std::vector<std::int32_t> bias_adj_, bias_adj4_;  // bias_adj4_: the VNNI GEMM's (x + 128)
  std::vector<QuantizedMultiplier> mult_;
  std::vector<float> fscale_;  // per output: s_x s_w / s_y in float (XNNPACK's requantisation)
  RowsGemm rows_;  // the swapped VNNI GEMM (prepared on VNNI machines)
};

// MatMul of two int8 activations: [..., M, K] x [..., K, N] (equal batch dims, or a 2-D B).
class MatMulActivations final : public PreparedOp {
 public:
  MatMulActivations(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& a = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& b = ir_tensor(graph, op.inputs[1]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qa = activation_quant_of(a), qb = activation_quant_of(b), qy = activation_quant_of(y);
    za_ = qa.zero_point();
    zb_ = qb.zero_point();
    zy_ = qy.zero_point();
    mult_ = quantize_multiplier(double(qa.scale()) * double(qb.scale()) / double(qy.scale()));
    output_activation_range(op, qy, act_min_, act_max_);
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor &A = in[0], &B = in[1];
    if (A.dtype() != ir::DType::Int8 || B.dtype() != ir::DType::Int8)
      fail("int8 MatMul inputs are " + A.type_string() + " and " + B.type_string());
    if (A.rank() < 2 || B.rank() < 2) fail("int8 MatMul needs inputs of rank >= 2");
    const std::int64_t M = A.dim(A.rank() - 2), K = A.dim(A.rank() - 1), N = B.dim(B.rank() - 1);
    if (B.dim(B.rank() - 2) != K) fail("MatMul inner dims differ: " + A.type_string() + " x " + B.type_string());
    const std::int64_t batches = A.numel() / std::max<std::int64_t>(1, M * K);
    const bool b2d = B.rank() == 2;
    if (!b2d && (B.shape().size() != A.shape().size() ||
                 !std::equal(A.shape().begin(), A.shape().end() - 2, B.shape().begin())))
      throw UnsupportedOpError("MatMul broadcasting " + A.type_string() + " x " + B.type_string(),
                               "the CPU runtime's int8 kernels", "equal batch dims or a 2-D right operand");
    Shape out = A.shape();
    out.back() = N;
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, out);
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    for (std::int64_t bt = 0; bt < batches; ++bt) {
      const std::int8_t* a = A.data<std::int8_t>() + bt * M * K;
      const std::int8_t* b = B.data<std::int8_t>() + (b2d ? 0 : bt * K * N);
      const PackedA pb = pack_a(b, N, K, 1, N);  // B^T as the packed side: (n, k) = b[k*N + n]
      std::vector<std::int32_t> colsum(static_cast<std::size_t>(N), 0), rowsum(static_cast<std::size_t>(M), 0);
      for (std::int64_t k = 0; k < K; ++k)
        for (std::int64_t n = 0; n < N; ++n) colsum[static_cast<std::size_t>(n)] += b[k * N + n];
      for (std::int64_t m = 0; m < M; ++m)
        for (std::int64_t k = 0; k < K; ++k) rowsum[static_cast<std::size_t>(m)] += a[m * K + k];
      std::int8_t* yb = y + bt * M * N;
      igemm(
          pb, M, [&](std::int64_t j0, std::int64_t nc, std::int16_t* o) { pack_b_strided(a, K, pb.kp, 1, K, j0, nc, o); },
          [&](std::int64_t n0, int nr, std::int64_t m0, int mr, const std::int32_t* t) {
            for (int i = 0; i < nr; ++i)
              for (int j = 0; j < mr; ++j) {
                const std::int64_t n = n0 + i, m = m0 + j;
                const std::int32_t acc = t[i * kNR + j] - za_ * colsum[static_cast<std::size_t>(n)] -
                                         zb_ * rowsum[static_cast<std::size_t>(m)] + std::int32_t(K) * za_ * zb_;
                const std::int32_t v = multiply_by_quantized_multiplier(acc, mult_) + zy_;
                yb[m * N + n] = static_cast<std::int8_t>(std::clamp(v, act_min_, act_max_));
              }
          });
    }
    return {Y};
  }

 private:
  ir::Operation op_;
  std::int32_t za_ = 0, zb_ = 0, zy_ = 0, act_min_ = -128, act_max_ = 127;
  QuantizedMultiplier mult_;
};

class LinearHybrid final : public PreparedOp {
 public:
  LinearHybrid(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const WeightView v = weight_view(op, graph);
    w_ = prepare_linear_weights(graph, op, op.inputs[1], v.N, v.K, v.rs, v.cs, v.axis);
    bias_.assign(static_cast<std::size_t>(w_.N), 0.f);
    if (op.kind == ir::OpKind::Gemm) {
      const auto* a = op.attr("alpha");
      const auto* b = op.attr("beta");
      alpha_ = a && std::get_if<double>(a) ? float(*std::get_if<double>(a)) : 1.f;
      beta_ = b && std::get_if<double>(b) ? float(*std::get_if<double>(b)) : 1.f;
    }
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const Tensor B = constant_of(graph, op, op.inputs[2], ir::DType::Float32, "bias");
      if (B.numel() != w_.N)
        throw UnsupportedOpError(op.op_type + " (hybrid) with a bias of " + std::to_string(B.numel()) + " values",
                                 "the CPU runtime's hybrid kernels", "a bias of one value per output");
      for (std::int64_t n = 0; n < w_.N; ++n) bias_[static_cast<std::size_t>(n)] = beta_ * B.data<float>()[n];
    }
    const ir::ActivationInfo& act = ir::activation_info(ir::fused_activation(op));
    if (!act.clamp)
      throw UnsupportedOpError(op.op_type + " with fused_activation " + std::string(act.name),
                               "the CPU runtime's hybrid kernels", "apply it as a separate op");
    lo_ = act.lo;  // infinite where the clamp is open
    hi_ = act.hi;
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Float32) fail("hybrid " + op_.op_type + " input is " + X.type_string());
    const Rows r = rows_of(op_, X, w_.K, w_.N);
    const std::int64_t K = w_.K, N = w_.N;
    // Rows of x made contiguous (transA), then quantised one by one.
    std::vector<std::int8_t> q(static_cast<std::size_t>(r.R * K));
    std::vector<float> scale(static_cast<std::size_t>(r.R));
    std::vector<std::int32_t> zp(static_cast<std::size_t>(r.R));
    parallel_for(r.R, [&](std::int64_t i) {  // rows are independent: same result on any thread count
      const float* src = X.data<float>() + i * r.rs;
      thread_local std::vector<float> row;
      if (r.cs != 1) {
        scratch(row, static_cast<std::size_t>(K));
        for (std::int64_t k = 0; k < K; ++k) row[static_cast<std::size_t>(k)] = src[k * r.cs];
        src = row.data();
      }
      asymmetric_quantize_floats(src, K, q.data() + i * K, scale[static_cast<std::size_t>(i)],
                                 zp[static_cast<std::size_t>(i)]);
    });
    Tensor Y = Tensor::uninitialized(ir::DType::Float32, r.out_shape);
    float* y = Y.mutable_data<float>();
    igemm(
        w_.a, r.R, [&](std::int64_t j0, std::int64_t nc, std::int16_t* out) { pack_b_strided(q.data(), K, w_.a.kp, 1, K, j0, nc, out); },
        [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* t) {
          for (int i = 0; i < mr; ++i) {
            const auto n = static_cast<std::size_t>(m0 + i);
            for (int j = 0; j < nr; ++j) {
              const auto rr = static_cast<std::size_t>(j0 + j);
              const float v = alpha_ * float(t[i * kNR + j] - zp[rr] * w_.wsum[n]) * (scale[rr] * w_.scales[n]) + bias_[n];
              y[(j0 + j) * N + m0 + i] = std::clamp(v, lo_, hi_);
            }
          }
        });
    return {Y};
  }

 private:
  ir::Operation op_;
  LinearWeights w_;
  std::vector<float> bias_;
  float alpha_ = 1.f, beta_ = 1.f;
  float lo_ = -std::numeric_limits<float>::infinity(), hi_ = std::numeric_limits<float>::infinity();
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_FullyConnected(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<LinearInt8>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_Gemm(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<LinearInt8>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_MatMul(const ir::Operation& op, const ir::Graph& graph) {
  const ir::Tensor& b = ir_tensor(graph, op.inputs[1]);
  if (b.is_constant()) return std::make_unique<LinearInt8>(op, graph);
  return std::make_unique<MatMulActivations>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_FullyConnectedHybrid(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<LinearHybrid>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_GemmHybrid(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<LinearHybrid>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_MatMulHybrid(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<LinearHybrid>(op, graph);
}

}  // namespace ec::runtime::quantized
