#include "core/quantize/report_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace ec::quantize {
namespace {
// NaN marks a figure that was not measured: null in JSON.
nlohmann::json finite_or_null(double v) { return std::isnan(v) ? nlohmann::json() : nlohmann::json(v); }
}  // namespace

nlohmann::json to_json(const ir::QuantParams& p) {
  return {{"dtype", std::string(ir::dtype_name(p.dtype))},
          {"scales", p.scales},
          {"zero_points", p.zero_points},
          {"axis", p.axis < 0 ? nlohmann::json() : nlohmann::json(p.axis)}};
}

nlohmann::json to_json(const QuantReport& r) {
  nlohmann::json j;
  j["strategy"] = r.strategy;
  j["per_channel"] = r.per_channel;
  j["calibration_samples"] = r.calibration_samples;
  j["calibration_percentile"] = r.calibration_percentile;
  j["calibration_seconds"] = r.calibration_seconds;
  j["data_source"] = r.data_source.empty() ? nlohmann::json() : nlohmann::json(r.data_source);
  // The figures come from running the int8 graph itself; measured_samples 0 means
  // none was measured: each figure is then null and not_measured says why.
  j["measured_samples"] = r.measured_samples;
  j["outputs"] = nlohmann::json::array();
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  for (const auto& m : r.outputs) {
    nlohmann::json o = {{"output", m.output},
                        {"sqnr_db", opt(m.sqnr_db)},
                        {"max_abs_error", opt(m.max_abs_error)},
                        {"top1_agreement", opt(m.top1_agreement)}};
    if (!m.measured()) o["not_measured"] = "no data: give --calibration-data to measure the quantised model's error";
    j["outputs"].push_back(std::move(o));
  }
  j["tensors"] = nlohmann::json::array();
  for (const auto& t : r.tensors)
    j["tensors"].push_back({{"tensor", t.tensor},
                            {"producer", t.producer},
                            {"float_min", t.float_min},
                            {"float_max", t.float_max},
                            {"range_min", t.range_min},
                            {"range_max", t.range_max},
                            {"params", to_json(t.params)},
                            {"clip_fraction", t.clip_fraction},
                            {"sqnr_db", finite_or_null(t.sqnr_db)},
                            {"hist_min", t.hist_min},
                            {"hist_max", t.hist_max},
                            {"histogram", t.histogram}});
  j["layers"] = nlohmann::json::array();
  for (const auto& l : r.layers)
    j["layers"].push_back({{"op", l.op},
                           {"op_type", l.op_type},
                           {"weight", l.weight},
                           {"per_channel", l.per_channel},
                           {"hybrid", l.hybrid},
                           {"weight_params", to_json(l.weight_params)},
                           {"weight_sqnr_db", l.weight_sqnr_db},
                           {"output_sqnr_db", finite_or_null(l.output_sqnr_db)},
                           {"channel_sqnr_db", l.channel_sqnr_db},
                           {"channel_max_abs_error", l.channel_max_abs_error},
                           {"sensitivity_gain_db", l.sensitivity_gain_db ? nlohmann::json(*l.sensitivity_gain_db) : nlohmann::json()}});
  j["float_ops"] = nlohmann::json::array();
  for (const auto& f : r.float_ops) j["float_ops"].push_back({{"op", f.op}, {"op_type", f.op_type}, {"reason", f.reason}});
  j["warnings"] = r.warnings;
  return j;
}

}  // namespace ec::quantize
