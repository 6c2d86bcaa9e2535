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
#include "core/frontends/onnx/onnx_frontend.h"
#include "core/frontends/tflite/tflite_frontend.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;

// TorchScript and Keras slot in here.
const std::array<FrontendEntry, 4> kFrontends{{
    {"onnx", "ONNX models (.onnx), opsets 1-20", &make_onnx_frontend},
    {"tflite", "TensorFlow Lite flatbuffers (.tflite), schema 3", &make_tflite_frontend},
    {"eir", "edgecompiler IR text (.eir)", &make_eir_frontend},
    {"coreml", "Core ML ML Programs (.mlpackage, .mlmodel)", &make_coreml_frontend},
}};

// What each frontend says when it does not recognise a file, and the
// extensions it reads; parallel to kFrontends.
struct FrontendHints {
  std::string_view no_match;
  std::string_view extensions;
};
const std::array<FrontendHints, 4> kHints{{
    {"no ONNX protobuf header found", ".onnx"},
    {"no 'TFL3' file identifier", ".tflite"},
    {"text does not start with 'graph \"'", ".eir"},
    {"no Manifest.json folder (.mlpackage) nor Model protobuf (.mlmodel)", ".mlpackage, .mlmodel"},
}};
static_assert(kHints.size() == kFrontends.size(), "one hint row per frontend");

constexpr std::size_t kHeadBytes = 4096;

}  // namespace

std::span<const FrontendEntry> frontend_table() { return kFrontends; }

std::string supported_extensions() {
  std::string s;
  for (const auto& h : kHints) s += (s.empty() ? "" : ", ") + std::string(h.extensions);
  return s;
}

ir::Graph open_model(const std::string& path, const OpenOptions& opts, std::string* format) {
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
    throw FrontendError(path, "is a directory; pass a model file such as model.onnx (or an .mlpackage folder)");
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
      tried += (i ? "; " : "") + std::string(kFrontends[i].name) + ": " + std::string(kHints[i].no_match);
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
