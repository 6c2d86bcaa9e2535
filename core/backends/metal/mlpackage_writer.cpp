#include "core/backends/metal/mlpackage_writer.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "Model.pb.h"
#include "core/errors.h"
#include "core/frontends/coreml/weight_file.h"

namespace ec::backends::metal {
namespace {

namespace fs = std::filesystem;
namespace spec = CoreML::Specification;
namespace mil = CoreML::Specification::MILSpec;

constexpr const char* kWeightPath = "@model_path/weights/weight.bin";

mil::DataType mil_dtype(ir::DType t) {
  switch (t) {
    case ir::DType::Bool: return mil::BOOL;
    case ir::DType::String: return mil::STRING;
    case ir::DType::Float16: return mil::FLOAT16;
    case ir::DType::Float32: return mil::FLOAT32;
    case ir::DType::Float64: return mil::FLOAT64;
    case ir::DType::Int8: return mil::INT8;
    case ir::DType::Int16: return mil::INT16;
    case ir::DType::Int32: return mil::INT32;
    case ir::DType::Int64: return mil::INT64;
    case ir::DType::UInt8: return mil::UINT8;
    case ir::DType::UInt16: return mil::UINT16;
    case ir::DType::UInt32: return mil::UINT32;
    default: throw BackendError("metal", "no MIL data type for " + std::string(ir::dtype_name(t)));
  }
}

void set_type(mil::ValueType* vt, const MilType& t) {
  auto* tt = vt->mutable_tensortype();
  tt->set_datatype(mil_dtype(t.dtype));
  tt->set_rank(static_cast<std::int64_t>(t.shape.size()));
  for (auto d : t.shape) {
    auto* dim = tt->add_dimensions();
    if (d >= 0) dim->mutable_constant()->set_size(static_cast<std::uint64_t>(d));
    else dim->mutable_unknown()->set_variadic(false);
  }
}

bool goes_to_blob(const MilValue& v, int spec_version) {
  if (v.num_elements() < 10) return false;
  switch (v.type.dtype) {
    case ir::DType::Float16: case ir::DType::Float32: case ir::DType::Int8: case ir::DType::UInt8: return true;
    case ir::DType::Int16: case ir::DType::UInt16: case ir::DType::Int32: case ir::DType::UInt32: return spec_version >= 9;
    default: return false;
  }
}

template <typename T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void set_value(mil::Value* out, const MilValue& v, int spec_version, coreml::WeightFileWriter& weights) {
  set_type(out->mutable_type(), v.type);
  if (goes_to_blob(v, spec_version)) {
    auto* b = out->mutable_blobfilevalue();
    b->set_filename(kWeightPath);
    b->set_offset(weights.append(v.type.dtype, v.bytes));
    return;
  }
  auto* t = out->mutable_immediatevalue()->mutable_tensor();
  const std::int64_t n = v.num_elements();
  switch (v.type.dtype) {
    case ir::DType::Float32:
      for (std::int64_t i = 0; i < n; ++i) t->mutable_floats()->add_values(load<float>(&v.bytes[4 * i]));
      break;
    case ir::DType::Int32:
      for (std::int64_t i = 0; i < n; ++i) t->mutable_ints()->add_values(load<std::int32_t>(&v.bytes[4 * i]));
      break;
    case ir::DType::Int64:
      for (std::int64_t i = 0; i < n; ++i) t->mutable_longints()->add_values(load<std::int64_t>(&v.bytes[8 * i]));
      break;
    case ir::DType::Bool:
      for (std::int64_t i = 0; i < n; ++i) t->mutable_bools()->add_values(v.bytes[i] != 0);
      break;
    case ir::DType::String:
      for (const auto& s : v.strings) t->mutable_strings()->add_values(s);
      break;
    default:  // fp16, int8, uint8, ...: raw bytes
      t->mutable_bytes()->set_values(std::string(v.bytes.begin(), v.bytes.end()));
  }
}

mil::Value string_value(const std::string& s) {
  mil::Value v;
  set_type(v.mutable_type(), {ir::DType::String, {}});
  v.mutable_immediatevalue()->mutable_tensor()->mutable_strings()->add_values(s);
  return v;
}

spec::FeatureDescription feature(const std::string& name, const MilType& t) {
  spec::FeatureDescription f;
  f.set_name(name);
  auto* a = f.mutable_type()->mutable_multiarraytype();
  for (auto d : t.shape) a->add_shape(d < 0 ? 1 : d);
  switch (t.dtype) {
    case ir::DType::Float32: a->set_datatype(spec::ArrayFeatureType::FLOAT32); break;
    case ir::DType::Float16: a->set_datatype(spec::ArrayFeatureType::FLOAT16); break;
    case ir::DType::Int32: a->set_datatype(spec::ArrayFeatureType::INT32); break;
    default: throw BackendError("metal", "feature '" + name + "': ML Program inputs and outputs may be fp32, fp16 or int32, not " +
                                             std::string(ir::dtype_name(t.dtype)));
  }
  return f;
}

std::string uuid4() {
  std::random_device rd;
  std::mt19937_64 g(rd());
  std::uniform_int_distribution<int> d(0, 15);
  std::string s;
  const char* hex = "0123456789ABCDEF";
  for (int i = 0; i < 36; ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) s += '-';
    else if (i == 14) s += '4';
    else if (i == 19) s += hex[8 + d(g) % 4];
    else s += hex[d(g)];
  }
  return s;
}

void write_bytes(const fs::path& p, const void* data, std::size_t n) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  f.close();
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

}  // namespace

SerializedModel serialize_program(const MilProgram& p) {
  check_program(p);
  coreml::WeightFileWriter weights;
  spec::Model m;
  m.set_specificationversion(p.spec_version);
  auto* desc = m.mutable_description();
  for (const auto& [name, type] : p.inputs) *desc->add_input() = feature(name, type);
  std::map<std::string, MilType> types;
  for (const auto& op : p.ops)
    for (const auto& [n, t] : op.outputs) types[n] = t;
  for (const auto& o : p.outputs) *desc->add_output() = feature(o, types.at(o));
  for (const auto& [k, v] : p.metadata) (*desc->mutable_metadata()->mutable_userdefined())[k] = v;

  auto* prog = m.mutable_mlprogram();
  prog->set_version(1);
  mil::Function& fn = (*prog->mutable_functions())["main"];
  fn.set_opset(p.opset);
  for (const auto& [name, type] : p.inputs) {
    auto* in = fn.add_inputs();
    in->set_name(name);
    set_type(in->mutable_type(), type);
  }
  mil::Block& block = (*fn.mutable_block_specializations())[p.opset];
  for (const auto& o : p.outputs) block.add_outputs(o);
  for (const auto& op : p.ops) {
    auto* o = block.add_operations();
    o->set_type(op.type);
    for (const auto& [arg, names] : op.inputs) {
      auto& a = (*o->mutable_inputs())[arg];
      for (const auto& n : names) a.add_arguments()->set_name(n);
    }
    for (const auto& [n, t] : op.outputs) {
      auto* out = o->add_outputs();
      out->set_name(n);
      set_type(out->mutable_type(), t);
    }
    (*o->mutable_attributes())["name"] = string_value(op.name);
    for (const auto& [k, v] : op.attributes) set_value(&(*o->mutable_attributes())[k], v, p.spec_version, weights);
  }
  SerializedModel s;
  if (!m.SerializeToString(&s.model)) throw BackendError("metal", "cannot serialise the Core ML model");
  s.weights = weights.bytes();
  s.blobs = static_cast<int>(weights.count());
  return s;
}

void write_mlpackage(const MilProgram& p, const std::string& path) {
  const SerializedModel s = serialize_program(p);  // every check before any file is touched
  const fs::path target = fs::absolute(path);
  const fs::path tmp = target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()));
  std::error_code ec;
  try {
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp / "Data" / "com.apple.CoreML" / "weights");
    write_bytes(tmp / "Data" / "com.apple.CoreML" / "model.mlmodel", s.model.data(), s.model.size());
    write_bytes(tmp / "Data" / "com.apple.CoreML" / "weights" / "weight.bin", s.weights.data(), s.weights.size());
    // Manifest.json as coremltools' ModelPackage writes it (keys sorted, 4-space indent).
    const std::string root = uuid4(), wid = uuid4();
    nlohmann::json man;
    man["fileFormatVersion"] = "1.0.0";
    man["itemInfoEntries"][root] = {{"author", "com.apple.CoreML"},
                                    {"description", "CoreML Model Specification"},
                                    {"name", "model.mlmodel"},
                                    {"path", "com.apple.CoreML/model.mlmodel"}};
    man["itemInfoEntries"][wid] = {{"author", "com.apple.CoreML"},
                                   {"description", "CoreML Model Weights"},
                                   {"name", "weights"},
                                   {"path", "com.apple.CoreML/weights"}};
    man["rootModelIdentifier"] = root;
    const std::string text = man.dump(4);
    write_bytes(tmp / "Manifest.json", text.data(), text.size());
    // Into place: an existing package is moved aside first and removed only after.
    const fs::path old = target.parent_path() / ("." + target.filename().string() + ".old-" + std::to_string(::getpid()));
    const bool had = fs::exists(target, ec);
    if (had) fs::rename(target, old);
    try {
      fs::rename(tmp, target);
    } catch (...) {
      if (had) fs::rename(old, target, ec);
      throw;
    }
    if (had) fs::remove_all(old, ec);
  } catch (const std::exception& e) {
    fs::remove_all(tmp, ec);
    throw EdgeCompilerError(ErrorKind::Io, "--output " + path + ": cannot write the package (" + e.what() +
                                               "); nothing was written");
  }
}

}  // namespace ec::backends::metal
