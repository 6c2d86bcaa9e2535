// What every quantisation view shares: the report snapshot type, one
// formatting of decibels and scales, the colour scale of the heatmap and its
// legend, and the per-op values the graph view is coloured by.
#pragma once

#include <memory>
#include <vector>

#include <QColor>
#include <QMetaType>
#include <QString>

#include "core/ir/graph.h"
#include "core/quantize/quant_report.h"

#include "widgets/OpFormat.h"  // viridis()

namespace ec::widgets {

/// An immutable QuantReport, shared by the panel, its models and views.
using QuantReportPtr = std::shared_ptr<const ec::quantize::QuantReport>;

/// SQNR values at or above this are drawn as this (an exact int8 copy has infinite SQNR).
inline constexpr double kSqnrCapDb = 100.0;

/// "23.4 dB"; "∞ dB" for an exact result; "–" for NaN.
QString formatDb(double db);
/// A float in a short, exact-enough form ("0.0235", "1.2e-05").
QString formatFloat(double v);
/// SQNR clamped into [0, kSqnrCapDb] for bars and colours (NaN stays NaN).
double cappedDb(double db);

/// One value per op of `graph`: the output SQNR (dB) of the op's first output
/// tensor in `report` (matched by tensor name, then by producer op name), NaN
/// where the report has none. For GraphView::setOpValues().
std::vector<double> opSqnrValues(const ec::quantize::QuantReport& report,
                                 const ec::ir::Graph& graph);

}  // namespace ec::widgets

Q_DECLARE_METATYPE(ec::widgets::QuantReportPtr)
