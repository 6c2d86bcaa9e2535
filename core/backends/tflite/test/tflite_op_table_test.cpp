// The TFLite operator table (core/frontends/tflite/tflite_op_table.h), walked row
// by row: each row's IR op with the row's sample attributes (and, for a row that
// folds a fused activation, a Relu after it), written as a one-op model, becomes
// the row's operator with its options table, inputs and fused activation; read
// back it is the row's IR op again with the sample's attributes (and the Relu), and
// writing and reading it once more changes neither its attributes nor the file (a
// fixed point). The rows come from the table itself, so a new row is tested as it
// is added.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/frontends/tflite/tflite_frontend.h"
#include "core/frontends/tflite/tflite_op_table.h"
#include "core/frontends/tflite/tflite_schema_generated.h"
#include "core/ir/text_format.h"

namespace {

namespace ops = ec::frontends::tflite_ops;
using ec::ir::DType;
using Attrs = decltype(ec::ir::Operation::attributes);

std::string row_name(const ops::OpRow& r) {
  return std::string(ec::ir::op_info(r.kind).name) + " / " + tflite::EnumNameBuiltinOperator(r.code);
}

// The row's sample attributes, parsed from the IR's text form.
Attrs sample_attributes(const ops::OpRow& r) {
  if (!*r.sample) return {};
  const auto g = ec::ir::parse(std::string("graph \"s\" version 1 {\n  input %x : f32[1]\n  %y = Relu(%x) ") + r.sample +
                               " : f32[1]\n  output %y\n}\n");
  return g.ops.at(0).attributes;
}

// The IR op's tensor inputs (a row taking all inputs: two).
int ir_inputs(const ops::OpRow& r) { return r.inputs < 0 ? 2 : r.inputs; }

// A one-op graph: the row's inputs, all of type `dt` and shape `shape`, one output like
// them; with `relu`, the op writes "pre" and a Relu reads it (a fused activation).
ec::ir::Graph one_op(const ops::OpRow& r, DType dt, const std::vector<std::int64_t>& shape, const Attrs& attrs, bool relu) {
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
  for (int i = 0; i < ir_inputs(r); ++i) {
    const std::string n = "x" + std::to_string(i);
    tensor(n);
    g.inputs.push_back(n);
    op.inputs.push_back(n);
  }
  tensor("y");
  op.outputs = {relu ? "pre" : "y"};
  op.attributes = attrs;
  g.ops.push_back(std::move(op));
  if (relu) {
    tensor("pre");
    ec::ir::Operation a;
    a.kind = ec::ir::OpKind::Relu;
    a.op_type = "Relu";
    a.name = "y/activation";
    a.inputs = {"pre"};
    a.outputs = {"y"};
    g.ops.push_back(std::move(a));
  }
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
Written write_row(const ops::OpRow& r, const Attrs& attrs, bool relu) {
  for (DType dt : {DType::Float32, DType::Bool, DType::Int32})
    for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{2, 3}, std::vector<std::int64_t>{}}) {
      try {
        return {ec::backends::tflite::save_tflite(one_op(r, dt, shape, attrs, relu), {}), dt, shape};
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
    EXPECT_TRUE(r.inputs >= 1 || r.inputs == -1);
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
      EXPECT_EQ(r.special, nullptr);
    }
    EXPECT_NE(r.kind, ec::ir::OpKind::Unknown);
    EXPECT_EQ(r.act != ops::Act::none, r.read_act != nullptr) << "a fused activation is read by the row";
    if (r.ints.index >= 0) {
      EXPECT_TRUE(r.ints.attr && r.ints.suffix && r.ints.what);
      EXPECT_LT(r.ints.index, r.operator_inputs());
    }
    // the order names every part once; a folded activation is known before the options
    const std::string order = r.order;
    EXPECT_EQ(order.find_first_not_of("oy*0123456789"), std::string::npos);
    EXPECT_EQ(std::count(order.begin(), order.end(), 'o'), 1);
    EXPECT_EQ(std::count(order.begin(), order.end(), 'y'), 1);
    EXPECT_TRUE(order.find('*') != std::string::npos || static_cast<int>(order.size()) == r.operator_inputs() + 2)
        << "every input is in the order";
    if (r.act == ops::Act::following) {
      EXPECT_LT(order.find('y'), order.find('o'));
    }
    EXPECT_NO_THROW(sample_attributes(r));
  }
}

class TfliteOpTableRow : public ::testing::TestWithParam<std::size_t> {};

TEST_P(TfliteOpTableRow, RoundTrips) {
  const ops::OpRow& r = ops::op_table()[GetParam()];
  SCOPED_TRACE(row_name(r));
  const Attrs sample = sample_attributes(r);
  const bool relu = r.writes && r.act == ops::Act::following;
  const Written w = write_row(r, sample, relu);
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
      EXPECT_EQ(sg->operators()->size(), 1u) << "the row's op is one operator (its activation fused)";
      EXPECT_EQ(o->builtin_options_type(), r.write ? r.options : tflite::BuiltinOptions::NONE);
      const int n = r.operator_inputs() < 0 ? ir_inputs(r) : r.operator_inputs();
      EXPECT_EQ(o->inputs()->size(), static_cast<unsigned>(n));
      EXPECT_EQ(oc->version(), 1) << "non-int8 inputs are written as version 1";
      if (relu) {
        EXPECT_EQ(r.read_act(*o), tflite::ActivationFunctionType::RELU) << "the Relu is the fused activation";
      } else if (r.act != ops::Act::none) {
        EXPECT_EQ(r.read_act(*o), tflite::ActivationFunctionType::NONE);
      }
    }
  }
  EXPECT_TRUE(has_code) << "the written file has no " << tflite::EnumNameBuiltinOperator(r.code);

  // Read back: the row's IR op with the sample's attributes (and the Relu after it),
  // whose attributes (the options read) survive writing again.
  const auto g1 = ec::frontends::load_tflite(std::make_shared<const std::string>(w.bytes), "row.tflite");
  const ec::ir::Operation* op1 = only_op(g1, r.kind);
  ASSERT_NE(op1, nullptr) << "reading gives no (or more than one) " << ec::ir::op_info(r.kind).name;
  if (r.writes)
    for (const auto& [key, value] : sample) {
      ASSERT_TRUE(op1->attributes.count(key)) << key << " is not read back";
      EXPECT_EQ(op1->attributes.at(key), value) << key << " is read back otherwise";
    }
  if (relu) {
    const ec::ir::Operation* a = only_op(g1, ec::ir::OpKind::Relu);
    ASSERT_NE(a, nullptr) << "the fused activation is not read as a Relu";
    EXPECT_EQ(a->inputs.at(0), op1->outputs.at(0));
    EXPECT_EQ(a->outputs.at(0), "y");
  }
  const std::string again = ec::backends::tflite::save_tflite(one_op(r, w.dtype, w.shape, op1->attributes, relu), {});
  const auto g2 = ec::frontends::load_tflite(std::make_shared<const std::string>(again), "again.tflite");
  const ec::ir::Operation* op2 = only_op(g2, r.kind);
  ASSERT_NE(op2, nullptr);
  EXPECT_EQ(op2->attributes, op1->attributes);
  if (r.writes) {
    EXPECT_EQ(again, w.bytes) << "the read attributes write the same file";
  }
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
