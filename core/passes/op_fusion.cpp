// OpFusion: folds per-channel affine ops into the op before them, and turns
// MatMul+Add with constant weights into FullyConnected. Each fusion needs the
// first op's result to have exactly one reader and not be a graph output; the
// fused op takes over the second op's output name, so readers are untouched.
#include <array>
#include <cmath>

#include "core/ir/activation.h"
#include "core/ir/algorithms.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 4> kStats{{
    {"conv_bn_fused", "Conv+BatchNorm fused"},
    {"conv_add_fused", "Conv+Add(bias) fused"},
    {"matmul_add_fc", "MatMul+Add -> FullyConnected"},
    {"conv_taps_trimmed", "Conv kernels trimmed to the taps that read the input"},
}};

const ir::Tensor* f32_constant(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = find_constant(g, name);
  return t && t->dtype == ir::DType::Float32 && !t->quant ? t : nullptr;
}

std::vector<float> floats(const ir::Tensor& t) {
  auto v = t.data->as<float>();
  return {v.begin(), v.end()};
}

runtime::Tensor f32(std::vector<std::int64_t> shape, const std::vector<float>& v) {
  return runtime::Tensor::from_values<float>(ir::DType::Float32, std::move(shape), v);
}

// Per-channel values of a constant that broadcasts against [N, C, spatial...]
// (rank `rank`) without changing the result's shape: [C] at the channel axis or
// a single value. Empty when it does not.
std::vector<float> per_channel(const ir::Tensor& c, std::size_t rank, std::int64_t channels, std::size_t axis) {
  if (!c.shape.rank_known || !c.shape.is_static() || c.shape.dims.size() > rank) return {};
  const auto dims = c.shape.sizes();
  const std::size_t pad = rank - dims.size();
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const std::size_t axis_k = k + pad;
    if (dims[k] != 1 && !(axis_k == axis && dims[k] == channels)) return {};
  }
  std::vector<float> v = floats(c);
  if (v.size() == 1) v.assign(static_cast<std::size_t>(channels), v[0]);
  return v.size() == static_cast<std::size_t>(channels) ? v : std::vector<float>{};
}

bool fusion_chain_kind(ir::OpKind k) {
  return k == ir::OpKind::Conv || k == ir::OpKind::MatMul || k == ir::OpKind::BatchNormalization ||
         k == ir::OpKind::Add;
}

class OpFusion final : public Pass {
 public:
  std::string_view name() const override { return "OpFusion"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Conv followed by BatchNormalization (inference, constant parameters) becomes one "
           "Conv with rescaled weights and bias; Conv followed by an Add of a per-channel "
           "constant takes it as bias; MatMul by a constant [K,N] matrix followed by an Add of a "
           "constant [N] becomes FullyConnected (weights transposed to [N,K]; inputs of rank > 2 "
           "get a Reshape back, when at most one of their dims is dynamic). Only f32 NCHW Convs "
           "whose result has one reader are fused. A Conv whose outer kernel taps only ever read "
           "padding (a dilation as large as its input, as in DeepLab's ASPP at low resolution) gets "
           "the smaller kernel of the taps that read the input, its pads reduced to match: the "
           "same result for less work.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    if (!has_op_kind(g, {ir::OpKind::Conv, ir::OpKind::MatMul})) return r;  // every fusion starts at one
    // Readers are asked for only of results a fused op can hold: a Conv's or MatMul's,
    // or (once fused) the BatchNormalization's or Add's whose output it took over.
    const UseIndex uses(g, fusion_chain_kind);
    const auto outputs = graph_output_set(g);
    GraphRewriter rw(g);
    // The single reader of `t`, or -1.
    auto sole_reader = [&](const std::string& t) -> std::ptrdiff_t {
      if (outputs.count(t)) return -1;
      const auto& c = uses.consumers(t);
      if (c.size() != 1 || rw.erased(c[0])) return -1;
      const auto& reader = g.ops[c[0]];
      std::size_t reads = 0;
      for (const auto& in : reader.inputs) reads += in == t;
      return reads == 1 ? static_cast<std::ptrdiff_t>(c[0]) : -1;
    };
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      if (rw.erased(i)) continue;
      if (g.ops[i].kind == ir::OpKind::Conv) {
        rw.touch(g.ops[i].inputs.size() > 1 ? g.ops[i].inputs[1] : std::string());
        if (trim_conv_taps(g, i)) r.add("conv_taps_trimmed");
        while (true) {
          const auto j = sole_reader(g.ops[i].outputs[0]);
          if (j < 0) break;
          const auto ju = static_cast<std::size_t>(j);
          for (const auto& in : g.ops[i].inputs) rw.touch(in);  // replaced weights go at commit
          if (g.ops[ju].kind == ir::OpKind::BatchNormalization && fuse_conv_bn(g, i, ju)) {
            r.add("conv_bn_fused");
          } else if (g.ops[ju].kind == ir::OpKind::Add && fuse_conv_add(g, i, ju)) {
            r.add("conv_add_fused");
          } else {
            break;
          }
          rw.erase(ju);
        }
      } else if (g.ops[i].kind == ir::OpKind::MatMul) {
        const auto j = sole_reader(g.ops[i].outputs[0]);
        if (j >= 0 && g.ops[static_cast<std::size_t>(j)].kind == ir::OpKind::Add) {
          for (const auto& in : g.ops[i].inputs) rw.touch(in);
          for (const auto& in : g.ops[static_cast<std::size_t>(j)].inputs) rw.touch(in);
          switch (fuse_matmul_add(g, i, static_cast<std::size_t>(j))) {
            case Fused::No:
              break;
            case Fused::RemoveSecond:
              rw.erase(static_cast<std::size_t>(j));
              [[fallthrough]];
            case Fused::Rewritten:
              r.add("matmul_add_fc");
          }
        }
      }
    }
    rw.commit();
    return r;
  }

 private:
  enum class Fused { No, RemoveSecond, Rewritten };

  // Conv weight and bias if they are f32 constants and the Conv is plain NCHW.
  struct ConvParams {
    const ir::Tensor* w = nullptr;
    std::vector<float> bias;
    std::int64_t channels = 0;
  };
  static std::optional<ConvParams> conv_params(const ir::Graph& g, const ir::Operation& conv) {
    if (conv.attr_string("layout", "NCHW") != "NCHW" || ir::fused_activation(conv) != ir::Activation::None ||
        conv.quant)
      return {};
    ConvParams p;
    p.w = f32_constant(g, conv.inputs[1]);
    if (!p.w || !p.w->shape.is_static() || p.w->shape.dims.size() < 3) return {};
    p.channels = p.w->shape.dims[0].value;
    if (conv.inputs.size() > 2 && !conv.inputs[2].empty()) {
      const ir::Tensor* b = f32_constant(g, conv.inputs[2]);
      if (!b || b->data->size() != static_cast<std::size_t>(p.channels) * sizeof(float)) return {};
      p.bias = floats(*b);
    } else {
      p.bias.assign(static_cast<std::size_t>(p.channels), 0.0f);
    }
    return p;
  }

  // New constants are named after the fused op's final output (unique), so
  // naming stays linear even when many ops share one weight tensor.
  static void set_bias(ir::Graph& g, ir::Operation& conv, const std::string& out, const std::vector<float>& bias) {
    const std::string b = add_constant(g, out + ".bias", f32({static_cast<std::int64_t>(bias.size())}, bias));
    if (conv.inputs.size() < 3) conv.inputs.resize(3);
    conv.inputs[2] = b;
  }

  // The first op takes the second's output; its old output tensor goes.
  static void take_output(ir::Graph& g, ir::Operation& first, const ir::Operation& second) {
    g.tensors.erase(first.outputs[0]);
    first.outputs[0] = second.outputs[0];
  }

  // Drops the kernel taps of an f32 NCHW Conv with constant weights and a static input that
  // read padding at every output position: along each spatial axis the taps [first, last]
  // that read the input for some output are kept, pads shrink by the dropped taps' reach
  // (the output size is unchanged). Left alone when a pad would go negative.
  static bool trim_conv_taps(ir::Graph& g, std::size_t ci) {
    ir::Operation& conv = g.ops[ci];
    if (conv.attr_string("layout", "NCHW") != "NCHW" || conv.attr_string("auto_pad", "NOTSET") != "NOTSET" ||
        conv.quant || conv.inputs.size() < 2)
      return false;
    const ir::Tensor* x = g.find_tensor(conv.inputs[0]);
    const ir::Tensor* w = f32_constant(g, conv.inputs[1]);
    if (!x || !w || !x->shape.rank_known || !w->shape.rank_known || !w->shape.is_static()) return false;
    const auto xs = x->shape.sizes(), ws = w->shape.sizes();  // the batch may be dynamic, not the rest
    if (xs.size() != ws.size() || ws.size() < 3) return false;
    const std::size_t k = ws.size() - 2;
    auto strides = conv.attr_ints("strides"), dil = conv.attr_ints("dilations"), pads = conv.attr_ints("pads");
    if (strides.empty()) strides.assign(k, 1);
    if (dil.empty()) dil.assign(k, 1);
    if (pads.empty()) pads.assign(2 * k, 0);
    if (strides.size() != k || dil.size() != k || pads.size() != 2 * k) return false;
    std::vector<std::int64_t> first(k), last(k), shape = ws, new_pads = pads;
    bool trimmed = false;
    for (std::size_t d = 0; d < k; ++d) {
      const std::int64_t in = xs[d + 2], K = ws[d + 2], s = strides[d], dl = dil[d], pb = pads[d], pe = pads[d + k];
      if (in <= 0 || K <= 0 || s <= 0 || dl <= 0) return false;
      const std::int64_t span = in + pb + pe - ((K - 1) * dl + 1);
      if (span < 0) return false;
      const std::int64_t out = span / s + 1;
      std::int64_t f = -1, l = -1;
      for (std::int64_t t = 0; t < K; ++t) {
        const std::int64_t c = t * dl - pb;                  // input index of output 0
        const std::int64_t o0 = c >= 0 ? 0 : (-c + s - 1) / s;  // first output whose index is >= 0
        if (o0 < out && o0 * s + c < in) {
          if (f < 0) f = t;
          l = t;
        }
      }
      if (f < 0) return false;  // reads padding only: nothing to keep
      const std::int64_t npb = pb - f * dl, npe = pe - (K - 1 - l) * dl;
      if (npb < 0 || npe < 0) f = 0, l = K - 1;
      else new_pads[d] = npb, new_pads[d + k] = npe;
      first[d] = f, last[d] = l;
      shape[d + 2] = l - f + 1;
      trimmed = trimmed || shape[d + 2] != K;
    }
    if (!trimmed) return false;
    const auto src = w->data->as<float>();
    std::int64_t count = 1;
    for (std::int64_t d : shape) count *= d;
    std::vector<float> v;
    v.reserve(static_cast<std::size_t>(count));
    std::vector<std::int64_t> idx(shape.size(), 0);
    const auto st = [&] {
      std::vector<std::int64_t> r(ws.size(), 1);
      for (std::size_t i = ws.size() - 1; i-- > 0;) r[i] = r[i + 1] * ws[i + 1];
      return r;
    }();
    for (std::int64_t n = count; n-- > 0;) {
      std::int64_t off = idx[0] * st[0] + idx[1] * st[1];
      for (std::size_t d = 0; d < k; ++d) off += (idx[d + 2] + first[d]) * st[d + 2];
      v.push_back(src[static_cast<std::size_t>(off)]);
      for (std::size_t d = shape.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    conv.inputs[1] = add_constant(g, conv.inputs[1] + ".trimmed", f32(shape, v));
    conv.attributes["pads"] = new_pads;
    if (conv.attr("kernel_shape")) conv.attributes["kernel_shape"] = std::vector<std::int64_t>(shape.begin() + 2, shape.end());
    return true;
  }

  static bool fuse_conv_bn(ir::Graph& g, std::size_t ci, std::size_t bi) {
    const ir::Operation& bn = g.ops[bi];
    for (std::size_t k = 1; k < bn.outputs.size(); ++k)
      if (!bn.outputs[k].empty()) return false;
    if (bn.attr_int("training_mode", 0) != 0 || bn.attr_string("layout", "NCHW") != "NCHW" || bn.quant)
      return false;
    auto p = conv_params(g, g.ops[ci]);
    if (!p) return false;
    const ir::Tensor *gamma = f32_constant(g, bn.inputs[1]), *beta = f32_constant(g, bn.inputs[2]),
                     *mean = f32_constant(g, bn.inputs[3]), *var = f32_constant(g, bn.inputs[4]);
    const auto C = static_cast<std::size_t>(p->channels);
    for (const ir::Tensor* t : {gamma, beta, mean, var})
      if (!t || t->data->size() != C * sizeof(float)) return false;
    const double eps = std::get<double>(bn.attr("epsilon") ? *bn.attr("epsilon") : ir::Attribute(1e-5));
    const auto G = floats(*gamma), B = floats(*beta), M = floats(*mean), V = floats(*var);
    std::vector<float> w = floats(*p->w), bias(C);
    const std::size_t per_channel = w.size() / C;
    for (std::size_t c = 0; c < C; ++c) {
      // w' = w * gamma / sqrt(var + eps);  b' = (b - mean) * gamma / sqrt(var + eps) + beta
      const double s = G[c] / std::sqrt(static_cast<double>(V[c]) + eps);
      for (std::size_t k = 0; k < per_channel; ++k)
        w[c * per_channel + k] = static_cast<float>(w[c * per_channel + k] * s);
      bias[c] = static_cast<float>((static_cast<double>(p->bias[c]) - M[c]) * s + B[c]);
    }
    ir::Operation& conv = g.ops[ci];
    conv.inputs[1] = add_constant(g, bn.outputs[0] + ".weight", f32(p->w->shape.sizes(), w));
    set_bias(g, conv, bn.outputs[0], bias);
    take_output(g, conv, bn);
    return true;
  }

  static bool fuse_conv_add(ir::Graph& g, std::size_t ci, std::size_t ai) {
    const ir::Operation& add = g.ops[ai];
    const std::string& y = g.ops[ci].outputs[0];
    const std::string& other = add.inputs[0] == y ? add.inputs[1] : add.inputs[0];
    const ir::Tensor* c = f32_constant(g, other);
    auto p = conv_params(g, g.ops[ci]);
    if (!c || !p || add.quant) return false;
    const std::size_t rank = p->w->shape.dims.size();  // output rank = weight rank
    const auto v = per_channel(*c, rank, p->channels, 1);
    if (v.empty()) return false;
    for (std::size_t k = 0; k < v.size(); ++k) p->bias[k] += v[k];
    ir::Operation& conv = g.ops[ci];
    set_bias(g, conv, add.outputs[0], p->bias);
    take_output(g, conv, add);
    return true;
  }

  static Fused fuse_matmul_add(ir::Graph& g, std::size_t mi, std::size_t ai) {
    const ir::Operation &mm = g.ops[mi], &add = g.ops[ai];
    if (ir::fused_activation(mm) != ir::Activation::None || mm.quant || add.quant) return Fused::No;
    const ir::Tensor* x = g.find_tensor(mm.inputs[0]);
    const ir::Tensor* w = f32_constant(g, mm.inputs[1]);
    const std::string y = mm.outputs[0];  // a copy: g.ops[mi] is replaced below
    const ir::Tensor* c = f32_constant(g, add.inputs[0] == y ? add.inputs[1] : add.inputs[0]);
    if (!x || x->dtype != ir::DType::Float32 || !x->shape.rank_known || x->shape.dims.size() < 2 || !w ||
        !w->shape.is_static() || w->shape.dims.size() != 2 || !c)
      return Fused::No;
    const std::size_t rank = x->shape.dims.size();
    const std::int64_t K = w->shape.dims[0].value, N = w->shape.dims[1].value;
    if (x->shape.dims[rank - 1].is_static() && x->shape.dims[rank - 1].value != K) return Fused::No;
    const auto bias = per_channel(*c, rank, N, rank - 1);
    if (bias.empty()) return Fused::No;
    // Output shape [dims of x but the last..., N]: a Reshape restores it when rank > 2.
    std::vector<std::int64_t> out_shape;
    int dynamic = 0;
    for (std::size_t k = 0; k + 1 < rank; ++k) {
      const auto& d = x->shape.dims[k];
      dynamic += !d.is_static();
      out_shape.push_back(d.is_static() ? d.value : -1);
    }
    out_shape.push_back(N);
    if (rank > 2 && dynamic > 1) return Fused::No;

    // W^T: [K,N] -> [N,K] (FullyConnected takes TFLite's [out, in]).
    const auto wv = w->data->as<float>();
    std::vector<float> wt(wv.size());
    for (std::int64_t k = 0; k < K; ++k)
      for (std::int64_t n = 0; n < N; ++n) wt[static_cast<std::size_t>(n * K + k)] = wv[static_cast<std::size_t>(k * N + n)];
    const std::string wt_name = add_constant(g, add.outputs[0] + ".weight", f32({N, K}, wt));
    const std::string b_name = add_constant(g, add.outputs[0] + ".bias", f32({N}, bias));

    ir::Operation fc;
    fc.name = g.ops[mi].name;
    fc.kind = ir::OpKind::FullyConnected;
    fc.op_type = "FullyConnected";
    fc.inputs = {g.ops[mi].inputs[0], wt_name, b_name};
    if (rank == 2) {
      const std::string out = g.ops[ai].outputs[0];
      g.tensors.erase(y);
      fc.outputs = {out};
      g.ops[mi] = std::move(fc);
      return Fused::RemoveSecond;
    }
    // rank > 2: FullyConnected -> [M, N], then the Add becomes Reshape to [..., N].
    ir::Tensor& flat = g.tensors.at(y);
    flat.shape = ir::Shape::of({-1, N});
    flat.dtype = ir::DType::Float32;
    fc.outputs = {y};
    g.ops[mi] = std::move(fc);
    const std::string shape_name =
        add_constant(g, g.ops[ai].outputs[0] + ".shape",
                     runtime::Tensor::from_values<std::int64_t>(ir::DType::Int64,
                                                                {static_cast<std::int64_t>(out_shape.size())}, out_shape));
    ir::Operation& reshape = g.ops[ai];
    reshape.kind = ir::OpKind::Reshape;
    reshape.op_type = "Reshape";
    reshape.inputs = {y, shape_name};
    reshape.attributes.clear();
    return Fused::Rewritten;
  }
};

}  // namespace

std::unique_ptr<Pass> make_op_fusion_pass() { return std::make_unique<OpFusion>(); }

}  // namespace ec::passes
