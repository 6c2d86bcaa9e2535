// quantize(): the stages of stages/stages.h, in order, over one QuantContext.
// The graph rewrites are in quant_graph.cpp, the arithmetic in quant_math.cpp,
// observers in observer.cpp.
#include "core/quantize/quantizer.h"

#include "core/quantize/stages/stages.h"

namespace ec::quantize {

QuantizeResult quantize(const ir::Graph& float_graph, const std::vector<Sample>& samples,
                        const QuantizeOptions& options, const ProgressFn& progress) {
  detail::QuantContext c(float_graph, options, progress);
  detail::check_options(c, samples);  // strategy, target, percentile, --keep-float, samples
  detail::prepare(c);                 // QDQ pairs out (qat), passes, non-clamp activations unfused
  detail::choose_ops(c);              // int8 / hybrid / float (with the reason), kernels probed
  detail::observe(c);                 // calibration runs on the lanes (ptq)
  detail::choose_parameters(c);       // ranges -> params, weights, biases that do not fit demoted
  detail::verify_parameters(c);       // scales and zero points valid; wide-range warnings
  detail::rewrite(c);                 // the int8 graph, validated
  detail::verify_graph(c);            // loaded on the CPU runtime
  detail::report(c);                  // float vs int8 runs on the samples -> QuantReport
  detail::sensitivity(c);             // --sensitivity: each layer kept in float alone
  return std::move(c.result);
}

}  // namespace ec::quantize
