#include "core/compare/dump.h"

#include <fnmatch.h>

#include <cctype>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/session/session.h"
#include "core/util/atomic_file.h"
#include "core/util/npy.h"

namespace ec::compare {

std::string file_safe_name(const std::string& name) {
  std::string s;
  for (char c : name)
    s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  while (!s.empty() && s.front() == '.') s.erase(s.begin());
  if (s.size() > 200) s = s.substr(s.size() - 200);  // file names stop at 255 bytes
  return s.empty() ? "tensor" : s;
}

namespace {

bool matches(const std::string& pattern, const std::string& text) {
  if (pattern.find_first_of("*?[") == std::string::npos) return text.find(pattern) != std::string::npos;
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

}  // namespace

std::vector<DumpedTensor> dump_intermediates(const ir::FrozenGraph& graph, const std::map<std::string, runtime::Tensor>& inputs,
                                             const DumpOptions& options, std::map<std::string, runtime::Tensor>* outputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (ec || !fs::is_directory(options.dir))
    throw EdgeCompilerError(ErrorKind::Io, options.dir + ": cannot create the directory for the intermediate tensors");
  runtime::SessionOptions so;
  so.threads = options.threads;
  so.keep_intermediates = true;
  runtime::InferenceSession session(so);
  session.load(graph);
  std::vector<DumpedTensor> written;
  std::set<std::string> used;
  auto write = [&](const std::string& name, const std::string& op, const std::string& op_type, const runtime::Tensor& t) {
    if (!options.pattern.empty() && !matches(options.pattern, name) && !matches(options.pattern, op) &&
        !matches(options.pattern, op_type))
      return;
    if (!t.defined() || ir::dtype_size(t.dtype()) == 0) return;  // strings: no .npy form here
    std::string stem = file_safe_name(name), file = stem + ".npy";
    for (int k = 2; used.count(file); ++k) file = stem + "_" + std::to_string(k) + ".npy";  // two names, one file name
    used.insert(file);
    util::write_npy((fs::path(options.dir) / file).string(), t.dtype(), t.shape(), t.raw());
    DumpedTensor d{name, file, op, op_type, t.dtype(), t.shape(), std::nullopt};
    if (const ir::Tensor* info = graph->find_tensor(name); info && info->quant) d.quant = info->quant;
    written.push_back(std::move(d));
  };
  for (const auto& n : graph->inputs)
    if (auto it = inputs.find(n); it != inputs.end()) write(n, "", "input", it->second);
  auto out = session.run(inputs, [&](const ir::Operation& op, std::size_t, const std::string& n, const runtime::Tensor& v) {
    write(n, op.name, op.op_type, v);
  });
  nlohmann::json index;
  index["model"] = graph->name;
  index["pattern"] = options.pattern;
  auto& rows = index["tensors"] = nlohmann::json::array();
  for (const auto& d : written) {
    nlohmann::json j{{"tensor", d.tensor}, {"file", d.file}, {"op", d.op}, {"op_type", d.op_type},
                     {"dtype", std::string(ir::dtype_name(d.dtype))}, {"shape", d.shape}};
    if (d.quant) {
      j["quant"] = {{"scales", d.quant->scales}, {"zero_points", d.quant->zero_points}, {"axis", d.quant->axis}};
    }
    rows.push_back(std::move(j));
  }
  util::write_file_atomically((fs::path(options.dir) / "index.json").string(), index.dump(2) + "\n");
  if (outputs) *outputs = std::move(out);
  return written;
}

}  // namespace ec::compare
