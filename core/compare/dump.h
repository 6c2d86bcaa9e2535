// Every intermediate tensor of one run written as NAME.npy (`edgecompile run
// --dump-intermediates DIR`): the session keeps the model's own tensors
// (SessionOptions::keep_intermediates), names are made file-safe, and index.json maps each
// file back to its tensor, op, dtype, shape and quantisation.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::compare {

struct DumpOptions {
  std::string dir;
  /// Only tensors whose name, op name or op type matches: a glob (`*conv*`, `Relu`), or
  /// a plain substring when it holds no `*`, `?` or `[`. "" = every tensor.
  std::string pattern;
  int threads = 0;
};

struct DumpedTensor {
  std::string tensor, file, op, op_type;
  ir::DType dtype = ir::DType::Undefined;
  std::vector<std::int64_t> shape;
  std::optional<ir::QuantParams> quant;
};

/// `name` made a flat file name: characters other than letters, digits, '.', '-', '_'
/// become '_', no leading dot; "tensor" when nothing is left.
std::string file_safe_name(const std::string& name);

/// Runs `graph` on `inputs` and writes every computed tensor (graph inputs too) that
/// matches the pattern into `options.dir` as FILE.npy, then index.json. Returns what it
/// wrote, in execution order; `outputs` receives the graph outputs.
std::vector<DumpedTensor> dump_intermediates(const ir::FrozenGraph& graph, const std::map<std::string, runtime::Tensor>& inputs,
                                             const DumpOptions& options,
                                             std::map<std::string, runtime::Tensor>* outputs = nullptr);

}  // namespace ec::compare
