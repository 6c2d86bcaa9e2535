// The IR text form: golden output, round trips of every field, parse errors, fuzzing.
#include "core/ir/text_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/errors.h"
#include "core/ir/validate.h"
#include "ir_test_util.h"

namespace ec::ir {
namespace {

using test_util::expect_graphs_equal;
using test_util::make_chain;
using test_util::make_f32_constant;
using test_util::make_op;
using test_util::make_tensor;

Shape dyn_shape(std::vector<Dim> dims) { return Shape{std::move(dims), true}; }

// A graph using every feature of the IR the text form has to carry.
Graph make_everything() {
  Graph g;
  g.name = "every \"thing\"\n\tmodel";
  g.version = -42;
  g.metadata["source.format"] = "onnx";
  g.metadata["weird key\t\x01"] = "value with \"quotes\", \\ and \xc3\xbcnicode";
  g.metadata[""] = "";

  g.add_tensor(make_tensor(
      "input.1", DType::Float32,
      dyn_shape({Dim::named("batch"), Dim::fixed(3), Dim::unknown(), Dim::named("width px")})));
  g.add_tensor(make_tensor("onnx::Mask 1", DType::Bool, Shape::unknown_rank()));
  g.add_tensor(make_tensor("scalar", DType::Int64, Shape::of(std::vector<std::int64_t>{})));
  g.inputs = {"input.1", "onnx::Mask 1", "scalar", "not_a_tensor"};

  // Per-channel quantised weight under a PyTorch-style name.
  Tensor w =
      make_f32_constant("/features/features.3/conv/conv.0/weight", Shape::of({4, 3, 1, 1}), 12);
  w.quant = QuantParams{DType::Int8, {0.1f, 0.25f, 3.4028235e38f, 1.4e-45f}, {0, -1, 127, -128}, 0};
  g.add_tensor(w);
  g.add_tensor(make_f32_constant("onnx::Conv_123", Shape::of({4}), 4));
  Tensor empty = make_tensor("empty", DType::UInt8, Shape::of({0}));
  empty.data = ConstantData::copy_of(nullptr, 0);
  g.add_tensor(empty);
  Tensor str = make_tensor("labels", DType::String, Shape::of({2}));
  str.data = ConstantData::copy_of("cat\0dog\n", 8);
  g.add_tensor(str);

  Operation conv = make_op(OpKind::Conv, "/features/features.3/conv/conv.0/Conv",
                           {"input.1", "/features/features.3/conv/conv.0/weight", "onnx::Conv_123"},
                           {"conv_out"});
  conv.attributes["group"] = std::int64_t{1};
  conv.attributes["pads"] = std::vector<std::int64_t>{
      1, 1, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  conv.attributes["strides"] = std::vector<std::int64_t>{};
  conv.attributes["auto_pad"] = std::string("NOTSET \"quoted\" \\ \n");
  conv.attributes["alpha"] = 0.1;
  conv.attributes["eps"] = 1e-5;
  conv.attributes["one"] = 1.0;
  conv.attributes["negzero"] = -0.0;
  conv.attributes["huge"] = 1e300;
  conv.attributes["tiny"] = 5e-324;
  conv.attributes["inf"] = -std::numeric_limits<double>::infinity();
  conv.attributes["floats"] = std::vector<double>{1.0, -2.5, 1.0 / 3.0, 1e-310};
  conv.attributes["nofloats"] = std::vector<double>{};
  conv.attributes["strings"] = std::vector<std::string>{"a", "", "b,c]", "\"x\""};
  conv.attributes["nostrings"] = std::vector<std::string>{};
  conv.attributes["odd key!"] = std::int64_t{-7};
  float tv[2] = {1.5f, -2.0f};
  conv.attributes["value"] = TensorValue{DType::Float32, {1, 2}, ConstantData::copy_of(tv, 8)};
  conv.attributes["scalar_value"] =
      TensorValue{DType::Int64, {}, ConstantData::copy_of("\0\0\0\0\0\0\0\1", 8)};
  conv.quant = QuantParams{DType::Int32, {0.001f}, {0}, -1};
  g.ops.push_back(conv);
  Tensor conv_out = make_tensor(
      "conv_out", DType::Float32,
      dyn_shape({Dim::named("batch"), Dim::fixed(4), Dim::unknown(), Dim{7, "static_named"}}));
  conv_out.quant = QuantParams{DType::UInt8, {0.05f}, {128}, -1};
  g.add_tensor(conv_out);

  // Optional input left out, and an optional output not produced.
  g.ops.push_back(make_op(OpKind::Clip, "", {"conv_out", "", "scalar"}, {"clipped"}));
  g.add_tensor(make_tensor("clipped", DType::Float32, Shape::unknown_rank()));
  g.ops.push_back(make_op(OpKind::Dropout, "drop", {"clipped"}, {"dropped", ""}));
  g.add_tensor(make_tensor("dropped", DType::Undefined, Shape::unknown_rank()));

  // Multi-output op; the second output has no tensor entry.
  Operation split = make_op(OpKind::Split, "split", {"dropped"}, {"part0", "part1"});
  split.attributes["axis"] = std::int64_t{1};
  g.ops.push_back(split);
  g.add_tensor(make_tensor("part0", DType::Float16, Shape::of({1, 2})));

  // An op the IR does not know.
  Operation fused;
  fused.name = "com.microsoft fused";
  fused.kind = OpKind::Unknown;
  fused.op_type = "com.microsoft::FusedConv";
  fused.inputs = {"part0", "", "onnx::Mask 1"};
  fused.outputs = {"fused", "fused_aux"};
  fused.attributes["activation"] = std::string("Relu");
  g.ops.push_back(fused);
  g.add_tensor(make_tensor("fused", DType::BFloat16, Shape::unknown_rank()));
  g.add_tensor(make_tensor("fused_aux", DType::Complex64, Shape::of({2})));

  // An unknown op with a simple name, an op with no outputs, kinds that do not match op_type.
  Operation custom;
  custom.kind = OpKind::Unknown;
  custom.op_type = "MyCustom";
  custom.inputs = {"fused"};
  custom.outputs = {"custom"};
  g.ops.push_back(custom);
  Operation sink;
  sink.kind = OpKind::Unknown;
  sink.op_type = "Print";
  sink.inputs = {"custom"};
  g.ops.push_back(sink);
  Operation renamed = make_op(OpKind::Relu, "renamed", {"custom"}, {"renamed_out"});
  renamed.op_type = "MyRelu";
  g.ops.push_back(renamed);
  Operation unknown_conv = make_op(OpKind::Relu, "unknown conv", {"custom"}, {"uc"});
  unknown_conv.kind = OpKind::Unknown;
  unknown_conv.op_type = "Conv";
  g.ops.push_back(unknown_conv);

  // A tensor nothing mentions (a typed intermediate left over by a pass).
  Tensor orphan = make_tensor("orphan", DType::Int4, Shape::of({3}));
  orphan.quant = QuantParams{DType::Int4, {0.5f}, {-8}, -1};
  g.add_tensor(orphan);
  // An empty-named tensor entry.
  g.add_tensor(make_tensor("", DType::Float64, Shape::of({1})));

  g.outputs = {"fused", "part1", "input.1", ""};
  return g;
}

void expect_round_trip(const Graph& g) {
  std::string text = print(g);
  Graph back;
  try {
    back = parse(text);
  } catch (const GraphError& e) {
    FAIL() << e.what() << "\n" << text;
  }
  expect_graphs_equal(g, back);
  EXPECT_EQ(print(back), text);
}

TEST(TextFormat, GoldenOutput) {
  Graph g;
  g.name = "tiny";
  g.metadata["source.format"] = "onnx";
  g.add_tensor(
      make_tensor("x", DType::Float32,
                  dyn_shape({Dim::named("batch"), Dim::fixed(3), Dim::fixed(8), Dim::fixed(8)})));
  g.add_tensor(make_f32_constant("w", Shape::of({1}), 1));
  g.tensors["w"].data = ConstantData::copy_of("\x00\x00\x80\x3f", 4);  // 1.0f
  Shape out = dyn_shape({Dim::named("batch"), Dim::fixed(4), Dim::fixed(8), Dim::fixed(8)});
  g.add_tensor(make_tensor("y", DType::Float32, out));
  g.add_tensor(make_tensor("z", DType::Float32, out));
  g.inputs = {"x"};
  Operation conv = make_op(OpKind::Conv, "/conv1/Conv", {"x", "w"}, {"y"});
  conv.attributes["group"] = std::int64_t{1};
  conv.attributes["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
  conv.attributes["epsilon"] = 1.0;
  g.ops.push_back(conv);
  g.ops.push_back(make_op(OpKind::Relu, "", {"y"}, {"z"}));
  g.outputs = {"z"};
  const char* expected =
      "graph \"tiny\" version 1 {\n"
      "  meta \"source.format\" = \"onnx\"\n"
      "  input %x : f32[batch,3,8,8]\n"
      "  const %w : f32[1] = hex\"0000803f\"\n"
      "  %y = Conv(%x, %w) {epsilon = 1.0, group = 1, pads = [1,1,1,1]} : f32[batch,4,8,8] "
      "@\"/conv1/Conv\"\n"
      "  %z = Relu(%y) : f32[batch,4,8,8]\n"
      "  output %z\n"
      "}\n";
  EXPECT_EQ(print(g), expected);
  expect_round_trip(g);
}

TEST(TextFormat, EveryFeatureRoundTrips) {
  Graph g = make_everything();
  std::string text = print(g);
  // Spot checks of how the features are spelled.
  for (const char* piece : {
           "graph \"every \\\"thing\\\"\\n\\tmodel\" version -42 {",
           "meta \"weird key\\t\\x01\" = ",
           "input %input.1 : f32[batch,3,?,\"width px\"]",
           "input %\"onnx::Mask 1\" : bool[*]",
           "input %scalar : i64[]",
           "input %not_a_tensor\n",
           "const %/features/features.3/conv/conv.0/weight : f32[4,3,1,1] quant(i8, "
           "scales=[0.1,0.25,",
           "zero_points=[0,-1,127,-128], axis=0) = hex\"000000000000803f",
           "const %empty : u8[0] = hex\"\"",
           "strides = ints[]",
           "nofloats = floats[]",
           "nostrings = strings[]",
           "negzero = -0.0",
           "one = 1.0",
           "inf = -inf",
           "\"odd key!\" = -7",
           "value = tensor(f32, [1,2], hex\"0000c03f000000c0\")",
           "scalar_value = tensor(i64, [], hex\"0000000000000001\")",
           "} quant(i32, scales=[0.001], zero_points=[0], axis=-1) : f32[batch,4,?,static_named=7] "
           "quant(u8, scales=[0.05], zero_points=[128], axis=-1) "
           "@\"/features/features.3/conv/conv.0/Conv\"",
           "%clipped = Clip(%conv_out, %\"\", %scalar) : f32[*]\n",
           "%dropped, %\"\" = Dropout(%clipped) : undefined[*], f64[1] @\"drop\"",
           "%part0, %part1 = Split(%dropped) {axis = 1} : f16[1,2], - @\"split\"",
           "= \"com.microsoft::FusedConv\"(%part0, %\"\", %\"onnx::Mask 1\")",
           "%custom = MyCustom(%fused) : -\n",
           "() = Print(%custom)\n",
           "%renamed_out = MyRelu<Relu>(%custom) : - @\"renamed\"",
           "%uc = Conv<?>(%custom) : - @\"unknown conv\"",
           "tensor %orphan : i4[3] quant(i4, scales=[0.5], zero_points=[-8], axis=-1)",
           "output %part1\n  output %input.1\n  output %\"\"\n}\n",
       }) {
    EXPECT_NE(text.find(piece), std::string::npos) << "missing: " << piece << "\nin:\n" << text;
  }
  expect_round_trip(g);
}

TEST(TextFormat, ConstantsPrintSortedByName) {
  Graph g = make_chain(1);
  g.add_tensor(make_f32_constant("zeta", Shape::of({1}), 1));
  g.add_tensor(make_f32_constant("alpha", Shape::of({1}), 1));
  g.add_tensor(make_f32_constant("Mid", Shape::of({1}), 1));
  std::string text = print(g);
  auto a = text.find("const %Mid"), b = text.find("const %alpha"), c = text.find("const %zeta");
  ASSERT_NE(c, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

TEST(TextFormat, PrintIsDeterministic) {
  Graph g = make_everything();
  EXPECT_EQ(print(g), print(g));
  Graph copy = g;
  EXPECT_EQ(print(copy), print(g));
}

TEST(TextFormat, ConstantAlsoAGraphInputAndOpOutputRoundTrips) {
  // Invalid graphs must still survive the text form, so they can be inspected.
  Graph g = make_chain(2);
  g.add_tensor(make_f32_constant("c", Shape::of({1}), 1));
  g.inputs.push_back("c");
  g.inputs.push_back("x");  // listed twice
  g.ops.push_back(make_op(OpKind::Relu, "r", {"t1"}, {"c"}));
  g.ops.push_back(make_op(OpKind::Relu, "r2", {"t1"}, {"t0"}));  // second producer of t0
  expect_round_trip(g);
}

TEST(TextFormat, FloatsRoundTripBitExactly) {
  std::mt19937_64 rng(7);
  Graph g = make_chain(1);
  std::vector<double> doubles = {0.1,      1.0 / 3.0,
                                 1e-5,     2.2250738585072014e-308,
                                 4.9e-324, 1.7976931348623157e308,
                                 -0.0,     123456789.0,
                                 1e21,     1e22,
                                 0.3};
  for (int i = 0; i < 2000; ++i) {
    std::uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (!std::isnan(d)) doubles.push_back(d);
  }
  std::vector<float> floats = {0.1f, 1e-45f, 3.4028235e38f, 1.17549435e-38f, 0.007874016f};
  for (int i = 0; i < 2000; ++i) {
    auto bits = static_cast<std::uint32_t>(rng());
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (std::isfinite(f)) floats.push_back(f);
  }
  g.ops[0].attributes["many"] = doubles;
  for (std::size_t i = 0; i < 50; ++i) g.ops[0].attributes["d" + std::to_string(i)] = doubles[i];
  g.tensors["t0"].quant =
      QuantParams{DType::Int8, floats, std::vector<std::int64_t>(floats.size()), 1};
  expect_round_trip(g);
}

TEST(TextFormat, ElidedConstantsPrintButDoNotParse) {
  Graph g = make_everything();
  PrintOptions opts;
  opts.elide_constants_above = 8;
  std::string text = print(g, opts);
  EXPECT_NE(text.find("const %\"onnx::Conv_123\" : f32[4] = elided(16 bytes)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("const %labels : string[2] = hex\"63617400646f670a\""), std::string::npos);
  // Line of the first elided constant.
  std::size_t at = text.find("elided(");
  ASSERT_NE(at, std::string::npos);
  std::size_t line = 1 + static_cast<std::size_t>(std::count(
                             text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  std::size_t name_start = text.rfind("const %", at) + 6;
  std::string name = text.substr(name_start, text.find(" :", name_start) - name_start);
  try {
    parse(text);
    FAIL() << "parse accepted an elided constant";
  } catch (const GraphError& e) {
    EXPECT_EQ(std::string(e.what()), "line " + std::to_string(line) + ": constant " + name +
                                         " was elided; print without elision to round-trip");
  }
}

TEST(TextFormat, HandWrittenTextParses) {
  const char* text = R"(// a comment before the graph
graph "tiny" version 1 {
  meta "source.format" = "onnx"   // trailing comment
  input %x : f32[batch,3,8,8]
  const %w : f32[1] = hex"0000803F"
  %y = Conv(%x,%w){group=1,pads=[1, 1, 1, 1], alpha = floats[1, 2], s = ["a"], e = 1e-5}:f32[batch,4,8,8]@"/conv1/Conv"
  %z = Relu( %y ) : f32[batch,4,8,8] @relu
  %q = "my.domain::Op"(%z) {v = tensor(u8, [2], hex"ff00")} : - @"/q"
  output %z
}
)";
  Graph g = parse(text);
  EXPECT_EQ(g.name, "tiny");
  EXPECT_EQ(g.version, 1);
  EXPECT_EQ(g.metadata.at("source.format"), "onnx");
  ASSERT_EQ(g.ops.size(), 3u);
  EXPECT_EQ(g.ops[0].kind, OpKind::Conv);
  EXPECT_EQ(g.ops[0].name, "/conv1/Conv");
  EXPECT_EQ(g.ops[0].inputs, (std::vector<std::string>{"x", "w"}));
  EXPECT_EQ(g.ops[0].attr_ints("pads"), (std::vector<std::int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(std::get<std::vector<double>>(*g.ops[0].attr("alpha")),
            (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(std::get<double>(*g.ops[0].attr("e")), 1e-5);
  EXPECT_EQ(g.ops[1].name, "relu");
  EXPECT_EQ(g.ops[2].kind, OpKind::Unknown);
  EXPECT_EQ(g.ops[2].op_type, "my.domain::Op");
  const Attribute* v = g.ops[2].attr("v");
  ASSERT_NE(v, nullptr);
  const auto& tv = std::get<TensorValue>(*v);
  EXPECT_EQ(tv.dtype, DType::UInt8);
  ASSERT_EQ(tv.data.size(), 2u);
  EXPECT_EQ(std::to_integer<int>(tv.data.bytes()[0]), 0xff);
  const Tensor* w = g.find_tensor("w");
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->is_constant());
  EXPECT_EQ(w->data->as<float>()[0], 1.0f);
  EXPECT_EQ(g.find_tensor("q"), nullptr);
  EXPECT_EQ(g.outputs, (std::vector<std::string>{"z"}));
  // The parsed graph is valid apart from the unknown op.
  for (const auto& issue : validate(g))
    EXPECT_EQ(issue.severity, ValidationIssue::Severity::Warning) << to_string(issue);
}

struct BadText {
  const char* text;
  const char* message;  // exact what()
};

TEST(TextFormat, ParseErrorsNameTheLine) {
  const BadText cases[] = {
      {"", "line 1: expected 'graph' at the start of the text, got end of input"},
      {"grap \"g\" {}", "line 1: expected 'graph' at the start of the text, got 'grap'"},
      {"graph g {}", "line 1: expected a quoted string after 'graph' (the graph's name), got 'g'"},
      {"graph \"g\" {\n", "line 2: unexpected end of input: missing '}' to close the graph"},
      {"graph \"g\" {\n  bogus %x\n}",
       "line 2: unknown statement 'bogus'; expected meta, input, const, tensor, output or an op"},
      {"graph \"g\" {\n  input %x : f99[1]\n}", "line 2: unknown dtype 'f99'"},
      {"graph \"g\" {\n  input %x : f32 [1]\n}",
       "line 2: expected '[' right after the dtype, got '[1]'"},
      {"graph \"g\" {\n  input %x : f32[1,-2]\n}",
       "line 2: dimension -2 is negative; use '?' or a name"},
      {"graph \"g\" {\n  input %x : f32[1,2\n}",
       "line 3: expected ']' to close the shape, got '}'"},
      {"graph \"g\" {\n\n  const %w : u8[1] = hex\"abc\"\n}",
       "line 3: odd number of hex digits in constant data"},
      {"graph \"g\" {\n  const %w : u8[1] = hex\"zz\"\n}",
       "line 2: invalid hex digit in constant data"},
      {"graph \"g\" {\n  const %w : u8[1] = 0x00\n}",
       "line 2: expected constant data (hex\"...\"), got '0x00'"},
      {"graph \"g\" {\n  const %\"a b\" : f32[4] = elided(16 bytes)\n}",
       "line 2: constant %\"a b\" was elided; print without elision to round-trip"},
      {"graph \"g\" {\n  input %x : f32[1]\n  tensor %x : f32[1]\n}",
       "line 3: tensor %x is declared twice"},
      {"graph \"g\" {\n  %a, %b = Split(%x) : f32[1]\n}",
       "line 2: op has 2 outputs but 1 output types"},
      {"graph \"g\" {\n  %a = Relu(%x) : f32[1], -\n}",
       "line 2: more output types than outputs (1)"},
      {"graph \"g\" {\n  meta \"k\n\" = \"v\"\n}",
       "line 2: unterminated string (strings cannot span lines; use \\n)"},
      {"graph \"g\" {\n  meta \"k\\q\" = \"v\"\n}", "line 2: unknown escape '\\q' in a string"},
      {"graph \"g\" {\n  meta \"k\\x4\" = \"v\"\n}",
       "line 2: '\\x' in a string needs two hex digits"},
      {"graph \"g\" {\n  meta \"k\" = \"v\"\n  meta \"k\" = \"w\"\n}",
       "line 3: metadata key given twice"},
      {"graph \"g\" {\n  %y = Relu(%x) {a = 1,\n a = 2}\n}", "line 3: attribute 'a' given twice"},
      {"graph \"g\" {\n  %y = Relu(%x) {a = 99999999999999999999}\n}",
       "line 2: integer '99999999999999999999' is out of range"},
      {"graph \"g\" {\n  %y = Relu(%x) {a = 1.5.3}\n}", "line 2: invalid number '1.5.3'"},
      {"graph \"g\" {\n  %y = Relu(%x) {a = ints[1, 2.5]}\n}", "line 2: '2.5' in an ints list"},
      {"graph \"g\" {\n  %y = Relu(%x) {a = [\"s\", 1]}\n}",
       "line 2: expected a quoted string in a strings list, got '1]}'"},
      {"graph \"g\" {\n  %y = ConstantOfShape(%x) {value = tensor(f32, [1], elided(4 bytes))}\n}",
       "line 2: tensor attribute 'value' was elided; print without elision to round-trip"},
      {"graph \"g\" {\n  %y = Relu<Nope>(%x)\n}", "line 2: unknown op kind 'Nope'"},
      {"graph \"g\" {\n  %y = Relu(%x\n}",
       "line 3: expected ')' to close the op's inputs, got '}'"},
      {"graph \"g\" {\n  % = Relu(%x)\n}", "line 2: expected a tensor name after '%', got '='"},
      {"graph \"g\" {\n  %y Relu(%x)\n}",
       "line 2: expected '=' after the op's outputs, got 'Relu(%x)'"},
      {"graph \"g\" {\n  () = Print(%x) : f32[1]\n}",
       "line 2: an op with no outputs has no output types"},
      {"graph \"g\" {\n  input %x : i8[1] quant(i8, [0.1])\n}",
       "line 2: expected 'scales', got '[0.1])'"},
      {"graph \"g\" {\n  input %x : i8[1] quant(i8, scales=[0.1], zero_points=[0], axis=-2)\n}",
       "line 2: quantisation axis -2 is out of range"},
      {"graph \"g\" {\n  input %x : i8[1] quant(i8, scales=[x], zero_points=[0], axis=0)\n}",
       "line 2: invalid number 'x'"},
      {"graph \"g\" {\n  // comment }\n  /* no */\n}", "line 3: expected a statement, got '/*'"},
      {"graph \"g\" {\n}\n\n trailing",
       "line 4: unexpected text after the graph's closing '}': 'trailing'"},
      {"graph \"g\" version x {}", "line 1: expected an integer, got 'x'"},
      {"graph \"g\" {\n  input %x : f32[*,1]\n}",
       "line 2: expected ']' after '*' (unknown rank), got ',1]'"},
      {"graph \"g\" {\n  %y = Relu(%x) @\n}", "line 3: expected an op name after '@', got '}'"},
      {"graph \"g\" {\n  %y = Relu(%x) {a = \x01}\n}",
       "line 2: expected an attribute value, got '\\x01}'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse(c.text);
      ADD_FAILURE() << "parsed without error";
    } catch (const GraphError& e) {
      EXPECT_EQ(std::string(e.what()), c.message);
      EXPECT_EQ(e.kind(), ErrorKind::Graph);
    }
  }
}

// parse() must answer every input with a Graph or a GraphError: never crash,
// hang or throw anything else. Whatever it accepts must print stably.
// Returns whether the text parsed.
bool fuzz_one(std::string_view text) {
  Graph g;
  try {
    g = parse(text);
  } catch (const GraphError& e) {
    EXPECT_EQ(std::string_view(e.what()).substr(0, 5), "line ") << e.what();
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception: " << e.what();
    return false;
  }
  std::string once = print(g);
  try {
    EXPECT_EQ(print(parse(once)), once);
  } catch (const GraphError& e) {
    ADD_FAILURE() << "re-parse failed: " << e.what() << "\n" << once;
  }
  return true;
}

TEST(TextFormat, FuzzRandomBytes) {
  std::mt19937 rng(12345);
  const std::string prefix = "graph \"g\" {\n";
  for (int i = 0; i < 3000; ++i) {
    std::string text = (i % 2) ? prefix : std::string();
    const int len = static_cast<int>(rng() % 200);
    for (int k = 0; k < len; ++k) text += static_cast<char>(rng() & 0xff);
    fuzz_one(text);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(TextFormat, FuzzMutatedValidText) {
  const std::string base = print(make_everything());
  std::mt19937 rng(777);
  const char vocab[] = "%\"\\=,:()[]{}<>@-?*.0123456789 \nabcxfquantsxe";
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      std::size_t at = rng() % text.size();
      switch (rng() % 5) {
        case 0:
          text[at] = static_cast<char>(rng() & 0xff);
          break;
        case 1:
          text[at] = vocab[rng() % (sizeof vocab - 1)];
          break;
        case 2:
          text.insert(at, 1, vocab[rng() % (sizeof vocab - 1)]);
          break;
        case 3:
          text.erase(at, 1 + rng() % 20);
          break;
        case 4:
          text.insert(at, text.substr(rng() % text.size(), rng() % 30));
          break;
      }
    }
    if (fuzz_one(text)) ++parsed;
    if (::testing::Test::HasFailure()) return;
  }
  // Some mutations (in names, numbers, comments) still parse; they exercise print stability.
  EXPECT_GT(parsed, 100);
  RecordProperty("parsed", parsed);
}

TEST(TextFormat, TenThousandOpsRoundTrip) {
  Graph g = make_chain(10000);
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    g.ops[i].attributes["alpha"] = 0.01 * static_cast<double>(i);
    g.ops[i].attributes["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
    g.tensors["t" + std::to_string(i)].quant = QuantParams{DType::Int8, {0.02f}, {3}, -1};
  }
  std::string text = print(g);
  Graph back = parse(text);
  ASSERT_EQ(back.ops.size(), 10000u);
  EXPECT_EQ(print(back), text);
}

}  // namespace
}  // namespace ec::ir
