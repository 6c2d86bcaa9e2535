// The ONE table of passes ({name, summary, factory}, pass_registry.cpp) and the
// default pipeline. No static self-registration: it vanishes from static libraries.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/passes/pass.h"

namespace ec::passes {

struct PassEntry {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Pass> (*make)();
};

/// Every pass, in table order.
std::span<const PassEntry> pass_table();
/// The entry named `name`, or nullptr.
const PassEntry* find_pass(std::string_view name);
/// Makes the pass named `name`; throws EdgeCompilerError (Usage) listing the valid names.
std::unique_ptr<Pass> make_pass(std::string_view name);
/// "A, B, C": the valid names, for error messages.
std::string pass_names();

/// The default CPU pipeline. FuseActivation is included only when the CPU
/// runtime honours `fused_activation` (runtime_supports_fused_activation()).
std::vector<std::string> default_pipeline();
/// Probes the runtime's reference kernels: true when Conv, Gemm, MatMul and
/// FullyConnected apply a fused RELU. Evaluated once.
bool runtime_supports_fused_activation();

// Factories, one per pass file.
std::unique_ptr<Pass> make_cleanup_pass();
std::unique_ptr<Pass> make_constant_folding_pass();
std::unique_ptr<Pass> make_op_fusion_pass();
std::unique_ptr<Pass> make_fuse_activation_pass();
std::unique_ptr<Pass> make_cse_pass();
std::unique_ptr<Pass> make_dce_pass();
std::unique_ptr<Pass> make_layout_transform_pass();
/// LayoutTransform converting only the ops `convertible` accepts (a runtime whose
/// kernels take some ops channels-last only for some types); the rest stay NCHW,
/// Transposes around them. `carry_qdq`: per-tensor Quantize/DequantizeLinear join the
/// NHWC regions too (the CPU runtime; a TFLite graph keeps them at its edges).
using LayoutFilter = std::function<bool(const ir::Operation&, const ir::Graph&)>;
std::unique_ptr<Pass> make_layout_transform_pass(LayoutFilter convertible, bool carry_qdq);
std::unique_ptr<Pass> make_fuse_layer_norm_pass();
std::unique_ptr<Pass> make_fuse_gelu_pass();
std::unique_ptr<Pass> make_legalise_tflite_pass();
std::unique_ptr<Pass> make_legalise_tflite_int8_pass();
std::unique_ptr<Pass> make_pin_batch_pass();
std::unique_ptr<Pass> make_compact_unit_dims_pass();
/// The inputs' symbolic batch (leading) dim, and every dim derived from it, fixed to 1
/// (PinBatch); returns how many dims it fixed.
std::size_t pin_batch(ir::Graph& graph);

}  // namespace ec::passes
