// Internal to core/quantize: a row of the strategy table (strategy_registry.cpp).
// A strategy is the answer to two questions the pipeline asks: where do the
// activation params come from (observers on calibration runs, or the model's own
// QuantizeLinear/DequantizeLinear pairs), and do activations stay float (hybrid).
#pragma once

#include <span>
#include <string_view>

namespace ec::quantize::detail {

struct StrategyRow {
  std::string_view name;
  std::string_view summary;
  bool calibrate;   // activation ranges from observers over the samples
  bool qdq_params;  // activation and weight params from QDQ pairs in the model
  bool hybrid;      // weights only; activations quantised per run by the kernel
};

std::span<const StrategyRow> strategy_rows();
const StrategyRow* find_strategy(std::string_view name);

}  // namespace ec::quantize::detail
