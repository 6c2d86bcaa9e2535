// LegaliseTfliteInt8: ops whose TFLite builtin is float only become ops TFLite has in
// int8, computing the same values, for fully quantised targets (the Edge TPU). Run
// before quantisation (the ops it makes are calibrated) and before LegaliseTflite,
// which then keeps nothing float-only:
//   LSTM (UNIDIRECTIONAL_/BIDIRECTIONAL_SEQUENCE_LSTM: float, or int8 with 16-bit
//   states) and GRU unrolled over their sequence (decompose/recurrent.cpp): the Edge TPU
//   maps the unrolled FULLY_CONNECTED, LOGISTIC, TANH, MUL and ADD;
//   a 3-D convolution (CONV_3D: float only) as one 2-D convolution over frames
//   (decompose/conv3d.cpp); a global pool over 3 spatial dims as MEAN / REDUCE_MAX
//   (decompose/global_pool.cpp); a ConvTranspose's bias as an Add after it
//   (decompose/conv_transpose_bias.cpp: TRANSPOSE_CONV with a bias is version 3, which the
//   Edge TPU compiler's TFLite cannot parse); a channel shuffle's 5-D Reshape/Transpose/
//   Reshape as one 1x1 Conv with the permutation as weight (decompose/channel_shuffle.cpp:
//   the Edge TPU maps no 5-D tensor).
#include <array>

#include "core/passes/decompose/decompose.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 2> kStats{{
    {"ops_decomposed", "ops decomposed"},
    {"ops_made", "ops made"},
}};

constexpr std::array<decompose::Fn, 5> kSteps{{&decompose::recurrent, &decompose::conv3d_as_conv2d,
                                               &decompose::global_pool_as_reduce, &decompose::conv_transpose_bias_as_add,
                                               &decompose::channel_shuffle_as_conv}};

class LegaliseTfliteInt8 final : public Pass {
 public:
  std::string_view name() const override { return "LegaliseTfliteInt8"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Rewrites ops whose TFLite builtin is float only into ops TFLite has in int8, with the same values, for "
           "fully quantised targets (the Edge TPU): LSTM and GRU unrolled over their static sequence (one "
           "FullyConnected for every step's input, then per step FullyConnected on the state, Split, Sigmoid, Tanh, "
           "Mul, Add); a 3-D convolution as one 2-D convolution over its output frames, the frames each reads "
           "stacked in channels; a global pool over more than two spatial dims as ReduceMean / ReduceMax; a ConvTranspose's bias as an Add after "
           "it (TRANSPOSE_CONV takes a bias from version 3, which the Edge TPU compiler cannot parse); a channel shuffle "
           "(5-D Reshape, Transpose, Reshape) as a 1x1 Conv with the permutation as weight. An op of such a kind it cannot rewrite is left, with a note.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    decompose::apply(g, kSteps, r);
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_legalise_tflite_int8_pass() { return std::make_unique<LegaliseTfliteInt8>(); }

}  // namespace ec::passes
