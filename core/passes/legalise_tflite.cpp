// LegaliseTflite: ops with no TFLite builtin become ops with one, computing the
// same values (core/passes/decompose/: one file per op family). Run by the TFLite
// writer's legalisation (prepare_for_tflite) before the layout pass, and by the
// Coral backend's pipeline before quantisation, so the ops it makes are calibrated
// and can map to the Edge TPU.
//
// Order matters: recurrent layers and normalisations first (their parts may be
// 1-D), then 1-D ops to 2-D, then grouped convolutions (a 1-D grouped Conv becomes
// a 2-D one first), then element-wise activations (after recurrent: an RNN's
// activation may be one of them).
#include <array>

#include "core/passes/decompose/decompose.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 2> kStats{{
    {"ops_decomposed", "ops decomposed"},
    {"ops_made", "ops made"},
}};

struct Step {
  const char* what;
  decompose::Fn fn;
};

// Gelu has a TFLite builtin (GELU): its tanh form is the Coral backend's override.
constexpr std::array<Step, 24> kSteps{{
    {"integer_ops", &decompose::integer_ops},
    {"recurrent", &decompose::recurrent_unless_sequence_op},
    {"layer_norm", &decompose::layer_norm},
    {"batch_norm", &decompose::batch_norm},
    {"instance_group_norm", &decompose::instance_group_norm},
    {"mean_variance_norm", &decompose::mean_variance_norm},
    {"lrn", &decompose::lrn},
    {"reduction", &decompose::reduction},
    {"softmax_axis", &decompose::softmax_axis},
    {"gemm", &decompose::gemm},
    {"variadic", &decompose::variadic},
    {"dropout", &decompose::dropout},
    {"compress", &decompose::compress_as_gather},
    {"center_crop_pad", &decompose::center_crop_pad},
    {"depth_to_space_crd", &decompose::depth_to_space_crd},
    {"lp_pool", &decompose::lp_pool},
    {"one_d", &decompose::one_d_as_two_d},
    {"pool_3d", &decompose::pool_3d},
    {"dilated_conv_transpose", &decompose::dilated_conv_transpose},
    {"grouped_conv", &decompose::grouped_conv},
    {"hard_sigmoid", &decompose::hard_sigmoid},
    {"erf", &decompose::erf},
    {"smooth_activations", &decompose::smooth_activations},
    {"trigonometric", &decompose::trigonometric},
}};

class LegaliseTflite final : public Pass {
 public:
  std::string_view name() const override { return "LegaliseTflite"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Rewrites ops TFLite has no builtin for into ops it has, with the same values: GRU, RNN and an LSTM TFLite's "
           "sequence ops cannot express unrolled over their sequence; LayerNormalization, BatchNormalization, InstanceNormalization, GroupNormalization, "
           "MeanVarianceNormalization and LRN (a Conv of ones sums the channel window) as arithmetic; ReduceL1, "
           "ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceLogSumExp from ReduceSum / ReduceMax; Softmax and "
           "LogSoftmax over a non-last axis between Transposes; Gemm with transA, alpha, beta or a broadcast C as "
           "Transpose, MatMul, Mul, Add; Sum, Mean, Max and Min of one or many inputs as Identity or chains of "
           "binary ops; Dropout (inference) as Identity; DepthToSpace CRD as a channel permutation and the DCR op; "
           "1-D convolutions and pools as 2-D ones over a unit dimension; grouped convolutions as one per group "
           "(Split, Conv, Concat); dilated ConvTranspose with a dilated kernel; HardSigmoid as relu6(6a x + 6b) / 6; "
           "Erf by its Abramowitz-Stegun polynomial (1.5e-7); Softplus, Softsign, Mish, Elu, Selu, Celu and "
           "ThresholdedRelu from Relu, Exp, Log, ELU, Min and Sign; Tan, Sinh, Cosh, Asinh, Acosh and Atanh by "
           "Sin / Cos / Exp / Log / Sqrt forms; LpPool and GlobalLpPool as the p-th root of an AveragePool (ReduceSum) of "
           "|x|^p; Compress with a constant condition as Gather; CenterCropPad as Slice and Pad; Atan by a range-reduced polynomial (2e-8), Asin and Acos through it; ONNX "
           "Runtime's QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger and DynamicQuantizeLinear as float ops "
           "between DequantizeLinear / QuantizeLinear or Casts. An op of such a kind it cannot rewrite is left, with a note.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    static constexpr auto kFns = [] {
      std::array<decompose::Fn, kSteps.size()> a{};
      for (std::size_t i = 0; i < kSteps.size(); ++i) a[i] = kSteps[i].fn;
      return a;
    }();
    decompose::apply(g, kFns, r);
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_legalise_tflite_pass() { return std::make_unique<LegaliseTflite>(); }

void decompose::apply(ir::Graph& g, std::span<const Fn> steps, PassResult& r) {
  for (const Fn step : steps)
    for (std::size_t i = g.ops.size(); i-- > 0;) {
      std::string why;
      const std::string name = g.ops[i].name;
      const std::size_t n = step(g, i, &why);
      if (n > 0) {
        r.add("ops_decomposed");
        r.add("ops_made", static_cast<std::int64_t>(n));
      } else if (!why.empty()) {
        r.note(name, why);
      }
    }
}

}  // namespace ec::passes
