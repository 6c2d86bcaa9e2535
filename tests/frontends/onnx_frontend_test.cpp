// ONNX frontend: small hand-built models, one behaviour per test.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/frontends/onnx/onnx_frontend.h"
#include "onnx_test_models.h"

namespace ec::frontends {
namespace {

using ec::testing::TempDir;
using namespace ec::testing;

template <typename T>
std::vector<T> values_of(const ir::Tensor& t) {
  auto s = t.data->as<T>();
  return {s.begin(), s.end()};
}

const ir::Operation* find_op(const ir::Graph& g, ir::OpKind kind) {
  for (const auto& op : g.ops)
    if (op.kind == kind) return &op;
  return nullptr;
}

std::string frontend_error_of(const std::string& path, const OpenOptions& opts = {}) {
  try {
    open_model(path, opts);
  } catch (const FrontendError& e) {
    return e.what();
  }
  return "(no FrontendError)";
}

// Initializers become constants; an initializer also listed as a graph input is not a runtime input.
TEST(OnnxFrontend, InitializerIsConstantNotInput) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  add_input(m, "w", {2});
  add_float_initializer(m, "w", {2}, {1.5f, -2.0f});
  add_node(m, "Add", {"x", "w"}, {"y"}, "/add/Add");
  add_output(m, "y", {2});
  m.add_metadata_props()->set_key("author");
  m.mutable_metadata_props(0)->set_value("me");
  write_model(m, dir.file("m.onnx"));

  ir::Graph g = open_model(dir.file("m.onnx"));
  EXPECT_EQ(g.name, "g");
  EXPECT_EQ(g.version, 3);
  ASSERT_EQ(g.inputs, std::vector<std::string>{"x"});
  ASSERT_EQ(g.outputs, std::vector<std::string>{"y"});
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, ir::OpKind::Add);
  EXPECT_EQ(g.ops[0].name, "/add/Add");
  const ir::Tensor* w = g.find_tensor("w");
  ASSERT_TRUE(w && w->is_constant());
  EXPECT_EQ(w->dtype, ir::DType::Float32);
  EXPECT_EQ(w->shape, ir::Shape::of({2}));
  EXPECT_EQ(values_of<float>(*w), (std::vector<float>{1.5f, -2.0f}));
  EXPECT_EQ(g.find_tensor("y")->shape, ir::Shape::of({2}));
  EXPECT_EQ(g.metadata.at("source.format"), "onnx");
  EXPECT_EQ(g.metadata.at("source.producer"), "pytorch 1.13.1");
  EXPECT_EQ(g.metadata.at("source.opset"), "ai.onnx:13");
  EXPECT_EQ(g.metadata.at("source.ir_version"), "8");
  EXPECT_EQ(g.metadata.at("onnx.meta.author"), "me");
}

// Typed fields (float_data, int64_data, int32_data for f16/bool) are converted to raw little-endian bytes.
TEST(OnnxFrontend, TypedInitializerFieldsBecomeRawBytes) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {3});
  auto* f = m.mutable_graph()->add_initializer();
  f->set_name("f");
  f->set_data_type(onnx::TensorProto::FLOAT16);
  f->add_dims(2);
  f->add_int32_data(0x3c00);  // 1.0
  f->add_int32_data(0xc000);  // -2.0
  auto* b = m.mutable_graph()->add_initializer();
  b->set_name("b");
  b->set_data_type(onnx::TensorProto::BOOL);
  b->add_dims(3);
  for (int v : {1, 0, 1}) b->add_int32_data(v);
  add_int64_initializer(m, "shape", {3, 1});
  add_node(m, "Reshape", {"x", "shape"}, {"y"});
  add_node(m, "Identity", {"f"}, {"f2"});
  add_node(m, "Identity", {"b"}, {"b2"});
  add_output(m, "y", {3, 1});
  add_output(m, "f2", {2}, onnx::TensorProto::FLOAT16);
  add_output(m, "b2", {3}, onnx::TensorProto::BOOL);
  write_model(m, dir.file("m.onnx"));

  ir::Graph g = open_model(dir.file("m.onnx"));
  EXPECT_EQ(values_of<std::uint16_t>(*g.find_tensor("f")), (std::vector<std::uint16_t>{0x3c00, 0xc000}));
  EXPECT_EQ(g.find_tensor("f")->dtype, ir::DType::Float16);
  EXPECT_EQ(values_of<std::uint8_t>(*g.find_tensor("b")), (std::vector<std::uint8_t>{1, 0, 1}));
  EXPECT_EQ(values_of<std::int64_t>(*g.find_tensor("shape")), (std::vector<std::int64_t>{3, 1}));
  // Unnamed nodes get deterministic names.
  EXPECT_EQ(g.ops[0].name, "Reshape_0");
  EXPECT_EQ(g.ops[1].name, "Identity_1");
}

// A raw_data size that does not match dtype x shape is a clear error naming the tensor.
TEST(OnnxFrontend, InitializerSizeMismatchNamesTensor) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  add_float_initializer(m, "w", {3}, {1.0f, 2.0f});  // 8 bytes for 3 floats
  add_node(m, "Add", {"x", "w"}, {"y"});
  add_output(m, "y", {3});
  write_model(m, dir.file("m.onnx"));
  const std::string msg = frontend_error_of(dir.file("m.onnx"));
  EXPECT_NE(msg.find("constant 'w' has 8 bytes"), std::string::npos) << msg;
}

// Constant nodes become constant tensors (value tensor, value_float, value_ints), not ops.
TEST(OnnxFrontend, ConstantNodesBecomeConstants) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2, 3});
  auto* c1 = add_node(m, "Constant", {}, {"axes"});
  add_ints_attr(c1, "value_ints", {0});
  auto* c2 = add_node(m, "Constant", {}, {"s"});
  auto* a = c2->add_attribute();
  a->set_name("value_float");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(0.5f);
  auto* c3 = add_node(m, "Constant", {}, {"t"});
  auto* at = c3->add_attribute();
  at->set_name("value");
  at->set_type(onnx::AttributeProto::TENSOR);
  at->mutable_t()->set_data_type(onnx::TensorProto::INT32);
  at->mutable_t()->add_dims(2);
  at->mutable_t()->add_int32_data(7);
  at->mutable_t()->add_int32_data(-8);
  add_node(m, "Unsqueeze", {"x", "axes"}, {"u"});
  add_node(m, "Mul", {"u", "s"}, {"y"});
  add_node(m, "Identity", {"t"}, {"t2"});
  add_output(m, "y", {1, 2, 3});
  add_output(m, "t2", {2}, onnx::TensorProto::INT32);
  write_model(m, dir.file("m.onnx"));

  ir::Graph g = open_model(dir.file("m.onnx"));
  ASSERT_EQ(g.ops.size(), 3u);
  EXPECT_EQ(values_of<std::int64_t>(*g.find_tensor("axes")), std::vector<std::int64_t>{0});
  EXPECT_EQ(g.find_tensor("s")->shape, ir::Shape::of(std::vector<std::int64_t>{}));
  EXPECT_EQ(values_of<float>(*g.find_tensor("s")), std::vector<float>{0.5f});
  EXPECT_EQ(values_of<std::int32_t>(*g.find_tensor("t")), (std::vector<std::int32_t>{7, -8}));
  EXPECT_EQ(g.find_tensor("t")->dtype, ir::DType::Int32);
}

onnx::ModelProto external_model(const std::string& location, std::int64_t offset) {
  auto m = make_model();
  add_input(m, "x", {2});
  for (const char* name : {"w1", "w2"}) {
    auto* t = m.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(2);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* kv = t->add_external_data();
    kv->set_key("location");
    kv->set_value(location);
    kv = t->add_external_data();
    kv->set_key("offset");
    kv->set_value(std::to_string(std::string(name) == "w1" ? 0 : offset));
    kv = t->add_external_data();
    kv->set_key("length");
    kv->set_value("8");
  }
  add_node(m, "Add", {"x", "w1"}, {"a"});
  add_node(m, "Add", {"a", "w2"}, {"y"});
  add_output(m, "y", {2});
  return m;
}

// External data is mapped once per file and sliced per tensor.
TEST(OnnxFrontend, ExternalDataIsMappedAndSliced) {
  TempDir dir;
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  std::string bytes(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
  write_bytes(dir.file("weights.bin"), bytes);
  write_model(external_model("weights.bin", 16), dir.file("m.onnx"));

  ir::Graph g = open_model(dir.file("m.onnx"));
  const ir::Tensor* w1 = g.find_tensor("w1");
  const ir::Tensor* w2 = g.find_tensor("w2");
  ASSERT_TRUE(w1 && w1->is_constant() && w2 && w2->is_constant());
  EXPECT_EQ(values_of<float>(*w1), (std::vector<float>{1, 2}));
  EXPECT_EQ(values_of<float>(*w2), (std::vector<float>{5, 6}));
  // Both are slices of the same mapping.
  EXPECT_EQ(w2->data->data(), w1->data->data() + 16);
}

TEST(OnnxFrontend, ExternalDataMissingFile) {
  TempDir dir;
  write_model(external_model("missing.bin", 8), dir.file("m.onnx"));
  const std::string msg = frontend_error_of(dir.file("m.onnx"));
  EXPECT_EQ(msg, dir.file("m.onnx") +
                     ": external data file 'missing.bin' for tensor 'w1' not found next to the model");
}

TEST(OnnxFrontend, ExternalDataPathMustStayInModelDir) {
  TempDir dir;
  write_bytes(dir.file("w.bin"), std::string(16, '\0'));
  std::filesystem::create_directories(dir.path() / "sub");
  write_model(external_model("../w.bin", 8), dir.file("sub/m.onnx"));
  EXPECT_NE(frontend_error_of(dir.file("sub/m.onnx")).find("escapes the model's directory"),
            std::string::npos);
  write_model(external_model(dir.file("w.bin"), 8), dir.file("abs.onnx"));
  EXPECT_NE(frontend_error_of(dir.file("abs.onnx")).find("is an absolute path"), std::string::npos);
}

TEST(OnnxFrontend, ExternalDataTooShort) {
  TempDir dir;
  write_bytes(dir.file("w.bin"), std::string(12, '\0'));
  write_model(external_model("w.bin", 8), dir.file("m.onnx"));
  EXPECT_NE(frontend_error_of(dir.file("m.onnx")).find("runs past the end of 'w.bin'"),
            std::string::npos);
}

// Nodes listed out of order are sorted; a cycle is a clear error.
TEST(OnnxFrontend, OutOfOrderNodesAreSorted) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  add_node(m, "Neg", {"a"}, {"y"}, "second");
  add_node(m, "Relu", {"x"}, {"a"}, "first");
  add_output(m, "y", {2});
  write_model(m, dir.file("m.onnx"));
  ir::Graph g = open_model(dir.file("m.onnx"));
  ASSERT_EQ(g.ops.size(), 2u);
  EXPECT_EQ(g.ops[0].name, "first");
  EXPECT_EQ(g.ops[1].name, "second");
}

TEST(OnnxFrontend, CycleIsRefused) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  add_node(m, "Add", {"x", "b"}, {"a"}, "A");
  add_node(m, "Relu", {"a"}, {"b"}, "B");
  add_output(m, "b", {2});
  write_model(m, dir.file("m.onnx"));
  const std::string msg = frontend_error_of(dir.file("m.onnx"));
  EXPECT_EQ(msg.rfind(dir.file("m.onnx") + ": graph has a cycle", 0), 0u) << msg;
}

TEST(OnnxFrontend, DanglingInputIsInvalid) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  add_node(m, "Add", {"x", "nowhere"}, {"y"}, "add");
  add_output(m, "y", {2});
  write_model(m, dir.file("m.onnx"));
  const std::string msg = frontend_error_of(dir.file("m.onnx"));
  EXPECT_EQ(msg.rfind(dir.file("m.onnx") + ": invalid graph: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("nowhere"), std::string::npos) << msg;
}

// Opset 9 is upgraded to 13: Unsqueeze's axes attribute becomes a constant input.
TEST(OnnxFrontend, Opset9IsUpgradedTo13) {
  TempDir dir;
  auto m = make_model(9);
  add_input(m, "x", {2, 3});
  auto* n = add_node(m, "Unsqueeze", {"x"}, {"u"}, "unsq");
  add_ints_attr(n, "axes", {0});
  add_node(m, "Relu", {"u"}, {"y"}, "relu");
  add_output(m, "y", {1, 2, 3});
  write_model(m, dir.file("m.onnx"));

  ir::Graph g = open_model(dir.file("m.onnx"));
  EXPECT_EQ(g.metadata.at("source.opset"), "ai.onnx:9");
  EXPECT_EQ(g.metadata.at("onnx.upgraded_to"), "ai.onnx:13");
  const ir::Operation* u = find_op(g, ir::OpKind::Unsqueeze);
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(u->inputs.size(), 2u);
  const ir::Tensor* axes = g.find_tensor(u->inputs[1]);
  ASSERT_TRUE(axes && axes->is_constant());
  EXPECT_EQ(values_of<std::int64_t>(*axes), std::vector<std::int64_t>{0});
  EXPECT_FALSE(u->attributes.count("axes"));
}

// Upsample (opset 9) becomes Resize with its old sampling spelled out.
TEST(OnnxFrontend, Opset9UpsampleBecomesAsymmetricResize) {
  TempDir dir;
  auto m = make_model(9);
  add_input(m, "x", {1, 1, 2, 2});
  auto* s = m.mutable_graph()->add_initializer();
  s->set_name("scales");
  s->set_data_type(onnx::TensorProto::FLOAT);
  s->add_dims(4);
  for (float v : {1.0f, 1.0f, 2.0f, 2.0f}) s->add_float_data(v);
  auto* n = add_node(m, "Upsample", {"x", "scales"}, {"y"}, "up");
  auto* mode = n->add_attribute();
  mode->set_name("mode");
  mode->set_type(onnx::AttributeProto::STRING);
  mode->set_s("nearest");
  add_output(m, "y", {1, 1, 4, 4});
  write_model(m, dir.file("m.onnx"));

  ir::Graph g = open_model(dir.file("m.onnx"));
  const ir::Operation* r = find_op(g, ir::OpKind::Resize);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->attr_string("coordinate_transformation_mode", ""), "asymmetric");
  EXPECT_EQ(r->attr_string("nearest_mode", ""), "floor");
}

// ONNX function ops the IR lacks (NegativeLogLikelihoodLoss) are inlined into standard ops.
TEST(OnnxFrontend, FunctionOpsAreInlined) {
  TempDir dir;
  auto m = make_model(13);
  add_input(m, "input", {3, 5});
  add_input(m, "target", {3}, onnx::TensorProto::INT64);
  auto* n = add_node(m, "NegativeLogLikelihoodLoss", {"input", "target"}, {"loss"}, "nll");
  auto* red = n->add_attribute();
  red->set_name("reduction");
  red->set_type(onnx::AttributeProto::STRING);
  red->set_s("none");
  add_output(m, "loss", {3});
  write_model(m, dir.file("m.onnx"));
  OpenOptions opts;
  opts.allow_unknown_ops = false;
  ir::Graph g = open_model(dir.file("m.onnx"), opts);
  EXPECT_GT(g.ops.size(), 1u);
  for (const auto& op : g.ops) {
    EXPECT_TRUE(op.is_known()) << op.op_type;
    EXPECT_EQ(op.name.rfind("nll/", 0), 0u) << op.name;
  }
  EXPECT_EQ(g.outputs, std::vector<std::string>{"loss"});
}

// Opset 18 Reduce* axes input -> `axes` attribute when constant; a computed one stays an input.
TEST(OnnxFrontend, Opset18ReduceAxesInputBecomesAttribute) {
  TempDir dir;
  auto m = make_model(18);
  add_input(m, "x", {2, 3});
  add_int64_initializer(m, "axes", {1});
  add_node(m, "ReduceMean", {"x", "axes"}, {"y"}, "mean");
  add_output(m, "y", {2, 1});
  write_model(m, dir.file("m.onnx"));
  ir::Graph g = open_model(dir.file("m.onnx"));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(g.ops[0].attr_ints("axes"), std::vector<std::int64_t>{1});
  EXPECT_EQ(g.find_tensor("axes"), nullptr);  // no longer used

  auto m2 = make_model(18);
  add_input(m2, "x", {2, 3});
  add_input(m2, "axes", {1}, onnx::TensorProto::INT64);
  add_node(m2, "ReduceMean", {"x", "axes"}, {"y"}, "mean");
  add_output(m2, "y", {2, 1});
  write_model(m2, dir.file("m2.onnx"));
  // Axes computed at run time stay the op's second input (the CPU kernel reads them there).
  ir::Graph g2 = open_model(dir.file("m2.onnx"));
  ASSERT_EQ(g2.ops.size(), 1u);
  EXPECT_EQ(g2.ops[0].inputs, (std::vector<std::string>{"x", "axes"}));
  EXPECT_EQ(g2.ops[0].attr("axes"), nullptr);
}

// Cast's `to` (an ONNX enum) becomes the IR's dtype name.
TEST(OnnxFrontend, CastToBecomesDtypeName) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  auto* n = add_node(m, "Cast", {"x"}, {"y"}, "cast");
  add_int_attr(n, "to", onnx::TensorProto::INT64);
  add_output(m, "y", {2}, onnx::TensorProto::INT64);
  write_model(m, dir.file("m.onnx"));
  ir::Graph g = open_model(dir.file("m.onnx"));
  EXPECT_EQ(g.ops[0].attr_string("to", ""), "i64");
}

onnx::ModelProto custom_op_model() {
  auto m = make_model();
  auto* o = m.add_opset_import();
  o->set_domain("com.example");
  o->set_version(1);
  add_input(m, "x", {2});
  add_node(m, "Foo", {"x"}, {"y"}, "foo", "com.example");
  add_output(m, "y", {2});
  return m;
}

TEST(OnnxFrontend, UnknownDomainOpKeptWhenAllowed) {
  TempDir dir;
  write_model(custom_op_model(), dir.file("m.onnx"));
  OpenOptions opts;
  opts.allow_unknown_ops = true;
  ir::Graph g = open_model(dir.file("m.onnx"), opts);
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, ir::OpKind::Unknown);
  EXPECT_EQ(g.ops[0].op_type, "com.example::Foo");
  EXPECT_EQ(g.metadata.at("source.opset"), "ai.onnx:13,com.example:1");
}

TEST(OnnxFrontend, UnknownDomainOpRefusedWhenNotAllowed) {
  TempDir dir;
  write_model(custom_op_model(), dir.file("m.onnx"));
  OpenOptions opts;
  opts.allow_unknown_ops = false;
  try {
    open_model(dir.file("m.onnx"), opts);
    FAIL() << "expected UnsupportedOpError";
  } catch (const UnsupportedOpError& e) {
    EXPECT_EQ(e.op_type(), "com.example::Foo");
    EXPECT_NE(std::string(e.what()).find("foo: "), std::string::npos) << e.what();
    EXPECT_NE(e.suggestion().find("open an issue"), std::string::npos);
  }
}

TEST(OnnxFrontend, SequenceTypeIsRefused) {
  TempDir dir;
  auto m = make_model();
  auto* vi = m.mutable_graph()->add_input();
  vi->set_name("x");
  vi->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::FLOAT);
  add_node(m, "Identity", {"x"}, {"y"});
  auto* out = m.mutable_graph()->add_output();
  out->set_name("y");
  write_model(m, dir.file("m.onnx"));
  try {
    open_model(dir.file("m.onnx"));
    FAIL() << "expected FrontendError";
  } catch (const FrontendError& e) {
    EXPECT_EQ(e.reason(), "unsupported type: sequence (tensor 'x')");
  }
}

TEST(OnnxFrontend, ControlFlowIsRefused) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "c", {}, onnx::TensorProto::BOOL);
  auto* n = add_node(m, "If", {"c"}, {"y"}, "if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = n->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    a->mutable_g()->set_name(branch);
  }
  add_output(m, "y", {1});
  write_model(m, dir.file("m.onnx"));
  OpenOptions opts;
  opts.allow_unknown_ops = false;
  try {
    open_model(dir.file("m.onnx"), opts);
    FAIL() << "expected UnsupportedOpError";
  } catch (const UnsupportedOpError& e) {
    EXPECT_EQ(e.op_type(), "If");
    EXPECT_EQ(e.suggestion().rfind("control flow op 'If' with subgraphs is not supported yet", 0), 0u);
  }
}

TEST(OnnxFrontend, TruncatedFileIsRefused) {
  TempDir dir;
  auto m = make_model();
  add_input(m, "x", {2});
  add_float_initializer(m, "w", {64}, std::vector<float>(64, 1.0f));
  add_node(m, "Add", {"x", "w"}, {"y"});
  add_output(m, "y", {64});
  std::string bytes = m.SerializeAsString();
  write_bytes(dir.file("m.onnx"), bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(frontend_error_of(dir.file("m.onnx")),
            dir.file("m.onnx") +
                ": not a valid ONNX file (protobuf parse failed; the file may be truncated)");
}

TEST(OnnxFrontend, MatchScoresHeadAndExtension) {
  OnnxFrontend fe;
  auto m = make_model();
  add_input(m, "x", {2});
  std::string bytes = m.SerializeAsString();
  std::span<const std::byte> head(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
  EXPECT_EQ(fe.match(head, "a/model.onnx"), 1.0f);
  EXPECT_GT(fe.match(head, "a/model.bin"), 0.0f);
  std::string text = "hello, this is a text file\n";
  std::span<const std::byte> th(reinterpret_cast<const std::byte*>(text.data()), text.size());
  EXPECT_EQ(fe.match(th, "notes.onnx"), 0.0f);
  std::string random;
  std::uint32_t s = 12345;
  for (int i = 0; i < 4096; ++i) {
    s = s * 1664525u + 1013904223u;
    random.push_back(static_cast<char>(s >> 24));
  }
  std::span<const std::byte> rh(reinterpret_cast<const std::byte*>(random.data()), random.size());
  EXPECT_EQ(fe.match(rh, "x.onnx"), 0.0f);
}

}  // namespace
}  // namespace ec::frontends
