// int8 data movement: the values move, the params pass through.
//   Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Identity: the float
//     kernels move the bytes (they work on any 1-byte dtype); an output whose
//     params differ from the input's is requantised (TFLite QUANTIZE int8->int8:
//     zy + MBQM(x - zx, sx / sy)).
//   Concat: inputs whose params differ from the output's are requantised first,
//     mirroring TFLite's reference_ops::ConcatenationWithScaling:
//       y = zy + round(x * (sx / sy) - zx * (sx / sy))   (float, half away from zero)
#include <cmath>

#include "core/runtime/kernel_registry.h"
#include "core/runtime/quantized/int8_common.h"

namespace ec::runtime::quantized {
namespace {

class PassThrough final : public PreparedOp {
 public:
  PassThrough(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qx = quant_of(x), qy = quant_of(y);
    for (const auto* t : {&x, &y})
      if (quant_of(*t).per_channel()) throw QuantizationError(t->name, "activations must be quantised per tensor");
    requant_ = Requantizer(qx, qy);
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    if (in[0].dtype() != ir::DType::Int8) fail("int8 " + op_.op_type + " input is " + in[0].type_string());
    auto out = run_kernel(op_, in);
    if (!requant_.identity) {
      Tensor r = Tensor::uninitialized(ir::DType::Int8, out[0].shape());
      requant_.apply(out[0].data<std::int8_t>(), r.mutable_data<std::int8_t>(), r.numel());
      out[0] = std::move(r);
    }
    return out;
  }

 private:
  ir::Operation op_;
  Requantizer requant_;
};

class ConcatInt8 final : public PreparedOp {
 public:
  ConcatInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qy = quant_of(y);
    if (qy.per_channel()) throw QuantizationError(y.name, "activations must be quantised per tensor");
    for (const auto& name : op.inputs) {
      const ir::Tensor& x = ir_tensor(graph, name);
      const QParams qx = quant_of(x);
      if (qx.per_channel()) throw QuantizationError(name, "activations must be quantised per tensor");
      Scaling s;
      s.identity = qx.scale() == qy.scale() && qx.zero_point() == qy.zero_point();
      s.scale = qx.scale() * (1.f / qy.scale());
      s.bias = -float(qx.zero_point()) * s.scale;
      s.zy = qy.zero_point();
      scaling_.push_back(s);
    }
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    std::vector<Tensor> args(in.begin(), in.end());
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i].dtype() != ir::DType::Int8) fail("int8 Concat input " + std::to_string(i) + " is " + args[i].type_string());
      const Scaling& s = scaling_[i];
      if (s.identity) continue;
      Tensor r = Tensor::uninitialized(ir::DType::Int8, args[i].shape());
      std::int8_t t[256];
      for (int q = -128; q < 128; ++q)
        t[q + 128] = static_cast<std::int8_t>(
            std::clamp(static_cast<std::int32_t>(std::round(float(q) * s.scale + s.bias)) + s.zy, -128, 127));
      const std::int8_t* x = args[i].data<std::int8_t>();
      std::int8_t* y = r.mutable_data<std::int8_t>();
      for (std::int64_t j = 0; j < r.numel(); ++j) y[j] = t[x[j] + 128];
      args[i] = std::move(r);
    }
    return run_kernel(op_, args);
  }

 private:
  struct Scaling {
    bool identity = true;
    float scale = 1.f, bias = 0.f;
    std::int32_t zy = 0;
  };
  ir::Operation op_;
  std::vector<Scaling> scaling_;
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_PassThrough(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PassThrough>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_Concat(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ConcatInt8>(op, graph);
}

}  // namespace ec::runtime::quantized
