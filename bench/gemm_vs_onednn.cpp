// Our packed SGEMM against oneDNN's dnnl_sgemm (Debian libdnnl2 2.6) on the GEMM shapes of the
// benchmark models, 1 thread, alternating, median of 9 rounds of each one's thread CPU time (so time
// spent descheduled on a shared machine does not count). Weights are packed once, as in a session.
// Not part of the build (it needs only the runtime library libdnnl.so.2, no headers):
//
//   W=$PWD; g++ -O2 -std=c++20 -I$W bench/gemm_vs_onednn.cpp core/runtime/gemm/gemm.cpp \
//       core/runtime/gemm/gemm_avx2.cpp core/runtime/gemm/gemm_avx512.cpp core/runtime/thread_pool.cpp \
//       /usr/lib/x86_64-linux-gnu/libdnnl.so.2 -lpthread -o /tmp/gemm_vs_onednn
//   OMP_NUM_THREADS=1 /tmp/gemm_vs_onednn
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>
#include "core/runtime/gemm/gemm.h"
extern "C" int dnnl_sgemm(char transa, char transb, std::int64_t M, std::int64_t N, std::int64_t K, float alpha,
                          const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                          std::int64_t ldc);
int main() {
  // const_a / const_b: the operand is a weight (packed once per session by our PackCache).
  struct S { const char* name; std::int64_t M, N, K; bool const_a, const_b, tb; };
  const S shapes[] = {{"resnet 3x3 conv (64x3136x576)", 64, 3136, 576, true, false, false},
                      {"resnet 1x1 conv (256x3136x64)", 256, 3136, 64, true, false, false},
                      {"vit mlp (197x3072x768)", 197, 3072, 768, false, true, false},
                      {"vit qkv (197x2304x768)", 197, 2304, 768, false, true, false},
                      {"lstm step gemv (1x512x128)", 1, 512, 128, false, true, true}};
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1, 1);
  for (const S& s : shapes) {
    std::vector<float> A(s.M * s.K), B(s.K * s.N), C(s.M * s.N), C2(s.M * s.N);
    for (auto& v : A) v = d(rng);
    for (auto& v : B) v = d(rng);
    ec::runtime::gemm::PackCache cache;
    if (s.const_a) cache.add_constant_range(A.data(), A.size() * 4);
    if (s.const_b) cache.add_constant_range(B.data(), B.size() * 4);
    ec::runtime::gemm::PackCacheScope scope(&cache);
    const std::int64_t ldb = s.tb ? s.K : s.N;
    auto time = [&](auto f) {
      const int reps = s.M == 1 ? 2000 : 5;
      // CPU time of this thread: time spent descheduled on the shared machine does not count
      timespec a, b;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
      for (int r = 0; r < reps; ++r) f();
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
      return ((b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec)) / reps;
    };
    std::vector<double> ours, dnnl;
    for (int round = 0; round < 9; ++round) {
      ours.push_back(time([&] { ec::runtime::gemm::sgemm(s.M, s.N, s.K, 1.f, A.data(), s.K, false, B.data(), ldb, s.tb, false, C.data(), s.N); }));
      dnnl.push_back(time([&] { dnnl_sgemm('N', s.tb ? 'T' : 'N', s.M, s.N, s.K, 1.f, A.data(), s.K, B.data(), ldb, 0.f, C2.data(), s.N); }));
    }
    std::sort(ours.begin(), ours.end());
    std::sort(dnnl.begin(), dnnl.end());
    double maxdiff = 0;
    for (std::size_t i = 0; i < C.size(); ++i) maxdiff = std::max<double>(maxdiff, std::abs(C[i] - C2[i]));
    const double flop = 2.0 * s.M * s.N * s.K;
    std::printf("%-32s ours %7.1f GFLOP/s  oneDNN %7.1f GFLOP/s  ours/oneDNN time %.2f  (max diff %.1e)\n", s.name,
                flop / ours[4] / 1e9, flop / dnnl[4] / 1e9, ours[4] / dnnl[4], maxdiff);
  }
}
