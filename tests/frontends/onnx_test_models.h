// Helpers to build small ONNX ModelProtos and write them to a temp dir.
#pragma once

#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include <unistd.h>

#include <onnx/onnx_pb.h>

namespace ec::testing {

/// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("ec_frontend_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline onnx::ModelProto make_model(int opset = 13) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("pytorch");
  m.set_producer_version("1.13.1");
  m.set_model_version(3);
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  m.mutable_graph()->set_name("g");
  return m;
}

inline void set_tensor_type(onnx::ValueInfoProto* vi, int elem, std::initializer_list<std::int64_t> dims) {
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* shape = tt->mutable_shape();
  for (auto d : dims) shape->add_dim()->set_dim_value(d);
}

inline onnx::ValueInfoProto* add_input(onnx::ModelProto& m, const std::string& name,
                                       std::initializer_list<std::int64_t> dims,
                                       int elem = onnx::TensorProto::FLOAT) {
  auto* vi = m.mutable_graph()->add_input();
  vi->set_name(name);
  set_tensor_type(vi, elem, dims);
  return vi;
}

inline onnx::ValueInfoProto* add_output(onnx::ModelProto& m, const std::string& name,
                                        std::initializer_list<std::int64_t> dims,
                                        int elem = onnx::TensorProto::FLOAT) {
  auto* vi = m.mutable_graph()->add_output();
  vi->set_name(name);
  set_tensor_type(vi, elem, dims);
  return vi;
}

inline onnx::NodeProto* add_node(onnx::ModelProto& m, const std::string& op,
                                 std::vector<std::string> inputs, std::vector<std::string> outputs,
                                 const std::string& name = {}, const std::string& domain = {}) {
  auto* n = m.mutable_graph()->add_node();
  n->set_op_type(op);
  if (!name.empty()) n->set_name(name);
  if (!domain.empty()) n->set_domain(domain);
  for (auto& i : inputs) n->add_input(i);
  for (auto& o : outputs) n->add_output(o);
  return n;
}

inline onnx::AttributeProto* add_ints_attr(onnx::NodeProto* n, const std::string& name,
                                           std::vector<std::int64_t> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (auto x : v) a->add_ints(x);
  return a;
}

inline onnx::AttributeProto* add_int_attr(onnx::NodeProto* n, const std::string& name, std::int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
  return a;
}

/// A float initializer stored as raw_data.
inline onnx::TensorProto* add_float_initializer(onnx::ModelProto& m, const std::string& name,
                                                std::initializer_list<std::int64_t> dims,
                                                const std::vector<float>& values) {
  auto* t = m.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->add_dims(d);
  std::string raw(values.size() * sizeof(float), '\0');
  std::memcpy(raw.data(), values.data(), raw.size());
  t->set_raw_data(raw);
  return t;
}

inline onnx::TensorProto* add_int64_initializer(onnx::ModelProto& m, const std::string& name,
                                                const std::vector<std::int64_t>& values) {
  auto* t = m.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(static_cast<std::int64_t>(values.size()));
  for (auto v : values) t->add_int64_data(v);
  return t;
}

inline void write_model(const onnx::ModelProto& m, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  m.SerializeToOstream(&out);
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace ec::testing
