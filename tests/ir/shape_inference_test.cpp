// Unit tests of ir::infer_shapes, one group per op family. The reference is the
// CPU runtime: each single-op graph is inferred, then run with the reference
// kernels, and every output's inferred shape and dtype must equal what the
// kernel produced (tests/ir/shape_reference.h). Symbolic dims are run with
// batch = 3 so a dim named "batch" is never mistaken for a static 1.
#include <gtest/gtest.h>

#include <map>

#include "core/ir/shape_inference.h"
#include "core/ir/validate.h"
#include "tests/ir/ir_test_util.h"
#include "tests/ir/shape_reference.h"

namespace ec::ir {
namespace {

using test_util::make_op;
using test_util::make_tensor;

// A graph of one op: graph inputs, constants and absent inputs in order;
// outputs o0, o1, ... with nothing known about them.
class OneOp {
 public:
  explicit OneOp(OpKind k) : op_(make_op(k, "op", {}, {})) {}
  OneOp& in(Shape s, DType t = DType::Float32) {
    const std::string n = next();
    g_.add_tensor(make_tensor(n, t, std::move(s)));
    g_.inputs.push_back(n);
    return *this;
  }
  OneOp& in(std::initializer_list<std::int64_t> s, DType t = DType::Float32) { return in(Shape::of(s), t); }
  OneOp& ints(std::vector<std::int64_t> v, bool scalar = false) {
    Tensor t = make_tensor(next(), DType::Int64,
                           scalar ? Shape::of(std::vector<std::int64_t>{}) : Shape::of({static_cast<std::int64_t>(v.size())}));
    t.data = ConstantData::copy_of(v.data(), v.size() * sizeof(std::int64_t));
    g_.add_tensor(std::move(t));
    return *this;
  }
  OneOp& floats(std::vector<float> v, bool scalar = false) {
    Tensor t = make_tensor(next(), DType::Float32,
                           scalar ? Shape::of(std::vector<std::int64_t>{}) : Shape::of({static_cast<std::int64_t>(v.size())}));
    t.data = ConstantData::copy_of(v.data(), v.size() * sizeof(float));
    g_.add_tensor(std::move(t));
    return *this;
  }
  OneOp& weights(std::initializer_list<std::int64_t> s) {
    std::int64_t n = 1;
    for (auto d : s) n *= d;
    g_.add_tensor(test_util::make_f32_constant(next(), Shape::of(s), static_cast<std::size_t>(n)));
    return *this;
  }
  OneOp& none() {
    op_.inputs.push_back("");
    return *this;
  }
  OneOp& attr(const std::string& k, Attribute v) {
    op_.attributes[k] = std::move(v);
    return *this;
  }
  OneOp& outputs(std::size_t n) {
    n_out_ = n;
    return *this;
  }
  Graph build() {
    Graph g = g_;
    Operation op = op_;
    for (std::size_t k = 0; k < n_out_; ++k) {
      const std::string n = "o" + std::to_string(k);
      g.add_tensor(make_tensor(n, DType::Undefined, Shape::unknown_rank()));
      op.outputs.push_back(n);
      g.outputs.push_back(n);
    }
    g.ops.push_back(std::move(op));
    return g;
  }

 private:
  std::string next() {
    std::string n = "i" + std::to_string(op_.inputs.size());
    op_.inputs.push_back(n);
    return n;
  }
  Graph g_;
  Operation op_;
  std::size_t n_out_ = 1;
};

using Ints = std::vector<std::int64_t>;

// Infers, then checks every output against the runtime: static, equal shape and dtype.
Graph expect_runtime_shapes(OneOp& b, const std::map<std::string, std::int64_t>& symbols = {}) {
  Graph g = b.build();
  const auto r = infer_shapes(g);
  for (const auto& c : r.conflicts) ADD_FAILURE() << "conflict: " << c.op << ": " << c.message;
  const auto cmp = test::compare_with_runtime(g, symbols);
  EXPECT_GT(cmp.checked, 0u);
  for (const auto& m : cmp.mismatches) ADD_FAILURE() << m;
  for (const auto& m : cmp.not_static) ADD_FAILURE() << "not inferred: " << m;
  return g;
}

std::string shape_of(const Graph& g, const std::string& t) { return g.find_tensor(t)->shape.to_string(); }

Shape batch_shape(std::initializer_list<std::int64_t> rest) {
  Shape s = Shape::of(rest);
  s.dims.insert(s.dims.begin(), Dim::named("batch"));
  return s;
}

// ---- element-wise, activations, logic

TEST(ShapeInference, ElementwiseBroadcasting) {
  OneOp add(OpKind::Add);
  add.in({2, 1, 4}).in({3, 1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(add), "o0"), "[2,3,4]");
  OneOp where(OpKind::Where);
  where.in({3, 1}, DType::Bool).in({1, 5}).in({5});
  expect_runtime_shapes(where);
  OneOp less(OpKind::Less);
  less.in({4, 1}).in({1, 2});
  EXPECT_EQ(expect_runtime_shapes(less).find_tensor("o0")->dtype, DType::Bool);
  OneOp sum(OpKind::Sum);
  sum.in({2, 1}).in({1, 3}).in({3});
  expect_runtime_shapes(sum);
  OneOp prelu(OpKind::PRelu);
  prelu.in({1, 4, 5, 5}).weights({4, 1, 1});
  expect_runtime_shapes(prelu);
}

TEST(ShapeInference, UnaryAndSoftmaxKeepShape) {
  for (OpKind k : {OpKind::Relu, OpKind::Sigmoid, OpKind::Softmax, OpKind::Gelu, OpKind::Exp, OpKind::Clip}) {
    OneOp b(k);
    b.in({2, 3, 5});
    expect_runtime_shapes(b);
  }
  OneOp isnan(OpKind::IsNaN);
  isnan.in({7});
  EXPECT_EQ(expect_runtime_shapes(isnan).find_tensor("o0")->dtype, DType::Bool);
}

TEST(ShapeInference, IncompatibleBroadcastIsAConflict) {
  OneOp add(OpKind::Add);
  add.in({2, 3}).in({4});
  Graph g = add.build();
  const auto r = infer_shapes(g);
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_NE(r.conflicts[0].message.find("do not broadcast"), std::string::npos);
}

// ---- convolution and pooling

TEST(ShapeInference, ConvStridesPadsDilationsGroups) {
  OneOp a(OpKind::Conv);
  a.in({1, 3, 11, 13}).weights({4, 3, 3, 3}).attr("strides", Ints{2, 2}).attr("pads", Ints{1, 1, 1, 1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(a), "o0"), "[1,4,6,7]");
  OneOp b(OpKind::Conv);
  b.in({2, 4, 12, 9}).weights({8, 2, 3, 2}).attr("group", std::int64_t{2}).attr("dilations", Ints{2, 3});
  expect_runtime_shapes(b);
  OneOp c(OpKind::Conv);
  c.in({1, 2, 9, 10}).weights({3, 2, 4, 4}).attr("auto_pad", std::string("SAME_UPPER")).attr("strides", Ints{2, 3});
  expect_runtime_shapes(c);
  OneOp d(OpKind::Conv);
  d.in({1, 2, 17}).weights({5, 2, 4}).attr("strides", Ints{3}).attr("auto_pad", std::string("VALID"));
  expect_runtime_shapes(d);
}

TEST(ShapeInference, ConvTranspose) {
  OneOp a(OpKind::ConvTranspose);
  a.in({1, 4, 5, 6}).weights({4, 2, 3, 3}).attr("strides", Ints{2, 2}).attr("output_padding", Ints{1, 0})
      .attr("pads", Ints{1, 0, 1, 1});
  expect_runtime_shapes(a);
  OneOp b(OpKind::ConvTranspose);
  b.in({1, 4, 5, 5}).weights({4, 3, 2, 2}).attr("group", std::int64_t{2}).attr("strides", Ints{2, 2});
  expect_runtime_shapes(b);
}

TEST(ShapeInference, Pooling) {
  OneOp a(OpKind::MaxPool);
  a.in({1, 2, 10, 11}).attr("kernel_shape", Ints{3, 3}).attr("strides", Ints{2, 2}).attr("ceil_mode", std::int64_t{1});
  expect_runtime_shapes(a);
  OneOp b(OpKind::AveragePool);
  b.in({1, 2, 7, 7}).attr("kernel_shape", Ints{3, 2}).attr("pads", Ints{1, 0, 1, 1});
  expect_runtime_shapes(b);
  OneOp c(OpKind::GlobalAveragePool);
  c.in({2, 3, 5, 4});
  EXPECT_EQ(shape_of(expect_runtime_shapes(c), "o0"), "[2,3,1,1]");
  OneOp d(OpKind::MaxPool);
  d.in({1, 1, 9, 9}).attr("kernel_shape", Ints{2, 2}).attr("dilations", Ints{2, 2}).attr("strides", Ints{2, 2});
  expect_runtime_shapes(d);
}

// ---- linear algebra

TEST(ShapeInference, GemmMatMulFullyConnected) {
  OneOp gemm(OpKind::Gemm);
  gemm.in({3, 5}).weights({7, 5}).weights({7}).attr("transB", std::int64_t{1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(gemm), "o0"), "[3,7]");
  OneOp mm(OpKind::MatMul);
  mm.in({2, 1, 3, 4}).in({5, 4, 6});
  EXPECT_EQ(shape_of(expect_runtime_shapes(mm), "o0"), "[2,5,3,6]");
  OneOp vec(OpKind::MatMul);
  vec.in({4}).in({2, 4, 3});
  expect_runtime_shapes(vec);
  OneOp fc(OpKind::FullyConnected);
  fc.in({2, 3, 8}).weights({5, 8});
  expect_runtime_shapes(fc);
  OneOp ein(OpKind::Einsum);
  ein.in({2, 3, 4}).in({2, 4, 5}).attr("equation", std::string("bij,bjk->bik"));
  expect_runtime_shapes(ein);
}

// ---- normalisation and reductions

TEST(ShapeInference, NormalisationAndReductions) {
  OneOp ln(OpKind::LayerNormalization);
  ln.in({2, 3, 8}).weights({8}).weights({8}).outputs(3).attr("axis", std::int64_t{-1});
  expect_runtime_shapes(ln);
  OneOp bn(OpKind::BatchNormalization);
  bn.in({2, 3, 4, 4}).weights({3}).weights({3}).weights({3}).weights({3});
  expect_runtime_shapes(bn);
  OneOp rm(OpKind::ReduceMean);
  rm.in({2, 3, 4}).attr("axes", Ints{1, -1}).attr("keepdims", std::int64_t{0});
  EXPECT_EQ(shape_of(expect_runtime_shapes(rm), "o0"), "[2]");
  OneOp rs(OpKind::ReduceSum);
  rs.in({2, 3, 4});
  EXPECT_EQ(shape_of(expect_runtime_shapes(rs), "o0"), "[1,1,1]");
  OneOp am(OpKind::ArgMax);
  am.in({2, 3, 4}).attr("axis", std::int64_t{1}).attr("keepdims", std::int64_t{0});
  expect_runtime_shapes(am);
  OneOp topk(OpKind::TopK);
  topk.in({3, 6}).ints({2}).outputs(2);
  expect_runtime_shapes(topk);
}

// ---- shape and data movement

TEST(ShapeInference, ReshapeWithZeroAndMinusOne) {
  OneOp a(OpKind::Reshape);
  a.in({2, 3, 4}).ints({0, -1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(a), "o0"), "[2,12]");
  OneOp b(OpKind::Reshape);
  b.in({2, 3, 4}).ints({-1, 2, 2});
  expect_runtime_shapes(b);
  // symbolic: [batch,6,4] -> [0,-1,2] is [batch,12,2]; with [-1,4] the batch folds into 6*batch
  OneOp c(OpKind::Reshape);
  c.in(batch_shape({6, 4})).ints({0, -1, 2});
  EXPECT_EQ(shape_of(expect_runtime_shapes(c, {{"batch", 3}}), "o0"), "[batch,12,2]");
  OneOp d(OpKind::Reshape);
  d.in(batch_shape({6, 4})).ints({-1, 4});
  EXPECT_EQ(shape_of(expect_runtime_shapes(d, {{"batch", 3}}), "o0"), "[6*batch,4]");
}

TEST(ShapeInference, TransposeConcatSplitSlice) {
  OneOp t(OpKind::Transpose);
  t.in({2, 3, 4}).attr("perm", Ints{2, 0, 1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(t), "o0"), "[4,2,3]");
  OneOp c(OpKind::Concat);
  c.in({2, 3}).in({2, 5}).attr("axis", std::int64_t{-1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(c), "o0"), "[2,8]");
  OneOp s(OpKind::Split);
  s.in({2, 9}).ints({2, 3, 4}).attr("axis", std::int64_t{1}).outputs(3);
  expect_runtime_shapes(s);
  OneOp s2(OpKind::Split);
  s2.in({6, 2}).outputs(3);
  expect_runtime_shapes(s2);
  OneOp sl(OpKind::Slice);
  sl.in({10, 8, 6}).ints({-3, 1}).ints({INT64_MAX, -1}).ints({0, 2}).ints({1, 2});
  expect_runtime_shapes(sl);
  OneOp rev(OpKind::Slice);
  rev.in({10, 8}).ints({-1}).ints({INT64_MIN}).ints({1}).ints({-3});
  expect_runtime_shapes(rev);
}

TEST(ShapeInference, GatherSqueezeUnsqueezeFlatten) {
  OneOp g(OpKind::Gather);
  g.in({5, 6, 7}).ints({0, 2, 4, 1}).attr("axis", std::int64_t{1});
  expect_runtime_shapes(g);
  OneOp gs(OpKind::Gather);
  gs.in({5, 6}).ints({2}, true);
  EXPECT_EQ(shape_of(expect_runtime_shapes(gs), "o0"), "[6]");
  OneOp sq(OpKind::Squeeze);
  sq.in({1, 3, 1, 2}).ints({0, -2});
  EXPECT_EQ(shape_of(expect_runtime_shapes(sq), "o0"), "[3,2]");
  OneOp sq_all(OpKind::Squeeze);
  sq_all.in({1, 3, 1, 2});
  expect_runtime_shapes(sq_all);
  OneOp un(OpKind::Unsqueeze);
  un.in({3, 2}).ints({0, -1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(un), "o0"), "[1,3,2,1]");
  OneOp fl(OpKind::Flatten);
  fl.in({2, 3, 4, 5}).attr("axis", std::int64_t{2});
  EXPECT_EQ(shape_of(expect_runtime_shapes(fl), "o0"), "[6,20]");
  OneOp fb(OpKind::Flatten);
  fb.in(batch_shape({4, 1, 1}));
  EXPECT_EQ(shape_of(expect_runtime_shapes(fb, {{"batch", 3}}), "o0"), "[batch,4]");
}

TEST(ShapeInference, PadTileExpandResizeDepthToSpace) {
  OneOp pad(OpKind::Pad);
  pad.in({1, 2, 4, 4}).ints({0, 0, 1, 2, 0, 0, 3, 0});
  EXPECT_EQ(shape_of(expect_runtime_shapes(pad), "o0"), "[1,2,8,6]");
  OneOp tile(OpKind::Tile);
  tile.in({2, 3}).ints({3, 2});
  expect_runtime_shapes(tile);
  OneOp ex(OpKind::Expand);
  ex.in({3, 1}).ints({2, 1, 4});
  EXPECT_EQ(shape_of(expect_runtime_shapes(ex), "o0"), "[2,3,4]");
  OneOp rs(OpKind::Resize);
  rs.in({1, 2, 5, 6}).none().floats({1, 1, 2, 1.5f});
  expect_runtime_shapes(rs);
  OneOp rz(OpKind::Resize);
  rz.in({1, 2, 5, 6}).none().none().ints({1, 2, 7, 3});
  expect_runtime_shapes(rz);
  OneOp d2s(OpKind::DepthToSpace);
  d2s.in({1, 8, 3, 2}).attr("blocksize", std::int64_t{2});
  expect_runtime_shapes(d2s);
  OneOp s2d(OpKind::SpaceToDepth);
  s2d.in({1, 2, 4, 6}).attr("blocksize", std::int64_t{2});
  expect_runtime_shapes(s2d);
}

TEST(ShapeInference, ShapeAndCast) {
  OneOp sh(OpKind::Shape);
  sh.in({2, 3, 4}).attr("start", std::int64_t{1});
  EXPECT_EQ(shape_of(expect_runtime_shapes(sh), "o0"), "[2]");
  OneOp cast(OpKind::Cast);
  cast.in({2, 2}).attr("to", std::string("i32"));
  EXPECT_EQ(expect_runtime_shapes(cast).find_tensor("o0")->dtype, DType::Int32);
}

// The Shape -> Gather -> Div -> Unsqueeze -> Concat -> Reshape chain of a
// PyTorch channel shuffle, with a symbolic batch: the Reshape target is
// computed, and inference tracks its contents (batch included).
TEST(ShapeInference, ComputedReshapeTargetWithSymbolicBatch) {
  Graph g;
  g.add_tensor(make_tensor("x", DType::Float32, batch_shape({8, 5, 5})));
  g.inputs = {"x"};
  auto constant = [&](const std::string& n, std::vector<std::int64_t> v, bool scalar) {
    Tensor t = make_tensor(n, DType::Int64, scalar ? Shape::of(std::vector<std::int64_t>{}) : Shape::of({static_cast<std::int64_t>(v.size())}));
    t.data = ConstantData::copy_of(v.data(), v.size() * 8);
    g.add_tensor(std::move(t));
  };
  constant("zero", {0}, true);
  constant("one", {1}, true);
  constant("two", {2}, true);
  constant("axes0", {0}, false);
  constant("groups", {2}, false);
  constant("minus1", {-1}, false);
  for (const char* n : {"s", "n", "c", "cpg", "n1", "cpg1", "target", "y", "s2", "t2", "z"})
    g.add_tensor(make_tensor(n, DType::Undefined, Shape::unknown_rank()));
  auto op = [&](OpKind k, std::vector<std::string> in, std::string out) {
    g.ops.push_back(make_op(k, out + "_op", std::move(in), {std::move(out)}));
  };
  op(OpKind::Shape, {"x"}, "s");
  op(OpKind::Gather, {"s", "zero"}, "n");
  op(OpKind::Gather, {"s", "one"}, "c");
  op(OpKind::Div, {"c", "two"}, "cpg");
  op(OpKind::Unsqueeze, {"n", "axes0"}, "n1");
  op(OpKind::Unsqueeze, {"cpg", "axes0"}, "cpg1");
  g.ops.push_back(make_op(OpKind::Concat, "cat", {"n1", "groups", "cpg1", "minus1"}, {"target"}));
  g.ops.back().attributes["axis"] = std::int64_t{0};
  op(OpKind::Reshape, {"x", "target"}, "y");
  g.ops.push_back(make_op(OpKind::Transpose, "tr", {"y"}, {"t2"}));
  g.ops.back().attributes["perm"] = std::vector<std::int64_t>{0, 2, 1, 3};
  g.ops.push_back(make_op(OpKind::Shape, "shape2", {"t2"}, {"s2"}));
  op(OpKind::Reshape, {"t2", "s2"}, "z");
  g.outputs = {"z"};
  const auto r = infer_shapes(g);
  EXPECT_TRUE(r.conflicts.empty());
  EXPECT_EQ(shape_of(g, "y"), "[batch,2,4,25]");
  EXPECT_EQ(shape_of(g, "t2"), "[batch,4,2,25]");
  EXPECT_EQ(shape_of(g, "z"), "[batch,4,2,25]");
  const auto cmp = test::compare_with_runtime(g, {{"batch", 3}});
  EXPECT_TRUE(cmp.mismatches.empty()) << cmp.mismatches.front();
  EXPECT_TRUE(cmp.not_static.empty());
}

// ---- recurrent

TEST(ShapeInference, RecurrentOps) {
  // X [seq 5, batch 2, input 3], hidden 4, bidirectional
  OneOp lstm(OpKind::LSTM);
  lstm.in({5, 2, 3}).weights({2, 16, 3}).weights({2, 16, 4}).outputs(3)
      .attr("hidden_size", std::int64_t{4}).attr("direction", std::string("bidirectional"));
  EXPECT_EQ(shape_of(expect_runtime_shapes(lstm), "o0"), "[5,2,2,4]");
  OneOp gru(OpKind::GRU);
  gru.in({2, 5, 3}).weights({1, 12, 3}).weights({1, 12, 4}).outputs(2).attr("layout", std::int64_t{1});
  expect_runtime_shapes(gru);
  OneOp rnn(OpKind::RNN);
  rnn.in({5, 2, 3}).weights({1, 4, 3}).weights({1, 4, 4}).outputs(2).attr("hidden_size", std::int64_t{4});
  expect_runtime_shapes(rnn);
}

// ---- generators

TEST(ShapeInference, Generators) {
  OneOp cos(OpKind::ConstantOfShape);
  cos.ints({2, 3});
  Graph g = cos.build();
  infer_shapes(g);
  EXPECT_EQ(shape_of(g, "o0"), "[2,3]");
  EXPECT_EQ(g.find_tensor("o0")->dtype, DType::Float32);
  EXPECT_TRUE(test::compare_with_runtime(g, {}).mismatches.empty());
  OneOp range(OpKind::Range);
  range.floats({1}, true).floats({7.5f}, true).floats({2}, true);
  EXPECT_EQ(shape_of(expect_runtime_shapes(range), "o0"), "[4]");
}

// ---- the merge rules

TEST(ShapeInference, NeverOverwritesAStaticDimAndReportsTheConflict) {
  OneOp b(OpKind::Relu);
  b.in({2, 3});
  Graph g = b.build();
  g.find_tensor("o0")->shape = Shape::of({2, 4});
  const auto r = infer_shapes(g);
  EXPECT_EQ(shape_of(g, "o0"), "[2,4]");
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_EQ(r.conflicts[0].tensor, "o0");
  bool warned = false;
  for (const auto& i : validate(g))
    warned |= i.tensor == "o0" && i.message.find("the op's inputs give [2,3]") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(ShapeInference, FillsUnknownAndAnonymousDimsKeepsNamedOnes) {
  OneOp b(OpKind::Relu);
  b.in(batch_shape({3}));
  Graph g = b.build();
  g.find_tensor("o0")->shape = Shape{{Dim::named("unk__0"), Dim::unknown()}, true};
  infer_shapes(g);
  EXPECT_EQ(shape_of(g, "o0"), "[batch,3]");
  EXPECT_TRUE(check_shapes(g).empty());
}

}  // namespace
}  // namespace ec::ir
