#include "core/backends/metal/compute_units.h"

#include <array>

#include "core/errors.h"

namespace ec::backends::metal {
namespace {

// The rule table, checked in this order; the first that matches decides.
constexpr std::array<UnitRule, 9> kRules{{
    {"units.cpu_only", "--compute-units cpu_only: Core ML runs every op on the CPU",
     "developer.apple.com/documentation/coreml/mlcomputeunits (cpuOnly)"},
    {"units.no_neural_engine", "--compute-units cpu_and_gpu: the Neural Engine is not allowed",
     "developer.apple.com/documentation/coreml/mlcomputeunits (cpuAndGPU)"},
    {"ane.recurrent", "a recurrent layer (MIL lstm / gru / rnn): Apple's maintainer states RNN and LSTM do not run on the Neural Engine; "
     "Instruments showed LSTMs on BNNS (the CPU). Predicted on the CPU",
     "github.com/apple/coremltools issues 1780 (maintainer: RNN/LSTM not supported on the NE) and 337 (LSTMs on BNNS)"},
    {"ane.conv3d", "a 3-D convolution or pooling (rank-5 input): reported CPU-only in 2021, on the GPU from Core ML 7 "
     "(iOS17 / macOS14); no report puts it on the Neural Engine. Pooling follows convolution here: a prediction, no source",
     "github.com/apple/coremltools issue 1368 (conv3d CPU-only; 2023-11 comment: GPU support as of CoreML7)"},
    {"ane.precision_fp32", "an fp32-typed ML Program runs in fp32; the Neural Engine computes in fp16 only",
     "coremltools docs-guides/source/typed-execution.md (declared types are the minimum precision)"},
    {"ane.rank_limit", "a tensor of rank above 5, Core ML's limit",
     "coremltools converters/mil/mil/program.py _check_invalid_tensor_rank"},
    {"ane.dynamic_shape", "a tensor with a dynamic (unknown or range) dimension",
     "coremltools docs-guides/source/faqs.md; apple/coremltools issues 2370 and 1029 (range shapes leave the NE)"},
    {"ane.op_not_supported", "an op or attribute the Neural Engine is known not to run: gather/embedding (CPU), dilated convolution",
     "github.com/hollance/neural-engine docs/unsupported-layers.md; github.com/apple/ml-ane-transformers README (embedding ops on the CPU)"},
    {"ane.tensor_too_large", "a tensor above 1 GB: beyond what a Neural Engine model may hold on iPhone",
     "coremltools docs-guides/source/mlmodel-utilities.md (1 GB NE model limit)"},
}};

constexpr std::int64_t kAneMaxBytes = std::int64_t{1} << 30;
constexpr std::size_t kMaxRank = 5;

// Apple's published peak Neural Engine figures (TOPS), per device.
constexpr std::array<AneDevice, 8> kDevices{{
    {"Apple M1", 11, "apple.com/newsroom 2020-11 (Apple M1: 16-core NE, 11 trillion ops/s)"},
    {"Apple M2", 15.8, "apple.com/newsroom 2022-06 (Apple M2: 15.8 trillion ops/s)"},
    {"Apple M3", 18, "apple.com/newsroom 2023-10 (M3 family: NE 18 TOPS)"},
    {"Apple M4", 38, "apple.com/newsroom 2024-05 (Apple M4: 38 trillion ops/s)"},
    {"Apple A14 Bionic", 11, "apple.com/newsroom 2020-09 (A14: 11 trillion ops/s)"},
    {"Apple A15 Bionic", 15.8, "apple.com/newsroom 2021-09 (A15: 15.8 trillion ops/s)"},
    {"Apple A16 Bionic", 17, "apple.com/newsroom 2022-09 (A16: nearly 17 trillion ops/s)"},
    {"Apple A17 Pro", 35, "apple.com/newsroom 2023-09 (A17 Pro: 35 trillion ops/s)"},
}};

const UnitRule& rule(std::string_view id) {
  for (const auto& r : kRules)
    if (r.id == id) return r;
  return kRules.front();
}

UnitChoice off_ane(std::string_view id, const std::string& detail, bool gpu_allowed, bool force_cpu = false) {
  const UnitRule& r = rule(id);
  UnitChoice c;
  c.unit = (gpu_allowed && !force_cpu) ? ComputeUnit::GPU : ComputeUnit::CPU;
  c.rule = std::string(r.id);
  c.reason = std::string(r.summary) + (detail.empty() ? "" : " (" + detail + ")") + " [" + std::string(r.id) + "; " + std::string(r.source) + "]";
  return c;
}

bool is_3d_window_op(ir::OpKind k) {
  using K = ir::OpKind;
  return k == K::Conv || k == K::ConvTranspose || k == K::MaxPool || k == K::AveragePool || k == K::GlobalAveragePool ||
         k == K::GlobalMaxPool;
}

std::int64_t tensor_bytes(const ir::Tensor& t, bool fp16) {
  const auto n = t.num_elements().value_or(0);
  const std::size_t es = ir::dtype_is_float(t.dtype) ? (fp16 ? 2 : 4) : ir::dtype_size(t.dtype);
  return n > 0 && n > kAneMaxBytes ? kAneMaxBytes + 1 : n * static_cast<std::int64_t>(es);
}

}  // namespace

const char* compute_unit_name(ComputeUnit u) {
  switch (u) {
    case ComputeUnit::ANE: return "ANE";
    case ComputeUnit::GPU: return "GPU";
    case ComputeUnit::CPU: return "CPU";
  }
  return "?";
}

AllowedUnits allowed_units_from_name(const std::string& s) {
  if (s == "all") return AllowedUnits::All;
  if (s == "cpu_and_ne") return AllowedUnits::CpuAndNE;
  if (s == "cpu_and_gpu") return AllowedUnits::CpuAndGPU;
  if (s == "cpu_only") return AllowedUnits::CpuOnly;
  throw EdgeCompilerError(ErrorKind::Usage, "--compute-units " + s + ": valid: all, cpu_and_ne, cpu_and_gpu, cpu_only");
}

std::span<const UnitRule> unit_rules() { return kRules; }
std::span<const AneDevice> virtual_ane_devices() { return kDevices; }

UnitChoice predict_unit(const ir::Graph& g, std::size_t index, const std::string& mil_ops, const UnitOptions& o) {
  const auto& op = g.ops[index];
  const bool gpu = o.allowed == AllowedUnits::All || o.allowed == AllowedUnits::CpuAndGPU;
  if (o.allowed == AllowedUnits::CpuOnly) return off_ane("units.cpu_only", "", false);
  if (o.allowed == AllowedUnits::CpuAndGPU) return off_ane("units.no_neural_engine", "", true);
  // placements reported for these ops whatever the precision
  if (mil_ops.find("lstm") != std::string::npos || mil_ops.find("gru") != std::string::npos || mil_ops.find("rnn") != std::string::npos)
    return off_ane("ane.recurrent", op.op_type + " (" + mil_ops + ")", gpu, true);
  if (is_3d_window_op(op.kind) && !op.inputs.empty())
    if (const auto* x = g.find_tensor(op.inputs[0]); x && x->shape.rank_known && x->shape.rank() == 5)
      return off_ane("ane.conv3d", op.op_type + " on " + x->shape.to_string() + (o.ios >= 17 ? ", iOS17+: GPU" : ", before iOS17: CPU"),
                     gpu, o.ios < 17);
  if (!o.fp16) return off_ane("ane.precision_fp32", "--precision fp32", gpu);
  std::vector<const ir::Tensor*> ts;
  for (const auto* names : {&op.inputs, &op.outputs})
    for (const auto& n : *names)
      if (const auto* t = n.empty() ? nullptr : g.find_tensor(n)) ts.push_back(t);
  for (const auto* t : ts)
    if (t->shape.rank_known && t->shape.rank() > kMaxRank)
      return off_ane("ane.rank_limit", "'" + t->name + "' has rank " + std::to_string(t->shape.rank()), gpu, true);
  for (const auto* t : ts)
    if (!t->shape.rank_known || !t->shape.is_static())
      return off_ane("ane.dynamic_shape", "'" + t->name + "' is " + t->shape.to_string(), gpu);
  if (op.kind == ir::OpKind::Gather) return off_ane("ane.op_not_supported", "gather (" + mil_ops + ")", gpu, true);
  if (op.kind == ir::OpKind::Conv) {
    for (auto d : op.attr_ints("dilations"))
      if (d != 1) return off_ane("ane.op_not_supported", "dilated convolution, dilations " + std::to_string(d), gpu);
  }
  for (const auto* t : ts)
    if (tensor_bytes(*t, o.fp16) > kAneMaxBytes)
      return off_ane("ane.tensor_too_large", "'" + t->name + "' " + t->shape.to_string(), gpu);
  return {};
}

}  // namespace ec::backends::metal
