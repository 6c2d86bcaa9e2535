// Quantisation benchmark (docs/QUANTISATION.md, "Performance"):
//  - calibration throughput: PTQ of MODEL with N fixed-seed samples (uniform [0, 1)),
//    samples per second of the calibration stage (float runs + observers);
//  - int8 inference latency of the quantised graph against our fp32 latency on the
//    same model (the default pass pipeline applied to both), same thread count.
// usage: quantize_bench MODEL [--samples N] [--threads T] [--iterations I]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/frontends/frontend.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/session/session.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: quantize_bench MODEL [--samples N] [--threads T] [--iterations I]\n");
    return 2;
  }
  int samples = 100, threads = 0, iterations = 30;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--iterations")) iterations = std::atoi(argv[i + 1]);
  }
  try {
    const ec::ir::Graph g = ec::frontends::open_model(argv[1]);
    const auto data = ec::quantize::random_samples(g, samples, 7, 0.f, 1.f);
    ec::quantize::QuantizeOptions o;
    o.num_calibration_samples = samples;
    o.threads = threads;
    const auto r = ec::quantize::quantize(g, data, o);
    const double cal = r.report.calibration_seconds;
    std::printf("%s: calibration of %d samples: %.2f s, %.1f samples/s (threads %d)\n", argv[1], samples, cal,
                samples / cal, threads);
    std::printf("  output SQNR %.2f dB, top-1 agreement %.1f%%\n", r.report.outputs.at(0).sqnr_db.value_or(0),
                100 * r.report.outputs.at(0).top1_agreement.value_or(0));

    ec::ir::Graph f = g;
    ec::passes::PassManagerOptions pmo;
    pmo.record_diffs = false;
    ec::passes::make_pipeline(ec::passes::default_pipeline(), pmo).run(f);
    ec::runtime::InferenceSession fs({threads}), qs({threads});
    fs.load(ec::ir::freeze(std::move(f)));
    qs.load(ec::ir::freeze(r.graph));
    const auto in = fs.random_inputs(1);
    const auto fst = fs.benchmark(in, iterations, 5);
    const auto qst = qs.benchmark(in, iterations, 5);
    std::printf("  fp32: mean %.2f ms, p50 %.2f ms   int8: mean %.2f ms, p50 %.2f ms (%d ops int8)   "
                "int8/fp32 = %.2fx\n",
                fst.mean_ms, fst.p50_ms, qst.mean_ms, qst.p50_ms, qs.quantized_ops(), qst.p50_ms / fst.p50_ms);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "quantize_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
