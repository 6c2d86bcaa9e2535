// Import time and peak memory of one model, measured in a fresh process so the
// peak RSS is the import's own. Used by bench/import.sh, which runs the peer
// (the onnx package's onnx.load) on the same file in the same run.
//
// usage: import_bench MODEL [REPEATS]
// prints one JSON line: {"model", "file_bytes", "best_ms", "median_ms", "peak_rss_bytes", ...}
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/frontends/frontend.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: import_bench MODEL [REPEATS]\n";
    return 2;
  }
  const std::string path = argv[1];
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  struct stat st {};
  ::stat(path.c_str(), &st);
  std::vector<double> ms;
  std::size_t ops = 0, tensors = 0;
  try {
    for (int i = 0; i < repeats; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      ec::ir::Graph g = ec::frontends::open_model(path);
      auto t1 = std::chrono::steady_clock::now();
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      ops = g.ops.size();
      tensors = g.tensors.size();
    }
  } catch (const ec::EdgeCompilerError& e) {
    std::cerr << "import_bench: " << e.what() << '\n';
    return 1;
  }
  std::sort(ms.begin(), ms.end());
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  nlohmann::json out{{"model", path},
                     {"file_bytes", static_cast<long long>(st.st_size)},
                     {"ops", ops},
                     {"tensors", tensors},
                     {"repeats", repeats},
                     {"best_ms", ms.front()},
                     {"median_ms", ms[ms.size() / 2]},
                     {"peak_rss_bytes", static_cast<long long>(ru.ru_maxrss) * 1024}};
  std::cout << out.dump() << '\n';
  return 0;
}
