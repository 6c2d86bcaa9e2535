// history_writer DB N TAG: adds N bench runs tagged TAG to the run history at DB,
// each through a new RunStore (a new connection, as N CLI processes would).
// Prints "wrote N"; exits 1 on the first failure.
#include <cstdlib>
#include <iostream>
#include <string>

#include "core/history/run_store.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: history_writer DB N TAG\n";
    return 2;
  }
  const std::string db = argv[1], tag = argv[3];
  const int n = std::atoi(argv[2]);
  try {
    for (int i = 0; i < n; ++i) {
      ec::history::RunStore store(db);
      ec::history::RunRecord r;
      r.kind = "bench";
      r.model_path = "/models/" + tag + ".onnx";
      r.model_sha256 = tag;
      r.target = "cpu";
      r.device = "host-cpu";
      r.options_json = "{\"writer\": \"" + tag + "\", \"i\": " + std::to_string(i) + "}";
      ec::runtime::Stats s;
      s.latencies_ms = {1.0 + i, 2.0 + i};
      ec::runtime::summarise(s);
      r.stats = s;
      store.add(r);
    }
  } catch (const std::exception& e) {
    std::cerr << "history_writer " << tag << ": " << e.what() << '\n';
    return 1;
  }
  std::cout << "wrote " << n << '\n';
  return 0;
}
