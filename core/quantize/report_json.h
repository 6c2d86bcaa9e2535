// QuantReport as JSON (docs/quantize-json.md): what `edgecompile quantize --json`
// and --report print, and what other tools read.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/quantize/quant_report.h"

namespace ec::quantize {

nlohmann::json to_json(const ir::QuantParams& p);
nlohmann::json to_json(const QuantReport& r);

}  // namespace ec::quantize
