// Writes damaged .tflite files, one per failure the reader must name (built
// with the project's own generated schema, so each file is exactly one defect
// away from a valid model):
//   empty, random_bytes, truncated, wrong_identifier, buffer_out_of_range,
//   data_too_short, opcode_out_of_range, subgraph_cycle, operator_cycle
// usage: make_bad_models VALID.tflite OUT_DIR
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/frontends/tflite/tflite_schema_generated.h"

namespace {

namespace fb = flatbuffers;

void put(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string finish(fb::FlatBufferBuilder& b, fb::Offset<tflite::Model> m) {
  tflite::FinishModelBuffer(b, m);
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

// A tiny model: y = x + c (ADD), tensors x [2,2] f32, c [2,2] f32 constant, y [2,2].
// `buffer_of_c`, `c_bytes`, `opcode`, `cycle` inject the defects.
std::string tiny(std::uint32_t buffer_of_c, std::size_t c_bytes, std::uint32_t opcode, bool subgraph_cycle,
                 bool operator_cycle) {
  fb::FlatBufferBuilder b;
  std::vector<float> c(c_bytes / 4, 1.0f);
  std::vector<fb::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(b),
                                                  tflite::CreateBuffer(b, b.CreateVector(reinterpret_cast<const std::uint8_t*>(c.data()), c_bytes))};
  std::vector<std::int32_t> shape{2, 2};
  std::vector<fb::Offset<tflite::Tensor>> tensors{
      tflite::CreateTensorDirect(b, &shape, tflite::TensorType::FLOAT32, 0, "x"),
      tflite::CreateTensorDirect(b, &shape, tflite::TensorType::FLOAT32, buffer_of_c, "c"),
      tflite::CreateTensorDirect(b, &shape, tflite::TensorType::FLOAT32, 0, "y"),
      tflite::CreateTensorDirect(b, &shape, tflite::TensorType::FLOAT32, 0, "z")};
  std::vector<fb::Offset<tflite::Operator>> ops;
  if (operator_cycle) {
    // y = x + z, z = y + c: each operator reads the other's output.
    std::vector<std::int32_t> in1{0, 3}, out1{2}, in2{2, 1}, out2{3};
    ops.push_back(tflite::CreateOperatorDirect(b, opcode, &in1, &out1));
    ops.push_back(tflite::CreateOperatorDirect(b, opcode, &in2, &out2));
  } else {
    std::vector<std::int32_t> in{0, 1}, out{2};
    ops.push_back(tflite::CreateOperatorDirect(b, opcode, &in, &out));
  }
  std::vector<std::int32_t> gin{0}, gout{operator_cycle ? 3 : 2};
  std::vector<fb::Offset<tflite::SubGraph>> subgraphs{tflite::CreateSubGraphDirect(b, &tensors, &gin, &gout, &ops, "main")};
  if (subgraph_cycle) {
    // Subgraph 1 calls itself (CALL with CallOptions.subgraph = 1); subgraph 0 calls it.
    std::vector<fb::Offset<tflite::Tensor>> t1{tflite::CreateTensorDirect(b, &shape, tflite::TensorType::FLOAT32, 0, "a"),
                                               tflite::CreateTensorDirect(b, &shape, tflite::TensorType::FLOAT32, 0, "b")};
    std::vector<std::int32_t> in{0}, out{1};
    std::vector<fb::Offset<tflite::Operator>> ops1{tflite::CreateOperatorDirect(
        b, 1, &in, &out, tflite::BuiltinOptions::CallOptions, tflite::CreateCallOptions(b, 1).Union())};
    subgraphs.push_back(tflite::CreateSubGraphDirect(b, &t1, &in, &out, &ops1, "loop"));
  }
  std::vector<fb::Offset<tflite::OperatorCode>> codes{
      tflite::CreateOperatorCodeDirect(b, 0, nullptr, 1, tflite::BuiltinOperator::ADD),
      tflite::CreateOperatorCodeDirect(b, 31, nullptr, 1, tflite::BuiltinOperator::CALL)};
  return finish(b, tflite::CreateModelDirect(b, 3, &codes, &subgraphs, "bad", &buffers));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_bad_models VALID.tflite OUT_DIR\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string valid = ss.str();
  const std::string dir = argv[2];
  put(dir + "/empty.tflite", "");
  std::mt19937 rng(7);
  std::string noise(4096, '\0');
  for (auto& ch : noise) ch = static_cast<char>(rng() & 0xff);
  put(dir + "/random_bytes.tflite", noise);
  put(dir + "/truncated.tflite", valid.substr(0, valid.size() / 2));
  std::string wrong = valid;
  wrong.replace(4, 4, "TFL2");
  put(dir + "/wrong_identifier.tflite", wrong);
  put(dir + "/valid_tiny.tflite", tiny(1, 16, 0, false, false));
  put(dir + "/buffer_out_of_range.tflite", tiny(99, 16, 0, false, false));
  put(dir + "/data_too_short.tflite", tiny(1, 8, 0, false, false));
  put(dir + "/opcode_out_of_range.tflite", tiny(1, 16, 7, false, false));
  put(dir + "/subgraph_cycle.tflite", tiny(1, 16, 0, true, false));
  put(dir + "/operator_cycle.tflite", tiny(1, 16, 0, false, true));
  return 0;
}
