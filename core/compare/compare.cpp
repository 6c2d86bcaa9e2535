#include "core/compare/compare.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/ir/op_table.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/calibration_data.h"
#include "core/runtime/dispatch.h"
#include "core/session/session.h"

namespace ec::compare {
namespace {

constexpr double kMaxDb = 200;  // an exact match (JSON has no infinity); quantize::SqnrAccumulator's convention

/// Keys of the attributes two ops of one type set differently (an absent attribute counts
/// as its schema default; one absent without a default, such as a kernel_shape taken from
/// the weights, is not compared). The layout an NHWC twin carries is the layout change
/// undone, not a change of the op.
std::vector<std::string> changed_attributes(const ir::Operation& a, const ir::Operation& b) {
  std::set<std::string> keys;
  for (const auto& [k, v] : a.attributes) keys.insert(k);
  for (const auto& [k, v] : b.attributes) keys.insert(k);
  std::vector<std::string> changed;
  for (const auto& k : keys) {
    if (k == "layout") continue;
    auto value = [&](const ir::Operation& op) -> std::optional<ir::Attribute> {
      if (const ir::Attribute* v = op.attr(k)) return *v;
      if (const ir::AttrSpec* spec = ir::find_attr_spec(op.kind, k)) return spec->default_value;
      return std::nullopt;
    };
    const auto va = value(a), vb = value(b);
    if (va && vb && *va != *vb) changed.push_back(k);
  }
  return changed;
}

std::string shape_text(const ir::Tensor* t) {
  return t ? std::string(ir::dtype_name(t->dtype)) + t->shape.to_string() : std::string("?");
}

// NCHW -> NHWC of a rank-4 shape's dims.
ir::Shape to_nhwc(const ir::Shape& s) {
  ir::Shape r = s;
  if (s.rank_known && s.dims.size() == 4) r.dims = {s.dims[0], s.dims[2], s.dims[3], s.dims[1]};
  return r;
}

bool same_static(const ir::Shape& x, const ir::Shape& y) {
  if (!x.rank_known || !y.rank_known) return true;
  if (x.dims.size() != y.dims.size()) return false;
  for (std::size_t i = 0; i < x.dims.size(); ++i)
    if (x.dims[i].is_static() && y.dims[i].is_static() && x.dims[i].value != y.dims[i].value) return false;
  return true;
}

// Ops that only move, retype or requantise a tensor: a compiled model puts them between
// the source's ops (layout Transposes, Quantize at int8 inputs): their outputs stand for
// their input when pairing ops by position.
bool is_carrier(const ir::Operation& op) {
  switch (op.kind) {
    case ir::OpKind::Transpose:
    case ir::OpKind::Identity:
    case ir::OpKind::Cast:
    case ir::OpKind::QuantizeLinear:
    case ir::OpKind::DequantizeLinear:
      return true;
    default:
      return op.op_type == "Quantize" || op.op_type == "Dequantize" || op.op_type == "Requantize";
  }
}

// Op types one format spells differently from another.
std::string family(const std::string& op_type) {
  if (op_type == "Gemm" || op_type == "MatMul" || op_type == "FullyConnected") return "Gemm";
  if (op_type == "Reshape" || op_type == "Flatten" || op_type == "Squeeze" || op_type == "Unsqueeze") return "Reshape";
  if (op_type == "Relu" || op_type == "Clip" || op_type == "Relu6") return "Relu";
  return op_type;
}

// The name a compiled model's tensor was derived from: `x.nhwc` (LayoutTransform's twin),
// `x.nhwc.1`, `x_int8`, `x/quantized`... ("" when the name carries no such suffix).
std::string origin_of(const std::string& name) {
  static const char* const kSuffixes[] = {".nhwc", "_nhwc", ".nchw", "_int8", "_i8", "_uint8", "/quantized",
                                          "_quantized", "/dequantized", "_dequantized", ".q", ".dq", "_fp32", ".f32"};
  std::string s = name;
  bool changed = true, any = false;
  while (changed) {
    changed = false;
    // a uniqueness counter the writer appended (".1", "_2")
    const auto dot = s.find_last_of("._");
    if (dot != std::string::npos && dot + 1 < s.size() &&
        std::all_of(s.begin() + static_cast<std::ptrdiff_t>(dot) + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const std::string stem = s.substr(0, dot);
      for (const char* suf : kSuffixes)
        if (stem.size() > std::strlen(suf) && stem.ends_with(suf)) {
          s = stem;
          changed = any = true;
          break;
        }
    }
    for (const char* suf : kSuffixes)
      if (s.size() > std::strlen(suf) && s.ends_with(suf)) {
        s.resize(s.size() - std::strlen(suf));
        changed = any = true;
        break;
      }
  }
  return any ? s : std::string();
}

struct GraphIndex {
  const ir::Graph* g = nullptr;
  std::unordered_map<std::string, int> producer;  // computed tensor -> op index
  std::unordered_map<std::string, std::vector<int>> consumers;
  std::unordered_set<std::string> inputs;

  std::unordered_set<std::string> from_constants;  // computed from constants only (an exporter's Identity on a weight)

  explicit GraphIndex(const ir::Graph& graph) : g(&graph) {
    for (const auto& n : graph.inputs) inputs.insert(n);
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
      for (const auto& n : graph.ops[i].outputs)
        if (!n.empty()) producer.emplace(n, static_cast<int>(i));
      for (const auto& n : graph.ops[i].inputs)
        if (!n.empty()) consumers[n].push_back(static_cast<int>(i));
      bool folds = graph.ops[i].kind == ir::OpKind::Identity || graph.ops[i].kind == ir::OpKind::Cast ||
                   graph.ops[i].kind == ir::OpKind::Transpose || graph.ops[i].kind == ir::OpKind::Reshape;
      for (const auto& n : graph.ops[i].inputs) folds = folds && (n.empty() || constant(n));
      if (folds)
        for (const auto& n : graph.ops[i].outputs)
          if (!n.empty()) from_constants.insert(n);
    }
  }
  bool computed(const std::string& n) const { return producer.count(n) || inputs.count(n); }
  /// A constant, or a weight an op only moves (Identity, Cast, Transpose, Reshape of constants).
  bool constant(const std::string& n) const {
    const ir::Tensor* t = g->find_tensor(n);
    return (t && t->is_constant()) || from_constants.count(n) > 0;
  }
};

// What a tensor stands for on the other side: its match, else (through carrier ops) the
// match of what it carries. "" when none.
std::string equivalent(const GraphIndex& ix, const std::unordered_map<std::string, std::string>& matched,
                       const std::string& n) {
  std::string cur = n;
  for (int guard = 0; guard < 16; ++guard) {
    if (auto m = matched.find(cur); m != matched.end()) return m->second;
    auto p = ix.producer.find(cur);
    if (p == ix.producer.end()) return {};
    const ir::Operation& op = ix.g->ops[static_cast<std::size_t>(p->second)];
    if (!is_carrier(op) || op.inputs.empty()) return {};
    cur = op.inputs[0];
  }
  return {};
}

// Non-constant inputs of an op, as what they stand for on the other side.
std::vector<std::string> input_key(const GraphIndex& ix, const std::unordered_map<std::string, std::string>& matched,
                                   const ir::Operation& op, bool& complete) {
  std::vector<std::string> key;
  complete = true;
  for (const auto& n : op.inputs) {
    if (n.empty() || ix.constant(n)) continue;
    std::string e = equivalent(ix, matched, n);
    if (e.empty()) complete = false;
    key.push_back(std::move(e));
  }
  return key;
}

// The identifier form of a name, as Core ML's writer makes MIL names (core/backends/metal
// mil_identifier): every character other than [A-Za-z0-9_] becomes '_', leading '_' dropped.
std::string identifier(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  std::size_t k = 0;
  while (k < s.size() && s[k] == '_') ++k;
  return s.substr(k);
}

// Identifier -> computed tensor of one side ("" when two of its tensors share it).
std::unordered_map<std::string, std::string> identifiers(const GraphIndex& ix) {
  std::unordered_map<std::string, std::string> m;
  auto put = [&](const std::string& n) {
    if (n.empty()) return;
    auto [it, added] = m.emplace(identifier(n), n);
    if (!added && it->second != n) it->second.clear();
  };
  for (const auto& n : ix.g->inputs) put(n);
  for (const auto& op : ix.g->ops)
    for (const auto& n : op.outputs) put(n);
  return m;
}

// Whether two tensors can be compared at all: float against float, or an integer tensor
// with quantisation parameters (dequantised) against a float; static shapes that
// correspond (equal, NHWC of each other, or the same elements under unit dims or a
// flattening). Unknown shapes pass (the run checks the real ones).
bool compatible(const ir::Tensor* x, const ir::Tensor* y) {
  if (!x || !y) return true;
  auto kind = [](const ir::Tensor& t) {
    if (t.dtype == ir::DType::Undefined) return 0;
    if (ir::dtype_is_float(t.dtype)) return 1;
    if (t.dtype == ir::DType::Bool) return 3;
    if (ir::dtype_is_integer(t.dtype)) return t.quant && !t.quant->scales.empty() ? 1 : 2;
    return 4;
  };
  const int kx = kind(*x), ky = kind(*y);
  if (kx && ky && kx != ky) return false;
  const ir::Shape &sx = x->shape, &sy = y->shape;
  if (!sx.rank_known || !sy.rank_known || !sx.is_static() || !sy.is_static()) {
    if (!sx.rank_known || !sy.rank_known || sx.dims.size() != sy.dims.size()) return true;
    return same_static(sx, sy) || same_static(to_nhwc(sx), sy) || same_static(sx, to_nhwc(sy));
  }
  const auto vx = sx.sizes(), vy = sy.sizes();
  if (vx == vy) return true;
  if (vx.size() == 4 && vy.size() == 4 && (same_static(to_nhwc(sx), sy) || same_static(sx, to_nhwc(sy)))) return true;
  std::int64_t nx = 1, ny = 1;
  for (auto d : vx) nx *= d;
  for (auto d : vy) ny *= d;
  if (nx != ny) return false;
  auto drop_ones = [](std::vector<std::int64_t> v) {
    v.erase(std::remove(v.begin(), v.end(), 1), v.end());
    return v;
  };
  return drop_ones(vx) == drop_ones(vy) || vx.size() <= 2 || vy.size() <= 2;
}

// The one op reading `n` (none when n is a graph output or read by several ops).
const ir::Operation* sole_reader(const GraphIndex& ix, const std::string& n) {
  auto c = ix.consumers.find(n);
  if (c == ix.consumers.end() || c->second.size() != 1) return nullptr;
  if (std::find(ix.g->outputs.begin(), ix.g->outputs.end(), n) != ix.g->outputs.end()) return nullptr;
  const ir::Operation& op = ix.g->ops[static_cast<std::size_t>(c->second.front())];
  return op.outputs.size() == 1 && !op.outputs[0].empty() ? &op : nullptr;
}

// Ops a compiler folds into the op before them: BatchNormalization, an activation, or an
// element-wise op with a constant operand (a bias, a scale).
bool folds_into_producer(const GraphIndex& ix, const ir::Operation& op) {
  static const std::unordered_set<std::string> kFolded = {
      "BatchNormalization", "Relu", "Clip", "Relu6", "Sigmoid", "Tanh", "LeakyRelu", "HardSigmoid", "HardSwish",
      "Elu", "Selu", "Gelu", "Softplus", "Mish", "Silu"};
  if (kFolded.count(op.op_type)) return true;
  if (op.op_type == "Add" || op.op_type == "Sub" || op.op_type == "Mul" || op.op_type == "Div") {
    int computed = 0;
    for (const auto& n : op.inputs) computed += !n.empty() && !ix.constant(n);
    return computed == 1;
  }
  return false;
}

// Whether an op of `fam` reads `n` (directly or through carrier ops).
bool read_by_family(const GraphIndex& ix, const std::string& n, const std::string& fam) {
  std::vector<std::string> stack{n};
  for (int guard = 0; guard < 64 && !stack.empty(); ++guard) {
    const std::string cur = stack.back();
    stack.pop_back();
    auto c = ix.consumers.find(cur);
    if (c == ix.consumers.end()) continue;
    for (int i : c->second) {
      const ir::Operation& op = ix.g->ops[static_cast<std::size_t>(i)];
      if (family(op.op_type) == fam) return true;
      if (is_carrier(op))
        for (const auto& o : op.outputs) stack.push_back(o);
    }
  }
  return false;
}

// From `n` along single readers that only reshape/move (carriers, Reshape family) or fold
// into a producer, to the first tensor with a match: that tensor ("" when none within a
// few ops) and whether a folding op was on the way.
struct Chain {
  std::string end;
  bool computes = false;
};
Chain chain_to_match(const GraphIndex& ix, const std::string& n, const std::unordered_map<std::string, std::string>& matched) {
  Chain c;
  std::string cur = n;
  for (int guard = 0; guard < 8; ++guard) {
    const ir::Operation* op = sole_reader(ix, cur);
    if (!op) return {};
    if (folds_into_producer(ix, *op)) c.computes = true;
    else if (!is_carrier(*op) && family(op->op_type) != "Reshape") return {};
    cur = op->outputs[0];
    if (matched.count(cur)) {
      c.end = cur;
      return c;
    }
  }
  return {};
}

// ---- tensors as float in A's layout --------------------------------------------------

struct Plain {
  std::vector<float> v;
  std::vector<std::int64_t> shape;
  bool dequantised = false;
};

// Every element as float; int8/uint8/int16/int32 with quant params dequantised with their
// own scale and zero point (per channel along the params' axis).
Plain to_float(const runtime::Tensor& t, const ir::Tensor* info) {
  Plain p;
  p.shape = t.shape();
  const auto n = static_cast<std::size_t>(t.numel());
  p.v.resize(n);
  const ir::QuantParams* q = info && info->quant && !info->quant->scales.empty() ? &*info->quant : nullptr;
  const bool integer = t.dtype() == ir::DType::Int8 || t.dtype() == ir::DType::UInt8 ||
                       t.dtype() == ir::DType::Int16 || t.dtype() == ir::DType::Int32;
  if (q && integer) {
    p.dequantised = true;
    std::size_t inner = 1, channels = 1;
    if (q->scales.size() > 1 && q->axis >= 0 && static_cast<std::size_t>(q->axis) < p.shape.size()) {
      channels = static_cast<std::size_t>(p.shape[static_cast<std::size_t>(q->axis)]);
      for (std::size_t d = static_cast<std::size_t>(q->axis) + 1; d < p.shape.size(); ++d)
        inner *= static_cast<std::size_t>(p.shape[d]);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t c = channels > 1 ? (i / inner) % channels : 0;
      const float s = q->scales[std::min(c, q->scales.size() - 1)];
      const auto zp = q->zero_points.empty() ? 0 : q->zero_points[std::min(c, q->zero_points.size() - 1)];
      p.v[i] = static_cast<float>((t.get_double(static_cast<std::int64_t>(i)) - double(zp)) * double(s));
    }
    return p;
  }
  if (t.dtype() == ir::DType::Float32) {
    std::copy_n(t.data<float>(), n, p.v.begin());
    return p;
  }
  for (std::size_t i = 0; i < n; ++i) p.v[i] = static_cast<float>(t.get_double(static_cast<std::int64_t>(i)));
  return p;
}

// x (rank 4) permuted by `perm`: y.dims[i] = x.dims[perm[i]].
std::vector<float> permute4(const std::vector<float>& x, const std::vector<std::int64_t>& s, const int perm[4],
                            std::vector<std::int64_t>& out_shape) {
  out_shape = {s[static_cast<std::size_t>(perm[0])], s[static_cast<std::size_t>(perm[1])],
               s[static_cast<std::size_t>(perm[2])], s[static_cast<std::size_t>(perm[3])]};
  std::int64_t stride[4] = {s[1] * s[2] * s[3], s[2] * s[3], s[3], 1};
  std::vector<float> y(x.size());
  std::size_t k = 0;
  for (std::int64_t a = 0; a < out_shape[0]; ++a)
    for (std::int64_t b = 0; b < out_shape[1]; ++b)
      for (std::int64_t c = 0; c < out_shape[2]; ++c)
        for (std::int64_t d = 0; d < out_shape[3]; ++d) {
          const std::int64_t idx[4] = {a, b, c, d};
          std::int64_t src = 0;
          for (int i = 0; i < 4; ++i) src += idx[i] * stride[perm[i]];
          y[k++] = x[static_cast<std::size_t>(src)];
        }
  return y;
}

constexpr int kNhwcToNchw[4] = {0, 3, 1, 2};
constexpr int kNchwToNhwc[4] = {0, 2, 3, 1};

// B's values in A's layout; false when the shapes do not correspond.
bool to_layout_of(const std::vector<std::int64_t>& a_shape, Plain& b, bool b_nhwc, bool a_nhwc, bool& transposed) {
  transposed = false;
  std::vector<std::int64_t> s;
  if (b.shape.size() == 4 && a_shape.size() == 4 && b_nhwc != a_nhwc) {
    const int* perm = b_nhwc ? kNhwcToNchw : kNchwToNhwc;
    const std::vector<std::int64_t> ps = {b.shape[static_cast<std::size_t>(perm[0])], b.shape[static_cast<std::size_t>(perm[1])],
                                          b.shape[static_cast<std::size_t>(perm[2])], b.shape[static_cast<std::size_t>(perm[3])]};
    if (ps == a_shape) {
      b.v = permute4(b.v, b.shape, perm, s);
      b.shape = s;
      transposed = true;
      return true;
    }
  }
  if (b.shape == a_shape) return true;
  // Same elements under another shape (a Flatten's [1, N] vs [N], a squeezed unit dim).
  std::int64_t na = 1, nb = 1;
  for (auto d : a_shape) na *= d;
  for (auto d : b.shape) nb *= d;
  if (na == nb) {
    auto drop_ones = [](std::vector<std::int64_t> v) {
      v.erase(std::remove(v.begin(), v.end(), 1), v.end());
      return v;
    };
    if (drop_ones(a_shape) == drop_ones(b.shape) || b.shape.size() <= 2 || a_shape.size() <= 2) {
      b.shape = a_shape;
      return true;
    }
  }
  // The NHWC rule from shapes alone, for a graph whose layout says nothing.
  if (b.shape.size() == 4 && a_shape.size() == 4) {
    for (const int* perm : {kNhwcToNchw, kNchwToNhwc}) {
      const std::vector<std::int64_t> ps = {b.shape[static_cast<std::size_t>(perm[0])], b.shape[static_cast<std::size_t>(perm[1])],
                                            b.shape[static_cast<std::size_t>(perm[2])], b.shape[static_cast<std::size_t>(perm[3])]};
      if (ps == a_shape) {
        b.v = permute4(b.v, b.shape, perm, s);
        b.shape = s;
        transposed = true;
        return true;
      }
    }
  }
  return false;
}

// A graph that keeps TFLite's NHWC convention (read from .tflite, `layout: NHWC` ops).
bool nhwc_graph(const ir::Graph& g) {
  int nhwc = 0, nchw = 0;
  for (const auto& op : g.ops) {
    if (op.kind != ir::OpKind::Conv && op.kind != ir::OpKind::MaxPool && op.kind != ir::OpKind::AveragePool) continue;
    (op.attr_string("layout", "NCHW") == "NHWC" ? nhwc : nchw)++;
  }
  if (nhwc + nchw == 0) {
    const auto f = g.metadata.find("source.format");
    return f != g.metadata.end() && (f->second == "tflite" || f->second == "keras" || f->second == "savedmodel");
  }
  return nhwc > nchw;
}

struct Accum {
  double signal = 0, noise = 0, ab = 0, bb = 0;
  double max_abs = 0, max_ref = 0;
  std::int64_t nonfinite_a = 0, nonfinite_b = 0;
  bool exact = true;
  void add(const std::vector<float>& a, const std::vector<float>& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double x = a[i], y = b[i];
      const bool fa = std::isfinite(x), fb = std::isfinite(y);
      if (!fa) ++nonfinite_a;
      if (!fb) ++nonfinite_b;
      if (!fa || !fb) {
        if (!(std::isnan(x) && std::isnan(y)) && x != y) exact = false;
        continue;
      }
      const double d = x - y;
      if (d != 0) exact = false;
      signal += x * x;
      noise += d * d;
      ab += x * y;
      bb += y * y;
      max_abs = std::max(max_abs, std::fabs(d));
      max_ref = std::max(max_ref, std::fabs(x));
    }
  }
  double db() const {
    if (noise == 0) return kMaxDb;
    if (signal == 0) return 0;
    return std::min(kMaxDb, 10.0 * std::log10(signal / noise));
  }
};

std::int64_t count_nonfinite(const runtime::Tensor& t, std::int64_t& nan) {
  nan = 0;
  std::int64_t inf = 0;
  if (t.dtype() != ir::DType::Float32) return 0;
  for (float v : t.values<float>()) {
    if (std::isnan(v)) ++nan;
    else if (std::isinf(v)) ++inf;
  }
  return inf;
}

void check_progress(const ProgressFn& progress, int done, int total, const std::string& what) {
  if (progress && !progress(done, total, what)) throw EdgeCompilerError(ErrorKind::Usage, "cancelled");
}

runtime::SessionOptions observing(int threads, bool fp16) {
  runtime::SessionOptions o;
  o.threads = threads;
  o.keep_intermediates = true;
  o.simulate_fp16 = fp16;
  return o;
}

// A's sample as B takes it: B's layout (NHWC twin of an NCHW input) and dtype (an int8
// input quantised with B's own params).
runtime::Tensor input_for_b(const runtime::Tensor& x, const ir::Tensor* a_info, const ir::Tensor* b_info) {
  if (!b_info) return x;
  Plain p = to_float(x, a_info);
  std::vector<std::int64_t> shape = x.shape();
  if (shape.size() == 4 && b_info->shape.rank_known && b_info->shape.rank() == 4 &&
      !same_static(ir::Shape::of(shape), b_info->shape) &&
      same_static(to_nhwc(ir::Shape::of(shape)), b_info->shape)) {
    std::vector<std::int64_t> s;
    p.v = permute4(p.v, shape, kNchwToNhwc, s);
    shape = s;
  } else if (x.dtype() == b_info->dtype && !(b_info->quant && !(a_info && a_info->quant))) {
    return x;
  }
  runtime::Tensor t(b_info->dtype, shape);
  const ir::QuantParams* q = b_info->quant && !b_info->quant->scales.empty() ? &*b_info->quant : nullptr;
  runtime::dispatch_all(b_info->dtype, [&]<typename T>() {
    T* d = t.mutable_data<T>();
    for (std::size_t i = 0; i < p.v.size(); ++i) {
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        double v = p.v[i];
        if (q) v = std::nearbyint(v / double(q->scales[0])) + double(q->zero_points.empty() ? 0 : q->zero_points[0]);
        v = std::clamp(v, double(std::numeric_limits<T>::min()), double(std::numeric_limits<T>::max()));
        d[i] = static_cast<T>(v);
      } else {
        d[i] = static_cast<T>(p.v[i]);
      }
    }
  }, "compare inputs");
  return t;
}

}  // namespace

bool computes_in_fp16(const ir::Graph& g) {
  for (const char* key : {"coreml.compute_precision", "coreml.com.github.edgecompiler.precision"}) {
    const auto it = g.metadata.find(key);
    if (it != g.metadata.end()) return it->second == "fp16";
  }
  return false;
}

const char* to_string(MatchedBy m) {
  switch (m) {
    case MatchedBy::Name: return "name";
    case MatchedBy::Origin: return "origin";
    case MatchedBy::Position: return "position";
  }
  return "?";
}

std::vector<std::size_t> CompareResult::by_error() const {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].compared) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) {
    const auto& a = tensors[x];
    const auto& b = tensors[y];
    const auto bad_a = a.nonfinite_a + a.nonfinite_b, bad_b = b.nonfinite_a + b.nonfinite_b;
    if ((bad_a > 0) != (bad_b > 0)) return bad_a > 0;
    if (a.sqnr_db != b.sqnr_db) return a.sqnr_db < b.sqnr_db;
    return a.max_rel_error > b.max_rel_error;
  });
  return idx;
}

const TensorComparison* CompareResult::find_a(const std::string& tensor) const {
  for (const auto& t : tensors)
    if (t.a == tensor) return &t;
  return nullptr;
}

const TensorComparison* CompareResult::find_b(const std::string& tensor) const {
  for (const auto& t : tensors)
    if (t.b == tensor) return &t;
  return nullptr;
}

void check_inputs(const ir::Graph& a, const ir::Graph& b) {
  std::string list_b;
  for (const auto& n : b.inputs) list_b += (list_b.empty() ? "'" : ", '") + n + "'";
  for (const auto& n : a.inputs)
    if (std::find(b.inputs.begin(), b.inputs.end(), n) == b.inputs.end())
      throw EdgeCompilerError(ErrorKind::Input, "the models' inputs differ: A's input '" + n +
                                                    "' is not an input of B (B's inputs: " +
                                                    (list_b.empty() ? "none" : list_b) + ")");
  for (const auto& n : b.inputs)
    if (std::find(a.inputs.begin(), a.inputs.end(), n) == a.inputs.end())
      throw EdgeCompilerError(ErrorKind::Input, "the models' inputs differ: B's input '" + n + "' is not an input of A");
  for (const auto& n : a.inputs) {
    const ir::Tensor* ta = a.find_tensor(n);
    const ir::Tensor* tb = b.find_tensor(n);
    if (!ta || !tb) continue;
    const bool same = same_static(ta->shape, tb->shape) || same_static(to_nhwc(ta->shape), tb->shape) ||
                      same_static(ta->shape, to_nhwc(tb->shape));
    if (!same)
      throw EdgeCompilerError(ErrorKind::Input, "input '" + n + "' differs in shape: A takes " + shape_text(ta) +
                                                    ", B takes " + shape_text(tb));
  }
}

std::vector<TensorMatch> match_tensors(const ir::Graph& a, const ir::Graph& b) {
  GraphIndex ia(a), ib(b);
  std::vector<TensorMatch> out;
  std::unordered_map<std::string, std::string> a_to_b, b_to_a;
  // A pair is made only when the two tensors can hold the same values (shapes that
  // correspond after undoing NHWC, float against float or dequantisable int).
  auto add = [&](const std::string& x, const std::string& y, MatchedBy by) {
    if (a_to_b.count(x) || b_to_a.count(y)) return false;
    if (!compatible(a.find_tensor(x), b.find_tensor(y))) return false;
    a_to_b[x] = y;
    b_to_a[y] = x;
    out.push_back({x, y, by});
    return true;
  };
  // Where one side folded a chain the other computes op by op, a pair found by origin or
  // position is moved to the chain's end: A's x moves on to its only reader's output while
  // that reader folds into an op (BatchNormalization, an activation, a constant bias or
  // scale) and B has no op of its kind reading y, which then computes it folded (a
  // Conv with BatchNormalization folded in, a fused activation). The same for B's y.
  auto extend = [&](std::string x, std::string y) {
    for (int guard = 0; guard < 8; ++guard) {
      bool moved = false;
      if (const ir::Operation* ca = sole_reader(ia, x);
          ca && folds_into_producer(ia, *ca) && !a_to_b.count(ca->outputs[0]) && !read_by_family(ib, y, family(ca->op_type)) &&
          compatible(a.find_tensor(ca->outputs[0]), b.find_tensor(y))) {
        x = ca->outputs[0];
        moved = true;
      }
      if (const ir::Operation* cb = sole_reader(ib, y);
          cb && folds_into_producer(ib, *cb) && !b_to_a.count(cb->outputs[0]) && !read_by_family(ia, x, family(cb->op_type)) &&
          compatible(a.find_tensor(x), b.find_tensor(cb->outputs[0]))) {
        y = cb->outputs[0];
        moved = true;
      }
      if (!moved) break;
    }
    return std::make_pair(x, y);
  };
  // 1. names (every computed tensor in A's order; graph inputs after the origins, below)
  for (const auto& op : a.ops)
    for (const auto& n : op.outputs)
      if (!n.empty() && ib.producer.count(n)) add(n, n, MatchedBy::Name);
  // 2. origins: a name B derived from A's (`x.nhwc`), or A from B's; then names that are
  // one another's identifier form (Core ML's MIL names: `/stem/conv/Conv_output_0` is
  // `stem_conv_Conv_output_0`), unique on each side.
  for (const auto& op : b.ops)
    for (const auto& n : op.outputs) {
      if (n.empty() || b_to_a.count(n)) continue;
      const std::string o = origin_of(n);
      if (!o.empty() && ia.computed(o) && !a_to_b.count(o)) add(o, n, MatchedBy::Origin);
    }
  for (const auto& op : a.ops)
    for (const auto& n : op.outputs) {
      if (n.empty() || a_to_b.count(n)) continue;
      const std::string o = origin_of(n);
      if (!o.empty() && ib.producer.count(o) && !b_to_a.count(o)) add(n, o, MatchedBy::Origin);
    }
  const auto ids_a = identifiers(ia), ids_b = identifiers(ib);
  for (const auto& op : a.ops)
    for (const auto& n : op.outputs) {
      if (n.empty() || a_to_b.count(n)) continue;
      const std::string id = identifier(n);
      auto y = ids_b.find(id);
      if (y == ids_b.end() || y->second.empty() || !ib.producer.count(y->second)) continue;
      if (auto x = ids_a.find(id); x != ids_a.end() && x->second == n) add(n, y->second, MatchedBy::Origin);
    }
  // A lowering's intermediate named after the op it came from (`stem_conv_Conv_conv`: the
  // conv of IR op `/stem/conv/Conv` before its separate activation): A's op of that name
  // and family, moved to the end of what B folded into it.
  {
    std::unordered_map<std::string, int> a_op_ids;  // identifier of A's op name -> op (unique)
    for (std::size_t i = 0; i < a.ops.size(); ++i) {
      if (a.ops[i].name.empty()) continue;
      auto [it, added] = a_op_ids.emplace(identifier(a.ops[i].name), static_cast<int>(i));
      if (!added) it->second = -1;
    }
    for (const auto& op : b.ops) {
      if (is_carrier(op) || op.outputs.empty() || op.outputs[0].empty() || b_to_a.count(op.outputs[0])) continue;
      const std::string& n = op.outputs[0];
      std::string stem = identifier(n);
      for (int cut = 0; cut < 2; ++cut) {  // `NAME_conv`, `NAME_conv_1`
        const auto us = stem.find_last_of('_');
        if (us == std::string::npos || us == 0) break;
        stem.resize(us);
        auto it = a_op_ids.find(stem);
        if (it == a_op_ids.end() || it->second < 0) continue;
        const ir::Operation& aop = a.ops[static_cast<std::size_t>(it->second)];
        if (aop.outputs.empty() || aop.outputs[0].empty() || a_to_b.count(aop.outputs[0]) ||
            family(aop.op_type) != family(op.op_type))
          break;
        const auto [x, y] = extend(aop.outputs[0], n);
        add(x, y, MatchedBy::Origin);
        break;
      }
    }
  }
  // A graph input pairs with what B made of it (`x/quantized`: what B computes from) when
  // there is one, else with B's input of that name (fed the same sample).
  for (const auto& n : a.inputs)
    if (ib.inputs.count(n) && !a_to_b.count(n)) add(n, n, MatchedBy::Name);
  // 3. graph position: an op of B on inputs that stand for A's tensors pairs with the op of
  // A of the same type on those tensors (moved to the end of a folded chain); repeated
  // until nothing more pairs.
  std::vector<bool> a_done(a.ops.size()), b_done(b.ops.size());
  auto all_matched = [](const ir::Operation& op, const std::unordered_map<std::string, std::string>& m) {
    for (const auto& n : op.outputs)
      if (!n.empty() && !m.count(n)) return false;
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    std::map<std::pair<std::string, std::vector<std::string>>, std::vector<int>> a_by_key;
    for (std::size_t i = 0; i < a.ops.size(); ++i) {
      const auto& op = a.ops[i];
      if (a_done[i] || all_matched(op, a_to_b)) continue;
      // A's inputs as themselves (A is the reference side).
      std::vector<std::string> k;
      bool ok = true;
      for (const auto& n : op.inputs) {
        if (n.empty() || ia.constant(n)) continue;
        if (!ia.computed(n)) ok = false;
        // through A's own carriers to a tensor that has a match
        std::string cur = n;
        for (int g = 0; g < 16 && !a_to_b.count(cur); ++g) {
          auto p = ia.producer.find(cur);
          if (p == ia.producer.end()) break;
          const auto& pop = a.ops[static_cast<std::size_t>(p->second)];
          if (!is_carrier(pop) || pop.inputs.empty()) break;
          cur = pop.inputs[0];
        }
        if (!a_to_b.count(cur)) ok = false;
        k.push_back(cur);
      }
      if (ok && !k.empty()) a_by_key[{family(op.op_type), k}].push_back(static_cast<int>(i));
    }
    for (std::size_t j = 0; j < b.ops.size(); ++j) {
      const auto& op = b.ops[j];
      if (b_done[j] || is_carrier(op) || all_matched(op, b_to_a)) continue;
      bool complete;
      auto key = input_key(ib, b_to_a, op, complete);
      if (!complete || key.empty()) continue;
      auto it = a_by_key.find({family(op.op_type), key});
      if (it == a_by_key.end() || it->second.empty()) continue;
      const int i = it->second.front();
      it->second.erase(it->second.begin());
      a_done[static_cast<std::size_t>(i)] = b_done[j] = true;
      const auto& aop = a.ops[static_cast<std::size_t>(i)];
      for (std::size_t k = 0; k < std::min(aop.outputs.size(), op.outputs.size()); ++k)
        if (!aop.outputs[k].empty() && !op.outputs[k].empty()) {
          const auto [x, y] = aop.outputs.size() == 1 && op.outputs.size() == 1 ? extend(aop.outputs[k], op.outputs[k])
                                                                                  : std::make_pair(aop.outputs[k], op.outputs[k]);
          if (add(x, y, MatchedBy::Position)) {
            progress = true;
            if (x != aop.outputs[k] || y != op.outputs[k]) {  // the chain's end found: its ops are done
              if (auto p = ia.producer.find(x); p != ia.producer.end()) a_done[static_cast<std::size_t>(p->second)] = true;
              if (auto p = ib.producer.find(y); p != ib.producer.end()) b_done[static_cast<std::size_t>(p->second)] = true;
            }
          }
        }
    }
  }
  // 4. A name can say less than the value holds: a writer folds MatMul + Add into one
  // linear op and names its output after the MatMul (`x_MatMul_output_0`, then a Reshape
  // to the Add's name). A pair (x, y) whose sides reach the same later pair, one through
  // an op folded there (an Add of a bias, a BatchNormalization, an activation) and the
  // other through shape-only ops, holds different values: x is fused, not paired.
  std::unordered_set<std::string> inconsistent;
  for (const auto& m : out) {
    if (!ia.producer.count(m.a) || !ib.producer.count(m.b)) continue;  // graph inputs stay
    const Chain ca = chain_to_match(ia, m.a, a_to_b), cb = chain_to_match(ib, m.b, b_to_a);
    if (!ca.end.empty() && !cb.end.empty() && a_to_b.at(ca.end) == cb.end && ca.computes != cb.computes)
      inconsistent.insert(m.a);
  }
  if (!inconsistent.empty())
    out.erase(std::remove_if(out.begin(), out.end(), [&](const TensorMatch& m) { return inconsistent.count(m.a) > 0; }),
              out.end());
  return out;
}

std::vector<Sample> random_samples(const ir::Graph& a, int n, std::uint64_t seed) {
  return quantize::random_samples(a, std::max(1, n), seed);
}

CompareResult compare_models(const ir::FrozenGraph& ga, const ir::FrozenGraph& gb, const std::vector<Sample>& samples,
                             const CompareOptions& options, const ProgressFn& progress) {
  if (!ga || !gb) throw EdgeCompilerError(ErrorKind::Usage, "compare: two models are needed");
  const ir::Graph& a = *ga;
  const ir::Graph& b = *gb;
  check_inputs(a, b);
  const auto matches = match_tensors(a, b);
  std::size_t op_matches = 0;
  {
    const GraphIndex index(a);
    for (const auto& m : matches) op_matches += index.producer.count(m.a) ? 1 : 0;
  }
  if (op_matches == 0)
    throw EdgeCompilerError(ErrorKind::Input, "nothing to compare: no tensor computed by A matches one of B's "
                                              "(by name, by origin or by graph position)");
  if (samples.empty()) throw EdgeCompilerError(ErrorKind::Usage, "compare: no input samples");

  CompareResult r;
  r.samples = static_cast<int>(samples.size());
  const GraphIndex ia(a), ib(b);
  const bool a_nhwc = nhwc_graph(a), b_nhwc = nhwc_graph(b);
  std::unordered_map<std::string, std::size_t> row_of_a, row_of_b;  // tensor -> row
  // Rows: graph inputs first, then A's op order.
  std::unordered_map<std::string, const TensorMatch*> by_a;
  for (const auto& m : matches) by_a[m.a] = &m;
  auto add_row = [&](const std::string& n, int order, const ir::Operation* op) {
    auto m = by_a.find(n);
    if (m == by_a.end()) return;
    TensorComparison t;
    t.a = n;
    t.b = m->second->b;
    t.matched_by = m->second->by;
    t.a_order = order;
    t.a_op = op ? op->name : "";
    t.op_type = op ? op->op_type : "input";
    if (auto p = ib.producer.find(t.b); p != ib.producer.end()) {
      t.b_order = p->second;
      t.b_op = b.ops[static_cast<std::size_t>(p->second)].name;
      const ir::Operation& bop = b.ops[static_cast<std::size_t>(p->second)];
      t.b_op_type = bop.op_type;
      if (op && op->op_type == bop.op_type) t.changed_attributes = changed_attributes(*op, bop);
    } else {
      t.b_op_type = "input";
    }
    row_of_a[t.a] = r.tensors.size();
    row_of_b[t.b] = r.tensors.size();
    r.tensors.push_back(std::move(t));
  };
  for (const auto& n : a.inputs) add_row(n, -1, nullptr);
  for (std::size_t i = 0; i < a.ops.size(); ++i)
    for (const auto& n : a.ops[i].outputs)
      if (!n.empty()) add_row(n, static_cast<int>(i), &a.ops[i]);
  std::vector<Accum> acc(r.tensors.size());
  std::vector<bool> seen(r.tensors.size(), false);

  r.fp16_a = options.fp16_a.value_or(computes_in_fp16(a));
  r.fp16_b = options.fp16_b.value_or(computes_in_fp16(b));
  for (const auto& [side, g, on, given] : {std::tuple{"A", &a, r.fp16_a, options.fp16_a.has_value()},
                                           std::tuple{"B", &b, r.fp16_b, options.fp16_b.has_value()}})
    if (on)
      r.notes.push_back(std::string(side) + " runs with fp16 compute simulated (" +
                        (given ? std::string("as asked") : "a Core ML program typed fp16") +
                        "): every float tensor rounded to half; fp16 noise (about 1e-3 relative) is not a divergence");
  // A model typed fp16 has fp16 weights even when its compute is not simulated.
  const bool fp16 = r.fp16_a || r.fp16_b || computes_in_fp16(a) || computes_in_fp16(b);
  const double noise_floor = fp16 ? std::min(options.noise_floor_db, options.fp16_noise_floor_db) : options.noise_floor_db;
  r.noise_floor_db = noise_floor;
  runtime::InferenceSession sa(observing(options.threads, r.fp16_a)), sb(observing(options.threads, r.fp16_b));
  sa.load(ga);
  sb.load(gb);
  std::optional<std::pair<int, NonFinite>> nf_a, nf_b;  // (op index, where)
  auto note_nonfinite = [](std::optional<std::pair<int, NonFinite>>& slot, int order, const ir::Operation& op,
                           const std::string& n, const runtime::Tensor& v) {
    if (slot && slot->first <= order) return;
    std::int64_t nan = 0;
    const std::int64_t inf = count_nonfinite(v, nan);
    if (nan + inf == 0) return;
    slot = std::make_pair(order, NonFinite{n, op.name, op.op_type, nan, inf});
  };
  const int total = static_cast<int>(samples.size()) * 2;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    check_progress(progress, static_cast<int>(2 * s), total, "running A on sample " + std::to_string(s + 1));
    std::unordered_map<std::string, Plain> kept;  // A's matched tensors as float
    for (const auto& n : a.inputs)
      if (row_of_a.count(n) && samples[s].count(n)) kept[n] = to_float(samples[s].at(n), a.find_tensor(n));
    std::unordered_map<const ir::Operation*, int> order_a, order_b;
    for (std::size_t i = 0; i < a.ops.size(); ++i) order_a[&a.ops[i]] = static_cast<int>(i);
    for (std::size_t i = 0; i < b.ops.size(); ++i) order_b[&b.ops[i]] = static_cast<int>(i);
    auto order_of = [](const std::unordered_map<const ir::Operation*, int>& m, const GraphIndex& ix, const ir::Operation& op,
                       const std::string& n) {
      auto it = m.find(&op);
      if (it != m.end()) return it->second;
      auto p = ix.producer.find(n);
      return p == ix.producer.end() ? -1 : p->second;
    };
    sa.run(samples[s], [&](const ir::Operation& op, std::size_t, const std::string& n, const runtime::Tensor& v) {
      note_nonfinite(nf_a, order_of(order_a, ia, op, n), op, n, v);
      if (row_of_a.count(n)) kept[n] = to_float(v, a.find_tensor(n));
    });
    check_progress(progress, static_cast<int>(2 * s + 1), total, "running B on sample " + std::to_string(s + 1));
    Sample feed_b;
    for (const auto& n : b.inputs)
      if (samples[s].count(n)) feed_b[n] = input_for_b(samples[s].at(n), a.find_tensor(n), b.find_tensor(n));
    auto measure = [&](const std::string& n, const runtime::Tensor& v) {
      auto row = row_of_b.find(n);
      if (row == row_of_b.end()) return;
      TensorComparison& t = r.tensors[row->second];
      auto ka = kept.find(t.a);
      if (ka == kept.end()) {
        t.skipped = "A did not compute it";
        return;
      }
      Plain pb = to_float(v, b.find_tensor(n));
      bool transposed = false;
      if (!to_layout_of(ka->second.shape, pb, b_nhwc, a_nhwc, transposed)) {
        std::ostringstream os;
        os << "shapes do not correspond: A " << runtime::shape_string(ka->second.shape) << ", B "
           << runtime::shape_string(pb.shape);
        t.skipped = os.str();
        return;
      }
      t.transposed = transposed;
      t.dequantised_a = ka->second.dequantised;
      t.dequantised_b = pb.dequantised;
      if (!seen[row->second]) {
        t.shape = ka->second.shape;
        t.elements = static_cast<std::int64_t>(ka->second.v.size());
      }
      seen[row->second] = true;
      t.compared = true;
      t.skipped.clear();
      acc[row->second].add(ka->second.v, pb.v);
    };
    for (const auto& [n, v] : feed_b) measure(n, v);
    sb.run(feed_b, [&](const ir::Operation& op, std::size_t, const std::string& n, const runtime::Tensor& v) {
      note_nonfinite(nf_b, order_of(order_b, ib, op, n), op, n, v);
      measure(n, v);
    });
  }
  check_progress(progress, total, total, "comparing");
  if (nf_a) r.first_nonfinite_a = nf_a->second;
  if (nf_b) r.first_nonfinite_b = nf_b->second;
  for (std::size_t i = 0; i < r.tensors.size(); ++i) {
    TensorComparison& t = r.tensors[i];
    if (!t.compared) {
      if (t.skipped.empty()) t.skipped = "not computed";
      continue;
    }
    const Accum& x = acc[i];
    t.max_abs_error = x.max_abs;
    t.max_rel_error = x.max_ref > 0 ? x.max_abs / x.max_ref : (x.max_abs > 0 ? 1.0 : 0.0);
    t.sqnr_db = x.db();
    t.cosine = x.signal > 0 && x.bb > 0 ? x.ab / std::sqrt(x.signal * x.bb) : (x.signal == x.bb ? 1.0 : 0.0);
    t.nonfinite_a = x.nonfinite_a;
    t.nonfinite_b = x.nonfinite_b;
    t.exact = x.exact;
  }
  // Where the error jumps: each row against the matched tensors it is computed from (through
  // unmatched ops of A back to the nearest matched ones).
  auto upstream_rows = [&](const ir::Operation& op) {
    std::vector<std::size_t> rows;
    std::vector<std::string> stack(op.inputs.begin(), op.inputs.end());
    std::unordered_set<std::string> visited;
    while (!stack.empty()) {
      std::string n = stack.back();
      stack.pop_back();
      if (n.empty() || !visited.insert(n).second || ia.constant(n)) continue;
      if (auto rr = row_of_a.find(n); rr != row_of_a.end() && r.tensors[rr->second].compared) {
        rows.push_back(rr->second);
        continue;
      }
      if (auto p = ia.producer.find(n); p != ia.producer.end())
        for (const auto& in : a.ops[static_cast<std::size_t>(p->second)].inputs) stack.push_back(in);
    }
    return rows;
  };
  std::optional<std::size_t> largest;
  for (std::size_t i = 0; i < r.tensors.size(); ++i) {
    TensorComparison& t = r.tensors[i];
    if (!t.compared || t.a_order < 0) continue;
    double up = kMaxDb;
    bool up_nonfinite = false;
    for (std::size_t u : upstream_rows(a.ops[static_cast<std::size_t>(t.a_order)])) {
      up = std::min(up, r.tensors[u].sqnr_db);
      up_nonfinite |= r.tensors[u].nonfinite_b > r.tensors[u].nonfinite_a;
    }
    t.drop_db = up - t.sqnr_db;
    const bool new_nonfinite = t.nonfinite_b != t.nonfinite_a && !up_nonfinite;
    if (!r.first_divergence && ((t.sqnr_db < noise_floor && t.drop_db >= options.jump_db) || new_nonfinite))
      r.first_divergence = i;
    if (t.sqnr_db < noise_floor && (!largest || t.drop_db > r.tensors[*largest].drop_db)) largest = i;
  }
  char rule[160];
  std::snprintf(rule, sizeof rule,
                "the first tensor in A's order whose SQNR falls %.0f dB or more below its inputs' and under %.0f dB, "
                "or where NaN/Inf appears",
                options.jump_db, noise_floor);
  r.divergence_rule = rule;
  if (!r.first_divergence && largest) {
    r.first_divergence = largest;
    r.divergence_rule = "no jump of " + std::to_string(static_cast<int>(options.jump_db)) +
                        " dB: the tensor with the largest drop under the noise floor";
  }
  // Ops of one side only.
  std::unordered_map<std::string, std::string> a_to_b;
  std::unordered_set<std::string> matched_b;
  for (const auto& m : matches) {
    a_to_b[m.a] = m.b;
    matched_b.insert(m.b);
  }
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const auto& op = a.ops[i];
    bool any = false;
    for (const auto& n : op.outputs) any |= !n.empty() && a_to_b.count(n);
    if (any) continue;
    UnmatchedOp u{'a', static_cast<int>(i), op.name, op.op_type, "removed", ""};
    // Fused: its result reaches, through unmatched ops only, a matched tensor.
    std::vector<std::string> stack(op.outputs.begin(), op.outputs.end());
    std::unordered_set<std::string> visited;
    while (!stack.empty() && u.into.empty()) {
      const std::string n = stack.back();
      stack.pop_back();
      if (n.empty() || !visited.insert(n).second) continue;
      auto c = ia.consumers.find(n);
      if (c == ia.consumers.end()) continue;
      for (int ci : c->second) {
        const auto& cop = a.ops[static_cast<std::size_t>(ci)];
        for (const auto& o : cop.outputs)
          if (auto m = a_to_b.find(o); m != a_to_b.end()) {
            auto p = ib.producer.find(m->second);
            u.into = p != ib.producer.end() ? (b.ops[static_cast<std::size_t>(p->second)].name.empty()
                                                   ? b.ops[static_cast<std::size_t>(p->second)].op_type
                                                   : b.ops[static_cast<std::size_t>(p->second)].name)
                                            : m->second;
          }
        if (!u.into.empty()) break;
        for (const auto& o : cop.outputs) stack.push_back(o);
      }
    }
    if (!u.into.empty()) u.status = "fused";
    r.unmatched.push_back(std::move(u));
  }
  for (std::size_t j = 0; j < b.ops.size(); ++j) {
    const auto& op = b.ops[j];
    bool any = false;
    for (const auto& n : op.outputs) any |= !n.empty() && matched_b.count(n);
    if (!any) r.unmatched.push_back({'b', static_cast<int>(j), op.name, op.op_type, "added", ""});
  }
  if (a_nhwc != b_nhwc) r.notes.push_back(std::string(b_nhwc ? "B" : "A") + " is channels-last (NHWC): its 4-D tensors are compared in NCHW order");
  return r;
}

PassesResult compare_passes(const ir::Graph& g, const std::vector<std::string>& pipeline, const std::vector<Sample>& samples,
                            const CompareOptions& options, double noise_rel, const ProgressFn& progress) {
  std::vector<std::unique_ptr<passes::Pass>> made;
  for (const auto& n : pipeline) made.push_back(passes::make_pass(n));  // unknown names: a usage error
  return compare_passes(g, std::move(made), samples, options, noise_rel, progress);
}

PassesResult compare_passes(const ir::Graph& g, std::vector<std::unique_ptr<passes::Pass>> pipeline,
                            const std::vector<Sample>& samples, const CompareOptions& options, double noise_rel,
                            const ProgressFn& progress) {
  passes::PassManagerOptions po;
  po.keep_snapshots = true;
  po.record_diffs = true;
  passes::PassManager pm(po);
  for (auto& p : pipeline) pm.add(std::move(p));
  ir::Graph work = g;
  check_progress(progress, 0, 1, "running the pipeline");
  const passes::PipelineReport rep = pm.run(work);
  PassesResult r;
  r.noise_rel = noise_rel;
  if (!rep.passes.empty()) r.graphs.push_back(rep.passes.front().before);
  const int total = static_cast<int>(rep.passes.size());
  for (std::size_t k = 0; k < rep.passes.size(); ++k) {
    const auto& rec = rep.passes[k];
    check_progress(progress, static_cast<int>(k), total, "comparing after " + rec.pass);
    r.graphs.push_back(rec.after);
    PassNumerics s;
    s.pass = rec.pass;
    s.ops_before = rec.ops_before;
    s.ops_after = rec.ops_after;
    s.changed_graph = !rec.diff.empty();
    if (s.changed_graph) {
      s.result = compare_models(rec.before, rec.after, samples, options);
      for (const auto& t : s.result.tensors) {
        if (!t.compared) continue;
        s.worst_sqnr_db = std::min(s.worst_sqnr_db, t.sqnr_db);
        s.worst_rel_error = std::max(s.worst_rel_error, t.max_rel_error);
        if (t.nonfinite_a != t.nonfinite_b) s.worst_rel_error = std::numeric_limits<double>::infinity();
      }
      s.beyond_noise = s.worst_rel_error > noise_rel;
    }
    if (s.beyond_noise && !r.first_beyond_noise) r.first_beyond_noise = r.stages.size();
    r.stages.push_back(std::move(s));
  }
  return r;
}

// ---- output ---------------------------------------------------------------------------

namespace {

nlohmann::json finite(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json to_json(const NonFinite& n) {
  return {{"tensor", n.tensor}, {"op", n.op}, {"op_type", n.op_type}, {"nan", n.nan}, {"inf", n.inf}};
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

nlohmann::json to_json(const CompareResult& r) {
  nlohmann::json j;
  j["model_a"] = r.model_a;
  j["model_b"] = r.model_b;
  j["samples"] = r.samples;
  auto& rows = j["tensors"] = nlohmann::json::array();
  for (const auto& t : r.tensors) {
    nlohmann::json x{{"a", t.a},
                     {"b", t.b},
                     {"op", t.a_op},
                     {"op_type", t.op_type},
                     {"b_op", t.b_op},
                     {"b_op_type", t.b_op_type},
                     {"order", t.a_order},
                     {"b_order", t.b_order},
                     {"matched_by", to_string(t.matched_by)},
                     {"compared", t.compared}};
    if (!t.changed_attributes.empty()) x["changed_attributes"] = t.changed_attributes;
    if (!t.compared) {
      x["skipped"] = t.skipped;
    } else {
      x["shape"] = t.shape;
      x["transposed"] = t.transposed;
      x["dequantised_a"] = t.dequantised_a;
      x["dequantised_b"] = t.dequantised_b;
      x["max_abs_error"] = finite(t.max_abs_error);
      x["max_rel_error"] = finite(t.max_rel_error);
      x["sqnr_db"] = finite(t.sqnr_db);
      x["cosine"] = finite(t.cosine);
      x["drop_db"] = finite(t.drop_db);
      x["exact"] = t.exact;
      x["nonfinite_a"] = t.nonfinite_a;
      x["nonfinite_b"] = t.nonfinite_b;
    }
    rows.push_back(std::move(x));
  }
  j["first_divergence"] = r.first_divergence ? nlohmann::json(r.tensors[*r.first_divergence].a) : nlohmann::json(nullptr);
  j["divergence_rule"] = r.divergence_rule;
  j["first_nonfinite_a"] = r.first_nonfinite_a ? to_json(*r.first_nonfinite_a) : nlohmann::json(nullptr);
  j["first_nonfinite_b"] = r.first_nonfinite_b ? to_json(*r.first_nonfinite_b) : nlohmann::json(nullptr);
  auto& un = j["unmatched_ops"] = nlohmann::json::array();
  for (const auto& u : r.unmatched)
    un.push_back({{"side", std::string(1, u.side)}, {"op", u.op}, {"op_type", u.op_type}, {"status", u.status}, {"into", u.into}});
  j["notes"] = r.notes;
  j["fp16_simulated"] = {{"a", r.fp16_a}, {"b", r.fp16_b}};
  j["noise_floor_db"] = r.noise_floor_db;
  return j;
}

nlohmann::json to_json(const PassesResult& r) {
  nlohmann::json j;
  j["model"] = r.model;
  j["noise_rel"] = r.noise_rel;
  auto& st = j["stages"] = nlohmann::json::array();
  for (const auto& s : r.stages) {
    nlohmann::json x{{"pass", s.pass},
                     {"ops_before", s.ops_before},
                     {"ops_after", s.ops_after},
                     {"changed_graph", s.changed_graph},
                     {"worst_sqnr_db", finite(s.worst_sqnr_db)},
                     {"worst_rel_error", finite(s.worst_rel_error)},
                     {"beyond_noise", s.beyond_noise}};
    if (s.changed_graph) x["compare"] = to_json(s.result);
    st.push_back(std::move(x));
  }
  j["first_beyond_noise"] = r.first_beyond_noise ? nlohmann::json(r.stages[*r.first_beyond_noise].pass) : nlohmann::json(nullptr);
  return j;
}

std::string to_text(const CompareResult& r) {
  std::ostringstream os;
  std::size_t compared = 0, exact = 0;
  for (const auto& t : r.tensors) {
    compared += t.compared;
    exact += t.compared && t.exact;
  }
  os << "A: " << r.model_a << "\nB: " << r.model_b << "\n";
  os << r.tensors.size() << " tensors matched (" << compared << " compared, " << exact << " exact), " << r.samples
     << (r.samples == 1 ? " sample" : " samples") << "\n";
  for (const auto& n : r.notes) os << "note: " << n << "\n";
  os << "\n";
  std::size_t w = 6;
  for (const auto& t : r.tensors) w = std::max(w, std::min<std::size_t>(48, t.a.size()));
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s  %-18s %-8s %11s %10s %8s %9s\n", static_cast<int>(w), "tensor", "op",
                "matched", "max abs", "max rel", "SQNR dB", "cosine");
  os << line;
  for (std::size_t i = 0; i < r.tensors.size(); ++i) {
    const auto& t = r.tensors[i];
    std::string name = t.a.size() > 48 ? "..." + t.a.substr(t.a.size() - 45) : t.a;
    std::string op = t.op_type.size() > 18 ? t.op_type.substr(0, 18) : t.op_type;
    std::string how = to_string(t.matched_by);
    if (t.transposed) how += "*";
    const char* mark = r.first_divergence && *r.first_divergence == i ? "> " : "  ";
    if (!t.compared) {
      std::snprintf(line, sizeof line, "%s%-*s  %-18s %-8s  (%s)\n", mark, static_cast<int>(w), name.c_str(), op.c_str(),
                    how.c_str(), t.skipped.c_str());
    } else {
      std::string extra;
      if (t.nonfinite_a || t.nonfinite_b)
        extra = "  NaN/Inf: A " + std::to_string(t.nonfinite_a) + ", B " + std::to_string(t.nonfinite_b);
      if (t.exact) extra += "  exact";
      std::snprintf(line, sizeof line, "%s%-*s  %-18s %-8s %11.4g %10.3g %8s %9s%s\n", mark, static_cast<int>(w),
                    name.c_str(), op.c_str(), how.c_str(), t.max_abs_error, t.max_rel_error,
                    fmt("%.1f", t.sqnr_db).c_str(), fmt("%.6f", t.cosine).c_str(), extra.c_str());
    }
    os << line;
  }
  os << "\n";
  if (r.first_divergence) {
    const auto& t = r.tensors[*r.first_divergence];
    os << "first divergence: '" << t.a << "' (" << t.op_type << (t.a_op.empty() ? "" : " '" + t.a_op + "'") << "), ";
    if (t.nonfinite_a != t.nonfinite_b)
      os << "NaN/Inf appears here (A " << t.nonfinite_a << ", B " << t.nonfinite_b << " elements)\n";
    else
      os << "SQNR " << fmt("%.1f", t.sqnr_db) << " dB, " << fmt("%.1f", t.drop_db) << " dB below its inputs\n";
    if (r.divergence_rule.rfind("no jump", 0) == 0) os << "  (" << r.divergence_rule << ")\n";
  } else {
    os << "first divergence: none (every matched tensor within " << (r.noise_floor_db < 80 ? "fp16" : "float")
       << " noise)\n";
  }
  if (r.first_nonfinite_a)
    os << "first NaN/Inf in A: '" << r.first_nonfinite_a->tensor << "' (" << r.first_nonfinite_a->op_type << "), "
       << r.first_nonfinite_a->nan << " NaN, " << r.first_nonfinite_a->inf << " Inf\n";
  if (r.first_nonfinite_b)
    os << "first NaN/Inf in B: '" << r.first_nonfinite_b->tensor << "' (" << r.first_nonfinite_b->op_type << "), "
       << r.first_nonfinite_b->nan << " NaN, " << r.first_nonfinite_b->inf << " Inf\n";
  std::size_t fused = 0, removed = 0, added = 0;
  for (const auto& u : r.unmatched) (u.status == "fused" ? fused : u.status == "removed" ? removed : added)++;
  if (fused + removed + added)
    os << "ops of one side only: " << fused << " fused, " << removed << " removed (A), " << added << " added (B)\n";
  std::size_t changed = 0;
  std::string first_changed;
  for (const auto& t : r.tensors)
    if (!t.changed_attributes.empty()) {
      if (!changed++) {
        first_changed = "'" + t.a_op + "' (" + t.op_type + ":";
        for (const auto& k : t.changed_attributes) first_changed += " " + k;
        first_changed += ")";
      }
    }
  if (changed) os << "ops with changed attributes: " << changed << ", first " << first_changed << "\n";
  return os.str();
}

std::string to_text(const PassesResult& r) {
  std::ostringstream os;
  os << "pass pipeline of " << r.model << " (noise: relative error above " << fmt("%g", r.noise_rel) << ")\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-22s %6s %6s %12s %10s  %s\n", "pass", "ops", "->", "worst rel", "SQNR dB", "");
  os << line;
  for (std::size_t k = 0; k < r.stages.size(); ++k) {
    const auto& s = r.stages[k];
    const char* mark = r.first_beyond_noise && *r.first_beyond_noise == k ? "> " : "  ";
    if (!s.changed_graph) {
      std::snprintf(line, sizeof line, "%s%-22s %6zu %6zu %12s %10s  unchanged\n", mark, s.pass.c_str(), s.ops_before,
                    s.ops_after, "-", "-");
    } else {
      std::snprintf(line, sizeof line, "%s%-22s %6zu %6zu %12.3g %10s  %s\n", mark, s.pass.c_str(), s.ops_before,
                    s.ops_after, s.worst_rel_error, fmt("%.1f", s.worst_sqnr_db).c_str(),
                    s.beyond_noise ? "CHANGES NUMERICS" : "float noise");
    }
    os << line;
  }
  os << "\n";
  if (r.first_beyond_noise)
    os << "pass changing numerics beyond float noise: " << r.stages[*r.first_beyond_noise].pass << "\n";
  else
    os << "no pass changes numerics beyond float noise\n";
  return os.str();
}

namespace {
std::string escape_html(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}
}  // namespace

std::string to_html(const CompareResult& r) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>edgecompile compare</title><style>"
        "body{font-family:sans-serif}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
        "text-align:right}td.l,th.l{text-align:left}tr.first{background:#fdd}</style></head><body>\n";
  os << "<h1>Layer-by-layer compare</h1><p>A: " << escape_html(r.model_a) << "<br>B: " << escape_html(r.model_b)
     << "<br>" << r.samples << " sample(s)</p>\n";
  if (r.first_divergence) {
    const auto& t = r.tensors[*r.first_divergence];
    os << "<p><b>First divergence:</b> " << escape_html(t.a) << " (" << escape_html(t.op_type) << "), SQNR "
       << fmt("%.1f", t.sqnr_db) << " dB</p>\n";
  } else {
    os << "<p>No divergence beyond float noise.</p>\n";
  }
  os << "<table><tr><th class=l>tensor (A)</th><th class=l>tensor (B)</th><th class=l>op</th><th class=l>matched</th>"
        "<th>max abs</th><th>max rel</th><th>SQNR dB</th><th>cosine</th></tr>\n";
  for (std::size_t i = 0; i < r.tensors.size(); ++i) {
    const auto& t = r.tensors[i];
    os << "<tr" << (r.first_divergence && *r.first_divergence == i ? " class=first" : "") << "><td class=l>"
       << escape_html(t.a) << "</td><td class=l>" << escape_html(t.b) << "</td><td class=l>" << escape_html(t.op_type)
       << "</td><td class=l>" << to_string(t.matched_by) << (t.transposed ? " (NHWC)" : "") << "</td>";
    if (t.compared)
      os << "<td>" << fmt("%.4g", t.max_abs_error) << "</td><td>" << fmt("%.3g", t.max_rel_error) << "</td><td>"
         << fmt("%.1f", t.sqnr_db) << "</td><td>" << fmt("%.6f", t.cosine) << "</td>";
    else
      os << "<td colspan=4 class=l>" << escape_html(t.skipped) << "</td>";
    os << "</tr>\n";
  }
  os << "</table></body></html>\n";
  return os.str();
}

std::vector<Sample> samples_for(const ir::Graph& a, const std::vector<std::string>& specs, int max_samples,
                                const std::map<std::string, runtime::Tensor>& named) {
  if (!named.empty()) {
    if (!specs.empty())
      throw EdgeCompilerError(ErrorKind::Usage, "--input: give NAME=FILE.npy for every input, or one FILE.npy / DIR of samples");
    return {Sample(named.begin(), named.end())};
  }
  if (specs.size() > 1)
    throw EdgeCompilerError(ErrorKind::Usage, "--input: one FILE.npy or DIR of samples (or NAME=FILE.npy per input)");
  if (specs.size() == 1) return quantize::load_calibration_data(specs[0], a, max_samples);
  return random_samples(a, max_samples <= 0 ? 1 : max_samples);
}

}  // namespace ec::compare
