// The aten op table: one row per aten op the TorchScript reader maps to the IR.
// Semantics follow the PyTorch operator reference; the IR ops are ONNX opset 13
// (core/ir/ops.def), so each row does what torch.onnx's symbolic for that op
// does, with every shape known (reshaping ops take their concrete result shape).
#include <ATen/ScalarOps.h>

#include <cmath>
#include <limits>

#include "core/frontends/torchscript/plugin/importer.h"
#include "core/ir/dtype.h"

namespace ec::frontends::torchscript {
namespace {

using Names = std::vector<std::string>;
using Attrs = std::map<std::string, ir::Attribute>;

std::vector<std::int64_t> sizes_of(const at::Tensor& t) { return {t.sizes().begin(), t.sizes().end()}; }

std::int64_t norm_dim(std::int64_t d, std::int64_t rank) { return d < 0 ? d + rank : d; }

// A per-dimension list that PyTorch lets a caller give as one number.
std::vector<std::int64_t> spread(std::vector<std::int64_t> v, std::size_t n, std::int64_t fill) {
  if (v.empty()) v.assign(n, fill);
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  return v;
}

Names one(Importer& im, const std::string& op, Names in, Attrs attrs = {}) {
  return im.emit(op, std::move(in), std::move(attrs), {im.result()});
}

Handler unary(const std::string& op, Attrs attrs = {}) {
  return [op, attrs](Importer& im, const Args& a) { return one(im, op, {a.tensor(0)}, attrs); };
}

// x as dtype `to` (the IR's Cast); `result` is the value it stands for.
std::string cast(Importer& im, const std::string& x, at::ScalarType to, const at::Tensor& result,
                 const std::string& suffix = "") {
  const ir::DType dt = dtype_of(to);
  if (dt == ir::DType::Undefined || dt == ir::DType::Float64)
    im.refuse(std::string("a cast to ") + c10::toString(to) + " is not supported");
  return im.emit("Cast", {x}, {{"to", std::string(ir::dtype_name(dt))}}, {result}, suffix)[0];
}

// Operand i of an elementwise op in the dtype both operands promote to, by PyTorch's own
// rule (at::result_type: a float tensor and an int scalar compute in float, a long tensor
// and an int scalar in long).
std::string promoted(Importer& im, const Args& a, std::size_t i, std::size_t other) {
  const c10::IValue& x = a.slot(i).value;
  const c10::IValue& y = a.slot(other).value;
  at::ScalarType want;
  if (x.isTensor() && y.isTensor()) want = at::result_type(x.toTensor(), y.toTensor());
  else if (x.isTensor()) want = at::result_type(x.toTensor(), y.toScalar());
  else if (y.isTensor()) want = at::result_type(y.toTensor(), x.toScalar());
  else want = at::result_type(at::scalar_to_tensor(x.toScalar()), y.toScalar());
  if (!x.isTensor()) return im.constant(at::scalar_tensor(x.toScalar(), at::TensorOptions().dtype(want)), "scalar");
  const at::Tensor t = x.toTensor();
  if (t.scalar_type() == want) return a.tensor(i);
  if (!a.slot(i).data) return im.constant(t.to(want), "operand");
  return cast(im, a.tensor(i), want, t.to(want), "_promote");
}

Handler binary(const std::string& op) {
  return [op](Importer& im, const Args& a) { return one(im, op, {promoted(im, a, 0, 1), promoted(im, a, 1, 0)}); };
}

Names reshape_to_result(Importer& im, const Args& a) {
  return one(im, "Reshape", {a.tensor(0), im.constant_ints(sizes_of(im.result()), "shape")});
}

// add/sub with alpha: x + alpha * y.
Handler add_like(const std::string& op, bool reversed = false) {
  return [op, reversed](Importer& im, const Args& a) {
    std::string y = promoted(im, a, 1, 0);
    if (a.size() > 2 && !a.is_none(2) && a.f64(2) != 1.0) {
      const at::Tensor alpha = at::scalar_tensor(a.f64(2), at::TensorOptions().dtype(a.actual(0).scalar_type()));
      y = im.emit("Mul", {y, im.constant(alpha, "alpha")}, {}, {at::Tensor()}, "_alpha")[0];
    }
    const std::string x = promoted(im, a, 0, 1);
    return one(im, op, reversed ? Names{y, x} : Names{x, y});
  };
}

Names clip(Importer& im, const Args& a, std::size_t lo, std::size_t hi) {
  const at::ScalarType st = a.actual(0).scalar_type();
  auto bound = [&](std::size_t i) -> std::string {
    if (a.is_none(i)) return "";
    return im.constant(at::scalar_tensor(a.known(i).toScalar(), at::TensorOptions().dtype(st)), "clip");
  };
  return one(im, "Clip", {a.tensor(0), bound(lo), bound(hi)});
}

Names fixed_clip(Importer& im, const Args& a, double lo, double hi) {
  const at::ScalarType st = a.actual(0).scalar_type();
  return one(im, "Clip", {a.tensor(0), im.constant(at::scalar_tensor(lo, at::TensorOptions().dtype(st)), "clip"),
                          im.constant(at::scalar_tensor(hi, at::TensorOptions().dtype(st)), "clip")});
}

// Convolutions: aten::_convolution and the conv*/conv_transpose* overloads.
Names conv(Importer& im, const Args& a, std::size_t stride_i, std::size_t pad_i, std::size_t dil_i, bool transposed,
           std::size_t out_pad_i, std::size_t groups_i) {
  const at::Tensor w = a.actual(1);
  const std::size_t n = static_cast<std::size_t>(w.dim() - 2);
  const auto k = sizes_of(w);
  std::vector<std::int64_t> kernel(k.begin() + 2, k.end());
  const auto strides = spread(a.ints(stride_i), n, 1);
  const auto dil = spread(a.ints(dil_i), n, 1);
  std::vector<std::int64_t> pads;
  if (a.known(pad_i).isString()) {  // conv2d(padding='same' | 'valid')
    const std::string mode = a.known(pad_i).toStringRef();
    std::vector<std::int64_t> begin(n, 0), end(n, 0);
    if (mode == "same")
      for (std::size_t d = 0; d < n; ++d) {
        const std::int64_t total = dil[d] * (kernel[d] - 1);
        begin[d] = total / 2;
        end[d] = total - begin[d];
      }
    pads = begin;
    pads.insert(pads.end(), end.begin(), end.end());
  } else {
    pads = spread(a.ints(pad_i), n, 0);
    pads.insert(pads.end(), pads.begin(), pads.end());
  }
  Attrs attrs{{"kernel_shape", kernel}, {"strides", strides}, {"pads", pads}, {"dilations", dil},
              {"group", a.i64(groups_i)}};
  if (transposed) {
    const auto op = spread(a.ints(out_pad_i), n, 0);
    if (std::any_of(op.begin(), op.end(), [](std::int64_t v) { return v != 0; })) attrs["output_padding"] = op;
    // PyTorch's transposed weight is [Cin, Cout/groups, k...]: ONNX's layout.
  }
  Names in{a.tensor(0), a.tensor(1)};
  if (!a.is_none(2)) in.push_back(a.tensor(2));
  return one(im, transposed ? "ConvTranspose" : "Conv", in, attrs);
}

Names linear(Importer& im, const Args& a) {
  const at::Tensor x = a.actual(0);
  if (x.dim() == 2) {
    Names in{a.tensor(0), a.tensor(1)};
    if (!a.is_none(2)) in.push_back(a.tensor(2));
    return one(im, "Gemm", in, {{"transB", std::int64_t{1}}});
  }
  // A weight the IR holds (a fake-quantised one, between Q and DQ) is transposed by an op.
  const std::string wt = a.slot(1).data ? im.emit("Transpose", {a.tensor(1)}, {{"perm", std::vector<std::int64_t>{1, 0}}},
                                                  {a.actual(1).t()}, "_weight")[0]
                                        : im.constant(a.actual(1).t().contiguous(), "weight_t");
  if (a.is_none(2)) return one(im, "MatMul", {a.tensor(0), wt});
  const std::string mm = im.emit("MatMul", {a.tensor(0), wt}, {}, {at::Tensor()})[0];
  return one(im, "Add", {mm, a.tensor(2)});
}

std::string ones_or(Importer& im, const Args& a, std::size_t i, std::int64_t n, float fill, const std::string& hint) {
  if (!a.is_none(i)) return a.tensor(i);
  return im.constant(at::full({n}, fill), hint);
}

Names pool(Importer& im, const Args& a, bool max) {
  const auto k = a.ints(1);
  const std::size_t n = k.size();
  auto strides = a.ints(2);
  if (strides.empty()) strides = k;
  strides = spread(strides, n, 1);
  auto pads = spread(a.ints(3), n, 0);
  pads.insert(pads.end(), pads.begin(), pads.end());
  Attrs attrs{{"kernel_shape", spread(k, n, 1)}, {"strides", strides}, {"pads", pads}};
  if (max) {
    const auto dil = spread(a.ints(4), n, 1);
    if (std::any_of(dil.begin(), dil.end(), [](std::int64_t d) { return d != 1; })) attrs["dilations"] = dil;
    attrs["ceil_mode"] = std::int64_t{a.flag(5)};
  } else {
    attrs["ceil_mode"] = std::int64_t{a.flag(4)};
    attrs["count_include_pad"] = std::int64_t{a.size() > 5 ? a.flag(5) : true};
    if (a.size() > 6 && !a.is_none(6)) im.refuse("avg_pool with divisor_override has no IR form");
  }
  const Names out = im.emit(max ? "MaxPool" : "AveragePool", {a.tensor(0)}, attrs, {im.result(0)});
  return im.results().size() > 1 ? Names{out[0], ""} : out;
}

Names adaptive_pool(Importer& im, const Args& a, bool max) {
  const at::Tensor x = a.actual(0);
  const auto out = a.ints(1);
  const std::size_t n = out.size();
  bool global = true, even = true;
  std::vector<std::int64_t> kernel;
  for (std::size_t d = 0; d < n; ++d) {
    const std::int64_t in = x.size(x.dim() - static_cast<std::int64_t>(n) + static_cast<std::int64_t>(d));
    global &= out[d] == 1;
    even &= out[d] > 0 && in % out[d] == 0;
    kernel.push_back(out[d] > 0 ? in / std::max<std::int64_t>(1, out[d]) : 1);
  }
  Names res;
  if (global) {
    res = one(im, max ? "GlobalMaxPool" : "GlobalAveragePool", {a.tensor(0)});
  } else if (even) {
    std::vector<std::int64_t> pads(2 * n, 0);
    res = one(im, max ? "MaxPool" : "AveragePool", {a.tensor(0)},
              {{"kernel_shape", kernel}, {"strides", kernel}, {"pads", pads}});
  } else {
    im.refuse("adaptive pooling to a size that does not divide the input has no IR form");
  }
  return im.results().size() > 1 ? Names{res[0], ""} : res;
}

Names reduce(Importer& im, const Args& a, const std::string& op) {
  const at::Tensor x = a.actual(0);
  std::vector<std::int64_t> axes;
  bool keep = false;
  if (a.size() >= 3 && !a.is_none(1) && (a.known(1).isIntList() || a.known(1).isInt())) {
    axes = a.ints(1);
    keep = a.flag(2);
  }
  if (axes.empty())
    for (std::int64_t d = 0; d < x.dim(); ++d) axes.push_back(d);
  for (auto& d : axes) d = norm_dim(d, x.dim());
  return one(im, op, {a.tensor(0)}, {{"axes", axes}, {"keepdims", std::int64_t{keep}}});
}

// A list argument of tensors: the data-dependent items, or the known ones as constants.
Names tensor_list(Importer& im, const Args& a, std::size_t i) {
  const Slot& s = a.slot(i);
  Names out;
  if (!s.items.empty()) {
    for (const auto& item : s.items) {
      if (item.data) out.push_back(item.ir);
      else out.push_back(im.constant(item.value.toTensor(), "item"));
    }
    return out;
  }
  for (const auto& t : s.value.toTensorVector()) out.push_back(im.constant(t, "item"));
  return out;
}

Names split_like(Importer& im, const Args& a, std::int64_t dim, bool squeeze) {
  const at::Tensor x = a.actual(0);
  dim = norm_dim(dim, x.dim());
  const auto parts = im.results().at(0).toTensorVector();
  std::vector<std::int64_t> sizes;
  std::vector<at::Tensor> results;
  for (const auto& p : parts) {
    sizes.push_back(squeeze ? 1 : p.size(dim));
    results.push_back(squeeze ? p.unsqueeze(dim) : p);
  }
  Names outs = im.emit("Split", {a.tensor(0), im.constant_ints(sizes, "split")}, {{"axis", dim}}, results);
  if (squeeze)
    for (std::size_t i = 0; i < outs.size(); ++i)
      outs[i] = im.emit("Reshape", {outs[i], im.constant_ints(sizes_of(parts[i]), "shape")}, {}, {parts[i]},
                        "_squeeze")[0];
  return outs;
}

Names resize(Importer& im, const Args& a, const std::string& mode, bool align_corners) {
  Attrs attrs{{"mode", mode}};
  if (mode == "nearest") {
    attrs["coordinate_transformation_mode"] = std::string("asymmetric");
    attrs["nearest_mode"] = std::string("floor");
  } else {
    attrs["coordinate_transformation_mode"] = std::string(align_corners ? "align_corners" : "pytorch_half_pixel");
  }
  return one(im, "Resize", {a.tensor(0), "", "", im.constant_ints(sizes_of(im.result()), "sizes")}, attrs);
}

Names pad(Importer& im, const Args& a, const std::string& mode, std::size_t value_i) {
  const at::Tensor x = a.actual(0);
  const auto p = a.ints(1);
  const std::size_t r = static_cast<std::size_t>(x.dim());
  if (p.size() % 2 || p.size() / 2 > r) im.refuse("a pad list of odd length or longer than the rank");
  std::vector<std::int64_t> pads(2 * r, 0);
  for (std::size_t i = 0; i < p.size() / 2; ++i) {
    const std::size_t d = r - 1 - i;
    pads[d] = p[2 * i];
    pads[r + d] = p[2 * i + 1];
  }
  Names in{a.tensor(0), im.constant_ints(pads, "pads")};
  if (mode == "constant" && value_i < a.size() && !a.is_none(value_i))
    in.push_back(im.constant(at::scalar_tensor(a.known(value_i).toScalar(), at::TensorOptions().dtype(x.scalar_type())),
                             "pad_value"));
  return one(im, "Pad", in, {{"mode", mode}});
}

// nn.LSTM / nn.GRU: aten::lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
// batch_first) and aten::gru(input, hx, params, ...) with the same tail. One IR op per layer, PyTorch's
// gate blocks reordered to ONNX's (LSTM: i,f,g,o -> i,o,f,c; GRU: r,z,n -> z,r,h).
Names recurrent(Importer& im, const Args& a, bool lstm) {
  const auto params = a.known(2).toTensorVector();
  const bool has_bias = a.flag(3);
  const std::int64_t layers = a.i64(4);
  const bool bidir = a.flag(7);
  const bool batch_first = a.flag(8);
  const std::int64_t dirs = bidir ? 2 : 1;
  const std::size_t per = has_bias ? 4 : 2;
  if (params.size() != static_cast<std::size_t>(layers * dirs) * per)
    im.refuse("the recurrent layer's parameter list has an unexpected length (projections are not supported)");
  const Slot& hx = a.slot(1);
  if (hx.data) im.refuse("initial states computed from the input are not supported");
  const std::vector<at::Tensor> h0 = lstm ? hx.value.toTensorVector() : std::vector<at::Tensor>{hx.value.toTensor()};
  const std::int64_t H = params[1].size(1);
  const std::int64_t gates = lstm ? 4 : 3;
  auto reorder = [&](const at::Tensor& w) {
    auto c = w.chunk(gates, 0);
    if (lstm) return at::cat({c[0], c[3], c[1], c[2]}, 0);
    return at::cat({c[1], c[0], c[2]}, 0);
  };
  std::string x = a.tensor(0);
  at::Tensor x_actual = a.actual(0);
  if (batch_first) {
    x_actual = x_actual.transpose(0, 1).contiguous();
    x = im.emit("Transpose", {x}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}}, {x_actual}, "_time_major")[0];
  }
  const std::int64_t B = x_actual.size(1);
  Names hs, cs;  // each layer's final states
  for (std::int64_t l = 0; l < layers; ++l) {
    std::vector<at::Tensor> W, R, Bb, H0, C0;
    for (std::int64_t d = 0; d < dirs; ++d) {
      const std::size_t base = static_cast<std::size_t>(l * dirs + d) * per;
      W.push_back(reorder(params[base]));
      R.push_back(reorder(params[base + 1]));
      if (has_bias) Bb.push_back(at::cat({reorder(params[base + 2]), reorder(params[base + 3])}, 0));
      else Bb.push_back(at::zeros({2 * gates * H}));
      H0.push_back(h0[0][l * dirs + d]);
      if (lstm) C0.push_back(h0[1][l * dirs + d]);
    }
    Names in{x, im.constant(at::stack(W), "W"), im.constant(at::stack(R), "R"), im.constant(at::stack(Bb), "B"), "",
             im.constant(at::stack(H0), "initial_h")};
    if (lstm) in.push_back(im.constant(at::stack(C0), "initial_c"));
    Attrs attrs{{"hidden_size", H}, {"direction", std::string(bidir ? "bidirectional" : "forward")}};
    if (!lstm) attrs["linear_before_reset"] = std::int64_t{1};
    const std::int64_t T = x_actual.size(0);
    std::vector<at::Tensor> shapes{at::empty({T, dirs, B, H}), at::empty({dirs, B, H})};
    if (lstm) shapes.push_back(at::empty({dirs, B, H}));
    const Names outs = im.emit(lstm ? "LSTM" : "GRU", in, attrs, shapes, "_" + std::to_string(l));
    // Y [T, dirs, B, H] -> [T, B, dirs*H]
    const std::string yt = im.emit("Transpose", {outs[0]}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}},
                                   {at::empty({T, B, dirs, H})}, "_" + std::to_string(l))[0];
    x_actual = at::empty({T, B, dirs * H});
    x = im.emit("Reshape", {yt, im.constant_ints({T, B, dirs * H}, "shape")}, {}, {x_actual},
                "_" + std::to_string(l))[0];
    hs.push_back(outs[1]);
    if (lstm) cs.push_back(outs[2]);
    if (l == layers - 1) {
      std::string y = x;
      if (batch_first)
        y = im.emit("Transpose", {x}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}}, {im.result(0)}, "_batch_first")[0];
      Names res{y};
      auto concat = [&](const Names& parts, std::size_t out_i) {
        if (parts.size() == 1) return parts[0];
        return im.emit("Concat", parts, {{"axis", std::int64_t{0}}}, {im.result(out_i)}, "_states")[0];
      };
      res.push_back(concat(hs, 1));
      if (lstm) res.push_back(concat(cs, 2));
      return res;
    }
  }
  im.refuse("a recurrent layer with no layers");
}

// nn.TransformerEncoderLayer's fused inference path (aten::_transformer_encoder_layer_fwd) and
// nn.MultiheadAttention's (aten::_native_multi_head_attention), written out as IR ops.
struct Attn {
  std::string x;  // [B, T, E]
  std::int64_t B, T, E, heads;
};

std::string mha(Importer& im, const Attn& s, const at::Tensor& qkv_w, const at::Tensor& qkv_b, const at::Tensor& proj_w,
                const at::Tensor& proj_b, const std::string& tag) {
  const std::int64_t B = s.B, T = s.T, E = s.E, Hn = s.heads, D = E / Hn;
  auto dense = [&](const std::string& x, const at::Tensor& w, const at::Tensor& b, const std::string& t) {
    const std::string mm = im.emit("MatMul", {x, im.constant(w.t().contiguous(), "w")}, {}, {at::empty({B, T, w.size(0)})}, t)[0];
    return im.emit("Add", {mm, im.constant(b, "b")}, {}, {at::empty({B, T, w.size(0)})}, t)[0];
  };
  auto heads = [&](const std::string& x, int which, bool transpose_k) {
    const at::Tensor w = qkv_w.narrow(0, which * E, E), b = qkv_b.narrow(0, which * E, E);
    const std::string p = dense(x, w, b, tag + "_qkv" + std::to_string(which));
    const std::string r = im.emit("Reshape", {p, im.constant_ints({B, T, Hn, D}, "shape")}, {}, {at::empty({B, T, Hn, D})},
                                  tag + "_heads")[0];
    const std::vector<std::int64_t> perm = transpose_k ? std::vector<std::int64_t>{0, 2, 3, 1}
                                                       : std::vector<std::int64_t>{0, 2, 1, 3};
    return im.emit("Transpose", {r}, {{"perm", perm}},
                   {transpose_k ? at::empty({B, Hn, D, T}) : at::empty({B, Hn, T, D})}, tag + "_heads")[0];
  };
  const std::string q = heads(s.x, 0, false), k = heads(s.x, 1, true), v = heads(s.x, 2, false);
  const std::string qk = im.emit("MatMul", {q, k}, {}, {at::empty({B, Hn, T, T})}, tag + "_scores")[0];
  const at::Tensor scale = at::scalar_tensor(1.0 / std::sqrt(static_cast<double>(D)));
  const std::string scaled = im.emit("Mul", {qk, im.constant(scale, "scale")}, {}, {at::empty({B, Hn, T, T})}, tag + "_scale")[0];
  const std::string sm = im.emit("Softmax", {scaled}, {{"axis", std::int64_t{-1}}}, {at::empty({B, Hn, T, T})}, tag)[0];
  const std::string ctx = im.emit("MatMul", {sm, v}, {}, {at::empty({B, Hn, T, D})}, tag + "_context")[0];
  const std::string tr = im.emit("Transpose", {ctx}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}},
                                 {at::empty({B, T, Hn, D})}, tag + "_context")[0];
  const std::string merged = im.emit("Reshape", {tr, im.constant_ints({B, T, E}, "shape")}, {}, {at::empty({B, T, E})},
                                     tag + "_context")[0];
  return dense(merged, proj_w, proj_b, tag + "_out_proj");
}

Names encoder_layer(Importer& im, const Args& a) {
  // (src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps,
  //  norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2,
  //  ffn_bias_2, mask, mask_type)
  const at::Tensor src = a.actual(0);
  if (src.dim() != 3) im.refuse("the fused encoder layer expects a batch-first [B, T, E] input");
  if (a.size() > 18 && !a.is_none(18)) im.refuse("an attention mask on the fused encoder layer is not supported");
  const std::int64_t B = src.size(0), T = src.size(1), E = a.i64(1), heads = a.i64(2);
  const bool gelu = a.flag(7), norm_first = a.flag(8);
  const double eps = a.f64(9);
  auto norm = [&](const std::string& x, std::size_t w, const std::string& tag) {
    return im.emit("LayerNormalization", {x, a.tensor(w), a.tensor(w + 1)},
                   {{"axis", std::int64_t{-1}}, {"epsilon", eps}}, {at::empty({B, T, E})}, tag)[0];
  };
  auto ffn = [&](const std::string& x) {
    const at::Tensor w1 = a.actual(14), w2 = a.actual(16);
    const std::int64_t F = w1.size(0);
    std::string h = im.emit("MatMul", {x, im.constant(w1.t().contiguous(), "w")}, {}, {at::empty({B, T, F})}, "_linear1")[0];
    h = im.emit("Add", {h, a.tensor(15)}, {}, {at::empty({B, T, F})}, "_linear1")[0];
    h = im.emit(gelu ? "Gelu" : "Relu", {h}, {}, {at::empty({B, T, F})}, "_ffn")[0];
    h = im.emit("MatMul", {h, im.constant(w2.t().contiguous(), "w")}, {}, {at::empty({B, T, E})}, "_linear2")[0];
    return im.emit("Add", {h, a.tensor(17)}, {}, {at::empty({B, T, E})}, "_linear2")[0];
  };
  auto add = [&](const std::string& x, const std::string& y, const std::string& tag) {
    return im.emit("Add", {x, y}, {}, {at::empty({B, T, E})}, tag)[0];
  };
  std::string x = a.tensor(0);
  Attn s{x, B, T, E, heads};
  if (norm_first) {
    s.x = norm(x, 10, "_norm1");
    x = add(x, mha(im, s, a.actual(3), a.actual(4), a.actual(5), a.actual(6), "_self_attn"), "_residual1");
    x = add(x, ffn(norm(x, 12, "_norm2")), "_residual2");
  } else {
    x = norm(add(x, mha(im, s, a.actual(3), a.actual(4), a.actual(5), a.actual(6), "_self_attn"), "_residual1"), 10,
             "_norm1");
    x = norm(add(x, ffn(x), "_residual2"), 12, "_norm2");
  }
  return one(im, "Identity", {x});
}

Names native_mha(Importer& im, const Args& a) {
  // (query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight, proj_bias, mask,
  //  need_weights, average_attn_weights, mask_type) -> (out, weights)
  if (a.slot(0).ir != a.slot(1).ir || a.slot(0).ir != a.slot(2).ir)
    im.refuse("only self-attention (query, key and value the same tensor) is mapped");
  if (!a.is_none(9)) im.refuse("an attention mask is not supported");
  const at::Tensor q = a.actual(0);
  Attn s{a.tensor(0), q.size(0), q.size(1), a.i64(3), a.i64(4)};
  const std::string out = mha(im, s, a.actual(5), a.actual(6), a.actual(7), a.actual(8), "");
  return {im.emit("Identity", {out}, {}, {im.result(0)})[0], ""};
}

std::unordered_map<std::string, Handler> make_table() {
  std::unordered_map<std::string, Handler> t;
  // convolution
  t["aten::_convolution"] = [](Importer& im, const Args& a) { return conv(im, a, 3, 4, 5, a.flag(6), 7, 8); };
  // conv*d(padding='same'|'valid') traces as _convolution_mode with the same arguments.
  for (const char* k : {"aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::_convolution_mode"})
    t[k] = [](Importer& im, const Args& a) { return conv(im, a, 3, 4, 5, false, 0, 6); };
  for (const char* k : {"aten::conv_transpose1d", "aten::conv_transpose2d", "aten::conv_transpose3d"})
    t[k] = [](Importer& im, const Args& a) { return conv(im, a, 3, 4, 7, true, 5, 6); };
  // linear algebra
  t["aten::linear"] = linear;
  for (const char* k : {"aten::matmul", "aten::mm", "aten::bmm"}) t[k] = binary("MatMul");
  t["aten::addmm"] = [](Importer& im, const Args& a) {
    return one(im, "Gemm", {a.tensor(1), a.tensor(2), a.tensor(0)}, {{"beta", a.f64(3)}, {"alpha", a.f64(4)}});
  };
  // normalisation
  t["aten::batch_norm"] = [](Importer& im, const Args& a) {
    const std::int64_t c = a.actual(0).size(1);
    return one(im, "BatchNormalization",
               {a.tensor(0), ones_or(im, a, 1, c, 1.f, "scale"), ones_or(im, a, 2, c, 0.f, "bias"), a.tensor(3),
                a.tensor(4)},
               {{"epsilon", a.f64(7)}});
  };
  t["aten::instance_norm"] = [](Importer& im, const Args& a) {
    if (!a.flag(5)) im.refuse("instance_norm with running statistics is not supported");
    const std::int64_t c = a.actual(0).size(1);
    return one(im, "InstanceNormalization",
               {a.tensor(0), ones_or(im, a, 1, c, 1.f, "scale"), ones_or(im, a, 2, c, 0.f, "bias")},
               {{"epsilon", a.f64(7)}});
  };
  t["aten::layer_norm"] = [](Importer& im, const Args& a) {
    const auto shape = a.ints(1);
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::string w = a.is_none(2) ? im.constant(at::ones(shape), "scale") : a.tensor(2);
    std::string b = a.is_none(3) ? im.constant(at::zeros(shape), "bias") : a.tensor(3);
    return one(im, "LayerNormalization", {a.tensor(0), w, b},
               {{"axis", -static_cast<std::int64_t>(shape.size())}, {"epsilon", a.f64(4)}});
  };
  t["aten::group_norm"] = [](Importer& im, const Args& a) {
    const std::int64_t c = a.actual(0).size(1);
    return one(im, "GroupNormalization",
               {a.tensor(0), ones_or(im, a, 2, c, 1.f, "scale"), ones_or(im, a, 3, c, 0.f, "bias")},
               {{"num_groups", a.i64(1)}, {"epsilon", a.f64(4)}});
  };
  // pooling
  for (const char* k : {"aten::max_pool1d", "aten::max_pool2d", "aten::max_pool3d", "aten::max_pool2d_with_indices"})
    t[k] = [](Importer& im, const Args& a) { return pool(im, a, true); };
  for (const char* k : {"aten::avg_pool1d", "aten::avg_pool2d", "aten::avg_pool3d"})
    t[k] = [](Importer& im, const Args& a) { return pool(im, a, false); };
  for (const char* k : {"aten::adaptive_avg_pool1d", "aten::adaptive_avg_pool2d", "aten::adaptive_avg_pool3d"})
    t[k] = [](Importer& im, const Args& a) { return adaptive_pool(im, a, false); };
  for (const char* k : {"aten::adaptive_max_pool1d", "aten::adaptive_max_pool2d", "aten::adaptive_max_pool3d"})
    t[k] = [](Importer& im, const Args& a) { return adaptive_pool(im, a, true); };
  // activations
  const std::pair<const char*, const char*> unaries[] = {
      {"aten::relu", "Relu"},       {"aten::sigmoid", "Sigmoid"},   {"aten::tanh", "Tanh"},
      {"aten::hardswish", "HardSwish"}, {"aten::mish", "Mish"},      {"aten::erf", "Erf"},
      {"aten::exp", "Exp"},         {"aten::log", "Log"},           {"aten::sqrt", "Sqrt"},
      {"aten::abs", "Abs"},         {"aten::neg", "Neg"},           {"aten::reciprocal", "Reciprocal"},
      {"aten::floor", "Floor"},     {"aten::ceil", "Ceil"},         {"aten::sin", "Sin"},
      {"aten::cos", "Cos"},         {"aten::sign", "Sign"},         {"aten::logical_not", "Not"},
      {"aten::round", "Round"}};
  for (const auto& [k, op] : unaries) t[k] = unary(op);
  t["aten::hardsigmoid"] = unary("HardSigmoid", {{"alpha", 1.0 / 6.0}, {"beta", 0.5}});
  t["aten::relu6"] = [](Importer& im, const Args& a) { return fixed_clip(im, a, 0, 6); };
  t["aten::hardtanh"] = [](Importer& im, const Args& a) { return fixed_clip(im, a, a.f64(1), a.f64(2)); };
  t["aten::clamp"] = [](Importer& im, const Args& a) { return clip(im, a, 1, 2); };
  t["aten::silu"] = [](Importer& im, const Args& a) {
    const std::string s = im.emit("Sigmoid", {a.tensor(0)}, {}, {im.result()})[0];
    return one(im, "Mul", {a.tensor(0), s});
  };
  t["aten::gelu"] = [](Importer& im, const Args& a) {
    const std::string approx = a.size() > 1 && !a.is_none(1) ? a.known(1).toStringRef() : "none";
    return one(im, "Gelu", {a.tensor(0)}, {{"approximate", approx}});
  };
  t["aten::leaky_relu"] = [](Importer& im, const Args& a) {
    return one(im, "LeakyRelu", {a.tensor(0)}, {{"alpha", a.size() > 1 ? a.f64(1) : 0.01}});
  };
  t["aten::elu"] = [](Importer& im, const Args& a) {
    if (a.size() > 2 && (a.f64(2) != 1.0 || a.f64(3) != 1.0)) im.refuse("elu with scale or input_scale has no IR form");
    return one(im, "Elu", {a.tensor(0)}, {{"alpha", a.f64(1)}});
  };
  t["aten::selu"] = unary("Selu", {{"alpha", 1.6732632423543772}, {"gamma", 1.0507009873554805}});
  t["aten::celu"] = [](Importer& im, const Args& a) { return one(im, "Celu", {a.tensor(0)}, {{"alpha", a.f64(1)}}); };
  t["aten::softplus"] = [](Importer& im, const Args& a) {
    if (a.f64(1) != 1.0) im.refuse("softplus with beta != 1 has no IR form");
    return one(im, "Softplus", {a.tensor(0)});
  };
  t["aten::prelu"] = [](Importer& im, const Args& a) {
    const at::Tensor x = a.actual(0), w = a.actual(1);
    std::vector<std::int64_t> shape{w.numel()};
    for (std::int64_t d = 2; d < x.dim(); ++d) shape.push_back(1);
    if (w.numel() == 1) shape = {1};
    return one(im, "PRelu", {a.tensor(0), im.constant(w.reshape(shape), "slope")});
  };
  t["aten::softmax"] = [](Importer& im, const Args& a) {
    return one(im, "Softmax", {a.tensor(0)}, {{"axis", norm_dim(a.i64(1), a.actual(0).dim())}});
  };
  t["aten::log_softmax"] = [](Importer& im, const Args& a) {
    return one(im, "LogSoftmax", {a.tensor(0)}, {{"axis", norm_dim(a.i64(1), a.actual(0).dim())}});
  };
  // elementwise
  t["aten::add"] = add_like("Add");
  t["aten::sub"] = add_like("Sub");
  t["aten::rsub"] = add_like("Sub", true);
  t["aten::mul"] = binary("Mul");
  t["aten::div"] = [](Importer& im, const Args& a) {
    if (a.size() > 2 && !a.is_none(2)) im.refuse("division with a rounding mode has no IR form here");
    return one(im, "Div", {a.tensor(0, 1), a.tensor(1, 0)});
  };
  t["aten::pow"] = binary("Pow");
  t["aten::maximum"] = binary("Max");
  t["aten::minimum"] = binary("Min");
  t["aten::eq"] = binary("Equal");
  t["aten::gt"] = binary("Greater");
  t["aten::ge"] = binary("GreaterOrEqual");
  t["aten::lt"] = binary("Less");
  t["aten::le"] = binary("LessOrEqual");
  t["aten::logical_and"] = binary("And");
  t["aten::logical_or"] = binary("Or");
  t["aten::logical_xor"] = binary("Xor");
  for (const char* k : {"aten::__and__", "aten::bitwise_and", "aten::__or__", "aten::bitwise_or", "aten::__xor__",
                        "aten::bitwise_xor"}) {
    const std::string op = std::string(k).find("and") != std::string::npos ? "And"
                           : std::string(k).find("xor") != std::string::npos ? "Xor" : "Or";
    t[k] = [op](Importer& im, const Args& a) {  // logical on bools, bitwise on integers
      const bool logical = a.actual(0).scalar_type() == at::kBool;
      if (!logical && op == "Xor") im.refuse("bitwise xor on integers has no IR form");
      return one(im, logical ? op : "Bitwise" + op, {promoted(im, a, 0, 1), promoted(im, a, 1, 0)});
    };
  }
  t["aten::bitwise_not"] = [](Importer& im, const Args& a) {
    return one(im, a.actual(0).scalar_type() == at::kBool ? "Not" : "BitwiseNot", {a.tensor(0)});
  };
  t["aten::ne"] = [](Importer& im, const Args& a) {
    const std::string eq = im.emit("Equal", {promoted(im, a, 0, 1), promoted(im, a, 1, 0)}, {}, {im.result()})[0];
    return one(im, "Not", {eq});
  };
  t["aten::where"] = [](Importer& im, const Args& a) {
    return one(im, "Where", {a.tensor(0), a.tensor(1, 2), a.tensor(2, 1)});
  };
  t["aten::masked_fill"] = [](Importer& im, const Args& a) {
    return one(im, "Where", {a.tensor(1), a.tensor(2, 0), a.tensor(0)});
  };
  // shapes and data movement
  for (const char* k : {"aten::view", "aten::reshape", "aten::unflatten", "aten::view_as", "aten::reshape_as",
                        "aten::squeeze", "aten::unsqueeze", "aten::flatten"})
    t[k] = reshape_to_result;
  t["aten::flatten"] = [](Importer& im, const Args& a) {
    const std::int64_t r = a.actual(0).dim();
    if (r >= 2 && norm_dim(a.i64(1), r) == 1 && norm_dim(a.i64(2), r) == r - 1)
      return one(im, "Flatten", {a.tensor(0)}, {{"axis", std::int64_t{1}}});
    return reshape_to_result(im, a);
  };
  t["aten::permute"] = [](Importer& im, const Args& a) {
    auto perm = a.ints(1);
    for (auto& p : perm) p = norm_dim(p, a.actual(0).dim());
    return one(im, "Transpose", {a.tensor(0)}, {{"perm", perm}});
  };
  t["aten::transpose"] = [](Importer& im, const Args& a) {
    const std::int64_t r = a.actual(0).dim();
    std::vector<std::int64_t> perm(static_cast<std::size_t>(r));
    for (std::int64_t i = 0; i < r; ++i) perm[static_cast<std::size_t>(i)] = i;
    std::swap(perm[static_cast<std::size_t>(norm_dim(a.i64(1), r))], perm[static_cast<std::size_t>(norm_dim(a.i64(2), r))]);
    return one(im, "Transpose", {a.tensor(0)}, {{"perm", perm}});
  };
  t["aten::t"] = [](Importer& im, const Args& a) {
    if (a.actual(0).dim() < 2) return one(im, "Identity", {a.tensor(0)});
    return one(im, "Transpose", {a.tensor(0)}, {{"perm", std::vector<std::int64_t>{1, 0}}});
  };
  t["aten::expand"] = [](Importer& im, const Args& a) {
    return one(im, "Expand", {a.tensor(0), im.constant_ints(sizes_of(im.result()), "shape")});
  };
  t["aten::expand_as"] = t["aten::expand"];
  t["aten::repeat"] = [](Importer& im, const Args& a) {
    const auto reps = a.ints(1);
    std::string x = a.tensor(0);
    at::Tensor xa = a.actual(0);
    if (static_cast<std::int64_t>(reps.size()) > xa.dim()) {
      std::vector<std::int64_t> shape(reps.size() - static_cast<std::size_t>(xa.dim()), 1);
      for (auto d : xa.sizes()) shape.push_back(d);
      x = im.emit("Reshape", {x, im.constant_ints(shape, "shape")}, {}, {xa.reshape(shape)}, "_rank")[0];
    }
    return one(im, "Tile", {x, im.constant_ints(reps, "repeats")});
  };
  t["aten::cat"] = [](Importer& im, const Args& a) {
    return one(im, "Concat", tensor_list(im, a, 0), {{"axis", norm_dim(a.i64(1), im.result().dim())}});
  };
  t["aten::stack"] = [](Importer& im, const Args& a) {
    const std::int64_t dim = norm_dim(a.i64(1), im.result().dim());
    Names parts;
    auto shape = sizes_of(im.result());
    shape[static_cast<std::size_t>(dim)] = 1;
    for (const auto& p : tensor_list(im, a, 0))
      parts.push_back(im.emit("Reshape", {p, im.constant_ints(shape, "shape")}, {}, {at::empty(shape)}, "_unsqueeze")[0]);
    return one(im, "Concat", parts, {{"axis", dim}});
  };
  for (const char* k : {"aten::chunk", "aten::split", "aten::split_with_sizes", "aten::tensor_split"})
    t[k] = [](Importer& im, const Args& a) { return split_like(im, a, a.size() > 2 ? a.i64(2) : 0, false); };
  t["aten::unbind"] = [](Importer& im, const Args& a) { return split_like(im, a, a.size() > 1 ? a.i64(1) : 0, true); };
  t["aten::slice"] = [](Importer& im, const Args& a) {
    const std::int64_t r = a.actual(0).dim();
    const std::int64_t dim = norm_dim(a.i64(1), r);
    const std::int64_t start = a.is_none(2) ? 0 : a.i64(2);
    const std::int64_t end = a.is_none(3) ? std::numeric_limits<std::int64_t>::max() : a.i64(3);
    return one(im, "Slice", {a.tensor(0), im.constant_ints({start}, "starts"), im.constant_ints({end}, "ends"),
                             im.constant_ints({dim}, "axes"), im.constant_ints({a.i64(4)}, "steps")});
  };
  t["aten::roll"] = [](Importer& im, const Args& a) {  // per dim: Concat(x[n-s:], x[:n-s]), as ONNX export does
    const auto shifts = a.ints(1);
    auto dims = a.ints(2);
    at::Tensor x = a.actual(0);
    std::string y = a.tensor(0);
    if (dims.empty()) im.refuse("roll over the flattened tensor is not supported; give dims");
    for (std::size_t i = 0; i < dims.size() && i < shifts.size(); ++i) {
      const std::int64_t d = norm_dim(dims[i], x.dim()), n = x.size(d);
      const std::int64_t s = ((shifts[i] % n) + n) % n;
      if (s == 0) continue;
      const at::Tensor rolled = at::roll(x, {s}, {d});
      auto slice = [&](std::int64_t b, std::int64_t e, const std::string& tag) {
        return im.emit("Slice", {y, im.constant_ints({b}, "starts"), im.constant_ints({e}, "ends"), im.constant_ints({d}, "axes")},
                       {}, {x.narrow(d, b, e - b)}, tag)[0];
      };
      const std::string tail = slice(n - s, n, "_tail"), head = slice(0, n - s, "_head");
      y = im.emit("Concat", {tail, head}, {{"axis", d}}, {rolled})[0];
      x = rolled;
    }
    return one(im, "Identity", {y});
  };
  t["aten::narrow"] = [](Importer& im, const Args& a) {
    const std::int64_t dim = norm_dim(a.i64(1), a.actual(0).dim());
    const std::int64_t start = a.i64(2);
    return one(im, "Slice", {a.tensor(0), im.constant_ints({start}, "starts"), im.constant_ints({start + a.i64(3)}, "ends"),
                             im.constant_ints({dim}, "axes")});
  };
  t["aten::select"] = [](Importer& im, const Args& a) {
    const std::int64_t dim = norm_dim(a.i64(1), a.actual(0).dim());
    return one(im, "Gather", {a.tensor(0), im.constant(at::scalar_tensor(a.i64(2), at::kLong), "index")}, {{"axis", dim}});
  };
  t["aten::index_select"] = [](Importer& im, const Args& a) {
    return one(im, "Gather", {a.tensor(0), a.tensor(2)}, {{"axis", norm_dim(a.i64(1), a.actual(0).dim())}});
  };
  t["aten::embedding"] = [](Importer& im, const Args& a) {
    return one(im, "Gather", {a.tensor(0), a.tensor(1)}, {{"axis", std::int64_t{0}}});
  };
  t["aten::mean"] = [](Importer& im, const Args& a) { return reduce(im, a, "ReduceMean"); };
  t["aten::sum"] = [](Importer& im, const Args& a) { return reduce(im, a, "ReduceSum"); };
  t["aten::amax"] = [](Importer& im, const Args& a) { return reduce(im, a, "ReduceMax"); };
  t["aten::amin"] = [](Importer& im, const Args& a) { return reduce(im, a, "ReduceMin"); };
  // max / min: of two tensors (elementwise), of all elements, or along a dim (values, indices).
  for (const auto& [k, elem, red, arg] : {std::tuple{"aten::max", "Max", "ReduceMax", "ArgMax"},
                                          std::tuple{"aten::min", "Min", "ReduceMin", "ArgMin"}}) {
    const std::string e = elem, r = red, g = arg;
    t[k] = [e, r, g](Importer& im, const Args& a) -> Names {
      const std::int64_t rank = a.actual(0).dim();
      if (a.size() == 2 && (a.slot(1).data || a.slot(1).value.isTensor()))
        return one(im, e, {a.tensor(0, 1), a.tensor(1, 0)});
      if (a.size() == 1) {
        std::vector<std::int64_t> axes;
        for (std::int64_t d = 0; d < rank; ++d) axes.push_back(d);
        return one(im, r, {a.tensor(0)}, {{"axes", axes}, {"keepdims", std::int64_t{0}}});
      }
      const std::int64_t dim = norm_dim(a.i64(1), rank);
      const std::int64_t keep = a.size() > 2 && a.flag(2);
      const std::string v = im.emit(r, {a.tensor(0)}, {{"axes", std::vector<std::int64_t>{dim}}, {"keepdims", keep}},
                                    {im.result(0)})[0];
      const std::string i = im.emit(g, {a.tensor(0)}, {{"axis", dim}, {"keepdims", keep}}, {im.result(1)})[0];
      return {v, i};
    };
  }
  t["aten::argmax"] = [](Importer& im, const Args& a) {
    if (a.is_none(1)) im.refuse("argmax over the flattened tensor is not supported; give dim");
    return one(im, "ArgMax", {a.tensor(0)},
               {{"axis", norm_dim(a.i64(1), a.actual(0).dim())}, {"keepdims", std::int64_t{a.flag(2)}}});
  };
  t["aten::cumsum"] = [](Importer& im, const Args& a) {
    const std::int64_t dim = norm_dim(a.i64(1), a.actual(0).dim());
    return one(im, "CumSum", {a.tensor(0), im.constant(at::scalar_tensor(dim, at::kLong), "axis")});
  };
  // resizing
  for (const char* k : {"aten::upsample_nearest1d", "aten::upsample_nearest2d", "aten::upsample_nearest3d"})
    t[k] = [](Importer& im, const Args& a) { return resize(im, a, "nearest", false); };
  for (const char* k : {"aten::upsample_linear1d", "aten::upsample_bilinear2d", "aten::upsample_trilinear3d"})
    t[k] = [](Importer& im, const Args& a) { return resize(im, a, "linear", a.flag(2)); };
  t["aten::upsample_bicubic2d"] = [](Importer& im, const Args& a) { return resize(im, a, "cubic", a.flag(2)); };
  t["aten::pixel_shuffle"] = [](Importer& im, const Args& a) {
    return one(im, "DepthToSpace", {a.tensor(0)}, {{"blocksize", a.i64(1)}, {"mode", std::string("CRD")}});
  };
  // padding
  t["aten::constant_pad_nd"] = [](Importer& im, const Args& a) { return pad(im, a, "constant", 2); };
  t["aten::pad"] = [](Importer& im, const Args& a) {
    const std::string mode = a.known(2).toStringRef();
    const std::string ir = mode == "reflect" ? "reflect" : mode == "replicate" ? "edge" : mode == "constant" ? "constant" : "";
    if (ir.empty()) im.refuse("padding mode '" + mode + "' has no IR form");
    return pad(im, a, ir, 3);
  };
  for (const char* k : {"aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d"})
    t[k] = [](Importer& im, const Args& a) { return pad(im, a, "reflect", 99); };
  for (const char* k : {"aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d"})
    t[k] = [](Importer& im, const Args& a) { return pad(im, a, "edge", 99); };
  // dtype
  for (const char* k : {"aten::to", "aten::type_as"})
    t[k] = [](Importer& im, const Args& a) {
      const at::ScalarType from = a.actual(0).scalar_type(), to = im.result().scalar_type();
      if (from == to) return one(im, "Identity", {a.tensor(0)});
      return Names{cast(im, a.tensor(0), to, im.result())};
    };
  // recurrent and attention
  t["aten::lstm"] = [](Importer& im, const Args& a) { return recurrent(im, a, true); };
  t["aten::gru"] = [](Importer& im, const Args& a) { return recurrent(im, a, false); };
  t["aten::_transformer_encoder_layer_fwd"] = encoder_layer;
  t["aten::_native_multi_head_attention"] = native_mha;
  add_quantized_rows(t);
  return t;
}

}  // namespace

const std::unordered_map<std::string, Handler>& aten_table() {
  static const auto table = make_table();
  return table;
}

bool is_shape_only(std::string_view kind) {
  static const char* const kOps[] = {"aten::size",      "aten::dim",        "aten::len",       "aten::numel",
                                     "prim::device",    "prim::dtype",      "prim::layout",    "aten::zeros_like",
                                     "aten::ones_like", "aten::full_like",  "aten::new_zeros", "aten::new_ones",
                                     "aten::new_full",  "aten::is_floating_point", "prim::is_cuda", "aten::__isnot__",
                                     "aten::__is__",    "aten::empty_like", "prim::is_nested", "prim::is_sparse", "prim::is_quantized",
                                     "prim::is_mkldnn", "prim::requires_grad", "aten::is_grad_enabled",
                                     "prim::is_meta", "prim::is_xpu", "prim::is_mps", "aten::is_autocast_enabled"};
  return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* k) { return kind == k; });
}

}  // namespace ec::frontends::torchscript
