// The C++ side of the Python binding's overhead benchmark (python_overhead.py): the
// time of one InferenceSession::run on MODEL with prepared inputs, as the binding's
// `InferenceSession.run` calls it.
//
// usage: python_overhead_cpp MODEL [CALLS]   prints "cpp_us_per_call X" (best of 7 rounds)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/session/session.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: python_overhead_cpp MODEL [CALLS]\n");
    return 2;
  }
  const int calls = argc > 2 ? std::atoi(argv[2]) : 20000;
  ec::runtime::SessionOptions options;
  options.threads = 1;
  ec::runtime::InferenceSession session(options);
  session.load(std::string(argv[1]));
  const auto inputs = session.random_inputs(0);
  for (int i = 0; i < 1000; ++i) (void)session.run(inputs);  // warm: arena, caches
  double best = 1e30;
  for (int round = 0; round < 7; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) (void)session.run(inputs);
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        calls;
    best = std::min(best, us);
  }
  std::printf("cpp_us_per_call %.3f\n", best);
  return 0;
}
