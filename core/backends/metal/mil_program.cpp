#include "core/backends/metal/mil_program.h"

#include <set>

#include "core/backends/metal/deployment.h"
#include "core/backends/metal/mil_ops.h"
#include "core/errors.h"

namespace ec::backends::metal {
namespace {

[[noreturn]] void fail(const std::string& what) { throw BackendError("metal", "ML Program check: " + what); }

bool is_float(ir::DType t) { return t == ir::DType::Float16 || t == ir::DType::Float32; }

bool type_fits(MilIn want, const MilType& got, const MilType& x) {
  switch (want) {
    case MilIn::T: return is_float(got.dtype) && (!is_float(x.dtype) || got.dtype == x.dtype);
    case MilIn::Int32: return got.dtype == ir::DType::Int32;
    case MilIn::Bool: return got.dtype == ir::DType::Bool;
    case MilIn::String: return got.dtype == ir::DType::String;
    case MilIn::Indices: return got.dtype == ir::DType::Int32 || got.dtype == ir::DType::Int64;
    case MilIn::Any: return true;
  }
  return false;
}

}  // namespace

std::int64_t MilValue::num_elements() const {
  std::int64_t n = 1;
  for (auto d : type.shape) n *= d;
  return n;
}

bool is_mil_identifier(const std::string& s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '@') return false;
  return true;
}

int opset_ios(const std::string& opset) {
  if (opset == "CoreML5") return 15;
  if (opset == "CoreML6") return 16;
  if (opset == "CoreML7") return 17;
  if (opset == "CoreML8") return 18;
  return 0;
}

void check_program(const MilProgram& p) {
  const int ios = opset_ios(p.opset);
  if (ios == 0) fail("unknown opset '" + p.opset + "'");
  bool version_ok = false;
  for (const auto& t : deployment_targets())
    if (t.opset == p.opset && t.spec_version == p.spec_version) version_ok = true;
  if (!version_ok)
    fail("opset " + p.opset + " does not agree with specification version " + std::to_string(p.spec_version));

  std::map<std::string, MilType> defined;
  for (const auto& [name, type] : p.inputs) {
    if (!is_mil_identifier(name)) fail("function input '" + name + "' is not a MIL identifier");
    if (!defined.emplace(name, type).second) fail("function input '" + name + "' defined twice");
  }
  for (const auto& op : p.ops) {
    const std::string where = "op '" + op.name + "' (" + op.type + ")";
    const MilOpDef* def = find_mil_op(op.type);
    if (!def) fail(where + ": not an op this writer knows");
    if (def->since_ios > ios) fail(where + ": needs opset iOS" + std::to_string(def->since_ios) + ", program is " + p.opset);
    if (!is_mil_identifier(op.name)) fail(where + ": name is not a MIL identifier");
    if (op.outputs.empty() || op.outputs.front().first != op.name) fail(where + ": first output must carry the op's name");
    if (op.type == "const" && !op.attributes.count("val")) fail(where + ": const without val");
    const MilType* x = nullptr;
    std::set<std::string> seen;
    for (const auto& [arg, names] : op.inputs) {
      const MilInputDef* in = nullptr;
      for (const auto& d : def->inputs)
        if (d.name == arg) in = &d;
      if (!in) fail(where + ": input '" + arg + "' is not one of the op's inputs");
      if (in->since_ios > ios) fail(where + ": input '" + arg + "' exists only from iOS" + std::to_string(in->since_ios));
      if (!seen.insert(arg).second) fail(where + ": input '" + arg + "' given twice");
      if (names.empty() || (names.size() > 1 && !in->tuple)) fail(where + ": input '" + arg + "' binds " + std::to_string(names.size()) + " values");
      for (const auto& n : names) {
        auto it = defined.find(n);
        if (it == defined.end()) fail(where + ": input '" + arg + "' names '" + n + "', which is not defined before it");
        if (!x && (arg == "x" || arg == "values")) x = &it->second;
        if (!type_fits(in->type, it->second, x ? *x : it->second))
          fail(where + ": input '" + arg + "' has the wrong type (" + std::string(ir::dtype_name(it->second.dtype)) + ")");
        if (in->type == MilIn::T && it->second.dtype == ir::DType::Float16 && def->fp16_since_ios > ios)
          fail(where + ": input '" + arg + "' is fp16; the op takes fp32 only before iOS" + std::to_string(def->fp16_since_ios));
      }
    }
    for (const auto& d : def->inputs)
      if (d.required && !d.name.empty() && !seen.count(std::string(d.name)))
        fail(where + ": required input '" + std::string(d.name) + "' missing");
    for (const auto& [name, type] : op.outputs) {
      if (!is_mil_identifier(name)) fail(where + ": output '" + name + "' is not a MIL identifier");
      if (!defined.emplace(name, type).second) fail(where + ": output '" + name + "' defined twice");
    }
  }
  if (p.outputs.empty()) fail("the block has no outputs");
  for (const auto& o : p.outputs)
    if (!defined.count(o)) fail("block output '" + o + "' is not defined by any op");
}

}  // namespace ec::backends::metal
