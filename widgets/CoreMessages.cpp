#include "widgets/CoreMessages.h"

#include <cstring>

#include <QCoreApplication>

#include "core/passes/pass_manager.h"

namespace ec::widgets {
namespace {

struct Entry {
  const char* id;
  const char* text;  // source text of tr(): %1.. are the message's arguments, %n a count
  bool counted;      // the first argument is a count (%n, plural forms)
  bool wraps;        // the arguments are an inner message (its id, then its arguments): %1
};

// Every message the core sends that the workbench shows. Statistics: "pass.<Pass>.<key>"
// with the value; placement reasons: "coral.*" (core/backends/coral); targets' names.
// A translation table: the one C++ file outside core/backends/<name>/ that names targets
// (their message ids and texts; tests/layering/CMakeLists.txt exempts it, for this reason).
constexpr Entry kEntries[] = {
    // Pass statistics (core/passes): one count each.
    {"pass.Cleanup.identity_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Identity removed"), true, false},
    {"pass.Cleanup.dropout_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Dropout removed"), true, false},
    {"pass.Cleanup.cast_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n same-type Cast removed"), true, false},
    {"pass.Cleanup.reshape_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n redundant Reshape removed"), true, false},
    {"pass.Cleanup.pad_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Pad of zeros removed"), true, false},
    {"pass.ConstantFolding.ops_folded", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) folded to constants"), true, false},
    {"pass.ConstantFolding.shape_ops_folded", QT_TRANSLATE_N_NOOP("CoreMessages", "%n shape op(s) folded (static shapes)"), true, false},
    {"pass.ConstantFolding.too_large", QT_TRANSLATE_N_NOOP("CoreMessages", "%n result(s) left unfolded (too large)"), true, false},
    {"pass.CommonSubexpressionElimination.ops_merged", QT_TRANSLATE_N_NOOP("CoreMessages", "%n duplicate op(s) merged"), true, false},
    {"pass.CommonSubexpressionElimination.constants_merged", QT_TRANSLATE_N_NOOP("CoreMessages", "%n duplicate constant(s) merged"), true, false},
    {"pass.DeadCodeElimination.ops_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n dead op(s) removed"), true, false},
    {"pass.DeadCodeElimination.tensors_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n unused tensor(s) removed"), true, false},
    {"pass.FuseActivation.activations_fused", QT_TRANSLATE_N_NOOP("CoreMessages", "%n activation(s) fused"), true, false},
    {"pass.FuseGelu.gelus_fused", QT_TRANSLATE_N_NOOP("CoreMessages", "%n GELU pattern(s) fused"), true, false},
    {"pass.FuseGelu.hard_swishes_fused", QT_TRANSLATE_N_NOOP("CoreMessages", "%n HardSwish pattern(s) fused"), true, false},
    {"pass.FuseGelu.ops_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) removed"), true, false},
    {"pass.FuseLayerNorm.layer_norms_fused", QT_TRANSLATE_N_NOOP("CoreMessages", "%n LayerNorm pattern(s) fused"), true, false},
    {"pass.FuseLayerNorm.ops_removed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) removed"), true, false},
    {"pass.LayoutTransform.ops_converted", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) converted to NHWC"), true, false},
    {"pass.LayoutTransform.transposes_inserted", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Transpose(s) inserted at the edges"), true, false},
    {"pass.LayoutTransform.transpose_pairs_cancelled", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Transpose pair(s) cancelled"), true, false},
    {"pass.LegaliseTflite.ops_decomposed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) decomposed"), true, false},
    {"pass.LegaliseTflite.ops_made", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) made"), true, false},
    {"pass.LegaliseTfliteInt8.ops_decomposed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) decomposed"), true, false},
    {"pass.LegaliseTfliteInt8.ops_made", QT_TRANSLATE_N_NOOP("CoreMessages", "%n op(s) made"), true, false},
    {"pass.PinBatch.dims_pinned", QT_TRANSLATE_N_NOOP("CoreMessages", "%n batch dim(s) fixed"), true, false},
    {"pass.CompactUnitDims.transposes_as_reshape", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Transpose(s) of unit dims made Reshapes"), true, false},
    {"pass.CompactUnitDims.concats_compacted", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Concat(s) written without unit dims"), true, false},
    {"pass.OpFusion.conv_bn_fused", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Conv+BatchNorm fused"), true, false},
    {"pass.OpFusion.conv_add_fused", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Conv+Add(bias) fused"), true, false},
    {"pass.OpFusion.matmul_add_fc", QT_TRANSLATE_N_NOOP("CoreMessages", "%n MatMul+Add -> FullyConnected"), true, false},
    {"pass.OpFusion.conv_taps_trimmed", QT_TRANSLATE_N_NOOP("CoreMessages", "%n Conv kernel(s) trimmed to the taps that read the input"), true, false},

    // Edge TPU placement (core/backends/coral/coral_backend.cpp).
    {"coral.supported", QT_TRANSLATE_NOOP("CoreMessages", "every rule holds (segment %1)"), false, false},
    {"coral.unsupported", QT_TRANSLATE_NOOP("CoreMessages", "%1"), false, true},
    {"coral.leading_quantize", QT_TRANSLATE_NOOP("CoreMessages", "%1; it stays on the CPU without splitting the model"), false, true},
    {"coral.after_unsupported", QT_TRANSLATE_NOOP("CoreMessages", "supported itself, but it reads the result of '%1', which runs on the CPU; the compiler maps one Edge TPU segment by default, and everything after the first unsupported op goes to the CPU; make '%1' map (or replace it) or allow more segments (--num-segments)"), false, false},
    {"coral.after_unsupported_segments", QT_TRANSLATE_NOOP("CoreMessages", "supported itself, but it reads the result of '%1', which runs on the CPU; the %2 Edge TPU segments allowed are used up; make '%1' map (or replace it) or allow more segments (--num-segments)"), false, false},
    {"coral.writer_made", QT_TRANSLATE_NOOP("CoreMessages", "%1; written by the TFLite writer (the graph has no op of its own for it)"), false, true},
    {"coral.artefact.segment", QT_TRANSLATE_NOOP("CoreMessages", "Edge TPU segment %1: the ops edgetpu_compiler mapped, compiled into one executable"), false, false},
    {"coral.artefact.segment_bytes", QT_TRANSLATE_NOOP("CoreMessages", "Edge TPU segment %1: the ops edgetpu_compiler mapped, compiled into one executable of %2 bytes"), false, false},
    {"coral.artefact.leading_quantize", QT_TRANSLATE_NOOP("CoreMessages", "left on the CPU by edgetpu_compiler: a float->int8 QUANTIZE at the input stays on the CPU without splitting the model"), false, false},
    {"coral.artefact.unsupported", QT_TRANSLATE_NOOP("CoreMessages", "left on the CPU by edgetpu_compiler; by our rules: %1"), false, true},
    {"coral.artefact.after_unsupported", QT_TRANSLATE_NOOP("CoreMessages", "left on the CPU by edgetpu_compiler although our rules map it; it follows '%1', the first op on the CPU (one segment by default)"), false, false},
    {"coral.artefact.cpu_unexplained", QT_TRANSLATE_NOOP("CoreMessages", "left on the CPU by edgetpu_compiler although our rules map it: a limitation the rules do not capture"), false, false},
    // Edge TPU rules (core/backends/coral/op_rules.cpp): what failed and how to make it map.
    {"coral.rule.all_hold", QT_TRANSLATE_NOOP("CoreMessages", "every rule holds"), false, false},
    {"coral.rule.hard_swish", QT_TRANSLATE_NOOP("CoreMessages", "%1 is not in the Edge TPU's supported-operation table (google-coral/edgetpu #353, #272); rewrite it as x * relu6(x + 3) / 6 (the registered override does)"), false, false},
    {"coral.rule.leaky_relu", QT_TRANSLATE_NOOP("CoreMessages", "%1 is not in the Edge TPU's supported-operation table (#597); rewrite it as max(x, alpha * x) (the registered override does)"), false, false},
    {"coral.rule.custom_op", QT_TRANSLATE_NOOP("CoreMessages", "%1 is not in the Edge TPU's supported-operation table (custom op '%2'); it runs on the CPU; move it to the end of the model or replace it by supported ops"), false, false},
    {"coral.rule.op_unsupported", QT_TRANSLATE_NOOP("CoreMessages", "%1 is not in the Edge TPU's supported-operation table; replace it by supported ops or register an override for %2"), false, false},
    {"coral.rule.dynamic_shape", QT_TRANSLATE_NOOP("CoreMessages", "tensor '%1' has shape %2: the Edge TPU needs sizes constant at compile time; export with fixed input sizes (batch 1)"), false, false},
    {"coral.rule.dequantize", QT_TRANSLATE_NOOP("CoreMessages", "DEQUANTIZE writes float tensor '%1': the Edge TPU computes only 8-bit tensors; keep it at the model's end (it runs on the CPU) or give the model int8 outputs (compile writes int8 I/O for the models it quantises)"), false, false},
    {"coral.rule.tensor_not_8bit", QT_TRANSLATE_NOOP("CoreMessages", "tensor '%1' is %2: the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model's edge"), false, false},
    {"coral.rule.tensor_not_quantised", QT_TRANSLATE_NOOP("CoreMessages", "tensor '%1' is %2 without quantisation params: the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model's edge"), false, false},
    {"coral.rule.parameter_f32", QT_TRANSLATE_NOOP("CoreMessages", "parameter '%1' is f32: the Edge TPU needs 8-bit quantised parameters; quantise the model"), false, false},
    {"coral.rule.rank", QT_TRANSLATE_NOOP("CoreMessages", "tensor '%1' has shape %2: dim %3 (size %4) is outside the 3 innermost dims; only those may be > 1 (use batch 1, fold the extra dim)"), false, false},
    {"coral.rule.fused_activation", QT_TRANSLATE_NOOP("CoreMessages", "%1 has a fused activation function; the Edge TPU maps it only without one (apply the activation as a separate op)"), false, false},
    {"coral.rule.concat_nonzero_constant", QT_TRANSLATE_NOOP("CoreMessages", "constant input '%1' is not all zeros; a constant CONCATENATION input must be a zero pad"), false, false},
    {"coral.rule.concat_constant_inputs", QT_TRANSLATE_NOOP("CoreMessages", "a constant input needs exactly 2 inputs (it has %1)"), false, false},
    {"coral.rule.dilation", QT_TRANSLATE_NOOP("CoreMessages", "dilations are %1 (y) and %2 (x); use the same dilation in both"), false, false},
    {"coral.rule.groups", QT_TRANSLATE_NOOP("CoreMessages", "a convolution in %1 groups; the Edge TPU compiler (2021) predates TFLite's grouped CONV_2D: write one CONV_2D per group (the grouped_conv_per_group override)"), false, false},
    {"coral.rule.output_not_1d", QT_TRANSLATE_NOOP("CoreMessages", "output '%1' has shape %2; the output must be one-dimensional (only the innermost dim > 1)"), false, false},
    {"coral.rule.softmax_not_1d", QT_TRANSLATE_NOOP("CoreMessages", "input '%1' has shape %2; SOFTMAX maps only a 1-D input (only the innermost dim > 1)"), false, false},
    {"coral.rule.softmax_size", QT_TRANSLATE_NOOP("CoreMessages", "input has %1 elements; SOFTMAX maps at most 16,000"), false, false},
    {"coral.rule.reduce_batch", QT_TRANSLATE_NOOP("CoreMessages", "reduces over the batch dimension (axis 0); reduce over the other axes only"), false, false},
    {"coral.rule.mean_z", QT_TRANSLATE_NOOP("CoreMessages", "reduces the z (innermost) dimension of size %1, which is not a multiple of 4"), false, false},
    {"coral.rule.pad_batch", QT_TRANSLATE_NOOP("CoreMessages", "pads the batch dimension; pad only the other dimensions"), false, false},
    {"coral.rule.resize_batch", QT_TRANSLATE_NOOP("CoreMessages", "batch %1: input/output must be 3-dimensional (batch 1)"), false, false},
    {"coral.rule.resize_align_one_pixel", QT_TRANSLATE_NOOP("CoreMessages", "resizes %1 -> %2 with align_corners: a 1-pixel input has no corner-aligned scale (loss in precision); use a broadcast (e.g. TILE on CPU) or align_corners=false"), false, false},
    {"coral.rule.resize_align_scale", QT_TRANSLATE_NOOP("CoreMessages", "resizes %1 -> %2 with align_corners: (out-1)/(in-1) is not a whole number (loss in precision); pick sizes with a whole scale"), false, false},
    {"coral.rule.resize_scale", QT_TRANSLATE_NOOP("CoreMessages", "resizes %1 -> %2: not a whole scale factor (loss in precision)"), false, false},
    {"coral.rule.strided_slice", QT_TRANSLATE_NOOP("CoreMessages", "a stride is %1; STRIDED_SLICE maps only with all strides 1"), false, false},
    {"coral.rule.squeeze", QT_TRANSLATE_NOOP("CoreMessages", "squeezes axis %1 after a dim > 1 of %2 (needs a relayout); squeeze only leading 1s"), false, false},
    {"coral.rule.prelu_alpha", QT_TRANSLATE_NOOP("CoreMessages", "alpha '%1' has shape %2; alpha must be 1-dimensional (Keras: shared_axes=[1,2])"), false, false},
    {"coral.rule.transpose_rank", QT_TRANSLATE_NOOP("CoreMessages", "a %1-D TRANSPOSE is not supported (#274); use at most 4-D"), false, false},
    {"coral.rule.clip_bounds", QT_TRANSLATE_NOOP("CoreMessages", "Clip with bounds other than [0, 6], [-1, 1] or [0, inf) has no TFLite op the Edge TPU maps (RELU6, RELU_N1_TO_1, RELU)"), false, false},
    {"coral.rule.quantize_float", QT_TRANSLATE_NOOP("CoreMessages", "QUANTIZE reads %1 tensor '%2': float -> 8-bit conversion runs on the CPU (a leading QUANTIZE does not split the model)"), false, false},
    // Targets by their short name ("target.<backend>"; the Compile dialog): a backend
    // without one shows the summary it registers.
    {"target.coral", QT_TRANSLATE_NOOP("CoreMessages", "Coral Edge TPU"), false, false},
    {"target.metal", QT_TRANSLATE_NOOP("CoreMessages", "Apple silicon (Core ML .mlpackage)"), false, false},
    {"target.cpu", QT_TRANSLATE_NOOP("CoreMessages", "CPU (reference)"), false, false},
};

const Entry* find(const std::string& id) {
  for (const auto& e : kEntries)
    if (id == e.id) return &e;
  return nullptr;
}

/// Replaces %1..%9 in `text` by args[0..8] in one pass (an argument's own "%2"
/// is not replaced again, unlike chained QString::arg()).
QString fill(const QString& text, const QStringList& args) {
  QString out;
  out.reserve(text.size() + 32);
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (c == QLatin1Char('%') && i + 1 < text.size() && text[i + 1].isDigit() && text[i + 1] != QLatin1Char('0')) {
      const int n = text[i + 1].digitValue();
      out += n <= args.size() ? args[n - 1] : QString();
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

QString coreMessageText(const ec::Message& message, const QString& fallback) {
  if (message.empty()) return fallback;
  const Entry* e = find(message.id);
  if (!e) return QString::fromStdString(message.text);
  if (e->wraps) {
    if (message.args.empty()) return QString::fromStdString(message.text);
    ec::Message inner{message.args.front(), {message.args.begin() + 1, message.args.end()}, {}};
    if (!find(inner.id)) return QString::fromStdString(message.text);
    return fill(QCoreApplication::translate("CoreMessages", e->text), {coreMessageText(inner)});
  }
  QStringList args;
  for (const auto& a : message.args) args << QString::fromStdString(a);
  if (e->counted) {
    const int n = args.isEmpty() ? 0 : args.front().toInt();
    return fill(QCoreApplication::translate("CoreMessages", e->text, nullptr, n), args);
  }
  return fill(QCoreApplication::translate("CoreMessages", e->text), args);
}

QString statisticText(const std::string& pass, const ec::passes::StatisticValue& s) {
  return coreMessageText(ec::passes::statistic_message(pass, s));
}

bool hasCoreMessageText(const std::string& id) { return find(id) != nullptr; }

}  // namespace ec::widgets
