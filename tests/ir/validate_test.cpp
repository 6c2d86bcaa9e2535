// validate(): one test per kind of issue, each checking the exact message.
#include "core/ir/validate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/errors.h"
#include "ir_test_util.h"

namespace ec::ir {
namespace {

using test_util::make_chain;
using test_util::make_conv_relu;
using test_util::make_f32_constant;
using test_util::make_op;
using test_util::make_tensor;
using Severity = ValidationIssue::Severity;

std::vector<ValidationIssue> errors_of(const Graph& g) {
  std::vector<ValidationIssue> out;
  for (auto& i : validate(g))
    if (i.severity == Severity::Error) out.push_back(i);
  return out;
}

std::string dump(const std::vector<ValidationIssue>& issues) {
  std::string s;
  for (const auto& i : issues)
    s += (i.severity == Severity::Error ? "E: " : "W: ") + to_string(i) + "\n";
  return s;
}

// True when exactly one issue has this severity and to_string() text.
::testing::AssertionResult has_issue(const Graph& g, Severity sev, const std::string& text) {
  auto issues = validate(g);
  int n = 0;
  for (const auto& i : issues)
    if (i.severity == sev && to_string(i) == text) ++n;
  if (n == 1) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "wanted once: " << text << "\ngot " << n << " in:\n"
                                       << dump(issues);
}

TEST(Validate, ValidGraphHasNoIssues) {
  Graph g = make_conv_relu();
  auto issues = validate(g);
  EXPECT_TRUE(issues.empty()) << dump(issues);
  EXPECT_NO_THROW(validate_or_throw(g));
}

TEST(Validate, EmptyGraphIsValid) { EXPECT_TRUE(validate(Graph{}).empty()); }

TEST(Validate, OptionalEmptyInputsAndOutputsAreFine) {
  Graph g = make_chain(1);
  g.add_tensor(make_tensor("c", DType::Float32, Shape::of({1, 16})));
  g.add_tensor(make_tensor("d", DType::Float32, Shape::of({1, 16})));
  g.ops.push_back(make_op(OpKind::Clip, "clip", {"t0", "", "x"}, {"c"}));
  g.ops.push_back(make_op(OpKind::Dropout, "drop", {"c"}, {"d", ""}));
  g.outputs = {"d"};
  auto issues = validate(g);
  EXPECT_TRUE(issues.empty()) << dump(issues);
}

TEST(Validate, TwoProducersOfOneTensor) {
  Graph g = make_conv_relu();
  g.ops.push_back(make_op(OpKind::Relu, "/dup/Relu", {"x"}, {"y"}));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op '/dup/Relu': output is also produced by op '/conv1/Conv' (SSA: one "
                        "producer per tensor) (tensor 'y')"));
}

TEST(Validate, OpOutputThatIsAGraphInputOrAConstant) {
  Graph g = make_conv_relu();
  g.ops.push_back(make_op(OpKind::Relu, "r1", {"z"}, {"x"}));
  g.ops.push_back(make_op(OpKind::Relu, "r2", {"z"}, {"w"}));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op 'r1': output is also a graph input (SSA: one producer per tensor) "
                        "(tensor 'x')"));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op 'r2': output is also a constant (SSA: one producer per tensor) "
                        "(tensor 'w')"));
}

TEST(Validate, SameOutputTwiceInOneOp) {
  Graph g = make_chain(1);
  g.ops.push_back(make_op(OpKind::Split, "split", {"t0"}, {"s", "s"}));
  EXPECT_TRUE(
      has_issue(g, Severity::Error, "op 'split': op lists the same output twice (tensor 's')"));
}

TEST(Validate, DanglingInput) {
  Graph g = make_conv_relu();
  g.ops[1].inputs = {"ghost"};
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op '/relu1/Relu': input is not defined: not a graph input, a constant or "
                        "an op output (tensor 'ghost')"));
}

TEST(Validate, OpsOutOfOrder) {
  Graph g = make_conv_relu();
  std::swap(g.ops[0], g.ops[1]);
  EXPECT_TRUE(
      has_issue(g, Severity::Error,
                "op '/relu1/Relu': input is used before op '/conv1/Conv' produces it (ops "
                "are not in topological order; topological_sort() fixes this) (tensor 'y')"));
  EXPECT_EQ(errors_of(g).size(), 1u) << dump(validate(g));
}

TEST(Validate, Cycle) {
  Graph g = make_chain(3);
  g.ops[0].inputs = {"t2"};  // op0 <- op2 <- op1 <- op0
  auto errors = errors_of(g);
  ASSERT_EQ(errors.size(), 1u) << dump(validate(g));
  EXPECT_EQ(to_string(errors[0]), "graph has a cycle through op 'op0' (tensor 't2')");
  EXPECT_TRUE(errors[0].op.empty());
}

TEST(Validate, GraphInputs) {
  Graph g = make_conv_relu();
  g.inputs = {"x", "x", "missing", "w"};
  EXPECT_TRUE(has_issue(g, Severity::Error, "graph input is listed more than once (tensor 'x')"));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "graph input has no entry in the graph's tensors (tensor 'missing')"));
  EXPECT_TRUE(
      has_issue(g, Severity::Error,
                "graph input is a constant; constants are not runtime inputs (tensor 'w')"));
}

TEST(Validate, GraphOutputNotDefined) {
  Graph g = make_conv_relu();
  g.outputs.push_back("nothing");
  g.outputs.push_back("w");  // a constant output is defined
  g.outputs.push_back("x");  // so is a pass-through input
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "graph output is not defined: not a graph input, a constant or an op "
                        "output (tensor 'nothing')"));
  EXPECT_EQ(errors_of(g).size(), 1u) << dump(validate(g));
}

TEST(Validate, InputArity) {
  Graph g = make_conv_relu();
  g.ops[1].inputs = {"y", "y"};
  g.ops[0].inputs = {"x"};
  EXPECT_TRUE(has_issue(g, Severity::Error, "op '/relu1/Relu': Relu takes 1 input(s), got 2"));
  EXPECT_TRUE(has_issue(g, Severity::Error, "op '/conv1/Conv': Conv takes 2 to 3 input(s), got 1"));
}

TEST(Validate, VariadicArityAndTrailingPlaceholders) {
  Graph g = make_chain(1);
  Operation concat = make_op(OpKind::Concat, "cat", {}, {"c"});
  concat.attributes["axis"] = std::int64_t{0};
  g.ops.push_back(concat);
  // Trailing "" placeholders count: Clip takes at most 3 inputs.
  g.ops.push_back(make_op(OpKind::Clip, "clip", {"t0", "", "", ""}, {"d"}));
  EXPECT_TRUE(has_issue(g, Severity::Error, "op 'cat': Concat takes at least 1 input(s), got 0"));
  EXPECT_TRUE(has_issue(g, Severity::Error, "op 'clip': Clip takes 1 to 3 input(s), got 4"));
  // Many inputs are fine for a variadic op.
  Graph ok = make_chain(1);
  Operation sum = make_op(OpKind::Sum, "sum", std::vector<std::string>(40, "t0"), {"s"});
  ok.add_tensor(make_tensor("s", DType::Float32, Shape::of({1, 16})));
  ok.ops.push_back(sum);
  EXPECT_TRUE(errors_of(ok).empty()) << dump(validate(ok));
}

TEST(Validate, RequiredInputLeftEmpty) {
  Graph g = make_conv_relu();
  g.ops[0].inputs = {"x", "", "b"};
  EXPECT_TRUE(
      has_issue(g, Severity::Error, "op '/conv1/Conv': required input #1 of Conv is empty"));
}

TEST(Validate, OutputArity) {
  Graph g = make_conv_relu();
  g.ops[1].outputs = {"z", "z2"};
  g.add_tensor(make_tensor("z2", DType::Float32, Shape::of({1})));
  EXPECT_TRUE(has_issue(g, Severity::Error, "op '/relu1/Relu': Relu has 1 output(s), got 2"));
  Graph t = make_chain(1);
  t.ops.push_back(make_op(OpKind::TopK, "topk", {"t0", "x"}, {"v"}));
  t.add_tensor(make_tensor("v", DType::Float32, Shape::of({1})));
  EXPECT_TRUE(has_issue(t, Severity::Error, "op 'topk': TopK has 2 output(s), got 1"));
}

TEST(Validate, UnnamedOpIsNamedByIndex) {
  Graph g = make_conv_relu();
  g.ops[1].name.clear();
  g.ops[1].inputs = {"y", "y"};
  EXPECT_TRUE(has_issue(g, Severity::Error, "op '#1': Relu takes 1 input(s), got 2"));
}

TEST(Validate, MissingRequiredAttribute) {
  Graph g = make_chain(1);
  g.add_tensor(make_tensor("c", DType::Float32, Shape::of({2, 16})));
  g.ops.push_back(make_op(OpKind::Concat, "/cat/Concat", {"t0", "t0"}, {"c"}));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op '/cat/Concat': missing required attribute 'axis' of Concat"));
  g.ops.back().attributes["axis"] = std::int64_t{0};
  EXPECT_TRUE(validate(g).empty()) << dump(validate(g));
}

TEST(Validate, AttributeOfWrongKind) {
  Graph g = make_conv_relu();
  g.ops[0].attributes["group"] = 1.0;
  g.ops[0].attributes["pads"] = std::string("same");
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op '/conv1/Conv': attribute 'group' is float; Conv expects int"));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op '/conv1/Conv': attribute 'pads' is string; Conv expects ints"));
}

TEST(Validate, AttributeNotInSchemaIsAWarning) {
  Graph g = make_conv_relu();
  g.ops[0].attributes["frobnicate"] = std::int64_t{3};
  EXPECT_TRUE(has_issue(g, Severity::Warning,
                        "op '/conv1/Conv': attribute 'frobnicate' is not in the schema of Conv"));
  EXPECT_TRUE(errors_of(g).empty());
  EXPECT_NO_THROW(validate_or_throw(g));
}

TEST(Validate, TensorAttributeByteSize) {
  Graph g = make_chain(1);
  g.add_tensor(make_tensor("filled", DType::Float32, Shape::of({1, 16})));
  Operation op = make_op(OpKind::ConstantOfShape, "cos", {"t0"}, {"filled"});
  float one = 1.0f;
  op.attributes["value"] = TensorValue{DType::Float32, {2}, ConstantData::copy_of(&one, 4)};
  g.ops.push_back(op);
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op 'cos': attribute 'value' holds 4 bytes; f32 x 2 elements needs 8"));
}

TEST(Validate, UnknownOpIsAWarningOnly) {
  Graph g = make_chain(1);
  Operation op;
  op.name = "/fused/FusedConv";
  op.kind = OpKind::Unknown;
  op.op_type = "com.microsoft::FusedConv";
  op.inputs = {"t0", "", "", "", "", ""};  // no arity checks for unknown ops
  op.outputs = {"f"};
  op.attributes["anything"] = std::string("goes");
  g.add_tensor(make_tensor("f", DType::Float32, Shape::unknown_rank()));
  g.ops.push_back(op);
  auto issues = validate(g);
  ASSERT_EQ(issues.size(), 1u) << dump(issues);
  EXPECT_EQ(issues[0].severity, Severity::Warning);
  EXPECT_EQ(issues[0].op, "/fused/FusedConv");
  EXPECT_EQ(issues[0].message, "op type 'com.microsoft::FusedConv' is not known to the IR");
}

TEST(Validate, OpTypeNotMatchingKindIsAWarning) {
  Graph g = make_conv_relu();
  g.ops[1].op_type = "MyRelu";
  EXPECT_TRUE(has_issue(g, Severity::Warning,
                        "op '/relu1/Relu': op_type 'MyRelu' does not match its kind Relu"));
}

TEST(Validate, DuplicateOpNameAndMissingTensorEntryAreWarnings) {
  Graph g = make_conv_relu();
  g.ops[1].name = g.ops[0].name;
  g.tensors.erase("z");
  EXPECT_TRUE(
      has_issue(g, Severity::Warning, "op '/conv1/Conv': op name is used by more than one op"));
  EXPECT_TRUE(
      has_issue(g, Severity::Warning,
                "op '/conv1/Conv': output has no entry in the graph's tensors (tensor 'z')"));
  EXPECT_TRUE(errors_of(g).empty()) << dump(validate(g));
}

TEST(Validate, ConstantByteSize) {
  Graph g = make_conv_relu();
  g.tensors["b"].data = ConstantData::copy_of("0123456789ab", 12);  // f32[4] needs 16
  EXPECT_TRUE(
      has_issue(g, Severity::Error, "constant holds 12 bytes; f32[4] needs 16 (tensor 'b')"));
}

TEST(Validate, ConstantByteSizeSkipsStringsAndDynamicShapes) {
  Graph g = make_conv_relu();
  Tensor s = make_tensor("names", DType::String, Shape::of({3}));
  s.data = ConstantData::copy_of("abc", 3);
  g.add_tensor(s);
  Tensor d = make_tensor("dyn", DType::Float32, Shape{{Dim::named("n")}, true});
  d.data = ConstantData::copy_of("abc", 3);
  g.add_tensor(d);
  Tensor i4 = make_tensor("nibbles", DType::Int4, Shape::of({5}));  // 5 nibbles -> 3 bytes
  i4.data = ConstantData::copy_of("abc", 3);
  g.add_tensor(i4);
  Tensor undef = make_tensor("undef", DType::Undefined, Shape::of({1}));
  undef.data = ConstantData::copy_of("a", 1);
  g.add_tensor(undef);
  auto errors = errors_of(g);
  ASSERT_EQ(errors.size(), 1u) << dump(validate(g));
  EXPECT_EQ(to_string(errors[0]), "constant has no dtype (tensor 'undef')");
}

TEST(Validate, QuantScalesMustBePositiveAndFinite) {
  for (float bad : {0.0f, -0.5f, std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN()}) {
    Graph g = make_conv_relu();
    g.tensors["y"].quant = QuantParams{DType::Int8, {bad}, {0}, -1};
    auto errors = errors_of(g);
    ASSERT_EQ(errors.size(), 1u) << dump(validate(g));
    EXPECT_EQ(errors[0].tensor, "y");
    EXPECT_NE(errors[0].message.find("quantisation scale #0 is "), std::string::npos);
    EXPECT_NE(errors[0].message.find("; scales must be finite and > 0"), std::string::npos);
  }
}

TEST(Validate, QuantCountsAndAxis) {
  Graph g = make_conv_relu();
  // w is f32[4,3,3,3]: per-channel on axis 0 needs 4 scales.
  g.tensors["w"].quant = QuantParams{DType::Int8, {0.1f, 0.2f, 0.3f}, {0, 0, 0}, 0};
  g.tensors["b"].quant = QuantParams{DType::Int32, {0.1f, 0.2f}, {0}, 0};
  g.tensors["y"].quant = QuantParams{DType::UInt8, {0.1f, 0.2f}, {0, 0}, -1};
  g.tensors["z"].quant = QuantParams{DType::Int8, {0.1f}, {0}, 7};
  g.tensors["x"].quant = QuantParams{DType::Int8, {}, {}, -1};
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "quantisation has 3 scales but axis 0 has 4 channels (tensor 'w')"));
  EXPECT_TRUE(
      has_issue(g, Severity::Error, "quantisation has 2 scales but 1 zero points (tensor 'b')"));
  EXPECT_TRUE(
      has_issue(g, Severity::Error,
                "quantisation has 2 scales (per-channel) but no channel axis (tensor 'y')"));
  EXPECT_TRUE(
      has_issue(g, Severity::Error, "quantisation axis 7 is out of range for rank 4 (tensor 'z')"));
  EXPECT_TRUE(has_issue(g, Severity::Error, "quantisation has no scales (tensor 'x')"));
}

TEST(Validate, QuantPerChannelValidAndZeroPointRange) {
  Graph g = make_conv_relu();
  g.tensors["w"].quant = QuantParams{DType::Int8, {0.1f, 0.2f, 0.3f, 0.4f}, {0, 0, 0, 0}, 0};
  // Unknown channel count: nothing to compare against.
  g.tensors["x"].shape =
      Shape{{Dim::named("batch"), Dim::unknown(), Dim::fixed(8), Dim::fixed(8)}, true};
  g.tensors["x"].quant = QuantParams{DType::UInt8, {0.5f, 0.25f}, {128, 3}, 1};
  EXPECT_TRUE(validate(g).empty()) << dump(validate(g));
  g.tensors["y"].quant = QuantParams{DType::Int8, {0.5f}, {200}, -1};
  g.tensors["z"].quant = QuantParams{DType::Float32, {0.5f}, {0}, -1};
  EXPECT_TRUE(
      has_issue(g, Severity::Error,
                "quantisation zero point #0 = 200 is outside the range of i8 (tensor 'y')"));
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "quantisation storage type f32 is not an integer type (tensor 'z')"));
}

TEST(Validate, OpLevelQuant) {
  Graph g = make_conv_relu();
  g.ops[0].quant = QuantParams{DType::Int32, {-1.0f}, {0}, -1};
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "op '/conv1/Conv': op quantisation scale #0 is -1; scales must be finite "
                        "and > 0"));
}

TEST(Validate, TensorStoredUnderAnotherName) {
  Graph g = make_conv_relu();
  g.tensors["y"].name = "why";
  EXPECT_TRUE(has_issue(g, Severity::Error,
                        "tensor is stored under a different name ('why') (tensor 'y')"));
}

TEST(Validate, ToString) {
  EXPECT_EQ(to_string({Severity::Error, "x", "t", "bad"}), "op 'x': bad (tensor 't')");
  EXPECT_EQ(to_string({Severity::Error, "x", "", "bad"}), "op 'x': bad");
  EXPECT_EQ(to_string({Severity::Warning, "", "t", "bad"}), "bad (tensor 't')");
  EXPECT_EQ(to_string({Severity::Warning, "", "", "bad"}), "bad");
}

TEST(Validate, ValidateOrThrowReportsFirstErrorAndDetailListsAll) {
  Graph g = make_conv_relu();
  g.ops[1].inputs = {"ghost"};
  g.outputs.push_back("nothing");
  try {
    validate_or_throw(g);
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    EXPECT_STREQ(e.what(),
                 "op '/relu1/Relu': input is not defined: not a graph input, a constant or an op "
                 "output (tensor 'ghost')");
    EXPECT_NE(e.detail().find("(tensor 'nothing')"), std::string::npos) << e.detail();
    EXPECT_EQ(e.kind(), ErrorKind::Graph);
  }
}

TEST(Validate, LargeGraph) {
  // 100k ops: a chain with a side input to each op, so use lists get real work.
  Graph g = make_chain(100000);
  for (std::size_t i = 1; i < g.ops.size(); i += 2) {
    g.ops[i].kind = OpKind::Add;
    g.ops[i].op_type = "Add";
    g.ops[i].inputs.push_back("x");
  }
  auto issues = validate(g);
  EXPECT_TRUE(issues.empty()) << dump(issues);
  // The same graph reversed: one order error, found without quadratic work.
  std::reverse(g.ops.begin(), g.ops.end());
  issues = validate(g);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].message.find("not in topological order"), std::string::npos);
}

}  // namespace
}  // namespace ec::ir
