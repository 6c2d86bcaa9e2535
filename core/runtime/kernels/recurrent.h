// RNN / GRU / LSTM: the plain reference, exposed so tests can compare the fast
// f32 path (what kernel_LSTM etc. run when it applies) against it.
#pragma once

#include <span>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::kernels {

enum class RecurrentCell { Rnn, Gru, Lstm };

/// Plain loops in double precision, any activation (ONNX semantics).
std::vector<Tensor> recurrent_reference(const ir::Operation& op, std::span<const Tensor> inputs, RecurrentCell cell);
/// What the kernels run: the fast f32 path for the default activations, the reference otherwise.
std::vector<Tensor> recurrent(const ir::Operation& op, std::span<const Tensor> inputs, RecurrentCell cell);

}  // namespace ec::runtime::kernels
