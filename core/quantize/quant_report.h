// QuantReport: what quantisation did and where it hurts. Produced by
// ec::quantize::quantize() (quantizer.h); the CLI prints it and writes it as
// JSON (docs/quantize-json.md), the workbench's Quantisation panel draws it.
// Plain data only: no runtime or Qt types, so every view reads the same thing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/quantization.h"

namespace ec::quantize {

/// One activation tensor (or graph output) that was quantised.
struct TensorReport {
  std::string tensor;                 // IR tensor name
  std::string producer;               // op name that writes it ("" for a graph input)
  float float_min = 0, float_max = 0; // observed over the calibration samples
  float range_min = 0, range_max = 0; // clipping range chosen (after percentile / propagation)
  ir::QuantParams params;             // scale / zero point chosen (int8, per tensor)
  double clip_fraction = 0;           // share of observed values outside [range_min, range_max]
  double sqnr_db = 0;                 // int8 execution vs float over the samples; NaN when not measured (no samples)
  /// Histogram of the observed float values: `histogram.size()` equal bins over
  /// [hist_min, hist_max] (for the workbench's histogram with the clip range marked).
  float hist_min = 0, hist_max = 0;
  std::vector<std::int64_t> histogram;
};

/// One op whose weights were quantised (Conv, depthwise Conv, Gemm, MatMul, FullyConnected).
struct LayerReport {
  std::string op;                     // IR op name
  std::string op_type;                // "Conv", ...
  std::string weight;                 // weight tensor name
  bool per_channel = true;
  /// Per output channel: SQNR (dB) of the int8 weights against the float ones,
  /// and the max abs error; one row of the heatmap (layers x channels).
  std::vector<double> channel_sqnr_db;
  std::vector<float> channel_max_abs_error;
  double weight_sqnr_db = 0;          // whole weight tensor
  double output_sqnr_db = 0;          // the op's output tensor (int8 execution vs float); NaN when not measured
  /// Set by --sensitivity: output SQNR of the model with only this op kept in
  /// float, minus the fully quantised model's output SQNR (dB; larger = more sensitive).
  std::optional<double> sensitivity_gain_db;
  /// Params of the int8 weights (per channel along `weight_params.axis`, or per tensor).
  ir::QuantParams weight_params;
  /// Dynamic strategy: a hybrid op (f32 activations, i8 weights, float bias).
  bool hybrid = false;
};

/// An op left in float, and why (user's --keep-float, or no int8 kernel).
struct FloatOp {
  std::string op;
  std::string op_type;
  std::string reason;
};

/// The quantised model's output against the float model's. Each figure is
/// measured by running both on the CPU runtime over the samples; with no samples
/// (qat or dynamic without data) none is measured and all are empty.
struct ModelReport {
  std::string output;                         // graph output name
  std::optional<double> sqnr_db;              // dB
  std::optional<float> max_abs_error;
  std::optional<double> top1_agreement;       // share of samples whose argmax matches (0..1)
  bool measured() const { return sqnr_db.has_value(); }
};

struct QuantReport {
  std::string strategy;               // "ptq", "qat", "dynamic"
  bool per_channel = true;
  int calibration_samples = 0;
  double calibration_percentile = 100; // 100 = min/max observer
  double calibration_seconds = 0;
  std::vector<TensorReport> tensors;  // graph order of producers
  std::vector<LayerReport> layers;    // graph order
  std::vector<FloatOp> float_ops;     // graph order
  std::vector<ModelReport> outputs;   // one per float graph output
  std::vector<std::string> warnings;  // e.g. very wide ranges, one line each
  /// How many samples the figures (SQNR, errors, agreement) were measured on,
  /// running the int8 graph itself on the CPU runtime; 0: nothing was measured.
  int measured_samples = 0;
  /// Where the samples came from, as the caller described them (QuantizeOptions::data_source).
  std::string data_source;

  const TensorReport* find_tensor(const std::string& name) const {
    for (const auto& t : tensors)
      if (t.tensor == name) return &t;
    return nullptr;
  }
  const LayerReport* find_layer(const std::string& op) const {
    for (const auto& l : layers)
      if (l.op == op) return &l;
    return nullptr;
  }
};

}  // namespace ec::quantize
