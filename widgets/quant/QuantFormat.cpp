#include "widgets/quant/QuantFormat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace ec::widgets {

QString formatDb(double db) {
  if (std::isnan(db)) return QStringLiteral("–");
  if (std::isinf(db)) return db > 0 ? QStringLiteral("∞ dB") : QStringLiteral("−∞ dB");
  return QString::number(db, 'f', 1) % QStringLiteral(" dB");
}

QString formatFloat(double v) {
  if (std::isnan(v)) return QStringLiteral("–");
  return QString::number(v, 'g', 4);
}

double cappedDb(double db) {
  if (std::isnan(db)) return db;
  return std::clamp(db, 0.0, kSqnrCapDb);
}

std::vector<double> opSqnrValues(const ec::quantize::QuantReport& report,
                                 const ec::ir::Graph& graph) {
  std::unordered_map<std::string, double> byTensor, byProducer;
  for (const auto& t : report.tensors) {
    byTensor.emplace(t.tensor, t.sqnr_db);
    if (!t.producer.empty()) byProducer.emplace(t.producer, t.sqnr_db);
  }
  for (const auto& l : report.layers) byProducer.emplace(l.op, l.output_sqnr_db);
  std::vector<double> values(graph.ops.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const auto& op = graph.ops[i];
    if (!op.outputs.empty()) {
      if (auto it = byTensor.find(op.outputs.front()); it != byTensor.end()) {
        values[i] = cappedDb(it->second);
        continue;
      }
    }
    if (auto it = byProducer.find(op.name); it != byProducer.end()) values[i] = cappedDb(it->second);
  }
  return values;
}

}  // namespace ec::widgets
