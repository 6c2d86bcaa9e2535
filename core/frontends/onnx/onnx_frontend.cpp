#include "core/frontends/onnx/onnx_frontend.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>
#include <spdlog/spdlog.h>

#include "core/errors.h"
#include "core/ir/excerpt.h"
#include "core/util/safe_file.h"
#include "core/ir/algorithms.h"
#include "core/ir/shape_inference.h"
#include "core/ir/validate.h"
#include "core/frontends/protobuf_log.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;
using ir::DType;

static_assert(std::endian::native == std::endian::little,
              "constant bytes are stored little-endian; a big-endian host needs byte swaps");

constexpr const char* kIrName = "the edgecompiler IR";
constexpr int kCanonicalOpset = 13;
// Newest default-domain opset libonnx 1.12 has schemas for; beyond it shape
// inference may fail, which is not fatal (our op mapping is our own).
constexpr int kLibOnnxMaxOpset = 17;
// Largest graph handed to the version converter. Its import step checks each new
// name against every other (quadratic): measured on a loaded 2-core machine, a chain
// of 2000 nodes takes 0.8 s, 5000 take 4 s, 20000 take 200 s. Beyond the cap, opsets
// 11-12 import natively and older ones are refused.
constexpr int kMaxConverterNodes = 3000;

bool is_default_domain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

// --- head sniffing ---------------------------------------------------------

// Wire type of each ModelProto field (onnx.proto): 0 = varint, 2 = length-delimited.
int model_field_wire_type(std::uint64_t field) {
  switch (field) {
    case 1: case 5: return 0;                                   // ir_version, model_version
    case 2: case 3: case 4: case 6: case 7: case 8: case 14:    // strings, graph, opsets, metadata
    case 20: case 25: return 2;                                 // training_info, functions
    default: return -1;
  }
}

bool read_varint(std::span<const std::byte> b, std::size_t& pos, std::uint64_t& out) {
  out = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos >= b.size()) return false;
    auto byte = static_cast<std::uint8_t>(b[pos++]);
    out |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

struct HeadVerdict {
  bool valid = false;          // every field seen is a ModelProto field of the right wire type
  bool ir_version_first = false;  // starts with a plausible ir_version
};

HeadVerdict sniff_head(std::span<const std::byte> head) {
  HeadVerdict v;
  std::size_t pos = 0;
  int fields = 0;
  while (pos < head.size()) {
    std::uint64_t tag = 0;
    if (!read_varint(head, pos, tag)) break;  // cut off by the head's end
    const std::uint64_t field = tag >> 3;
    const int wire = static_cast<int>(tag & 7);
    if (model_field_wire_type(field) != wire) return v;
    std::uint64_t value = 0;
    if (!read_varint(head, pos, value)) break;
    if (fields == 0 && field == 1) v.ir_version_first = value >= 1 && value <= 20;
    ++fields;
    if (wire == 2) {
      if (value > head.size() - pos) break;  // runs past the head: fine, stop here
      pos += static_cast<std::size_t>(value);
    }
  }
  v.valid = fields > 0;
  if (!v.valid) v.ir_version_first = false;
  return v;
}

// --- dtypes ----------------------------------------------------------------

std::optional<DType> dtype_from_onnx(int t) {
  switch (t) {
    case onnx::TensorProto::UNDEFINED: return DType::Undefined;
    case onnx::TensorProto::FLOAT: return DType::Float32;
    case onnx::TensorProto::UINT8: return DType::UInt8;
    case onnx::TensorProto::INT8: return DType::Int8;
    case onnx::TensorProto::UINT16: return DType::UInt16;
    case onnx::TensorProto::INT16: return DType::Int16;
    case onnx::TensorProto::INT32: return DType::Int32;
    case onnx::TensorProto::INT64: return DType::Int64;
    case onnx::TensorProto::STRING: return DType::String;
    case onnx::TensorProto::BOOL: return DType::Bool;
    case onnx::TensorProto::FLOAT16: return DType::Float16;
    case onnx::TensorProto::DOUBLE: return DType::Float64;
    case onnx::TensorProto::UINT32: return DType::UInt32;
    case onnx::TensorProto::UINT64: return DType::UInt64;
    case onnx::TensorProto::COMPLEX64: return DType::Complex64;
    case onnx::TensorProto::COMPLEX128: return DType::Complex128;
    case onnx::TensorProto::BFLOAT16: return DType::BFloat16;
    case 22: return DType::Int4;  // INT4 (onnx >= 1.16)
    default: return std::nullopt;
  }
}

std::string onnx_dtype_label(int t) {
  switch (t) {
    case 17: return "float8e4m3fn";
    case 18: return "float8e4m3fnuz";
    case 19: return "float8e5m2";
    case 20: return "float8e5m2fnuz";
    case 21: return "uint4";
    default: break;
  }
  if (onnx::TensorProto_DataType_IsValid(t))
    return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(t));
  return "data type " + std::to_string(t);
}

// Bytes a tensor of `elements` elements needs (0 for strings: variable).
std::size_t byte_size(DType t, std::size_t elements) {
  if (t == DType::Int4) return (elements + 1) / 2;
  return elements * ir::dtype_size(t);
}

template <typename Dst, typename Field>
ir::ConstantData pack_as(const Field& field) {
  std::vector<std::byte> out(static_cast<std::size_t>(field.size()) * sizeof(Dst));
  std::byte* p = out.data();
  for (const auto& v : field) {
    const Dst d = static_cast<Dst>(v);
    std::memcpy(p, &d, sizeof(Dst));
    p += sizeof(Dst);
  }
  return ir::ConstantData::from_vector(std::move(out));
}

ir::ConstantData pack_strings(const std::vector<std::string>& strings) {
  std::string out;
  std::size_t total = 0;
  for (const auto& s : strings) total += 4 + s.size();
  out.reserve(total);
  for (const auto& s : strings) {
    const auto n = static_cast<std::uint32_t>(s.size());
    char len[4];
    std::memcpy(len, &n, 4);
    out.append(len, 4);
    out.append(s);
  }
  return ir::ConstantData::from_string(std::move(out));
}

std::string shape_label(DType t, const std::vector<std::int64_t>& dims) {
  return std::string(ir::dtype_name(t)) + ir::Shape::of(dims).to_string();
}

// --- the importer ------------------------------------------------------------

struct ConstValue {
  DType dtype = DType::Undefined;
  std::vector<std::int64_t> dims;
  ir::ConstantData data;
};

class Importer {
 public:
  Importer(std::string path, const OpenOptions& opts, onnx::ModelProto& model, int opset,
           int source_opset)
      : path_(std::move(path)), opts_(opts), model_(model), opset_(opset),
        source_opset_(source_opset) {
    model_dir_ = fs::path(path_).parent_path();
  }

  ir::Graph run();

 private:
  [[noreturn]] void fail(const std::string& reason) const {
    throw FrontendError(path_, reason, "onnx");
  }
  [[noreturn]] void unsupported(const std::string& op_type, const std::string& why,
                                const std::string& where) const {
    throw UnsupportedOpError(op_type, kIrName, why, where);
  }

  void apply_type(const onnx::TypeProto& tp, ir::Tensor& t) const;
  ir::Tensor& tensor_entry(const std::string& name);
  ConstValue take_tensor(onnx::TensorProto& tp, const std::string& name);
  ir::ConstantData external_data(const onnx::TensorProto& tp, const std::string& name,
                                 std::size_t expected);
  ir::ConstantData typed_data(onnx::TensorProto& tp, DType dt, std::size_t elements,
                              const std::string& name) const;
  void import_constant_node(onnx::NodeProto& node, std::size_t index);
  void add_constant(const std::string& name, ConstValue v, const std::string& what);
  std::optional<ir::Attribute> convert_attribute(onnx::AttributeProto& a, ir::Operation& op,
                                                 const std::string& where);
  void normalise(ir::Operation& op);
  std::optional<std::vector<std::int64_t>> constant_ints(const std::string& tensor) const;
  std::string add_int_constant(const std::string& base, const std::vector<std::int64_t>& v);
  // runtime_ok: a computed (non-constant) input stays an input instead of being refused.
  void axes_input_to_attribute(ir::Operation& op, std::size_t index, const std::string& attr,
                               bool runtime_ok = false);
  std::string unique_op_name(const onnx::NodeProto& node, std::size_t index);

  std::string path_;
  const OpenOptions& opts_;
  onnx::ModelProto& model_;
  int opset_;         // opset the ops are in now (13 after an upgrade)
  int source_opset_;  // opset the file declared
  fs::path model_dir_;
  ir::Graph g_;
  std::unordered_map<std::string, ir::ConstantData> mapped_files_;  // external data, whole files
  std::unordered_set<std::string> op_names_;
  std::set<std::string> maybe_orphaned_;  // constants whose only use we may have removed
};

void Importer::apply_type(const onnx::TypeProto& tp, ir::Tensor& t) const {
  switch (tp.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& tt = tp.tensor_type();
      auto dt = dtype_from_onnx(tt.elem_type());
      if (!dt) fail("unsupported type: " + onnx_dtype_label(tt.elem_type()) + " (tensor '" + t.name + "')");
      if (*dt != DType::Undefined) t.dtype = *dt;
      if (tt.has_shape()) {
        ir::Shape s;
        s.dims.reserve(static_cast<std::size_t>(tt.shape().dim_size()));
        for (const auto& d : tt.shape().dim()) {
          if (d.has_dim_value() && d.dim_value() >= 0)
            s.dims.push_back(ir::Dim::fixed(d.dim_value()));
          else if (d.has_dim_param() && !d.dim_param().empty())
            s.dims.push_back(ir::Dim::named(d.dim_param()));
          else
            s.dims.push_back(ir::Dim::unknown());
        }
        t.shape = std::move(s);
      }
      return;
    }
    case onnx::TypeProto::VALUE_NOT_SET: return;
    case onnx::TypeProto::kSequenceType: fail("unsupported type: sequence (tensor '" + t.name + "')");
    case onnx::TypeProto::kMapType: fail("unsupported type: map (tensor '" + t.name + "')");
    case onnx::TypeProto::kOptionalType: fail("unsupported type: optional (tensor '" + t.name + "')");
    case onnx::TypeProto::kSparseTensorType:
      fail("unsupported type: sparse tensor (tensor '" + t.name + "')");
    default: fail("unsupported type: opaque (tensor '" + t.name + "')");
  }
}

ir::Tensor& Importer::tensor_entry(const std::string& name) {
  auto it = g_.tensors.find(name);
  if (it != g_.tensors.end()) return it->second;
  ir::Tensor t;
  t.name = name;
  return g_.add_tensor(std::move(t));
}

ir::ConstantData Importer::external_data(const onnx::TensorProto& tp, const std::string& name,
                                         std::size_t expected) {
  std::string location;
  std::optional<std::uint64_t> offset, length;
  auto parse_u64 = [&](const std::string& key, const std::string& v) -> std::uint64_t {
    std::uint64_t out = 0;
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
      fail("external data of tensor '" + name + "' has a bad " + key + " '" + v + "'");
    for (char c : v) {
      if (out > (std::numeric_limits<std::uint64_t>::max() - 9) / 10)
        fail("external data of tensor '" + name + "' has a bad " + key + " '" + v + "'");
      out = out * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return out;
  };
  for (const auto& kv : tp.external_data()) {
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset") offset = parse_u64("offset", kv.value());
    else if (kv.key() == "length") length = parse_u64("length", kv.value());
  }
  if (location.empty()) fail("external data of tensor '" + name + "' has no location");
  const fs::path rel(location);
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    fail("external data file '" + location + "' for tensor '" + name +
         "' is an absolute path; it must be relative to the model's directory");
  for (const auto& part : rel)
    if (part == "..")
      fail("external data file '" + location + "' for tensor '" + name +
           "' escapes the model's directory ('..' is not allowed)");
  const fs::path full = model_dir_ / rel;
  const std::string key = full.lexically_normal().string();

  auto it = mapped_files_.find(key);
  if (it == mapped_files_.end()) {
    std::error_code ec;
    if (!fs::exists(full, ec))
      fail("external data file '" + location + "' for tensor '" + name +
           "' not found next to the model");
    // A symlink (of the file or of a folder on the way) may point anywhere: what is
    // read must resolve to a place inside the model's own folder, checked before the
    // file is opened or sized, so nothing about an outside file leaks into a message.
    const fs::path real = fs::canonical(full, ec);
    std::error_code ec_dir;
    const fs::path real_dir = fs::canonical(model_dir_.empty() ? fs::path(".") : model_dir_, ec_dir);
    if (ec || ec_dir)
      fail("external data file '" + location + "' for tensor '" + name + "' cannot be resolved");
    const auto [d_end, r_at] = std::mismatch(real_dir.begin(), real_dir.end(), real.begin(), real.end());
    if (d_end != real_dir.end() || r_at == real.end())
      fail("external data file '" + location + "' for tensor '" + name +
           "' resolves (through a symlink) to outside the model's directory");
    if (!fs::is_regular_file(real, ec))
      fail("external data file '" + location + "' for tensor '" + name + "' is not a regular file");
    const auto size = fs::file_size(real, ec);
    if (ec) fail("cannot read external data file '" + location + "': " + ec.message());
    ir::ConstantData whole;
    if (size > 0) {
      try {
        whole = ir::ConstantData::map_file(real.string(), 0, static_cast<std::size_t>(size));
      } catch (const std::exception& e) {
        fail("cannot map external data file '" + location + "': " + e.what());
      }
    }
    spdlog::debug("onnx: mapped external data file {} ({} bytes)", key, size);
    it = mapped_files_.emplace(key, std::move(whole)).first;
  }
  const ir::ConstantData& whole = it->second;
  const std::uint64_t off = offset.value_or(0);
  if (off > whole.size())
    fail("external data of tensor '" + name + "' starts at offset " + std::to_string(off) +
         ", past the end of '" + location + "' (" + std::to_string(whole.size()) + " bytes)");
  const std::uint64_t len = length.value_or(whole.size() - off);
  if (len > whole.size() - off)
    fail("external data of tensor '" + name + "' (offset " + std::to_string(off) + ", length " +
         std::to_string(len) + ") runs past the end of '" + location + "' (" +
         std::to_string(whole.size()) + " bytes)");
  if (len != expected)
    fail("external data of tensor '" + name + "' has " +
         (length ? std::to_string(len) + " bytes" : "the rest of '" + location + "'") +
         " but its type needs " + std::to_string(expected) + " bytes");
  return whole.slice(static_cast<std::size_t>(off), static_cast<std::size_t>(len));
}

ir::ConstantData Importer::typed_data(onnx::TensorProto& tp, DType dt, std::size_t elements,
                                      const std::string& name) const {
  auto check_count = [&](std::size_t have, std::size_t want) {
    if (have != want)
      fail("constant '" + name + "' has " + std::to_string(have) + " values but its shape needs " +
           std::to_string(want));
  };
  switch (dt) {
    case DType::Float32:
      check_count(static_cast<std::size_t>(tp.float_data_size()), elements);
      return pack_as<float>(tp.float_data());
    case DType::Complex64:
      check_count(static_cast<std::size_t>(tp.float_data_size()), elements * 2);
      return pack_as<float>(tp.float_data());
    case DType::Float64:
      check_count(static_cast<std::size_t>(tp.double_data_size()), elements);
      return pack_as<double>(tp.double_data());
    case DType::Complex128:
      check_count(static_cast<std::size_t>(tp.double_data_size()), elements * 2);
      return pack_as<double>(tp.double_data());
    case DType::Int64:
      check_count(static_cast<std::size_t>(tp.int64_data_size()), elements);
      return pack_as<std::int64_t>(tp.int64_data());
    case DType::UInt32:
      check_count(static_cast<std::size_t>(tp.uint64_data_size()), elements);
      return pack_as<std::uint32_t>(tp.uint64_data());
    case DType::UInt64:
      check_count(static_cast<std::size_t>(tp.uint64_data_size()), elements);
      return pack_as<std::uint64_t>(tp.uint64_data());
    case DType::Int32:
      check_count(static_cast<std::size_t>(tp.int32_data_size()), elements);
      return pack_as<std::int32_t>(tp.int32_data());
    case DType::Int16:
      check_count(static_cast<std::size_t>(tp.int32_data_size()), elements);
      return pack_as<std::int16_t>(tp.int32_data());
    case DType::UInt16:
    case DType::Float16:   // int32_data holds the 16-bit patterns
    case DType::BFloat16:
      check_count(static_cast<std::size_t>(tp.int32_data_size()), elements);
      return pack_as<std::uint16_t>(tp.int32_data());
    case DType::Int8:
      check_count(static_cast<std::size_t>(tp.int32_data_size()), elements);
      return pack_as<std::int8_t>(tp.int32_data());
    case DType::UInt8:
    case DType::Bool:
      check_count(static_cast<std::size_t>(tp.int32_data_size()), elements);
      return pack_as<std::uint8_t>(tp.int32_data());
    case DType::Int4:  // one int32 per packed byte (two elements)
      check_count(static_cast<std::size_t>(tp.int32_data_size()), (elements + 1) / 2);
      return pack_as<std::uint8_t>(tp.int32_data());
    case DType::String: {
      check_count(static_cast<std::size_t>(tp.string_data_size()), elements);
      std::vector<std::string> strings;
      strings.reserve(elements);
      for (auto& s : *tp.mutable_string_data()) strings.push_back(std::move(s));
      return pack_strings(strings);
    }
    case DType::Undefined: break;
  }
  fail("constant '" + name + "' has no data type");
}

ConstValue Importer::take_tensor(onnx::TensorProto& tp, const std::string& name) {
  ConstValue v;
  auto dt = dtype_from_onnx(tp.data_type());
  if (!dt) fail("unsupported type: " + onnx_dtype_label(tp.data_type()) + " (tensor '" + name + "')");
  if (*dt == DType::Undefined) fail("constant '" + name + "' has no data type");
  v.dtype = *dt;
  std::size_t elements = 1;
  for (auto d : tp.dims()) {
    if (d < 0) fail("constant '" + name + "' has a negative dimension " + std::to_string(d));
    const auto ud = static_cast<std::size_t>(d);
    if (ud != 0 && elements > std::numeric_limits<std::size_t>::max() / 16 / ud)
      fail("constant '" + name + "' is too large (" + shape_label(v.dtype, v.dims) + ")");
    elements *= ud;
    v.dims.push_back(d);
  }
  if (tp.has_segment()) fail("constant '" + name + "' is segmented, which is not supported");

  if (tp.data_location() == onnx::TensorProto::EXTERNAL) {
    if (v.dtype == DType::String) fail("constant '" + name + "' stores strings as external data");
    v.data = external_data(tp, name, byte_size(v.dtype, elements));
    return v;
  }
  if (tp.has_raw_data() && v.dtype != DType::String) {
    // Move the payload out of the proto: no copy of the weights.
    std::unique_ptr<std::string> raw(tp.release_raw_data());
    const std::size_t expected = byte_size(v.dtype, elements);
    if (raw->size() != expected)
      fail("constant '" + name + "' has " + std::to_string(raw->size()) + " bytes of data but " +
           shape_label(v.dtype, v.dims) + " needs " + std::to_string(expected));
    v.data = ir::ConstantData::from_string(std::move(*raw));
    return v;
  }
  v.data = typed_data(tp, v.dtype, elements, name);
  return v;
}

void Importer::add_constant(const std::string& name, ConstValue v, const std::string& what) {
  if (name.empty()) fail(what + " has no name");
  auto it = g_.tensors.find(name);
  if (it != g_.tensors.end() && it->second.is_constant())
    fail("tensor '" + name + "' is defined twice (" + what + ")");
  ir::Tensor& t = tensor_entry(name);
  t.dtype = v.dtype;
  t.shape = ir::Shape::of(v.dims);
  t.data = std::move(v.data);
}

void Importer::import_constant_node(onnx::NodeProto& node, std::size_t index) {
  const std::string where = node.name().empty() ? "Constant_" + std::to_string(index) : node.name();
  if (node.output_size() != 1 || node.output(0).empty())
    fail("Constant node '" + where + "' must have exactly one output");
  const std::string& out = node.output(0);
  if (node.attribute_size() != 1)
    fail("Constant node '" + where + "' must have exactly one value attribute");
  onnx::AttributeProto& a = *node.mutable_attribute(0);
  ConstValue v;
  const std::string& key = a.name();
  if (key == "value") {
    v = take_tensor(*a.mutable_t(), out);
  } else if (key == "value_float") {
    const float f = a.f();
    v = {DType::Float32, {}, ir::ConstantData::copy_of(&f, sizeof f)};
  } else if (key == "value_floats") {
    v = {DType::Float32, {a.floats_size()}, pack_as<float>(a.floats())};
  } else if (key == "value_int") {
    const std::int64_t i = a.i();
    v = {DType::Int64, {}, ir::ConstantData::copy_of(&i, sizeof i)};
  } else if (key == "value_ints") {
    v = {DType::Int64, {a.ints_size()}, pack_as<std::int64_t>(a.ints())};
  } else if (key == "value_string") {
    v = {DType::String, {}, pack_strings({a.s()})};
  } else if (key == "value_strings") {
    std::vector<std::string> s(a.strings().begin(), a.strings().end());
    v = {DType::String, {a.strings_size()}, pack_strings(s)};
  } else if (key == "sparse_value") {
    fail("unsupported type: sparse tensor (tensor '" + out + "')");
  } else {
    fail("Constant node '" + where + "' has an unknown attribute '" + key + "'");
  }
  add_constant(out, std::move(v), "Constant node '" + where + "'");
}

// Attribute -> IR attribute. Returns nullopt to drop it.
std::optional<ir::Attribute> Importer::convert_attribute(onnx::AttributeProto& a, ir::Operation& op,
                                                         const std::string& where) {
  auto type = a.type();
  if (type == onnx::AttributeProto::UNDEFINED) {  // very old models leave the type out
    if (a.has_f()) type = onnx::AttributeProto::FLOAT;
    else if (a.has_i()) type = onnx::AttributeProto::INT;
    else if (a.has_s()) type = onnx::AttributeProto::STRING;
    else if (a.has_t()) type = onnx::AttributeProto::TENSOR;
    else if (a.has_g()) type = onnx::AttributeProto::GRAPH;
    else if (a.floats_size()) type = onnx::AttributeProto::FLOATS;
    else if (a.ints_size()) type = onnx::AttributeProto::INTS;
    else if (a.strings_size()) type = onnx::AttributeProto::STRINGS;
    else if (a.graphs_size()) type = onnx::AttributeProto::GRAPHS;
    else if (a.tensors_size()) type = onnx::AttributeProto::TENSORS;
  }
  const ir::AttrSpec* spec = op.is_known() ? ir::find_attr_spec(op.kind, a.name()) : nullptr;
  switch (type) {
    case onnx::AttributeProto::INT: {
      // Element-type attributes are ONNX enums; the IR stores dtype names.
      if (spec && spec->kind == ir::AttrKind::String) {
        auto dt = dtype_from_onnx(static_cast<int>(a.i()));
        if (!dt || *dt == DType::Undefined)
          fail("unsupported type: " + onnx_dtype_label(static_cast<int>(a.i())) + " (attribute '" +
               a.name() + "' of op '" + where + "')");
        return std::string(ir::dtype_name(*dt));
      }
      if (spec && spec->kind == ir::AttrKind::Float) return static_cast<double>(a.i());
      return static_cast<std::int64_t>(a.i());
    }
    case onnx::AttributeProto::FLOAT: return static_cast<double>(a.f());
    case onnx::AttributeProto::STRING: return std::string(a.s());
    case onnx::AttributeProto::INTS:
      return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    case onnx::AttributeProto::FLOATS:
      return std::vector<double>(a.floats().begin(), a.floats().end());
    case onnx::AttributeProto::STRINGS:
      return std::vector<std::string>(a.strings().begin(), a.strings().end());
    case onnx::AttributeProto::TENSOR: {
      ConstValue v = take_tensor(*a.mutable_t(), where + "." + a.name());
      return ir::TensorValue{v.dtype, std::move(v.dims), std::move(v.data)};
    }
    case onnx::AttributeProto::GRAPH:
    case onnx::AttributeProto::GRAPHS:
      // Only reached for unknown ops kept as Unknown (control flow is refused earlier).
      spdlog::debug("onnx: dropping subgraph attribute '{}' of unknown op '{}'", a.name(), where);
      return std::nullopt;
    case onnx::AttributeProto::SPARSE_TENSOR:
    case onnx::AttributeProto::SPARSE_TENSORS:
      fail("unsupported type: sparse tensor (attribute '" + a.name() + "' of op '" + where + "')");
    case onnx::AttributeProto::TENSORS:
      fail("unsupported attribute kind: tensor list (attribute '" + a.name() + "' of op '" + where +
           "')");
    case onnx::AttributeProto::TYPE_PROTO:
    case onnx::AttributeProto::TYPE_PROTOS:
      fail("unsupported attribute kind: type (attribute '" + a.name() + "' of op '" + where + "')");
    default: break;
  }
  fail("attribute '" + a.name() + "' of op '" + where + "' has no value");
}

std::optional<std::vector<std::int64_t>> Importer::constant_ints(const std::string& tensor) const {
  const ir::Tensor* t = g_.find_tensor(tensor);
  if (!t || !t->is_constant()) return std::nullopt;
  std::vector<std::int64_t> out;
  if (t->dtype == DType::Int64) {
    for (auto v : t->data->as<std::int64_t>()) out.push_back(v);
  } else if (t->dtype == DType::Int32) {
    for (auto v : t->data->as<std::int32_t>()) out.push_back(v);
  } else {
    return std::nullopt;
  }
  return out;
}

std::string Importer::add_int_constant(const std::string& base, const std::vector<std::int64_t>& v) {
  std::string name = base;
  for (int k = 1; g_.tensors.count(name); ++k) name = base + "_" + std::to_string(k);
  ir::Tensor t;
  t.name = name;
  t.dtype = DType::Int64;
  t.shape = ir::Shape::of({static_cast<std::int64_t>(v.size())});
  t.data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(std::int64_t));
  g_.add_tensor(std::move(t));
  return name;
}

// Moves a constant axes-like input into an ints attribute (absent input = no attribute).
// Reductions keep a computed axes input as their second input (ONNX Runtime runs it).
void Importer::axes_input_to_attribute(ir::Operation& op, std::size_t index,
                                       const std::string& attr, bool runtime_ok) {
  if (op.inputs.size() <= index) return;
  const std::string in = op.inputs[index];
  if (!in.empty()) {
    auto v = constant_ints(in);
    if (!v && runtime_ok) return;  // stays an input (the op's kernel reads it)
    if (!v)
      unsupported(op.op_type,
                  "its '" + attr + "' input '" + in +
                      "' is computed at run time, but the IR needs it constant (an attribute); "
                      "fold it to a constant before export",
                  op.name);
    if (!v->empty()) op.attributes[attr] = std::move(*v);
    maybe_orphaned_.insert(in);
  }
  op.inputs.resize(index);
  while (!op.inputs.empty() && op.inputs.back().empty()) op.inputs.pop_back();
}

// Brings a known op from the model's opset to canonical (opset 13) form.
void Importer::normalise(ir::Operation& op) {
  using K = ir::OpKind;
  switch (op.kind) {
    case K::ReduceSum:
      if (opset_ >= 13) axes_input_to_attribute(op, 1, "axes", true);
      break;
    case K::ReduceMean: case K::ReduceMax: case K::ReduceMin: case K::ReduceProd:
    case K::ReduceL1: case K::ReduceL2: case K::ReduceLogSum: case K::ReduceLogSumExp:
    case K::ReduceSumSquare:
      if (opset_ >= 18) axes_input_to_attribute(op, 1, "axes", true);
      break;
    case K::Squeeze: case K::Unsqueeze:
      if (opset_ < 13) {  // axes attribute -> constant input
        auto it = op.attributes.find("axes");
        if (it != op.attributes.end()) {
          auto axes = std::get<std::vector<std::int64_t>>(it->second);
          op.attributes.erase(it);
          op.inputs.resize(1);
          op.inputs.push_back(add_int_constant(op.name + "/axes", axes));
        }
      }
      break;
    case K::Split:
      if (opset_ < 13) {  // split attribute -> constant input
        auto it = op.attributes.find("split");
        if (it != op.attributes.end()) {
          auto split = std::get<std::vector<std::int64_t>>(it->second);
          op.attributes.erase(it);
          op.inputs.resize(1);
          op.inputs.push_back(add_int_constant(op.name + "/split", split));
        }
      }
      break;
    case K::Softmax: case K::LogSoftmax: case K::Hardmax:
      if (opset_ < 13) {
        // Before opset 13 these flatten the input to 2-D at `axis` (default 1);
        // that equals the opset-13 op only for the last axis.
        const std::int64_t axis = op.attr_int("axis", 1);
        const ir::Tensor* in = op.inputs.empty() ? nullptr : g_.find_tensor(op.inputs[0]);
        const bool last = axis == -1 || (in && in->shape.rank_known &&
                                         axis == static_cast<std::int64_t>(in->shape.rank()) - 1);
        if (!last)
          unsupported(op.op_type,
                      "opset " + std::to_string(opset_) +
                          " semantics over a non-last axis (coerced to 2-D) differ from opset 13; "
                          "re-export with opset 13 or newer",
                      op.name);
        op.attributes["axis"] = std::int64_t{-1};
      }
      break;
    case K::Dropout:
      if (opset_ < 12) op.attributes.erase("ratio");  // inference: identity either way
      break;
    case K::Resize:
      // Resize-10 and Upsample (which the converter turns into Resize) sample
      // asymmetrically and round nearest down; libonnx 1.12's 10->11 adapter
      // leaves that implicit, so spell it out.
      if (source_opset_ < 11) {
        if (!op.attributes.count("coordinate_transformation_mode"))
          op.attributes["coordinate_transformation_mode"] = std::string("asymmetric");
        if (op.attr_string("mode", "nearest") == "nearest" && !op.attributes.count("nearest_mode"))
          op.attributes["nearest_mode"] = std::string("floor");
      }
      break;
    case K::RoiAlign:
      if (opset_ < 16 && !op.attributes.count("coordinate_transformation_mode"))
        op.attributes["coordinate_transformation_mode"] = std::string("output_half_pixel");
      break;
    case K::GridSample:
      if (opset_ >= 20) {
        auto it = op.attributes.find("mode");
        if (it != op.attributes.end()) {
          auto& m = std::get<std::string>(it->second);
          if (m == "linear") m = "bilinear";
          else if (m == "cubic") m = "bicubic";
        } else {
          op.attributes["mode"] = std::string("bilinear");  // opset 20 default "linear"
        }
      }
      break;
    case K::DFT:
      if (opset_ >= 20) {
        std::int64_t axis = -2;  // opset 20 default
        if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
          auto v = constant_ints(op.inputs[2]);
          if (!v || v->size() != 1)
            unsupported(op.op_type, "its 'axis' input must be a constant scalar", op.name);
          axis = (*v)[0];
          maybe_orphaned_.insert(op.inputs[2]);
        }
        op.attributes["axis"] = axis;
        if (op.inputs.size() > 2) op.inputs.resize(2);
        while (!op.inputs.empty() && op.inputs.back().empty()) op.inputs.pop_back();
      }
      break;
    default: break;
  }
}

std::string Importer::unique_op_name(const onnx::NodeProto& node, std::size_t index) {
  std::string base = node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
  std::string name = base;
  for (int k = 1; op_names_.count(name); ++k) name = base + "_" + std::to_string(k);
  op_names_.insert(name);
  return name;
}

bool has_subgraph(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute())
    if (a.type() == onnx::AttributeProto::GRAPH || a.type() == onnx::AttributeProto::GRAPHS ||
        a.has_g() || a.graphs_size() > 0)
      return true;
  return false;
}

ir::Graph Importer::run() {
  onnx::GraphProto& gp = *model_.mutable_graph();
  g_.name = gp.name().empty() ? fs::path(path_).stem().string() : gp.name();
  g_.version = model_.model_version();

  // Constants: initializers first (they may shadow graph inputs of the same name).
  if (gp.sparse_initializer_size() > 0)
    fail("unsupported type: sparse tensor (tensor '" + gp.sparse_initializer(0).values().name() + "')");
  for (auto& init : *gp.mutable_initializer()) {
    ConstValue v = take_tensor(init, init.name());
    add_constant(init.name(), std::move(v), "initializer");
  }
  for (const auto& vi : gp.input()) {
    if (vi.name().empty()) fail("a graph input has no name");
    ir::Tensor& t = tensor_entry(vi.name());
    if (t.is_constant()) continue;  // an initializer, not a runtime input
    apply_type(vi.type(), t);
    g_.inputs.push_back(vi.name());
  }
  for (const auto& vi : gp.value_info()) {
    ir::Tensor& t = tensor_entry(vi.name());
    if (!t.is_constant()) apply_type(vi.type(), t);
  }
  for (const auto& vi : gp.output()) {
    ir::Tensor& t = tensor_entry(vi.name());
    if (!t.is_constant()) apply_type(vi.type(), t);
    g_.outputs.push_back(vi.name());
  }

  g_.ops.reserve(static_cast<std::size_t>(gp.node_size()));
  for (int i = 0; i < gp.node_size(); ++i) {
    onnx::NodeProto& node = *gp.mutable_node(i);
    const auto index = static_cast<std::size_t>(i);
    const bool std_domain = is_default_domain(node.domain());
    if (std_domain && node.op_type() == "Constant") {
      import_constant_node(node, index);
      continue;
    }
    ir::Operation op;
    op.name = unique_op_name(node, index);
    const std::string display =
        std_domain ? node.op_type() : node.domain() + "::" + node.op_type();
    std::optional<ir::OpKind> kind;
    if (std_domain) kind = ir::op_kind_from_name(node.op_type());
    const bool subgraph = has_subgraph(node);
    if (subgraph && (kind || !opts_.allow_unknown_ops))
      unsupported(display,
                  "control flow op '" + node.op_type() +
                      "' with subgraphs is not supported yet; unroll or fold it before export "
                      "(e.g. export with constant trip counts / conditions)",
                  op.name);
    if (!kind && !opts_.allow_unknown_ops) {
      const std::string why =
          std_domain ? "the IR has no '" + node.op_type() +
                           "' op yet; export with a standard ONNX opset (avoiding it) or open an issue"
                     : "ops of domain '" + node.domain() +
                           "' are not part of standard ONNX; export with a standard ONNX opset "
                           "(no custom or contrib ops) or open an issue";
      unsupported(display, why, op.name);
    }
    op.kind = kind.value_or(ir::OpKind::Unknown);
    op.op_type = kind ? std::string(ir::op_info(*kind).name) : display;
    op.inputs.assign(node.input().begin(), node.input().end());
    op.outputs.assign(node.output().begin(), node.output().end());
    for (auto& a : *node.mutable_attribute()) {
      if (a.name().empty()) fail("an attribute of op '" + op.name + "' has no name");
      if (auto v = convert_attribute(a, op, op.name)) op.attributes[a.name()] = std::move(*v);
    }
    for (const auto& out : op.outputs)
      if (!out.empty()) tensor_entry(out);
    if (op.is_known()) normalise(op);
    g_.ops.push_back(std::move(op));
  }

  // Drop constants whose only use was an axes-like input we turned into an attribute.
  if (!maybe_orphaned_.empty()) {
    std::set<std::string> used(g_.outputs.begin(), g_.outputs.end());
    for (const auto& op : g_.ops)
      for (const auto& in : op.inputs) used.insert(in);
    for (const auto& name : maybe_orphaned_)
      if (!used.count(name)) g_.tensors.erase(name);
  }

  try {
    ir::topological_sort(g_);
  } catch (const GraphError& e) {
    fail(e.what());
  }
  for (const auto& issue : ir::validate(g_))
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      fail("invalid graph: " + ir::to_string(issue));
  return std::move(g_);
}

// --- model-level steps ---------------------------------------------------------

// libonnx's converter fails with its assertion text ("./onnx/version_converter/
// convert.h:72: assertInVersionRange: Assertion `...` failed: Warning: invalid
// version ..."): only the explanation after "failed:" is kept, first line, cut short.
std::string converter_reason(std::string reason) {
  if (auto nl = reason.find('\n'); nl != std::string::npos) reason.resize(nl);
  if (auto f = reason.rfind("failed: "); f != std::string::npos) reason.erase(0, f + 8);
  else if (reason.find("Assertion") != std::string::npos) reason = "the ONNX version converter refused the model";
  if (reason.rfind("Warning: ", 0) == 0) reason.erase(0, 9);
  std::erase(reason, '$');
  return "the ONNX version converter says: " + excerpt(reason, 120);
}

onnx::ModelProto parse_model(const std::string& path) {
  std::uint64_t size = 0;
  const int fd = util::open_regular_file(path, INT_MAX, path, size);
  onnx::ModelProto model;
  bool ok = false;
  {
    google::protobuf::io::FileInputStream file(fd);
    file.SetCloseOnDelete(true);
    route_protobuf_log_to_debug();
    google::protobuf::io::CodedInputStream coded(&file);
    coded.SetTotalBytesLimit(INT_MAX);  // models above the 64 MiB default are common
    ok = model.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
  }
  if (!ok)
    throw FrontendError(path, "not a valid ONNX file (protobuf parse failed; the file may be truncated)",
                        "onnx");
  return model;
}

int default_opset(const onnx::ModelProto& m) {
  for (const auto& o : m.opset_import())
    if (is_default_domain(o.domain())) return static_cast<int>(o.version());
  return -1;
}

std::string opset_label(const onnx::ModelProto& m) {
  std::map<std::string, std::int64_t> others;
  std::string out;
  for (const auto& o : m.opset_import()) {
    if (is_default_domain(o.domain())) out = "ai.onnx:" + std::to_string(o.version());
    else others[o.domain()] = o.version();
  }
  for (const auto& [d, v] : others) out += (out.empty() ? "" : ",") + d + ":" + std::to_string(v);
  return out;
}

// --- checks before libonnx reads the model -----------------------------------
//
// libonnx 1.12 trusts the model it is given: shape inference copies raw_data by its
// byte length into a vector sized from dims (a heap overflow when longer, a SEGV when
// shorter), indexes dims with a LayerNormalization axis it never range-checks, and
// the version converter dereferences a null node for a name nothing defines (an
// empty graph's outputs, a renamed node output). A crash inside a dependency is our
// crash, so everything those paths read is checked here first, on the untouched
// model, with one-line messages in the importer's words.

[[noreturn]] void refuse(const std::string& path, const std::string& reason) {
  throw FrontendError(path, reason, "onnx");
}

// Shape of a tensor proto as the importer prints it ("i64[1]"), without trusting dims.
std::string proto_shape_label(const onnx::TensorProto& tp) {
  std::string s = "[";
  for (int i = 0; i < tp.dims_size(); ++i) s += (i ? "," : "") + std::to_string(tp.dims(i));
  return s + "]";
}

void check_tensor_proto(const onnx::TensorProto& tp, const std::string& what, const std::string& path) {
  std::uint64_t elements = 1;
  for (auto d : tp.dims()) {
    if (d < 0) refuse(path, what + " has a negative dimension " + std::to_string(d));
    if (__builtin_mul_overflow(elements, static_cast<std::uint64_t>(d), &elements) ||
        elements > std::numeric_limits<std::size_t>::max() / 16)
      refuse(path, what + " is too large (" + proto_shape_label(tp) + ")");
  }
  if (tp.data_location() == onnx::TensorProto::EXTERNAL) return;  // libonnx never reads it; the importer checks it
  const auto dt = dtype_from_onnx(tp.data_type());
  if (!dt || *dt == DType::Undefined || *dt == DType::String || !tp.has_raw_data()) return;  // the importer refuses or checks these
  const std::size_t expected = byte_size(*dt, static_cast<std::size_t>(elements));
  if (tp.raw_data().size() != expected)
    refuse(path, what + " has " + std::to_string(tp.raw_data().size()) + " bytes of data but " +
                     std::string(ir::dtype_name(*dt)) + proto_shape_label(tp) + " needs " + std::to_string(expected));
}

void check_graph_tensors(const onnx::GraphProto& g, const std::string& path) {
  for (const auto& t : g.initializer()) check_tensor_proto(t, "constant '" + t.name() + "'", path);
  for (const auto& sp : g.sparse_initializer()) {
    check_tensor_proto(sp.values(), "sparse initializer '" + sp.values().name() + "'", path);
    check_tensor_proto(sp.indices(), "sparse initializer '" + sp.values().name() + "' (indices)", path);
  }
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    const std::string where = node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name();
    const std::string owner = node.op_type() == "Constant" && node.output_size() == 1
                                  ? "constant '" + node.output(0) + "'"
                                  : "attribute of node '" + where + "'";
    for (const auto& a : node.attribute()) {
      if (a.has_t()) check_tensor_proto(a.t(), owner, path);
      for (const auto& t : a.tensors()) check_tensor_proto(t, owner, path);
      if (a.has_sparse_tensor()) {
        check_tensor_proto(a.sparse_tensor().values(), owner, path);
        check_tensor_proto(a.sparse_tensor().indices(), owner, path);
      }
      if (a.has_g()) check_graph_tensors(a.g(), path);
      for (const auto& sub : a.graphs()) check_graph_tensors(sub, path);
    }
  }
}

// libonnx's inference functions of the control-flow ops dereference their graph
// attributes without checking they exist (a Scan without 'body' is a SEGV in
// ScanInferenceFunction): each must be present and hold a graph, in every subgraph too.
void check_control_flow_bodies(const onnx::GraphProto& g, const std::string& path, int depth = 0) {
  if (depth > 64) refuse(path, "subgraphs nested deeper than 64 levels");
  struct Needs {
    const char* op;
    const char* attrs[2];
  };
  static constexpr Needs kNeeds[] = {{"Scan", {"body", nullptr}}, {"Loop", {"body", nullptr}},
                                     {"If", {"then_branch", "else_branch"}}};
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    for (const auto& a : node.attribute()) {
      if (a.has_g()) check_control_flow_bodies(a.g(), path, depth + 1);
      for (const auto& sub : a.graphs()) check_control_flow_bodies(sub, path, depth + 1);
    }
    if (!is_default_domain(node.domain())) continue;
    for (const auto& n : kNeeds) {
      if (node.op_type() != n.op) continue;
      for (const char* attr : n.attrs) {
        if (!attr) continue;
        bool ok = false;
        for (const auto& a : node.attribute()) ok |= a.name() == attr && a.has_g();
        if (!ok)
          refuse(path, "node '" + excerpt(node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name()) +
                           "' (" + n.op + ") has no '" + attr + "' graph attribute; the model is malformed");
      }
    }
  }
}

// libonnx gives the output of ConstantOfShape, Expand and Reshape (shape not constant)
// a rank equal to the length of the shape input, building one dim per element: a
// declared length of 2^31 made it allocate 8 GB. Ranks beyond kMaxShapeLength are refused.
constexpr std::int64_t kMaxShapeLength = 64;

// libonnx's RNN/GRU/LSTM inference reads dims 0-2 of X, W and R without checking their
// rank (a GRU whose X is declared 1-D was a SEGV in RNNShapeInference1: fuzz finding).
void check_recurrent_ranks(const onnx::GraphProto& g, const std::string& path) {
  std::unordered_map<std::string, int> rank;
  auto add = [&](const onnx::ValueInfoProto& vi) {
    if (vi.type().has_tensor_type() && vi.type().tensor_type().has_shape())
      rank[vi.name()] = vi.type().tensor_type().shape().dim_size();
  };
  for (const auto& vi : g.input()) add(vi);
  for (const auto& vi : g.value_info()) add(vi);
  for (const auto& t : g.initializer()) rank[t.name()] = t.dims_size();
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    if (!is_default_domain(node.domain()) ||
        (node.op_type() != "RNN" && node.op_type() != "GRU" && node.op_type() != "LSTM"))
      continue;
    for (int at = 0; at < 3 && at < node.input_size(); ++at) {
      const auto it = rank.find(node.input(at));
      if (it != rank.end() && it->second != 3)
        refuse(path, "node '" + excerpt(node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name()) +
                         "' (" + node.op_type() + "): input '" + excerpt(node.input(at)) + "' is declared " +
                         std::to_string(it->second) + "-D; X, W and R must be 3-D");
    }
  }
}

void check_shape_input_lengths(const onnx::GraphProto& g, const std::string& path) {
  std::unordered_map<std::string, std::int64_t> length;  // 1-D tensors' declared lengths
  auto add = [&](const onnx::ValueInfoProto& vi) {
    if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) return;
    const auto& sh = vi.type().tensor_type().shape();
    if (sh.dim_size() == 1 && sh.dim(0).has_dim_value()) length[vi.name()] = sh.dim(0).dim_value();
  };
  for (const auto& vi : g.input()) add(vi);
  for (const auto& vi : g.value_info()) add(vi);
  for (const auto& t : g.initializer())
    if (t.dims_size() == 1) length[t.name()] = t.dims(0);
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    if (!is_default_domain(node.domain())) continue;
    int at = -1;
    if (node.op_type() == "ConstantOfShape") at = 0;
    else if (node.op_type() == "Expand" || node.op_type() == "Reshape") at = 1;
    if (at < 0 || node.input_size() <= at) continue;
    const auto it = length.find(node.input(at));
    if (it != length.end() && it->second > kMaxShapeLength)
      refuse(path, "node '" + excerpt(node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name()) +
                       "' (" + node.op_type() + "): its shape input '" + excerpt(node.input(at)) + "' has " +
                       std::to_string(it->second) + " elements, an output of that rank (at most " +
                       std::to_string(kMaxShapeLength) + " dimensions are supported)");
  }
}

// Model-local functions may call each other: libonnx's inference (and our inliner)
// follows the calls recursively, so a function that reaches itself, or a chain of
// calls deeper than kMaxFunctionNesting (the campaign has a valid chain of 100), would overflow
// the stack. Refused first.
constexpr int kMaxFunctionNesting = 128;

void check_function_calls(const onnx::ModelProto& m, const std::string& path) {
  std::map<std::pair<std::string, std::string>, const onnx::FunctionProto*> fns;
  for (const auto& f : m.functions())
    // two definitions of one function: which a caller gets differs between readers (libonnx's
    // inference took the other one and recursed through it: fuzz finding), so none is taken
    if (!fns.emplace(std::make_pair(f.domain(), f.name()), &f).second)
      refuse(path, "local function '" + excerpt(f.name()) + "' (domain '" + excerpt(f.domain()) +
                       "') is defined more than once; each function needs one definition");
  if (fns.empty()) return;
  // 0 unvisited, 1 on the current call path, 2 done (with its depth below)
  std::map<const onnx::FunctionProto*, int> state, depth;
  // `level`: calls above f on the current path, bounded so this check cannot recurse deep either.
  std::function<int(const onnx::FunctionProto*, int)> visit = [&](const onnx::FunctionProto* f, int level) -> int {
    if (state[f] == 1)
      refuse(path, "local function '" + excerpt(f->name()) + "' calls itself (directly or through other functions)");
    if (state[f] == 0) {
      state[f] = 1;
      int deepest = 0;
      for (const auto& n : f->node()) {
        const auto it = fns.find({n.domain(), n.op_type()});
        if (it == fns.end()) continue;
        if (level + 1 > kMaxFunctionNesting)
          refuse(path, "local function '" + excerpt(f->name()) + "' nests calls deeper than " +
                           std::to_string(kMaxFunctionNesting) + " levels");
        deepest = std::max(deepest, 1 + visit(it->second, level + 1));
      }
      state[f] = 2;
      depth[f] = deepest;
    }
    if (level + depth[f] > kMaxFunctionNesting)
      refuse(path, "local function '" + excerpt(f->name()) + "' nests calls deeper than " +
                       std::to_string(kMaxFunctionNesting) + " levels");
    return depth[f];
  };
  for (const auto& [key, f] : fns) visit(f, 0);
}

// Ranks the model declares (inputs, value_info, outputs, initializers), by name.
std::unordered_map<std::string, int> declared_ranks(const onnx::GraphProto& g) {
  std::unordered_map<std::string, int> ranks;
  auto add = [&](const onnx::ValueInfoProto& vi) {
    if (vi.type().has_tensor_type() && vi.type().tensor_type().has_shape())
      ranks[vi.name()] = vi.type().tensor_type().shape().dim_size();
  };
  for (const auto& vi : g.input()) add(vi);
  for (const auto& vi : g.value_info()) add(vi);
  for (const auto& vi : g.output()) add(vi);
  for (const auto& t : g.initializer()) ranks[t.name()] = t.dims_size();
  return ranks;
}

const onnx::AttributeProto* find_attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& a : node.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

// LayerNormalization nodes whose axis libonnx could not index safely: refused when
// the input's rank is known and the axis is outside [-rank, rank); returned (to be
// hidden from shape inference) when the rank is only known after inference.
std::vector<int> check_layer_norm_axes(const onnx::GraphProto& g, const std::string& path) {
  const auto ranks = declared_ranks(g);
  std::vector<int> unproven;
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    if (node.op_type() != "LayerNormalization" || !is_default_domain(node.domain()) || node.input_size() == 0) continue;
    const auto* a = find_attribute(node, "axis");
    const std::int64_t axis = a ? a->i() : -1;
    const auto r = ranks.find(node.input(0));
    if (r == ranks.end()) {
      if (axis != -1) unproven.push_back(i);  // -1 is in range for any rank >= 1
      continue;
    }
    if (axis < -r->second || axis >= r->second || r->second == 0)
      refuse(path, "node '" + (node.name().empty() ? "LayerNormalization_" + std::to_string(i) : node.name()) +
                       "' (LayerNormalization): axis " + std::to_string(axis) + " is out of range for its rank-" +
                       std::to_string(r->second) + " input '" + node.input(0) + "'");
  }
  return unproven;
}

// The version converter builds its own graph from names: every name a node or the
// graph uses must be defined, once.
void check_names_for_converter(const onnx::GraphProto& g, const std::string& path) {
  std::unordered_set<std::string> defined;
  for (const auto& vi : g.input()) defined.insert(vi.name());
  for (const auto& t : g.initializer()) defined.insert(t.name());
  std::unordered_set<std::string> produced;
  for (int i = 0; i < g.node_size(); ++i)
    for (const auto& o : g.node(i).output()) {
      if (o.empty()) continue;
      if (!produced.insert(o).second)
        refuse(path, "tensor '" + o + "' is produced by more than one node");
      defined.insert(o);
    }
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    for (const auto& in : node.input())
      if (!in.empty() && !defined.count(in))
        refuse(path, "node '" + (node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name()) +
                         "' (" + node.op_type() + ") reads tensor '" + in +
                         "', which no node, initializer or graph input defines");
  }
  std::unordered_set<std::string> inputs;
  for (const auto& vi : g.input()) inputs.insert(vi.name());
  for (const auto& vi : g.output()) {
    if (!defined.count(vi.name()))
      refuse(path, "graph output '" + vi.name() + "' is not produced by any node, initializer or graph input");
    // libonnx's graphProtoToGraph dereferences a null value for it (fuzz finding)
    if (!produced.count(vi.name()) && !inputs.count(vi.name()))
      refuse(path, "graph output '" + vi.name() + "' is a constant (an initializer no node computes), which the ONNX "
                   "version converter cannot take; re-export the model with opset 13 or newer");
  }
}

// The converter rebuilds initializers from their bytes and drops the external-data
// fields on the way, so valid external weights come back as empty tensors.
// Their references are taken off before the conversion and put back after it.
struct ExternalRef {
  int data_type;
  std::vector<std::int64_t> dims;
  google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto> entries;
};

std::unordered_map<std::string, ExternalRef> take_external_refs(const onnx::GraphProto& g) {
  std::unordered_map<std::string, ExternalRef> refs;
  for (const auto& t : g.initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
      refs[t.name()] = {t.data_type(), {t.dims().begin(), t.dims().end()}, t.external_data()};
  return refs;
}

void restore_external_refs(onnx::GraphProto& g, const std::unordered_map<std::string, ExternalRef>& refs,
                           const std::string& path) {
  for (auto& t : *g.mutable_initializer()) {
    auto it = refs.find(t.name());
    if (it == refs.end()) continue;
    const ExternalRef& r = it->second;
    if (t.data_type() != r.data_type || !std::equal(t.dims().begin(), t.dims().end(), r.dims.begin(), r.dims.end()))
      refuse(path, "the opset upgrade changed the type of external initializer '" + t.name() +
                       "'; re-export the model with opset 13 or newer");
    const std::string name = t.name();
    t.Clear();
    t.set_name(name);
    t.set_data_type(r.data_type);
    for (auto d : r.dims) t.add_dims(d);
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    *t.mutable_external_data() = r.entries;
  }
}

void infer_shapes(onnx::ModelProto& m, const std::string& path) {
  onnx::GraphProto& gp = *m.mutable_graph();
  // Nodes libonnx might index out of bounds go to a domain it skips for the run
  // (their outputs keep unknown shapes; the IR's own inference fills them in).
  constexpr const char* kHiddenDomain = "ec.hidden-from-libonnx";
  const std::vector<int> hidden = check_layer_norm_axes(gp, path);
  std::vector<std::string> domains;
  for (int i : hidden) {
    domains.push_back(gp.node(i).domain());
    gp.mutable_node(i)->set_domain(kHiddenDomain);
  }
  // Imported, so libonnx skips the op (no schema) instead of failing the whole run.
  if (!hidden.empty()) {
    auto* o = m.add_opset_import();
    o->set_domain(kHiddenDomain);
    o->set_version(1);
  }
  const int value_infos = gp.value_info_size();
  try {
    onnx::shape_inference::InferShapes(m);
  } catch (const std::exception& e) {
    // Keep what the model declared; inferred shapes are a convenience.
    if (gp.value_info_size() > value_infos)
      gp.mutable_value_info()->DeleteSubrange(value_infos, gp.value_info_size() - value_infos);
    spdlog::debug("onnx: shape inference failed for {}: {}", path, e.what());
  } catch (...) {
    if (gp.value_info_size() > value_infos)
      gp.mutable_value_info()->DeleteSubrange(value_infos, gp.value_info_size() - value_infos);
    spdlog::debug("onnx: shape inference failed for {}", path);
  }
  for (std::size_t k = 0; k < hidden.size(); ++k) gp.mutable_node(hidden[k])->set_domain(domains[k]);
  if (!hidden.empty()) m.mutable_opset_import()->RemoveLast();
  // The ranks inference found now judge the axes it could not.
  if (!hidden.empty()) check_layer_norm_axes(gp, path);
}

// --- function expansion ------------------------------------------------------
//
// Default-domain ops the IR lacks but ONNX defines as functions (e.g.
// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), and calls of the
// model's own local functions, are inlined into their body's standard ops.

const onnx::OpSchema* function_schema(const onnx::NodeProto& node, int opset) {
  if (!is_default_domain(node.domain()) || node.op_type() == "Constant" ||
      ir::op_kind_from_name(node.op_type()))
    return nullptr;
  const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(node.op_type(), opset, "");
  if (s && (s->HasFunction() || s->HasContextDependentFunction())) return s;
  return nullptr;
}

class FunctionExpander {
 public:
  FunctionExpander(onnx::ModelProto& m, int opset) : m_(m), opset_(opset) {
    for (const auto& f : m.functions()) local_[f.domain() + "::" + f.name()] = &f;
    const auto& gp = m.graph();
    for (const auto& vi : gp.input()) types_[vi.name()] = vi.type();
    for (const auto& vi : gp.value_info()) types_[vi.name()] = vi.type();
    for (const auto& vi : gp.output()) types_[vi.name()] = vi.type();
    for (const auto& t : gp.initializer()) {
      onnx::TypeProto tp;
      auto* tt = tp.mutable_tensor_type();
      tt->set_elem_type(t.data_type());
      for (auto d : t.dims()) tt->mutable_shape()->add_dim()->set_dim_value(d);
      types_[t.name()] = tp;
    }
  }

  /// Returns the number of calls inlined.
  int run() {
    auto& nodes = *m_.mutable_graph()->mutable_node();
    bool any = false;
    for (const auto& n : nodes) any = any || needs_expansion(n);
    if (!any) return 0;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> out;
    for (int i = 0; i < nodes.size(); ++i) {
      std::string prefix = nodes[i].name().empty() ? nodes[i].op_type() + "_" + std::to_string(i)
                                                   : nodes[i].name();
      emit(std::move(nodes[i]), prefix, 0, out);
    }
    nodes.Swap(&out);
    return inlined_;
  }

 private:
  bool needs_expansion(const onnx::NodeProto& n) const {
    if (is_default_domain(n.domain())) return function_schema(n, opset_) != nullptr;
    return local_.count(n.domain() + "::" + n.op_type()) > 0;
  }

  void emit(onnx::NodeProto node, const std::string& prefix, int depth,
            google::protobuf::RepeatedPtrField<onnx::NodeProto>& out) {
    if (depth > 16 || !needs_expansion(node)) {
      *out.Add() = std::move(node);
      return;
    }
    onnx::FunctionProto built;
    const onnx::FunctionProto* fn = nullptr;
    if (!is_default_domain(node.domain())) {
      fn = local_.at(node.domain() + "::" + node.op_type());
    } else {
      const onnx::OpSchema* s = function_schema(node, opset_);
      if (s->HasFunction()) {
        fn = s->GetFunction();
      } else {
        std::vector<onnx::TypeProto> input_types;
        for (const auto& in : node.input()) {
          auto it = types_.find(in);
          input_types.push_back(it == types_.end() ? onnx::TypeProto() : it->second);
        }
        try {
          onnx::FunctionBodyBuildContextImpl ctx(node, input_types);
          if (s->BuildContextDependentFunction(ctx, built)) fn = &built;
        } catch (const std::exception& e) {
          spdlog::debug("onnx: cannot build the function body of {}: {}", node.op_type(), e.what());
        }
      }
    }
    if (!fn) {  // leave it; the importer refuses it with a clear message
      *out.Add() = std::move(node);
      return;
    }
    ++inlined_;
    std::unordered_map<std::string, std::string> rename;
    for (int i = 0; i < fn->input_size(); ++i)
      rename[fn->input(i)] = i < node.input_size() ? node.input(i) : std::string();
    for (int i = 0; i < fn->output_size(); ++i)
      rename[fn->output(i)] =
          i < node.output_size() && !node.output(i).empty() ? node.output(i) : prefix + "/" + fn->output(i);
    auto map_name = [&](const std::string& n) -> std::string {
      if (n.empty()) return n;
      auto it = rename.find(n);
      if (it != rename.end()) return it->second;
      return rename[n] = prefix + "/" + n;
    };
    std::unordered_map<std::string, const onnx::AttributeProto*> call_attrs;
    for (const auto& a : node.attribute()) call_attrs[a.name()] = &a;
    for (int k = 0; k < fn->node_size(); ++k) {
      onnx::NodeProto b = fn->node(k);
      const std::string local = b.name().empty() ? b.op_type() + "_" + std::to_string(k) : b.name();
      b.set_name(prefix + "/" + local);
      for (auto& in : *b.mutable_input()) in = map_name(in);
      for (auto& o : *b.mutable_output()) o = map_name(o);
      google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
      for (auto& a : *b.mutable_attribute()) {
        if (a.ref_attr_name().empty()) {
          *attrs.Add() = std::move(a);
          continue;
        }
        auto it = call_attrs.find(a.ref_attr_name());
        if (it == call_attrs.end()) continue;  // not given: the body op's default applies
        onnx::AttributeProto v = *it->second;
        v.set_name(a.name());
        *attrs.Add() = std::move(v);
      }
      b.mutable_attribute()->Swap(&attrs);
      emit(std::move(b), b.name(), depth + 1, out);
    }
  }

  onnx::ModelProto& m_;
  int opset_;
  std::unordered_map<std::string, const onnx::FunctionProto*> local_;
  std::unordered_map<std::string, onnx::TypeProto> types_;
  int inlined_ = 0;
};

// Refusals that do not need the converter: ops no opset upgrade can map.
void precheck_ops(const onnx::ModelProto& m, const OpenOptions& opts, int opset) {
  const bool upgrading = opset < kCanonicalOpset;
  if (opts.allow_unknown_ops) return;
  std::unordered_set<std::string> local_functions;
  for (const auto& f : m.functions()) local_functions.insert(f.domain() + "::" + f.name());
  const auto& gp = m.graph();
  for (int i = 0; i < gp.node_size(); ++i) {
    const auto& node = gp.node(i);
    const std::string where = node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name();
    if (local_functions.count(node.domain() + "::" + node.op_type())) continue;
    if (!is_default_domain(node.domain()))
      throw UnsupportedOpError(node.domain() + "::" + node.op_type(), kIrName,
                               "ops of domain '" + node.domain() +
                                   "' are not part of standard ONNX; export with a standard ONNX "
                                   "opset (no custom or contrib ops) or open an issue",
                               where);
    if (has_subgraph(node))
      throw UnsupportedOpError(node.op_type(), kIrName,
                               "control flow op '" + node.op_type() +
                                   "' with subgraphs is not supported yet; unroll or fold it "
                                   "before export (e.g. export with constant trip counts / conditions)",
                               where);
    // Ops the version converter replaces on the way to opset 13.
    const bool renamed_by_upgrade =
        upgrading && (node.op_type() == "Upsample" || node.op_type() == "Scatter");
    if (node.op_type() != "Constant" && !renamed_by_upgrade && !ir::op_kind_from_name(node.op_type()) &&
        !function_schema(node, opset))
      throw UnsupportedOpError(node.op_type(), kIrName,
                               "the IR has no '" + node.op_type() +
                                   "' op yet; export with a standard ONNX opset (avoiding it) or "
                                   "open an issue",
                               where);
  }
}

}  // namespace

float OnnxFrontend::match(std::span<const std::byte> head, const std::string& path) const {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const HeadVerdict v = sniff_head(head);
  if (!v.valid) return 0.0f;
  if (ext == ".onnx") return 1.0f;
  return v.ir_version_first ? 0.5f : 0.0f;
}

ir::Graph OnnxFrontend::open(const std::string& path, const OpenOptions& opts) const {
  onnx::ModelProto model = parse_model(path);
  if (!model.has_graph()) throw FrontendError(path, "not a valid ONNX file (the model has no graph)", "onnx");
  const std::string source_opset = opset_label(model);
  int opset = default_opset(model);
  if (opset < 0) opset = kCanonicalOpset;  // no default-domain import: only custom ops (or none)
  const int declared_opset = opset;
  {
    int defaults = 0;
    for (const auto& o : model.opset_import()) defaults += is_default_domain(o.domain()) ? 1 : 0;
    if (defaults > 1) refuse(path, "the model imports the default ONNX opset " + std::to_string(defaults) + " times; it must be once");
    if (opset < 1) refuse(path, "opset " + std::to_string(opset) + " is not an ONNX opset (they start at 1)");
  }
  check_graph_tensors(model.graph(), path);
  check_control_flow_bodies(model.graph(), path);
  check_function_calls(model, path);
  check_shape_input_lengths(model.graph(), path);
  check_recurrent_ranks(model.graph(), path);
  check_layer_norm_axes(model.graph(), path);
  precheck_ops(model, opts, opset);

  bool upgraded = false;
  if (opset < kCanonicalOpset && model.graph().node_size() == 0) {
    // Nothing to upgrade (and the converter crashes on an empty graph).
    opset = kCanonicalOpset;
  } else if (opset < kCanonicalOpset) {
    check_names_for_converter(model.graph(), path);
    // The converter's time grows with the square of the node count (see kMaxConverterNodes).
    if (model.graph().node_size() > kMaxConverterNodes) {
      if (opset < 11)
        refuse(path, "opset " + std::to_string(opset) + " with " + std::to_string(model.graph().node_size()) +
                         " nodes is too large for the ONNX version converter (at most " +
                         std::to_string(kMaxConverterNodes) + "); re-export the model with opset 13 or newer");
      spdlog::debug("onnx: {} has {} nodes, more than the version converter takes; opset {} imported natively",
                    path, model.graph().node_size(), opset);
    }
  }
  if (opset < kCanonicalOpset && model.graph().node_size() <= kMaxConverterNodes) {
    // The converter's adapters read shapes (e.g. broadcasting, Softmax 12->13).
    if (opts.infer_shapes) infer_shapes(model, path);
    const auto external = take_external_refs(model.graph());
    std::string reason;
    try {
      model = onnx::version_conversion::ConvertVersion(model, kCanonicalOpset);
      restore_external_refs(*model.mutable_graph(), external, path);
      upgraded = true;
    } catch (const FrontendError&) {
      throw;
    } catch (const std::exception& e) {
      reason = e.what();
    } catch (...) {
      reason = "unknown error in the ONNX version converter";
    }
    if (!upgraded) {
      reason = converter_reason(reason);
      spdlog::debug("onnx: version conversion of {} from opset {} failed: {}", path, opset, reason);
      if (opset < 11)
        throw FrontendError(path,
                            "opset " + std::to_string(opset) + " cannot be upgraded to 13: " + reason,
                            "onnx");
      // Opsets 11 and 12 are close enough to import natively (normalise() bridges them).
    } else {
      opset = kCanonicalOpset;
    }
  }
  if (opts.infer_shapes) {
    if (opset > kLibOnnxMaxOpset)
      spdlog::debug("onnx: {} uses opset {}, newer than libonnx knows ({}); shapes may stay unknown",
                    path, opset, kLibOnnxMaxOpset);
    infer_shapes(model, path);
  }

  // Context-dependent function bodies need their inputs' types: a call nested
  // in an inlined body (SoftmaxCrossEntropyLoss -> NegativeLogLikelihoodLoss)
  // is expanded on the next round, after shape inference typed it.
  for (int round = 0; round < 4; ++round) {
    const int n = FunctionExpander(model, opset).run();
    if (n == 0) break;
    spdlog::debug("onnx: inlined {} function call(s) in {}", n, path);
    infer_shapes(model, path);
  }

  Importer importer(path, opts, model, opset, declared_opset);
  ir::Graph g = importer.run();
  ir::infer_shapes(g);  // dims libonnx left unknown (computed Reshape targets, our normalisations)
  g.metadata["source.format"] = "onnx";
  std::string producer = model.producer_name();
  if (!model.producer_version().empty())
    producer += (producer.empty() ? "" : " ") + model.producer_version();
  if (!producer.empty()) g.metadata["source.producer"] = producer;
  g.metadata["source.opset"] = source_opset;
  if (upgraded) g.metadata["onnx.upgraded_to"] = "ai.onnx:" + std::to_string(kCanonicalOpset);
  g.metadata["source.ir_version"] = std::to_string(model.ir_version());
  if (!model.doc_string().empty()) g.metadata["source.doc_string"] = model.doc_string();
  for (const auto& kv : model.metadata_props()) g.metadata["onnx.meta." + kv.key()] = kv.value();
  spdlog::debug("onnx: imported {} ({} ops, {} tensors)", path, g.ops.size(), g.tensors.size());
  return g;
}

std::unique_ptr<Frontend> make_onnx_frontend() { return std::make_unique<OnnxFrontend>(); }

}  // namespace ec::frontends
