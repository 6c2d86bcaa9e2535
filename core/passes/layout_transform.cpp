// LayoutTransform: NCHW -> NHWC for backends that want channels last. Not in
// the default CPU pipeline, but the CPU runtime runs its output too (NHWC Conv,
// pools and BatchNormalization kernels, core/runtime/kernels/nhwc.h).
//
// One forward sweep keeps, for each NCHW tensor, its NHWC twin when one exists.
// A layout-sensitive op (Conv, pools, BatchNormalization) of rank 4 reads the
// twin of its input — a Transpose [0,2,3,1] is inserted only when there is
// none (an edge) — and writes a twin. Element-wise ops whose data inputs all
// have twins (or are scalar constants, constants they broadcast, which get an NHWC
// copy, or NCHW tensors no larger than a twin operand, transposed in) run on the twins
// too, and so do a Concat of twins (its axis moved), a Split of a twin (each part a twin), a
// Resize of a twin (its scales / sizes moved), a Pad of a twin with constant
// pads (moved to NHWC order), a Reduce* of a twin (its axes moved; without keepdims only
// when the remaining dims come out in the same order) and, for the CPU runtime, per-tensor Quantize/
// DequantizeLinear of a twin (not for the Edge TPU, whose graph keeps them at its edges
// with the Transposes on 8-bit tensors inside).
// The model's own Transposes between the layouts become twins, not ops. A Transpose
// [0,3,1,2] back to NCHW is inserted only where something still needs the
// NCHW tensor (another op, or a graph output). So Transposes appear only at
// the edges of NHWC regions, and an exit followed by an entry cancels (the
// twin is reused). Existing pairs of inverse Transposes are cancelled too.
// With layout NHWC, Conv weights are [M, kH, kW, C/group] (TFLite's OHWI).
#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 3> kStats{{
    {"ops_converted", "ops converted to NHWC"},
    {"transposes_inserted", "Transposes inserted at the edges"},
    {"transpose_pairs_cancelled", "Transpose pairs cancelled"},
}};

const std::vector<std::int64_t> kToNhwc{0, 2, 3, 1}, kToNchw{0, 3, 1, 2};

bool is_layout_sensitive(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::Conv:
    case ir::OpKind::MaxPool:
    case ir::OpKind::AveragePool:
    case ir::OpKind::GlobalAveragePool:
    case ir::OpKind::GlobalMaxPool:
    case ir::OpKind::BatchNormalization:
      return true;
    default:
      return false;
  }
}

bool is_elementwise(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::Relu: case ir::OpKind::LeakyRelu: case ir::OpKind::Clip:
    case ir::OpKind::Sigmoid: case ir::OpKind::Tanh: case ir::OpKind::HardSigmoid:
    case ir::OpKind::HardSwish: case ir::OpKind::Elu: case ir::OpKind::Selu:
    case ir::OpKind::Neg: case ir::OpKind::Abs: case ir::OpKind::Sqrt: case ir::OpKind::Exp:
    case ir::OpKind::Identity: case ir::OpKind::Add: case ir::OpKind::Sub: case ir::OpKind::Mul:
    case ir::OpKind::Div: case ir::OpKind::Max: case ir::OpKind::Min:
      return true;
    default:
      return false;
  }
}

bool is_reduce(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::ReduceSum: case ir::OpKind::ReduceMean: case ir::OpKind::ReduceMax:
    case ir::OpKind::ReduceMin: case ir::OpKind::ReduceProd: case ir::OpKind::ReduceL1:
    case ir::OpKind::ReduceL2: case ir::OpKind::ReduceLogSum: case ir::OpKind::ReduceLogSumExp:
    case ir::OpKind::ReduceSumSquare:
      return true;
    default:
      return false;
  }
}

ir::Shape permuted(const ir::Shape& s, const std::vector<std::int64_t>& perm) {
  if (!s.rank_known || s.dims.size() != perm.size()) return ir::Shape::unknown_rank();
  ir::Shape out;
  for (auto p : perm) out.dims.push_back(s.dims[static_cast<std::size_t>(p)]);
  return out;
}

// Whether rank-4 tensor a is no larger than b in every dim: static and not above b's, 1, or
// the same named dynamic dim (a squeeze-excite gate [batch,C,1,1] against [batch,C,H,W]).
bool no_larger(const ir::Graph& g, const std::string& a, const std::string& b) {
  const ir::Tensor* x = g.find_tensor(a);
  const ir::Tensor* y = g.find_tensor(b);
  if (!x || !y || !x->shape.rank_known || !y->shape.rank_known || x->shape.rank() != 4 || y->shape.rank() != 4)
    return false;
  for (std::size_t d = 0; d < 4; ++d) {
    const ir::Dim &p = x->shape.dims[d], &q = y->shape.dims[d];
    const bool ok = (p.is_static() && (p.value == 1 || (q.is_static() && p.value <= q.value))) ||
                    (!p.is_static() && !p.symbol.empty() && p == q);
    if (!ok) return false;
  }
  return true;
}

bool is_rank4(const ir::Graph& g, const std::string& t) {
  const ir::Tensor* x = g.find_tensor(t);
  return x && x->shape.rank_known && x->shape.dims.size() == 4;
}

class LayoutTransform final : public Pass {
 public:
  explicit LayoutTransform(LayoutFilter convertible = {}, bool carry_qdq = false)
      : convertible_(std::move(convertible)), carry_qdq_(carry_qdq) {}
  std::string_view name() const override { return "LayoutTransform"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Rewrites rank-4 Conv (constant weights, reordered to OHWI), MaxPool, AveragePool, "
           "GlobalAveragePool, GlobalMaxPool and BatchNormalization to layout NHWC, and carries "
           "element-wise ops, Concats, constant Pads and reductions between them along (and the model's own NCHW<->NHWC "
           "Transposes with them). Transposes are inserted only where an NHWC "
           "region meets NCHW (graph inputs and outputs, other ops); back-to-back inverse "
           "Transposes cancel. For NHWC backends; the CPU runtime runs both layouts.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    std::unordered_map<std::string, std::string> twin;       // NCHW name -> NHWC twin
    std::unordered_set<std::string> nchw_missing;            // converted outputs not yet transposed back
    std::unordered_map<std::string, std::string> ohwi;       // Conv weight -> reordered copy
    std::unordered_map<std::string, std::pair<std::string, std::vector<std::int64_t>>> transpose_of;
    std::unordered_map<std::string, std::string> alias;
    std::unordered_set<std::string> old_weights;
    std::vector<std::string> twin_order;  // creation order, for deterministic exits
    const auto outputs = graph_output_set(g);
    std::vector<ir::Operation> out_ops;
    out_ops.reserve(g.ops.size());

    auto transpose = [&](const std::string& in, const std::string& out, const std::vector<std::int64_t>& perm) {
      ir::Operation t;
      t.kind = ir::OpKind::Transpose;
      t.op_type = "Transpose";
      t.name = "LayoutTransform/" + out;  // named, so a profile can tell them from the model's ops
      t.inputs = {in};
      t.outputs = {out};
      t.attributes["perm"] = perm;
      out_ops.push_back(std::move(t));
      r.add("transposes_inserted");
    };
    auto declare_twin = [&](const std::string& y) {
      const ir::Tensor* t = g.find_tensor(y);
      ir::Tensor tw;
      tw.name = fresh_tensor_name(g, y + ".nhwc");
      if (t) tw.dtype = t->dtype, tw.shape = permuted(t->shape, kToNhwc), tw.quant = t->quant;
      const std::string n = tw.name;
      g.add_tensor(std::move(tw));
      twin[y] = n;
      twin_order.push_back(y);
      return n;
    };
    auto nhwc_input = [&](const std::string& x) {
      auto it = twin.find(x);
      if (it != twin.end()) {
        if (nchw_missing.count(x)) r.add("transpose_pairs_cancelled");
        return it->second;
      }
      const std::string n = declare_twin(x);
      transpose(x, n, kToNhwc);
      return n;
    };
    auto need_nchw = [&](const std::string& x) {
      if (!nchw_missing.count(x)) return;
      transpose(twin.at(x), x, kToNchw);
      nchw_missing.erase(x);
    };
    auto is_scalar_constant = [&](const std::string& x) {
      const ir::Tensor* t = find_constant(g, x);
      return x.empty() || (t && t->num_elements().value_or(0) == 1);
    };

    for (auto& op : g.ops) {
      for (auto& in : op.inputs) {
        auto a = alias.find(in);
        if (a != alias.end()) in = a->second;
      }
      const bool plain = !op.quant && op.attr_string("layout", "NCHW") == "NCHW" && !op.inputs.empty() &&
                         !op.inputs[0].empty() && op.outputs.size() >= 1 && !op.outputs[0].empty() &&
                         (!convertible_ || convertible_(op, g));
      bool extra_outputs = false;
      for (std::size_t k = 1; k < op.outputs.size(); ++k) extra_outputs |= !op.outputs[k].empty();
      bool convert = false;
      if (plain && !extra_outputs && is_layout_sensitive(op.kind) && is_rank4(g, op.inputs[0])) {
        convert = true;
        if (op.kind == ir::OpKind::Conv) {
          const ir::Tensor* w = find_constant(g, op.inputs[1]);
          convert = w && w->shape.is_static() && w->shape.dims.size() == 4;
        }
      }
      if (convert) {
        op.inputs[0] = nhwc_input(op.inputs[0]);
        if (op.kind == ir::OpKind::Conv)
          op.inputs[1] = to_nhwc_constant(g, op.inputs[1], ohwi, old_weights, ".ohwi");
        op.attributes["layout"] = std::string("NHWC");
      } else if (plain && !extra_outputs && is_elementwise(op.kind)) {
        // Other operands: scalars, constants broadcast against the data (a per-channel
        // [C,1,1] scale, say), which get an NHWC copy, or rank-4 tensors held NCHW no larger
        // than the largest NHWC one (a squeeze-excite gate [N,C,1,1]), transposed in: one
        // small Transpose instead of the big operand's two.
        bool all_ok = false;
        for (const auto& in : op.inputs) all_ok |= twin.count(in) > 0;
        for (const auto& in : op.inputs) {
          if (twin.count(in) || is_scalar_constant(in) || nhwc_constant_ok(g, in)) continue;
          bool small = !find_constant(g, in) && is_rank4(g, in);
          for (const auto& t : op.inputs)
            if (small && twin.count(t)) small = no_larger(g, in, t);
          all_ok &= small;
        }
        convert = all_ok;
        if (convert)
          for (auto& in : op.inputs) {
            if (twin.count(in)) in = twin.at(in);
            else if (is_scalar_constant(in)) continue;
            else if (find_constant(g, in)) in = to_nhwc_constant(g, in, ohwi, old_weights);
            else in = nhwc_input(in);
          }
      } else if (plain && !extra_outputs && is_reduce(op.kind) && op.inputs.size() == 1 &&
                 twin.count(op.inputs[0]) && reduce_on_twin(op)) {
        // A reduction of a twin over its axes' NHWC positions (a spatial mean before the
        // classifier, x.mean([2, 3])): kept dims give a twin of the output; dropped ones
        // an output the same in both layouts (reduce_on_twin checked), written as it is.
        const bool keep = op.attr_int("keepdims", 1) != 0;
        op.inputs[0] = twin.at(op.inputs[0]);
        if (keep) {
          convert = true;
        } else {
          out_ops.push_back(std::move(op));
          r.add("ops_converted");
          continue;
        }
      } else if (plain && !extra_outputs && carry_qdq_ &&
                 (op.kind == ir::OpKind::QuantizeLinear || op.kind == ir::OpKind::DequantizeLinear) &&
                 twin.count(op.inputs[0]) &&
                 std::all_of(op.inputs.begin() + 1, op.inputs.end(), is_scalar_constant)) {
        // Per-tensor (de)quantisation, element-wise: the layout does not matter to it.
        convert = true;
        op.inputs[0] = twin.at(op.inputs[0]);
      } else if (plain && !extra_outputs && op.kind == ir::OpKind::Concat && is_rank4(g, op.outputs[0]) &&
                 std::all_of(op.inputs.begin(), op.inputs.end(), [&](const std::string& in) { return twin.count(in); })) {
        // Concat of NHWC twins: the same Concat along the axis's NHWC position.
        std::int64_t axis = op.attr_int("axis", 0);
        if (axis < 0) axis += 4;
        if (axis >= 0 && axis < 4) {
          convert = true;
          for (auto& in : op.inputs) in = twin.at(in);
          op.attributes["axis"] = std::find(kToNhwc.begin(), kToNhwc.end(), axis) - kToNhwc.begin();
        }
      } else if (plain && !extra_outputs && op.kind == ir::OpKind::Resize && twin.count(op.inputs[0]) &&
                 is_rank4(g, op.outputs[0]) && (op.inputs.size() < 2 || op.inputs[1].empty() || find_constant(g, op.inputs[1])) &&
                 op.attr_string("coordinate_transformation_mode", "half_pixel") != "tf_crop_and_resize") {
        // Resize of a twin: its scales / sizes (4 values, NCHW order) in NHWC order.
        bool ok = true;
        std::vector<std::pair<std::size_t, runtime::Tensor>> moved;
        for (std::size_t k = 2; k < op.inputs.size() && ok; ++k) {
          if (op.inputs[k].empty()) continue;
          const ir::Tensor* c = find_constant(g, op.inputs[k]);
          if (!c) { ok = false; break; }
          const runtime::Tensor v = constant_value(*c);
          if (v.numel() == 0) continue;
          if (v.numel() != 4) { ok = false; break; }
          if (c->dtype == ir::DType::Float32) {
            const auto f = v.to_float_vector();
            std::vector<float> n(4);
            for (std::size_t d = 0; d < 4; ++d) n[d] = f[static_cast<std::size_t>(kToNhwc[d])];
            moved.emplace_back(k, runtime::Tensor::from_values<float>(ir::DType::Float32, {4}, n));
          } else {
            const auto i = v.to_int64_vector();
            std::vector<std::int64_t> n(4);
            for (std::size_t d = 0; d < 4; ++d) n[d] = i[static_cast<std::size_t>(kToNhwc[d])];
            moved.emplace_back(k, runtime::Tensor::from_values(ir::DType::Int64, {4}, n));
          }
        }
        if (ok) {
          convert = true;
          op.inputs[0] = twin.at(op.inputs[0]);
          for (auto& [k, v] : moved) {
            old_weights.insert(op.inputs[k]);
            op.inputs[k] = add_constant(g, op.inputs[k] + ".nhwc", v);
          }
        }
      } else if (plain && op.kind == ir::OpKind::Split && twin.count(op.inputs[0]) &&
                 (op.inputs.size() < 2 || op.inputs[1].empty() || find_constant(g, op.inputs[1])) &&
                 std::all_of(op.outputs.begin(), op.outputs.end(), [&](const std::string& o) { return o.empty() || is_rank4(g, o); })) {
        // Split of a twin (a grouped convolution's per-group inputs): the same Split along
        // the axis's NHWC position; every part is a twin.
        std::int64_t axis = op.attr_int("axis", 0);
        if (axis < 0) axis += 4;
        if (axis >= 0 && axis < 4) {
          op.inputs[0] = twin.at(op.inputs[0]);
          op.attributes["axis"] = std::find(kToNhwc.begin(), kToNhwc.end(), axis) - kToNhwc.begin();
          for (auto& o : op.outputs) {
            if (o.empty()) continue;
            const std::string y = o;
            o = declare_twin(y);
            nchw_missing.insert(y);
          }
          out_ops.push_back(std::move(op));
          r.add("ops_converted");
          continue;
        }
      } else if (plain && !extra_outputs && op.kind == ir::OpKind::Pad && twin.count(op.inputs[0]) &&
                 op.inputs.size() >= 2 && (op.inputs.size() < 4 || op.inputs[3].empty())) {
        // Pad of a twin with constant pads [b0..b3, e0..e3]: the same Pad, pads in NHWC order.
        const ir::Tensor* p = find_constant(g, op.inputs[1]);
        const auto pads = p ? constant_value(*p).to_int64_vector() : std::vector<std::int64_t>{};
        if (pads.size() == 8) {
          convert = true;
          std::vector<std::int64_t> nhwc(8);
          for (std::size_t k = 0; k < 4; ++k) {
            nhwc[k] = pads[static_cast<std::size_t>(kToNhwc[k])];
            nhwc[k + 4] = pads[static_cast<std::size_t>(kToNhwc[k]) + 4];
          }
          op.inputs[0] = twin.at(op.inputs[0]);
          old_weights.insert(op.inputs[1]);  // dropped below when nothing else reads it
          op.inputs[1] = add_constant(g, op.inputs[1] + ".nhwc",
                                      runtime::Tensor::from_values(ir::DType::Int64, {8}, nhwc));
        }
      } else if (op.kind == ir::OpKind::Transpose && op.inputs.size() == 1 && !outputs.count(op.outputs[0])) {
        const auto q = op.attr_ints("perm");
        if (!op.quant && is_rank4(g, op.inputs[0]) && q == kToNhwc && twin.count(op.inputs[0])) {
          // The model's own NCHW -> NHWC Transpose of a tensor already held NHWC: the twin.
          if (nchw_missing.count(op.inputs[0])) r.add("transpose_pairs_cancelled");
          alias[op.outputs[0]] = twin.at(op.inputs[0]);
          g.tensors.erase(op.outputs[0]);
          continue;
        }
        if (!op.quant && is_rank4(g, op.inputs[0]) && q == kToNchw && !twin.count(op.outputs[0]) &&
            !twin.count(op.inputs[0])) {
          // The model's own NHWC -> NCHW Transpose: its input is the output's twin, and
          // the NCHW tensor is made only where something needs it. (Not when its input is
          // itself an NCHW tensor held as a twin: a CRNN's permute(0, 3, 1, 2) of a pooled
          // NCHW map is then an ordinary Transpose of the NCHW tensor.)
          twin[op.outputs[0]] = op.inputs[0];
          twin_order.push_back(op.outputs[0]);
          nchw_missing.insert(op.outputs[0]);
          continue;
        }
        // Transpose(Transpose(x, p), q) with q∘p = identity reads x.
        auto it = transpose_of.find(op.inputs[0]);
        if (it != transpose_of.end() && q.size() == it->second.second.size() && !q.empty()) {
          bool identity = true;
          for (std::size_t k = 0; k < q.size(); ++k)
            identity &= it->second.second[static_cast<std::size_t>(q[k])] == static_cast<std::int64_t>(k);
          if (identity) {
            alias[op.outputs[0]] = it->second.first;
            g.tensors.erase(op.outputs[0]);
            r.add("transpose_pairs_cancelled");
            continue;
          }
        }
        if (!q.empty()) transpose_of[op.outputs[0]] = {op.inputs[0], q};
      }
      if (convert) {
        const std::string y = op.outputs[0];
        op.outputs[0] = declare_twin(y);
        nchw_missing.insert(y);
        out_ops.push_back(std::move(op));
        r.add("ops_converted");
        continue;
      }
      for (const auto& in : op.inputs) need_nchw(in);
      out_ops.push_back(std::move(op));
    }
    for (const auto& o : g.outputs) need_nchw(o);
    // NCHW tensors nothing needed any more are gone.
    for (const auto& y : twin_order)
      if (nchw_missing.count(y)) g.tensors.erase(y);
    g.ops = std::move(out_ops);
    for (auto& o : g.outputs) {
      auto a = alias.find(o);
      if (a != alias.end()) o = a->second;
    }
    for (const auto& w : old_weights) {
      bool used = false;
      for (const auto& op : g.ops)
        for (const auto& in : op.inputs) used |= in == w;
      if (!used) g.tensors.erase(w);
    }
    return r;
  }

 private:
  LayoutFilter convertible_;
  bool carry_qdq_;

  // Whether a reduction of a rank-4 NCHW tensor can run on its twin: its axes (all when
  // none are given) are rewritten to their NHWC positions, and without keepdims the dims
  // that remain must come out in the same order in both layouts (C reduced, or H and W).
  static bool reduce_on_twin(ir::Operation& op) {
    auto axes = op.attr_ints("axes");
    if (axes.empty()) return op.attr_int("noop_with_empty_axes", 0) == 0;  // all: the same result
    std::array<bool, 4> reduced{};
    for (auto a : axes) {
      if (a < -4 || a > 3) return false;
      reduced[static_cast<std::size_t>(a < 0 ? a + 4 : a)] = true;
    }
    if (op.attr_int("keepdims", 1) == 0 && !reduced[1] && !(reduced[2] && reduced[3])) return false;
    std::vector<std::int64_t> nhwc;
    for (std::size_t d = 0; d < 4; ++d)
      if (reduced[static_cast<std::size_t>(kToNhwc[d])]) nhwc.push_back(static_cast<std::int64_t>(d));
    op.attributes["axes"] = nhwc;
    return true;
  }

  // A constant an element-wise op can read in NHWC: rank 1-4 (it broadcasts against
  // rank-4 data), static, not per-channel quantised.
  static bool nhwc_constant_ok(const ir::Graph& g, const std::string& name) {
    const ir::Tensor* t = find_constant(g, name);
    return t && t->shape.is_static() && !t->shape.dims.empty() && t->shape.dims.size() <= 4 &&
           ir::dtype_size(t->dtype) > 0 && !(t->quant && t->quant->per_channel());
  }

  // The constant padded to rank 4 ([1...] in front, as broadcasting aligns it) and
  // permuted [0, 2, 3, 1]: Conv weights [M, C, kH, kW] become OHWI, a [C, 1, 1] scale
  // [1, 1, 1, C]. One copy per constant.
  static std::string to_nhwc_constant(ir::Graph& g, const std::string& w,
                                      std::unordered_map<std::string, std::string>& cache,
                                      std::unordered_set<std::string>& old, const char* suffix = ".nhwc") {
    auto it = cache.find(w);
    if (it != cache.end()) return it->second;
    const ir::Tensor& t = *find_constant(g, w);
    auto s = t.shape.sizes();
    while (s.size() < 4) s.insert(s.begin(), 1);
    const std::size_t es = ir::dtype_size(t.dtype);
    const auto M = s[0], C = s[1], H = s[2], W = s[3];
    runtime::Tensor out(t.dtype, {M, H, W, C});
    const std::byte* src = t.data->data();
    std::byte* dst = out.mutable_raw();
    if (es == 4) {  // f32/i32 weights: word copies (a memcpy call per element made this pass slow)
      const auto* s32 = reinterpret_cast<const std::uint32_t*>(src);
      auto* d32 = reinterpret_cast<std::uint32_t*>(dst);
      for (std::int64_t m = 0; m < M; ++m)
        for (std::int64_t c = 0; c < C; ++c)
          for (std::int64_t h = 0; h < H; ++h)
            for (std::int64_t x = 0; x < W; ++x)
              d32[((m * H + h) * W + x) * C + c] = s32[((m * C + c) * H + h) * W + x];
    } else {
      for (std::int64_t m = 0; m < M; ++m)
        for (std::int64_t c = 0; c < C; ++c)
          for (std::int64_t h = 0; h < H; ++h)
            for (std::int64_t x = 0; x < W; ++x)
              std::memcpy(dst + static_cast<std::size_t>(((m * H + h) * W + x) * C + c) * es,
                          src + static_cast<std::size_t>(((m * C + c) * H + h) * W + x) * es, es);
    }
    const auto quant = t.quant;  // per-channel only along M (Conv weights): axis 0 in both layouts
    const std::string n = add_constant(g, w + suffix, out);
    g.find_tensor(n)->quant = quant;
    cache[w] = n;
    old.insert(w);
    return n;
  }
};

}  // namespace

std::unique_ptr<Pass> make_layout_transform_pass() { return std::make_unique<LayoutTransform>(); }
std::unique_ptr<Pass> make_layout_transform_pass(LayoutFilter convertible, bool carry_qdq) {
  return std::make_unique<LayoutTransform>(std::move(convertible), carry_qdq);
}

}  // namespace ec::passes
