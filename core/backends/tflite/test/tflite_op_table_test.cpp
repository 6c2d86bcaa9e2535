// The TFLite operator table (core/frontends/tflite/tflite_op_table.h), walked row
// by row: each row's IR op, written as a one-op model, becomes the row's operator
// with its options table; read back it is the row's IR op again, and writing and
// reading it once more changes neither its attributes nor the file (a fixed point).
// The rows come from the table itself, so a new row is tested as it is added.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/frontends/tflite/tflite_frontend.h"
#include "core/frontends/tflite/tflite_op_table.h"
#include "core/frontends/tflite/tflite_schema_generated.h"

namespace {

namespace ops = ec::frontends::tflite_ops;
using ec::ir::DType;
using Attrs = decltype(ec::ir::Operation::attributes);

std::string row_name(const ops::OpRow& r) {
  return std::string(ec::ir::op_info(r.kind).name) + " / " + tflite::EnumNameBuiltinOperator(r.code);
}

// A one-op graph: the row's inputs, all of type `dt` and shape `shape`, one output like them.
ec::ir::Graph one_op(const ops::OpRow& r, DType dt, const std::vector<std::int64_t>& shape, const Attrs& attrs) {
  ec::ir::Graph g;
  g.name = "row";
  auto tensor = [&](const std::string& n) {
    ec::ir::Tensor t;
    t.name = n;
    t.dtype = dt;
    t.shape = ec::ir::Shape::of(shape);
    g.add_tensor(std::move(t));
  };
  ec::ir::Operation op;
  op.kind = r.kind;
  op.op_type = std::string(ec::ir::op_info(r.kind).name);
  op.name = "y";
  for (int i = 0; i < r.inputs; ++i) {
    const std::string n = "x" + std::to_string(i);
    tensor(n);
    g.inputs.push_back(n);
    op.inputs.push_back(n);
  }
  tensor("y");
  op.outputs = {"y"};
  op.attributes = attrs;
  g.ops.push_back(std::move(op));
  g.outputs = {"y"};
  return g;
}

// The one op of kind `k` in `g` (the reader may add Casts or Reshapes around it).
const ec::ir::Operation* only_op(const ec::ir::Graph& g, ec::ir::OpKind k) {
  const ec::ir::Operation* found = nullptr;
  for (const auto& op : g.ops)
    if (op.kind == k) {
      if (found) return nullptr;
      found = &op;
    }
  return found;
}

// Writes the row's op on the first input type and shape the writer takes.
struct Written {
  std::string bytes;
  DType dtype = DType::Undefined;
  std::vector<std::int64_t> shape;
};
Written write_row(const ops::OpRow& r, const Attrs& attrs) {
  for (DType dt : {DType::Float32, DType::Bool, DType::Int32})
    for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{2, 3}, std::vector<std::int64_t>{}}) {
      try {
        return {ec::backends::tflite::save_tflite(one_op(r, dt, shape, attrs), {}), dt, shape};
      } catch (const ec::EdgeCompilerError&) {
      }
    }
  return {};
}

TEST(TfliteOpTable, EachCodeAndKindHasOneRow) {
  std::set<tflite::BuiltinOperator> codes;
  std::set<ec::ir::OpKind> kinds;
  for (const auto& r : ops::op_table()) {
    SCOPED_TRACE(row_name(r));
    EXPECT_TRUE(r.reads || r.writes);
    EXPECT_GE(r.inputs, 1);
    if (r.reads) {
      EXPECT_TRUE(codes.insert(r.code).second) << "two rows read the operator";
      EXPECT_EQ(ops::row_for_code(r.code), &r);
    }
    if (r.writes) {
      EXPECT_TRUE(kinds.insert(r.kind).second) << "two rows write the IR op";
      EXPECT_EQ(ops::row_for_kind(r.kind), &r);
      EXPECT_EQ(r.write != nullptr, r.options != tflite::BuiltinOptions::NONE) << "an options table is written iff the row names one";
    } else {
      EXPECT_EQ(r.write, nullptr);
      EXPECT_EQ(r.check, nullptr);
    }
    EXPECT_NE(r.kind, ec::ir::OpKind::Unknown);
  }
}

class TfliteOpTableRow : public ::testing::TestWithParam<std::size_t> {};

TEST_P(TfliteOpTableRow, RoundTrips) {
  const ops::OpRow& r = ops::op_table()[GetParam()];
  SCOPED_TRACE(row_name(r));
  const Written w = write_row(r, {});
  ASSERT_FALSE(w.bytes.empty()) << "the writer takes the op on none of the input types tried";

  // The file holds the row's operator (read-only rows: the writer's special case makes it).
  const tflite::Model* m = tflite::GetModel(w.bytes.data());
  const auto* sg = m->subgraphs()->Get(0);
  bool has_code = false;
  for (const auto* o : *sg->operators()) {
    const auto* oc = m->operator_codes()->Get(o->opcode_index());
    if (oc->builtin_code() != r.code) continue;
    has_code = true;
    if (r.writes) {
      EXPECT_EQ(sg->operators()->size(), 1u) << "the row's op is one operator";
      EXPECT_EQ(o->builtin_options_type(), r.write ? r.options : tflite::BuiltinOptions::NONE);
      EXPECT_EQ(o->inputs()->size(), static_cast<unsigned>(r.inputs));
      EXPECT_EQ(oc->version(), 1) << "non-int8 inputs are written as version 1";
    }
  }
  EXPECT_TRUE(has_code) << "the written file has no " << tflite::EnumNameBuiltinOperator(r.code);

  // Read back: the row's IR op, whose attributes (the options read) survive writing again.
  const auto g1 = ec::frontends::load_tflite(std::make_shared<const std::string>(w.bytes), "row.tflite");
  const ec::ir::Operation* op1 = only_op(g1, r.kind);
  ASSERT_NE(op1, nullptr) << "reading gives no (or more than one) " << ec::ir::op_info(r.kind).name;
  if (r.read) EXPECT_FALSE(op1->attributes.empty()) << "the row reads options into attributes";
  const std::string again = ec::backends::tflite::save_tflite(one_op(r, w.dtype, w.shape, op1->attributes), {});
  const auto g2 = ec::frontends::load_tflite(std::make_shared<const std::string>(again), "again.tflite");
  const ec::ir::Operation* op2 = only_op(g2, r.kind);
  ASSERT_NE(op2, nullptr);
  EXPECT_EQ(op2->attributes, op1->attributes);
  if (r.writes) EXPECT_EQ(again, w.bytes) << "the read attributes write the same file";
}

std::vector<std::size_t> row_indices() {
  std::vector<std::size_t> v;
  for (std::size_t i = 0; i < ops::op_table().size(); ++i) v.push_back(i);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Rows, TfliteOpTableRow, ::testing::ValuesIn(row_indices()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           return std::string(ec::ir::op_info(ops::op_table()[info.param].kind).name);
                         });

}  // namespace
