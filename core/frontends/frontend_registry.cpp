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
#include "core/frontends/eir/eir_frontend.h"
#include "core/frontends/onnx/onnx_frontend.h"
#include "core/frontends/tflite/tflite_frontend.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;

// TorchScript and Keras slot in here.
const std::array<FrontendEntry, 3> kFrontends{{
    {"onnx", "ONNX models (.onnx), opsets 1-20", &make_onnx_frontend},
    {"tflite", "TensorFlow Lite flatbuffers (.tflite), schema 3", &make_tflite_frontend},
    {"eir", "edgecompiler IR text (.eir)", &make_eir_frontend},
}};

// What each frontend says when it does not recognise a file, and the
// extensions it reads; parallel to kFrontends.
struct FrontendHints {
  std::string_view no_match;
  std::string_view extensions;
};
const std::array<FrontendHints, 3> kHints{{
    {"no ONNX protobuf header found", ".onnx"},
    {"no 'TFL3' file identifier", ".tflite"},
    {"text does not start with 'graph \"'", ".eir"},
}};
static_assert(kHints.size() == kFrontends.size(), "one hint row per frontend");

constexpr std::size_t kHeadBytes = 4096;

}  // namespace

std::span<const FrontendEntry> frontend_table() { return kFrontends; }

ir::Graph open_model(const std::string& path, const OpenOptions& opts) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw FrontendError(path, "no such file; check the path");
  if (fs::is_directory(st))
    throw FrontendError(path, "is a directory; pass a model file such as model.onnx");
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
    std::string tried, supported;
    for (std::size_t i = 0; i < kFrontends.size(); ++i) {
      tried += (i ? "; " : "") + std::string(kFrontends[i].name) + ": " + std::string(kHints[i].no_match);
      supported += (i ? ", " : "") + std::string(kHints[i].extensions);
    }
    throw FrontendError(path, "not a model file this tool can read (" + tried + "); supported: " +
                                  supported);
  }

  std::vector<std::string> failures;
  for (const auto& c : candidates) {
    const Frontend& fe = *frontends[c.index];
    spdlog::debug("open_model: trying {} for {} (confidence {:.2f})", fe.name(), path, c.confidence);
    try {
      return fe.open(path, opts);
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
