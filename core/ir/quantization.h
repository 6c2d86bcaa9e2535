// Quantisation metadata carried by tensors (and ops). Q/DQ ops are materialised
// only when a backend needs them; otherwise quantisation lives here.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/dtype.h"

namespace ec::ir {

/// real = scale * (q - zero_point). Per-tensor when scales.size() == 1,
/// per-channel along `axis` otherwise (one scale/zero point per channel).
struct QuantParams {
  DType dtype = DType::Int8;  // storage type of q
  std::vector<float> scales;
  std::vector<std::int64_t> zero_points;
  int axis = -1;  // channel axis for per-channel; -1 when per-tensor

  bool per_channel() const { return scales.size() > 1 || axis >= 0; }
  bool operator==(const QuantParams&) const = default;
};

}  // namespace ec::ir
