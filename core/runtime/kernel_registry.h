// The CPU runtime's kernel table: ONE explicit table of {OpKind, summary,
// function} rows in kernel_registry.cpp (no static self-registration).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::runtime {

/// A kernel: reads `inputs` (one per op input; an absent optional input is an
/// undefined Tensor) and returns one tensor per op output (an output the op
/// does not produce may be left undefined). Shapes are taken from the actual
/// inputs. Throws EdgeCompilerError on inputs the op cannot take.
using KernelFn = std::vector<Tensor> (*)(const ir::Operation& op, std::span<const Tensor> inputs);

struct KernelEntry {
  ir::OpKind kind;
  std::string_view summary;
  KernelFn run;
};

/// Every kernel, in op-table order.
std::span<const KernelEntry> kernel_table();
/// The kernel for `kind`, or nullptr when the CPU runtime has none.
const KernelEntry* find_kernel(ir::OpKind kind);

/// Runs one op's reference kernel on `inputs` (used by constant folding and
/// tests). Throws UnsupportedOpError when there is no kernel.
std::vector<Tensor> run_kernel(const ir::Operation& op, std::span<const Tensor> inputs);

}  // namespace ec::runtime
