// Legalisation of IR ops to MIL ops: ONE table by IR op kind (lower.cpp), each
// row writing the MIL op(s) with every input its opset defines (mil_ops.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/backends/metal/deployment.h"
#include "core/backends/metal/mil_program.h"
#include "core/ir/graph.h"

namespace ec::backends::metal {

struct LowerOptions {
  bool fp16 = true;                               // compute precision (false: fp32)
  const DeploymentTarget* target = nullptr;       // default: the first row (macOS13)
  bool weights_int8 = false;                      // conv/linear weights as int8 + per-channel scale
};

struct LoweredProgram {
  MilProgram program;
  /// IR op name -> the MIL op types it became, in order ("conv", "relu").
  std::map<std::string, std::vector<std::string>> mil_ops_of;
};

/// The MIL op(s) `op` becomes ("conv", "reshape", ...). Throws
/// UnsupportedOpError naming the op and its type, with the reason, when it has no MIL form.
std::string mil_form(const ir::Graph& graph, const ir::Operation& op, const LowerOptions& options = {});

/// Lowers the whole graph (inputs and outputs stay fp32: casts at the boundary
/// when computing in fp16). Throws UnsupportedOpError for the first op with no MIL form.
LoweredProgram lower_graph(const ir::Graph& graph, const LowerOptions& options = {});

/// MIL-safe identifier for a tensor or op name ("/features/0/Conv_output_0" ->
/// "features_0_Conv_output_0").
std::string mil_identifier(const std::string& name);

}  // namespace ec::backends::metal
