// .tflite -> IR -> .tflite -> IR gives the same IR text (op types, attributes,
// shapes, quantisation params and weights), per op family: the real Edge TPU
// test models (conv, depthwise, add, pooling, concat, resize, argmax, reshape,
// softmax on u8) and small graphs of each other family built in the IR text
// form, written, read back and written again.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/frontends/tflite/tflite_frontend.h"
#include "core/ir/text_format.h"
#include "core/session/session.h"

namespace {

using ec::backends::tflite::prepare_for_tflite;
using ec::backends::tflite::save_tflite;

std::string dump(ec::ir::Graph g) {
  g.metadata.clear();  // producer and file metadata legitimately differ
  return ec::ir::print(g);
}

ec::ir::Graph reread(const ec::ir::Graph& g) {
  auto bytes = std::make_shared<const std::string>(save_tflite(prepare_for_tflite(g, {}), {}));
  return ec::frontends::load_tflite(bytes, "roundtrip.tflite");
}

class EdgeTpuRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(EdgeTpuRoundTrip, WriteReadGivesTheSameIr) {
  const std::string path = std::string(EC_TFLITE_DATA_DIR) + "/" + GetParam() + ".tflite";
  const ec::ir::Graph g = ec::frontends::open_model(path);
  const ec::ir::Graph back = reread(g);
  EXPECT_EQ(dump(g), dump(back));
}

INSTANTIATE_TEST_SUITE_P(Models, EdgeTpuRoundTrip,
                         ::testing::Values("mobilenet_v1_0.25_128_quant", "deeplabv3_mnv2_dm05_pascal_quant",
                                           "posenet_mobilenet_v1_075_353_481_quant_decoder",
                                           "mobilenet_v1_0.25_128_quant_edgetpu",
                                           "deeplabv3_mnv2_dm05_pascal_quant_edgetpu",
                                           "posenet_mobilenet_v1_075_353_481_quant_decoder_edgetpu"));

// One small graph per op family, in the IR text form (NHWC as the reader makes it).
struct Family {
  const char* name;
  const char* text;
};

const Family kFamilies[] = {
    {"elementwise_and_activations", R"(graph "f" {
  input %x : f32[1,4,4,3]
  const %c : f32[3] = hex"0000003f000080bf00000040"
  %a = Add(%x, %c) : f32[1,4,4,3]
  %m = Mul(%a, %x) : f32[1,4,4,3]
  %s = Sub(%m, %c) : f32[1,4,4,3]
  %d = Div(%s, %c) : f32[1,4,4,3]
  %mx = Max(%d, %x) : f32[1,4,4,3]
  %mn = Min(%mx, %a) : f32[1,4,4,3]
  %r = Relu(%mn) : f32[1,4,4,3]
  %t = Tanh(%r) : f32[1,4,4,3]
  %g = Sigmoid(%t) : f32[1,4,4,3]
  %h = HardSwish(%g) : f32[1,4,4,3]
  %l = LeakyRelu(%h) {alpha = 0.2} : f32[1,4,4,3]
  %y = Exp(%l) : f32[1,4,4,3]
  output %y
})"},
    {"data_movement", R"(graph "f" {
  input %x : f32[1,4,4,3]
  const %s : i64[2] = hex"04000000000000001800000000000000"
  %t = Transpose(%x) {perm = [0,3,1,2]} : f32[1,3,4,4]
  %c = Concat(%t, %t) {axis = 1} : f32[1,6,4,4]
  %y = Reshape(%c, %s) : f32[4,24]
  output %y
})"},
    {"reduce_softmax", R"(graph "f" {
  input %x : f32[1,4,4,8]
  %m = ReduceMean(%x) {axes = [1,2], keepdims = 0} : f32[1,8]
  %y = Softmax(%m) {axis = -1} : f32[1,8]
  output %y
})"},
    {"linear", R"(graph "f" {
  input %x : f32[2,4]
  const %w : f32[3,4] = hex"0000803f0000803f0000803f0000803f0000004000000040000000400000004000004040000040400000404000004040"
  const %b : f32[3] = hex"0000803f0000000000000000"
  %y = FullyConnected(%x, %w, %b) {fused_activation = "RELU"} : f32[2,3]
  output %y
})"},
};

TEST(TfliteFamilies, WriteReadWriteIsAFixpoint) {
  for (const auto& f : kFamilies) {
    SCOPED_TRACE(f.name);
    ec::ir::Graph g = ec::ir::parse(f.text);
    g.metadata["source.format"] = "tflite";  // already in TFLite's conventions
    const ec::ir::Graph once = reread(g);
    const ec::ir::Graph twice = reread(once);
    EXPECT_EQ(dump(once), dump(twice));
    EXPECT_EQ(once.ops.size() >= 1, true);
  }
}

// The IR's DepthToSpace/SpaceToDepth are NCHW; the writer wraps TFLite's NHWC ops in
// TRANSPOSE pairs. What it writes computes what the IR graph computes.
TEST(TfliteWriter, DepthToSpaceAndSpaceToDepthComputeTheSame) {
  ec::ir::Graph g = ec::ir::parse(R"(graph "f" {
  input %x : f32[1,8,2,3]
  %d = DepthToSpace(%x) {blocksize = 2, mode = "DCR"} : f32[1,2,4,6]
  %r = Relu(%d) : f32[1,2,4,6]
  %y = SpaceToDepth(%r) {blocksize = 2} : f32[1,8,2,3]
  output %d
  output %y
})");
  g.metadata["source.format"] = "tflite";
  const ec::ir::Graph back = reread(g);
  int written = 0;
  for (const auto& op : back.ops) written += op.op_type == "DepthToSpace" || op.op_type == "SpaceToDepth";
  EXPECT_EQ(written, 2);
  ec::runtime::InferenceSession original, roundtrip;
  original.load(ec::ir::freeze(ec::ir::Graph(g)));
  roundtrip.load(ec::ir::freeze(ec::ir::Graph(back)));
  const auto inputs = original.random_inputs(3);
  const auto a = original.run(inputs);
  const auto b = roundtrip.run(inputs);
  for (const char* name : {"d", "y"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(a.at(name).to_float_vector(), b.at(name).to_float_vector());
  }
  // CRD has no TFLite form: one line naming the op (LegaliseTflite rewrites it before the writer).
  ec::ir::Graph crd = ec::ir::parse(R"(graph "f" {
  input %x : f32[1,8,2,3]
  %y = DepthToSpace(%x) {blocksize = 2, mode = "CRD"} : f32[1,2,4,6]
  output %y
})");
  crd.metadata["source.format"] = "tflite";
  EXPECT_THROW((void)save_tflite(prepare_for_tflite(crd, {}), {}), ec::UnsupportedOpError);
}

// The IR's ConvTranspose (NCHW, [Cin, Cout, KH, KW]) is written as TRANSPOSE,
// TRANSPOSE_CONV, TRANSPOSE and read back as the same op: SAME and VALID, strides
// 1 and 2, with and without bias, and an output_padding the VALID form absorbs.
std::string hex_floats(std::size_t n, unsigned seed) {
  std::string h;
  static const char* digits = "0123456789abcdef";
  unsigned state = seed * 2654435761u + 12345u;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    const float f = static_cast<float>((state >> 8) & 0xffff) / 65536.0f - 0.5f;
    unsigned char b[4];
    std::memcpy(b, &f, 4);
    for (unsigned char c : b) {
      h += digits[c >> 4];
      h += digits[c & 15];
    }
  }
  return h;
}

ec::ir::Graph conv_transpose_graph(std::int64_t cin, std::int64_t cout, std::int64_t in, std::int64_t k, std::int64_t s,
                                   std::int64_t pad, std::int64_t opad, bool bias) {
  const std::int64_t out = s * (in - 1) + opad + k - 2 * pad;
  auto dims = [](std::initializer_list<std::int64_t> v) {
    std::string r;
    for (auto x : v) r += (r.empty() ? "" : ",") + std::to_string(x);
    return r;
  };
  std::string text = "graph \"f\" {\n  input %x : f32[" + dims({1, cin, in, in}) + "]\n";
  text += "  const %w : f32[" + dims({cin, cout, k, k}) + "] = hex\"" +
          hex_floats(static_cast<std::size_t>(cin * cout * k * k), 7) + "\"\n";
  if (bias) text += "  const %b : f32[" + dims({cout}) + "] = hex\"" + hex_floats(static_cast<std::size_t>(cout), 9) + "\"\n";
  text += "  %y = ConvTranspose(%x, %w" + std::string(bias ? ", %b" : "") + ") {group = 1, kernel_shape = [" +
          dims({k, k}) + "], strides = [" + dims({s, s}) + "], pads = [" + dims({pad, pad, pad, pad}) + "]" +
          (opad ? ", output_padding = [" + dims({opad, opad}) + "]" : std::string()) + "} : f32[" +
          dims({1, cout, out, out}) + "]\n  output %y\n}";
  ec::ir::Graph g = ec::ir::parse(text);
  g.metadata["source.format"] = "tflite";
  return g;
}

// The IR graph and its written-and-read-back form compute the same (1e-5 relative).
void expect_same_outputs(const ec::ir::Graph& g, const ec::ir::Graph& back) {
  ec::runtime::InferenceSession original, roundtrip;
  original.load(ec::ir::freeze(ec::ir::Graph(g)));
  roundtrip.load(ec::ir::freeze(ec::ir::Graph(back)));
  const auto inputs = original.random_inputs(5);
  const auto a = original.run(inputs).at("y").to_float_vector();
  const auto b = roundtrip.run(inputs).at("y").to_float_vector();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5 * std::max(1.0f, std::abs(a[i]))) << "at " << i;
}

TEST(TfliteWriter, ConvTransposeComputesTheSame) {
  struct Case {
    const char* name;
    std::int64_t cin, cout, in, k, s, pad, opad;
    bool bias;
  };
  const Case cases[] = {
      {"same_stride1", 3, 4, 5, 3, 1, 1, 0, true},   // TFLite SAME: 5 -> 5
      {"same_stride2", 2, 3, 4, 4, 2, 1, 0, false},  // TFLite SAME: 4 -> 8
      {"valid_stride1", 3, 2, 4, 2, 1, 0, 0, true},  // VALID: 4 -> 5
      {"valid_stride2", 2, 3, 4, 3, 2, 0, 0, true},  // VALID: 4 -> 9
      {"valid_stride2_output_padding", 2, 2, 4, 3, 2, 0, 1, false},  // VALID: 4 -> 10
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ec::ir::Graph g = conv_transpose_graph(c.cin, c.cout, c.in, c.k, c.s, c.pad, c.opad, c.bias);
    const ec::ir::Graph back = reread(g);
    int written = 0;
    for (const auto& op : back.ops) written += op.op_type == "ConvTranspose";
    EXPECT_EQ(written, 1);
    // Written again, the reader's Transpose pair folds into TRANSPOSE_CONV: no growth.
    EXPECT_EQ(dump(reread(back)), dump(back));
    expect_same_outputs(g, back);
  }
}

TEST(TfliteWriter, ConvTransposeWithPadsTfliteCannotSayIsCropped) {
  // k 3, stride 2, pads 1, output_padding 1 (PyTorch's usual "same"): 4 -> 8, but
  // TFLite's SAME would put 0 rows before, not 1: a VALID TRANSPOSE_CONV to 9 rows,
  // then a SLICE from row 1, computing what the IR graph computes.
  const ec::ir::Graph g = conv_transpose_graph(2, 2, 4, 3, 2, 1, 1, true);
  const ec::ir::Graph back = reread(g);
  int slices = 0;
  for (const auto& op : back.ops) slices += op.op_type == "Slice";
  EXPECT_EQ(slices, 1);
  expect_same_outputs(g, back);
}

TEST(TfliteWriter, OpWithoutTfliteFormIsOneLineError) {
  ec::ir::Graph g = ec::ir::parse(R"(graph "f" {
  input %x : f32[1,4]
  %y = Erf(%x) : f32[1,4]
  output %y
})");
  g.metadata["source.format"] = "tflite";
  try {
    (void)save_tflite(g);
    FAIL() << "Erf was written";
  } catch (const ec::UnsupportedOpError& e) {
    EXPECT_NE(std::string(e.what()).find("Erf"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

// Refusals where TFLite has no exact form say what TFLite lacks, in one line naming the op.
TEST(TfliteWriter, RefusalsSayWhatTfliteLacks) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {R"(graph "f" {
  input %x : f64[2,3]
  %y = Abs(%x) : f64[2,3]
  output %y
})",
       "float64"},
      {R"(graph "f" {
  input %d : f32[4,4]
  const %i : i64[2,1] = hex"00000000000000000200000000000000"
  input %u : f32[2,4]
  %y = ScatterND(%d, %i, %u) {reduction = "mul"} : f32[4,4]
  output %y
})",
       "SCATTER_ND only sums"},
  };
  for (const auto& c : cases) {
    ec::ir::Graph g = ec::ir::parse(c.text);
    g.metadata["source.format"] = "tflite";
    try {
      (void)save_tflite(g);
      ADD_FAILURE() << "written: " << c.text;
    } catch (const ec::UnsupportedOpError& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

}  // namespace

namespace {

// ONE_HOT and REVERSE_SEQUENCE, as the writer makes them of ONNX's OneHot and
// ReverseSequence, read back as ops the runtime runs, computing the same.
TEST(TfliteWriter, OneHotAndReverseSequenceReadBack) {
  ec::ir::Graph g = ec::ir::parse(R"(graph "f" {
  input %x : f32[3,2,4]
  input %i : i32[2,3]
  const %len : i64[2] = hex"03000000000000000100000000000000"
  const %depth : i64[] = hex"0500000000000000"
  const %vals : f32[2] = hex"000000000000803f"
  %y = ReverseSequence(%x, %len) {batch_axis = 1, time_axis = 0} : f32[3,2,4]
  %o = OneHot(%i, %depth, %vals) {axis = -1} : f32[2,3,5]
  output %y
  output %o
})");
  const ec::ir::Graph back = reread(g);
  for (const char* type : {"OneHot", "ReverseSequence"})
    EXPECT_TRUE(std::any_of(back.ops.begin(), back.ops.end(), [&](const auto& op) { return op.op_type == type; }))
        << type << " not read back";
  ec::runtime::InferenceSession original, roundtrip;
  original.load(ec::ir::freeze(ec::ir::Graph(g)));
  roundtrip.load(ec::ir::freeze(ec::ir::Graph(back)));
  const auto inputs = original.random_inputs(11);
  const auto a = original.run(inputs), b = roundtrip.run(inputs);
  for (const char* name : {"y", "o"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(a.at(name).to_float_vector(), b.at(name).to_float_vector());
  }
}

}  // namespace
