#include "core/backends/units.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>


namespace ec::backends {

bool is_depthwise(const ir::Graph& graph, const ir::Operation& op) {
  if (op.kind != ir::OpKind::Conv) return false;
  const std::int64_t group = op.attr_int("group", 1);
  if (group <= 1) return false;
  const ir::Tensor* x = op.inputs.empty() ? nullptr : graph.find_tensor(op.inputs[0]);
  if (!x || x->shape.rank() != 4) return true;
  const bool nhwc = op.attr_string("layout", "NCHW") == "NHWC";
  const auto& c = x->shape.dims[nhwc ? 3 : 1];
  return !c.is_static() || c.value == group;
}

std::string tflite_op_name(const ir::Graph& graph, const ir::Operation& op) {
  using K = ir::OpKind;
  auto first_dtype = [&] {
    const ir::Tensor* t = op.inputs.empty() ? nullptr : graph.find_tensor(op.inputs[0]);
    return t ? t->dtype : ir::DType::Undefined;
  };
  switch (op.kind) {
    case K::Conv: {
      const ir::Tensor* x = op.inputs.empty() ? nullptr : graph.find_tensor(op.inputs[0]);
      if (x && x->shape.rank_known && x->shape.rank() == 5) return "CONV_3D";
      return is_depthwise(graph, op) ? "DEPTHWISE_CONV_2D" : "CONV_2D";
    }
    case K::ConvTranspose: return "TRANSPOSE_CONV";
    case K::FullyConnected: case K::Gemm: return "FULLY_CONNECTED";
    case K::MatMul: return "BATCH_MATMUL";
    case K::MaxPool: return "MAX_POOL_2D";
    case K::AveragePool: return "AVERAGE_POOL_2D";
    case K::GlobalMaxPool: return "REDUCE_MAX";  // what the writer makes of them
    case K::GlobalAveragePool: return "MEAN";
    case K::Add: return "ADD";
    case K::Sub: return "SUB";
    case K::Mul: return "MUL";
    case K::Div: return "DIV";
    case K::Max: return "MAXIMUM";
    case K::Min: return "MINIMUM";
    case K::Relu: return "RELU";
    case K::Clip: return "RELU6";  // Clip(0, 6) / Clip(-1, 1); refined by the backend's rules
    case K::LeakyRelu: return "LEAKY_RELU";
    case K::PRelu: return "PRELU";
    case K::Sigmoid: return "LOGISTIC";
    case K::Tanh: return "TANH";
    case K::HardSwish: return "HARD_SWISH";
    case K::Gelu: return "GELU";
    case K::HardSigmoid: return "HARD_SIGMOID";  // no TFLite builtin: the writer decomposes it
    case K::Softmax: return "SOFTMAX";
    case K::LpNormalization: return "L2_NORMALIZATION";
    case K::Concat: return "CONCATENATION";
    case K::Reshape: case K::Flatten: return "RESHAPE";
    case K::Squeeze: return "SQUEEZE";
    case K::Unsqueeze: return "EXPAND_DIMS";
    case K::Transpose: return "TRANSPOSE";
    case K::Split: return "SPLIT";
    case K::Slice: return op.inputs.size() > 4 ? "STRIDED_SLICE" : "SLICE";
    case K::Pad: return "PAD";
    case K::Gather: return "GATHER";
    case K::ReduceMean: return "MEAN";
    case K::ReduceSum: return "SUM";
    case K::ReduceMax: return "REDUCE_MAX";
    case K::ReduceMin: return "REDUCE_MIN";
    case K::ReduceProd: return "REDUCE_PROD";
    case K::ArgMax: return "ARG_MAX";
    case K::ArgMin: return "ARG_MIN";
    case K::Resize: return op.attr_string("mode", "nearest") == "linear" ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR";
    case K::SpaceToDepth: return "SPACE_TO_DEPTH";
    case K::DepthToSpace: return "DEPTH_TO_SPACE";
    case K::QuantizeLinear: return "QUANTIZE";
    case K::DequantizeLinear: return "DEQUANTIZE";
    case K::Identity:
      return first_dtype() == ir::DType::Int8 || first_dtype() == ir::DType::UInt8 ? "QUANTIZE" : "IDENTITY";
    case K::Cast: return "CAST";
    case K::Exp: return "EXP";
    case K::Log: return "LOG";
    case K::Sqrt: return "SQRT";
    case K::Abs: return "ABS";
    case K::Neg: return "NEG";
    case K::Pow: return "POW";
    case K::Unknown: {
      std::string t = op.op_type;
      if (t.rfind("tflite::", 0) == 0) return t.substr(8);
      return t;
    }
    default: {
      std::string t(ir::op_info(op.kind).name);
      std::string up;
      for (std::size_t i = 0; i < t.size(); ++i) {
        if (i && std::isupper(static_cast<unsigned char>(t[i])) && std::islower(static_cast<unsigned char>(t[i - 1])))
          up += '_';
        up += static_cast<char>(std::toupper(static_cast<unsigned char>(t[i])));
      }
      return up;
    }
  }
}

std::vector<std::vector<std::size_t>> group_units(const ir::Graph& graph) {
  // producer op index of each tensor, and how many ops read it
  std::map<std::string, std::size_t> producer;
  std::map<std::string, int> readers;
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    for (const auto& o : graph.ops[i].outputs)
      if (!o.empty()) producer[o] = i;
    for (const auto& in : graph.ops[i].inputs)
      if (!in.empty()) ++readers[in];
  }
  // A Reshape the TFLite reader put before a FULLY_CONNECTED whose input is not
  // 2-D (named "<FC output>/flatten", as a split-off activation is "<output>/activation",
  // and read by that op alone) is part of the file's one FULLY_CONNECTED: it joins the
  // FullyConnected's unit, so units count the file's ops.
  std::map<std::size_t, std::size_t> flatten_of;  // FullyConnected index -> its reader-made Reshape
  std::set<std::size_t> joined;
  std::map<std::string, std::size_t> reader_of;
  for (std::size_t i = 0; i < graph.ops.size(); ++i)
    for (const auto& in : graph.ops[i].inputs)
      if (!in.empty()) reader_of[in] = i;
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const auto& op = graph.ops[i];
    if (op.kind != ir::OpKind::Reshape || op.outputs.size() != 1 || readers[op.outputs[0]] != 1) continue;
    const std::size_t fc = reader_of[op.outputs[0]];
    const auto& f = graph.ops[fc];
    if (fc > i && f.kind == ir::OpKind::FullyConnected && !f.inputs.empty() && f.inputs[0] == op.outputs[0] &&
        !f.outputs.empty() && op.name == f.outputs[0] + "/flatten") {
      flatten_of[fc] = i;
      joined.insert(i);
    }
  }
  // The Transposes the reader puts around an NCHW op it makes of one NHWC file op
  // (TRANSPOSE_CONV, CONV_3D: outputs "<y>/nchw_in" or "/ncdhw_in" into the op, and from
  // "<y>/nchw_out" or "/ncdhw_out" to y) belong to that op's unit.
  auto ends_with = [](const std::string& s, const char* suffix) {
    const std::size_t n = std::char_traits<char>::length(suffix);
    return s.size() > n && s.compare(s.size() - n, n, suffix) == 0;
  };
  auto wrapper_in = [&](const ir::Operation& op) {
    return op.kind == ir::OpKind::Transpose && op.outputs.size() == 1 && readers[op.outputs[0]] == 1 &&
           (ends_with(op.outputs[0], "/nchw_in") || ends_with(op.outputs[0], "/ncdhw_in"));
  };
  auto wrapper_out = [&](const ir::Operation& op) {
    return op.kind == ir::OpKind::Transpose && op.inputs.size() == 1 && !op.outputs.empty() && readers[op.inputs[0]] == 1 &&
           (ends_with(op.inputs[0], "/nchw_out") || ends_with(op.inputs[0], "/ncdhw_out"));
  };
  std::map<std::size_t, std::size_t> wrapped_by;  // the wrapped op -> its reader-made Transpose in
  for (std::size_t i = 0; i < graph.ops.size(); ++i)
    if (wrapper_in(graph.ops[i]) && !joined.count(i)) {
      const std::size_t core = reader_of[graph.ops[i].outputs[0]];
      if (core > i) {
        wrapped_by[core] = i;
        joined.insert(i);
      }
    }
  std::vector<std::vector<std::size_t>> units;
  std::vector<int> unit_of(graph.ops.size(), -1);
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const auto& op = graph.ops[i];
    if (joined.count(i)) continue;  // placed with its FullyConnected (or wrapped op) below
    if (const auto w = wrapped_by.find(i); w != wrapped_by.end()) {
      unit_of[i] = unit_of[w->second] = static_cast<int>(units.size());
      units.push_back({i, w->second});
      continue;
    }
    if (wrapper_out(op)) {
      auto p = producer.find(op.inputs[0]);
      if (p != producer.end() && unit_of[p->second] >= 0) {
        units[static_cast<std::size_t>(unit_of[p->second])].push_back(i);
        unit_of[i] = unit_of[p->second];
        continue;
      }
    }
    if (const auto f = flatten_of.find(i); f != flatten_of.end()) {
      unit_of[i] = unit_of[f->second] = static_cast<int>(units.size());
      units.push_back({i, f->second});
      continue;
    }
    const bool activation = (op.kind == ir::OpKind::Relu || op.kind == ir::OpKind::Clip || op.kind == ir::OpKind::Tanh) &&
                            !op.outputs.empty() && op.name == op.outputs[0] + "/activation" && !op.inputs.empty();
    if (activation) {
      auto p = producer.find(op.inputs[0]);
      if (p != producer.end() && readers[op.inputs[0]] == 1 && unit_of[p->second] >= 0) {
        units[static_cast<std::size_t>(unit_of[p->second])].push_back(i);
        unit_of[i] = unit_of[p->second];
        continue;
      }
    }
    unit_of[i] = static_cast<int>(units.size());
    units.push_back({i});
  }
  return units;
}

}  // namespace ec::backends
