// Reading the test data of Debian's libonnx-testdata (test_data_set_N/input_K.pb,
// output_K.pb: serialised onnx::TensorProto) into runtime tensors. Shared by the ONNX
// conformance run and pass_equivalence, which feeds the pytorch-converted models their
// own inputs instead of random ones.
#pragma once

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/runtime/dispatch.h"
#include "core/session/session.h"

namespace ec::testing {

/// Test data the runtime has no tensor for (a sequence, an optional, an odd dtype).
struct UnsupportedTestData {
  std::string reason;
};

inline std::optional<ir::DType> dtype_of_onnx(int t) {
  switch (t) {
    case 1: return ir::DType::Float32;
    case 2: return ir::DType::UInt8;
    case 3: return ir::DType::Int8;
    case 4: return ir::DType::UInt16;
    case 5: return ir::DType::Int16;
    case 6: return ir::DType::Int32;
    case 7: return ir::DType::Int64;
    case 9: return ir::DType::Bool;
    case 10: return ir::DType::Float16;
    case 16: return ir::DType::BFloat16;
    case 11: return ir::DType::Float64;
    case 12: return ir::DType::UInt32;
    case 13: return ir::DType::UInt64;
    default: return std::nullopt;
  }
}

/// TensorProto -> runtime Tensor (raw_data or the typed repeated fields).
inline runtime::Tensor from_proto(const onnx::TensorProto& tp) {
  using runtime::Tensor;
  const auto dt = dtype_of_onnx(tp.data_type());
  if (!dt) throw UnsupportedTestData{"tensor type " + std::to_string(tp.data_type())};
  std::vector<std::int64_t> shape(tp.dims().begin(), tp.dims().end());
  Tensor t(*dt, shape);
  const std::size_t n = static_cast<std::size_t>(t.numel());
  if (tp.has_raw_data()) {
    if (tp.raw_data().size() != t.nbytes()) throw std::runtime_error("raw_data size mismatch in " + tp.name());
    if (n) std::memcpy(t.mutable_raw(), tp.raw_data().data(), t.nbytes());
    return t;
  }
  if (*dt == ir::DType::Float16 || *dt == ir::DType::BFloat16) {  // bit patterns in int32_data
    for (std::size_t i = 0; i < n; ++i)
      t.mutable_data<std::uint16_t>()[i] = static_cast<std::uint16_t>(tp.int32_data(static_cast<int>(i)));
    return t;
  }
  runtime::dispatch_all(*dt, [&]<typename T>() {
    T* p = t.mutable_data<T>();
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, float>) p[i] = tp.float_data(static_cast<int>(i));
      else if constexpr (std::is_same_v<T, double>) p[i] = tp.double_data(static_cast<int>(i));
      else if constexpr (std::is_same_v<T, std::int64_t>) p[i] = tp.int64_data(static_cast<int>(i));
      else if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::uint32_t>)
        p[i] = static_cast<T>(tp.uint64_data(static_cast<int>(i)));
      else p[i] = static_cast<T>(tp.int32_data(static_cast<int>(i)));
    }
  });
  return t;
}

/// One .pb file as a TensorProto; throws UnsupportedTestData for sequences and optionals.
inline onnx::TensorProto read_tensor_proto(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  onnx::TensorProto tp;
  if (!tp.ParseFromIstream(&f) || tp.data_type() == 0)
    throw UnsupportedTestData{"non-tensor test data (sequence/optional)"};
  return tp;
}

inline runtime::Tensor load_pb(const std::filesystem::path& p) { return from_proto(read_tensor_proto(p)); }

/// The inputs of `data` (a test_data_set_N folder) keyed by the model's input names: by the
/// name the .pb carries when the model has such an input, else by position. Throws
/// UnsupportedTestData, or std::runtime_error when the data has more inputs than the model.
inline std::map<std::string, runtime::Tensor> load_test_inputs(const std::filesystem::path& data,
                                                               const std::vector<runtime::TensorInfo>& infos) {
  std::map<std::string, runtime::Tensor> inputs;
  for (std::size_t i = 0;; ++i) {
    const auto p = data / ("input_" + std::to_string(i) + ".pb");
    if (!std::filesystem::exists(p)) break;
    const onnx::TensorProto tp = read_tensor_proto(p);
    runtime::Tensor t = from_proto(tp);
    // Older test data stores bfloat16 inputs as uint16 bit patterns.
    if (t.dtype() == ir::DType::UInt16 && i < infos.size() && infos[i].dtype == ir::DType::BFloat16)
      t = runtime::Tensor::from_constant(ir::DType::BFloat16, t.shape(),
                                         ir::ConstantData::copy_of(t.raw(), t.nbytes()));
    std::string key = tp.name();
    if (key.empty() ||
        std::none_of(infos.begin(), infos.end(), [&](const runtime::TensorInfo& ti) { return ti.name == key; })) {
      if (i >= infos.size()) throw std::runtime_error("more test inputs than model inputs");
      key = infos[i].name;
    }
    inputs[key] = t;
  }
  return inputs;
}

}  // namespace ec::testing
