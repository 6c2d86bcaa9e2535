// The ONE table of quantisation strategies. Each row names a function that
// decides which ops run in int8 (or hybrid) and where activation params come from;
// quantizer.cpp runs the rest of the pipeline around it (stages/).
#include "core/quantize/quantizer.h"
#include "core/quantize/strategy.h"

namespace ec::quantize {
namespace detail {
namespace {

constexpr StrategyRow kStrategies[] = {
    {"ptq", "post-training: calibrate activation ranges with observers on sample inputs",
     /*calibrate=*/true, /*qdq_params=*/false, /*hybrid=*/false},
    {"qat", "quantisation-aware training: take the scales of the model's QuantizeLinear/DequantizeLinear pairs",
     false, true, false},
    {"dynamic", "weights only (int8); activations stay float and are quantised per run (hybrid kernels)",
     false, false, true},
};

}  // namespace

std::span<const StrategyRow> strategy_rows() { return kStrategies; }

const StrategyRow* find_strategy(std::string_view name) {
  for (const auto& r : kStrategies)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace detail

std::vector<StrategyEntry> strategy_table() {
  std::vector<StrategyEntry> out;
  for (const auto& r : detail::strategy_rows()) out.push_back({r.name, r.summary});
  return out;
}

}  // namespace ec::quantize
