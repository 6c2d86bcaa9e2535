// int8 data movement: the values move, the params pass through.
//   Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Identity: the float
//     kernels move the bytes (they work on any 1-byte dtype); an output whose
//     params differ from the input's is requantised (TFLite QUANTIZE int8->int8:
//     zy + MBQM(x - zx, sx / sy)).
//   Concat: inputs whose params differ from the output's are requantised (a table per
//     input, prepared at load) while written in place, mirroring TFLite's
//     reference_ops::ConcatenationWithScaling:
//       y = zy + round(x * (sx / sy) - zx * (sx / sy))   (float, half away from zero)
//   Pad: see PadInt8 (every mode; the f32 constant value quantised to the output).
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/runtime/kernel_registry.h"
#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

// rows of n bytes, src's packed, into dst's ld apart: a channels-last Concat's input (its
// pixels' channels) into the output's pixels. Short rows (a DenseNet layer's 32 channels)
// without a call per row: 64 bytes a step, the tail masked.
__attribute__((target("avx512f,avx512bw"))) void copy_rows_avx512(const std::int8_t* src, std::int64_t n,
                                                                  std::int64_t rows, std::int8_t* dst,
                                                                  std::int64_t ld) {
  const std::int64_t full = n / 64 * 64;
  const __mmask64 tail = n % 64 ? (__mmask64(1) << (n % 64)) - 1 : 0;
  for (std::int64_t r = 0; r < rows; ++r, src += n, dst += ld) {
    for (std::int64_t i = 0; i < full; i += 64) _mm512_storeu_si512(dst + i, _mm512_loadu_si512(src + i));
    if (tail) _mm512_mask_storeu_epi8(dst + full, tail, _mm512_maskz_loadu_epi8(tail, src + full));
  }
}
void copy_rows(const std::int8_t* src, std::int64_t n, std::int64_t rows, std::int8_t* dst, std::int64_t ld) {
  static const bool avx512 = __builtin_cpu_supports("avx512bw");
  if (avx512 && n < 1024) {
    copy_rows_avx512(src, n, rows, dst, ld);
    return;
  }
  for (std::int64_t r = 0; r < rows; ++r) std::memcpy(dst + r * ld, src + r * n, static_cast<std::size_t>(n));
}

class PassThrough final : public PreparedOp {
 public:
  PassThrough(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const QParams qx = activation_quant_of(ir_tensor(graph, op.inputs[0]));
    // every output (a Split's parts) gets the input's values requantised to its own params
    for (const auto& o : op.outputs) requant_.push_back(o.empty() ? Requantizer(qx, qx) : Requantizer(qx, activation_quant_of(ir_tensor(graph, o))));
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    if (in[0].dtype() != ir::DType::Int8) fail("int8 " + op_.op_type + " input is " + in[0].type_string());
    auto out = run_kernel(op_, in);
    for (std::size_t k = 0; k < out.size() && k < requant_.size(); ++k) {
      if (requant_[k].identity || !out[k].defined()) continue;
      Tensor r = Tensor::uninitialized(ir::DType::Int8, out[k].shape());
      requant_[k].apply(out[k].data<std::int8_t>(), r.mutable_data<std::int8_t>(), r.numel());
      out[k] = std::move(r);
    }
    return out;
  }

 private:
  ir::Operation op_;
  std::vector<Requantizer> requant_;
};

class ConcatInt8 final : public PreparedOp {
 public:
  ConcatInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qy = activation_quant_of(y);
    for (const auto& name : op.inputs) {
      const ir::Tensor& x = ir_tensor(graph, name);
      const QParams qx = activation_quant_of(x);
      Scaling s;
      s.identity = qx.scale() == qy.scale() && qx.zero_point() == qy.zero_point();
      s.scale = qx.scale() * (1.f / qy.scale());
      s.bias = -float(qx.zero_point()) * s.scale;
      s.zy = qy.zero_point();
      scaling_.push_back(s);
      Lut t{};
      for (int q = -128; q < 128; ++q)
        t[static_cast<std::size_t>(q + 128)] = static_cast<std::int8_t>(
            std::clamp(static_cast<std::int32_t>(std::round(float(q) * s.scale + s.bias)) + s.zy, -128, 127));
      tables_.push_back(t);
    }
  }

  // Each input's block of every outer index goes straight to its place in y: copied, or
  // looked up in its prepared table (lut_apply, over a chunk's blocks at once into a
  // scratch row, then copied) when its params differ from the output's.
  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    if (in.empty()) fail("int8 Concat has no inputs");
    const Tensor& first = in[0];
    const auto rank = static_cast<std::int64_t>(first.rank());
    std::int64_t axis = op_.attr_int("axis", 0);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) fail("int8 Concat axis out of range for " + first.type_string());
    std::vector<std::int64_t> out = first.shape();
    out[static_cast<std::size_t>(axis)] = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const Tensor& t = in[i];
      if (t.dtype() != ir::DType::Int8) fail("int8 Concat input " + std::to_string(i) + " is " + t.type_string());
      if (static_cast<std::int64_t>(t.rank()) != rank) fail("int8 Concat inputs differ in rank: " + t.type_string());
      for (std::int64_t d = 0; d < rank; ++d)
        if (d != axis && t.dim(static_cast<std::size_t>(d)) != first.dim(static_cast<std::size_t>(d)))
          fail("int8 Concat inputs differ off the axis: " + first.type_string() + " and " + t.type_string());
      out[static_cast<std::size_t>(axis)] += t.dim(static_cast<std::size_t>(axis));
    }
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, out);
    std::int64_t outer = 1, inner = 1;
    for (std::int64_t d = 0; d < axis; ++d) outer *= first.dim(static_cast<std::size_t>(d));
    for (std::int64_t d = axis + 1; d < rank; ++d) inner *= first.dim(static_cast<std::size_t>(d));
    const std::int64_t row = out[static_cast<std::size_t>(axis)] * inner;
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    std::vector<std::int64_t> offset(in.size(), 0);
    for (std::size_t i = 1; i < in.size(); ++i) offset[i] = offset[i - 1] + in[i - 1].dim(static_cast<std::size_t>(axis)) * inner;
    // Chunks of outer indices (about 16 KiB of y each: a channels-last Concat has one
    // short row per input and pixel), each input's rows in turn.
    const std::int64_t per = std::max<std::int64_t>(1, (16 * 1024) / std::max<std::int64_t>(row, 1));
    parallel_for((outer + per - 1) / per, [&](std::int64_t b) {
      const std::int64_t o0 = b * per, o1 = std::min(outer, o0 + per);
      thread_local std::vector<std::int8_t> mapped;
      for (std::size_t i = 0; i < in.size(); ++i) {
        const std::int64_t block = in[i].dim(static_cast<std::size_t>(axis)) * inner;
        const std::int8_t* x = in[i].data<std::int8_t>() + o0 * block;
        if (!scaling_[i].identity) {
          scratch(mapped, static_cast<std::size_t>((o1 - o0) * block));
          lut_apply(tables_[i].data(), x, (o1 - o0) * block, mapped.data());
          x = mapped.data();
        }
        copy_rows(x, block, o1 - o0, y + o0 * row + offset[i], row);
      }
    });
    return {Y};
  }

 private:
  struct Scaling {
    bool identity = true;
    float scale = 1.f, bias = 0.f;
    std::int32_t zy = 0;
  };
  ir::Operation op_;
  std::vector<Scaling> scaling_;
  std::vector<Lut> tables_;  // per input: its requantisation (ConcatenationWithScaling)
};

// Pad: the stored integers are moved, never changed (every mode: constant, reflect, edge,
// wrap); the constant value is quantised to the output's params like QuantizeLinear
// (0 becomes the zero point exactly). Constant mode with non-negative pads fills the output
// with that value and copies the input's innermost rows into place; the other cases run
// the float kernel's loop on the int8 values.
class PadInt8 final : public PreparedOp {
 public:
  PadInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qx = activation_quant_of(x), qy = activation_quant_of(y);
    requant_ = Requantizer(qx, qy);
    float v = 0.f;
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const ir::Tensor& c = ir_tensor(graph, op.inputs[2]);
      if (!c.is_constant() || c.dtype != ir::DType::Float32 || c.data->size() != sizeof(float))
        throw UnsupportedOpError("Pad with a non-constant or non-f32 constant_value", "the CPU runtime's int8 kernels",
                                 "keep it in float: --keep-float " + (op.name.empty() ? op.op_type : op.name));
      std::memcpy(&v, c.data->data(), sizeof v);
    }
    const float r = std::nearbyint(v / qy.scale()) + float(qy.zero_point());
    qv_ = static_cast<std::int8_t>(std::clamp(r, -128.f, 127.f));
    constant_ = op.attr_string("mode", "constant") == "constant";
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 Pad input is " + X.type_string());
    const auto pads = in[1].to_int64_vector();
    const auto rank = X.rank();
    const bool axes = in.size() > 3 && in[3].defined();
    bool simple = constant_ && !axes && pads.size() == 2 * rank && rank > 0;
    for (auto p : pads) simple = simple && p >= 0;
    Tensor Y;
    if (simple) {
      std::vector<std::int64_t> out(rank);
      for (std::size_t d = 0; d < rank; ++d) out[d] = X.dim(d) + pads[d] + pads[d + rank];
      Y = Tensor::uninitialized(ir::DType::Int8, out);
      std::int8_t* y = Y.mutable_data<std::int8_t>();
      std::fill(y, y + Y.numel(), qv_);
      const std::int64_t W = X.dim(rank - 1), rows = W ? X.numel() / W : 0;
      std::vector<std::int64_t> idx(rank, 0), ost(rank, 1);
      for (std::size_t d = rank - 1; d > 0; --d) ost[d - 1] = ost[d] * out[d];
      const std::int8_t* x = X.data<std::int8_t>();
      for (std::int64_t r = 0; r < rows; ++r) {  // idx: the row's index over dims [0, rank - 1)
        std::int64_t off = pads[rank - 1];
        for (std::size_t d = 0; d + 1 < rank; ++d) off += (idx[d] + pads[d]) * ost[d];
        std::copy(x + r * W, x + (r + 1) * W, y + off);
        for (std::size_t d = rank - 1; d-- > 0;) {
          if (++idx[d] < X.dim(d)) break;
          idx[d] = 0;
        }
      }
    } else {
      std::vector<Tensor> args(in.begin(), in.end());
      args.resize(std::max<std::size_t>(args.size(), 3));
      args[2] = Tensor::scalar<std::int8_t>(ir::DType::Int8, qv_);
      Y = run_kernel(op_, args)[0];
    }
    if (!requant_.identity) {
      Tensor r = Tensor::uninitialized(ir::DType::Int8, Y.shape());
      requant_.apply(Y.data<std::int8_t>(), r.mutable_data<std::int8_t>(), r.numel());
      Y = std::move(r);
    }
    return {Y};
  }

 private:
  ir::Operation op_;
  Requantizer requant_;
  std::int8_t qv_ = 0;
  bool constant_ = true;
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_Pad(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PadInt8>(op, graph);
}

std::unique_ptr<PreparedOp> prepare_PassThrough(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PassThrough>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_Concat(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ConcatInt8>(op, graph);
}

}  // namespace ec::runtime::quantized
