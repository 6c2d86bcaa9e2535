// The frontend registry: ONE explicit table (no static self-registration,
// which silently vanishes from static libraries) and open_model().
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/frontends/coreml/coreml_frontend.h"
#include "core/frontends/eir/eir_frontend.h"
#include "core/frontends/keras/keras_frontend.h"
#include "core/frontends/onnx/onnx_frontend.h"
#include "core/frontends/savedmodel/savedmodel_frontend.h"
#include "core/frontends/tflite/tflite_frontend.h"
#include "core/frontends/torchscript/torchscript_frontend.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;

const std::array<FrontendEntry, 7> kFrontends{{
    {"onnx", "ONNX models (.onnx), opsets 1-20", &make_onnx_frontend, "*.onnx", false,
     "no ONNX protobuf header found"},
    {"tflite", "TensorFlow Lite flatbuffers (.tflite), schema 3", &make_tflite_frontend, "*.tflite", false,
     "no 'TFL3' file identifier"},
    {"eir", "edgecompiler IR text (.eir)", &make_eir_frontend, "*.eir", false,
     "text does not start with 'graph \"'"},
    {"coreml", "Core ML ML Programs (.mlpackage, .mlmodel)", &make_coreml_frontend, "*.mlpackage *.mlmodel", true,
     "no Manifest.json folder (.mlpackage) nor Model protobuf (.mlmodel)"},
    {"torchscript", "PyTorch TorchScript archives (.pt, .pth) saved with torch.jit.save", &make_torchscript_frontend,
     "*.pt *.pth *.torchscript", false, "no TorchScript zip archive (code/ and constants.pkl)"},
    {"keras", "Keras models (.keras zip, legacy .h5 with a model config)", &make_keras_frontend, "*.keras *.h5 *.hdf5",
     false, "no .keras zip (config.json) nor HDF5 signature"},
    {"savedmodel", "TensorFlow SavedModel folders (saved_model.pb + variables/)", &make_savedmodel_frontend,
     "saved_model.pb", true, "no saved_model.pb"},
}};

constexpr std::size_t kHeadBytes = 4096;

}  // namespace

std::span<const FrontendEntry> frontend_table() { return kFrontends; }

namespace {
std::vector<std::string> patterns_of(const FrontendEntry& e) {
  std::vector<std::string> out;
  std::string_view p = e.patterns;
  while (!p.empty()) {
    const auto sp = p.find(' ');
    out.emplace_back(p.substr(0, sp));
    p = sp == std::string_view::npos ? std::string_view{} : p.substr(sp + 1);
  }
  return out;
}

ModelHints& hints_storage() {
  static ModelHints hints;
  return hints;
}
}  // namespace

std::string supported_extensions() {
  std::string s;
  for (const auto& e : kFrontends)
    for (const auto& p : patterns_of(e)) {
      const std::string shown = p.rfind("*", 0) == 0 ? p.substr(1) : "SavedModel folders (" + p + ")";
      s += (s.empty() ? "" : ", ") + shown;
    }
  return s;
}

std::string model_file_patterns() {
  std::string s;
  for (const auto& e : kFrontends) s += (s.empty() ? "" : " ") + std::string(e.patterns);
  return s;
}

void set_default_model_hints(ModelHints hints) { hints_storage() = std::move(hints); }
const ModelHints& default_model_hints() { return hints_storage(); }

void parse_input_shape(const std::string& text, ModelHints& hints) {
  const auto bad = [&](const std::string& why) {
    return EdgeCompilerError(ErrorKind::Usage, "--input-shape '" + text.substr(0, 80) + "': " + why +
                                                   " (expected NAME=1,3,224,224 or 1,3,224,224, optionally :int64)");
  };
  const auto eq = text.rfind('=');
  const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
  std::string dims = eq == std::string::npos ? text : text.substr(eq + 1);
  if (const auto colon = dims.find(':'); colon != std::string::npos) {
    static const std::map<std::string, std::string> kTypes{
        {"float32", "f32"}, {"f32", "f32"}, {"int64", "i64"}, {"i64", "i64"}, {"int32", "i32"}, {"i32", "i32"},
        {"bool", "bool"}};
    const auto t = kTypes.find(dims.substr(colon + 1));
    if (t == kTypes.end()) throw bad("unknown dtype '" + dims.substr(colon + 1, 12) + "' (float32, int64, int32 or bool)");
    hints.input_dtypes[name] = t->second;
    dims = dims.substr(0, colon);
  }
  if (dims.empty()) throw bad("no dimensions");
  std::vector<std::int64_t> shape;
  std::size_t i = 0;
  while (i <= dims.size()) {
    const auto comma = std::min(dims.find(',', i), dims.size());
    const std::string d = dims.substr(i, comma - i);
    if (d.empty() || d.size() > 9 || d.find_first_not_of("0123456789") != std::string::npos)
      throw bad("'" + d.substr(0, 12) + "' is not a dimension from 1 to 999999999");
    const std::int64_t v = std::stoll(d);
    if (v < 1) throw bad("a dimension must be at least 1");
    shape.push_back(v);
    if (shape.size() > 8) throw bad("more than 8 dimensions");
    i = comma + 1;
  }
  if (hints.input_shapes.count(name)) throw bad("given twice for the same input");
  hints.input_shapes[name] = std::move(shape);
}

ir::Graph open_model(const std::string& path, const OpenOptions& given, std::string* format) {
  OpenOptions opts = given;
  if (opts.input_shapes.empty()) opts.input_shapes = default_model_hints().input_shapes;
  if (opts.input_dtypes.empty()) opts.input_dtypes = default_model_hints().input_dtypes;
  if (opts.signature.empty()) opts.signature = default_model_hints().signature;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw FrontendError(path, "no such file; check the path");
  if (fs::is_directory(st)) {  // a package folder (.mlpackage) is a model; any other folder is not
    for (std::size_t i = 0; i < kFrontends.size(); ++i)
      if (auto fe = kFrontends[i].make(); fe->match({}, path) > 0) {
        ir::Graph g = fe->open(path, opts);
        if (format) *format = std::string(fe->name());
        return g;
      }
    throw FrontendError(path, "is a directory; pass a model file such as model.onnx (or an .mlpackage or "
                              "SavedModel folder)");
  }
  if (!fs::is_regular_file(st)) throw FrontendError(path, "is not a regular file");

  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw FrontendError(path, std::string("cannot be read (") + std::strerror(errno) +
                                  "); check its permissions");
  const auto size = fs::file_size(path, ec);
  if (!ec && size == 0) throw FrontendError(path, "file is empty (0 bytes); it is not a model");

  std::vector<std::byte> head(kHeadBytes);
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  in.close();
  if (head.empty()) throw FrontendError(path, "file is empty (0 bytes); it is not a model");

  struct Candidate {
    std::size_t index;
    float confidence;
  };
  std::vector<Candidate> ranked;
  std::vector<std::unique_ptr<Frontend>> frontends;
  for (std::size_t i = 0; i < kFrontends.size(); ++i) {
    frontends.push_back(kFrontends[i].make());
    ranked.push_back({i, frontends.back()->match(head, path)});
  }
  // Stable: equal confidence keeps table order.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Candidate& a, const Candidate& b) { return a.confidence > b.confidence; });

  std::vector<Candidate> candidates;
  for (const auto& c : ranked)
    if (c.confidence > 0) candidates.push_back(c);

  if (candidates.empty()) {
    std::string tried;
    for (std::size_t i = 0; i < kFrontends.size(); ++i) {
      tried += (i ? "; " : "") + std::string(kFrontends[i].name) + ": " + std::string(kFrontends[i].no_match);
    }
    throw FrontendError(path, "not a model file this tool can read (" + tried + "); supported: " +
                                  supported_extensions());
  }

  std::vector<std::string> failures;
  for (const auto& c : candidates) {
    const Frontend& fe = *frontends[c.index];
    spdlog::debug("open_model: trying {} for {} (confidence {:.2f})", fe.name(), path, c.confidence);
    try {
      ir::Graph g = fe.open(path, opts);
      if (format) *format = std::string(fe.name());
      return g;
    } catch (const EdgeCompilerError& e) {
      if (candidates.size() == 1) throw;
      failures.push_back(std::string(fe.name()) + ": " + e.what());
    } catch (const std::exception& e) {
      if (candidates.size() == 1)
        throw FrontendError(path, std::string(fe.name()) + " frontend failed: " + e.what(),
                            std::string(fe.name()));
      failures.push_back(std::string(fe.name()) + ": " + e.what());
    }
  }
  std::string all;
  for (const auto& f : failures) all += (all.empty() ? "" : "; ") + f;
  throw FrontendError(path, "no frontend could open it (" + all + ")");
}

}  // namespace ec::frontends
