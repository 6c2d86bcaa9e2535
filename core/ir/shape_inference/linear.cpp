// Shape functions of Gemm, MatMul (numpy matmul broadcasting), FullyConnected,
// Einsum and Det.
#include "core/ir/shape_inference/shape_fn.h"

#include <map>

namespace ec::ir::shape_inference {

void infer_gemm(InferContext& ctx) {
  const Shape &a = ctx.shape(0), &b = ctx.shape(1);
  const bool ta = ctx.op().attr_int("transA", 0) != 0, tb = ctx.op().attr_int("transB", 0) != 0;
  Shape y = unknown_dims(2);
  if (a.rank_known && a.rank() == 2) y.dims[0] = a.dims[ta ? 1 : 0];
  if (b.rank_known && b.rank() == 2) y.dims[1] = b.dims[tb ? 0 : 1];
  if (a.rank_known && b.rank_known && a.rank() == 2 && b.rank() == 2) {
    const Dim &ka = a.dims[ta ? 0 : 1], &kb = b.dims[tb ? 1 : 0];
    if (ka.is_static() && kb.is_static() && ka.value != kb.value)
      ctx.conflict("inner dims differ: " + a.to_string() + " x " + b.to_string());
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

// numpy matmul: 1-D operands are promoted and the added dim removed again.
Shape matmul_shape(InferContext& ctx, const Shape& a0, const Shape& b0) {
  if (!a0.rank_known || !b0.rank_known || a0.rank() == 0 || b0.rank() == 0) return Shape::unknown_rank();
  Shape a = a0, b = b0;
  const bool a1 = a.rank() == 1, b1 = b.rank() == 1;
  if (a1) a.dims.insert(a.dims.begin(), Dim::fixed(1));
  if (b1) b.dims.push_back(Dim::fixed(1));
  const Dim &ka = a.dims.back(), &kb = b.dims[b.rank() - 2];
  if (ka.is_static() && kb.is_static() && ka.value != kb.value)
    ctx.conflict("inner dims differ: " + a0.to_string() + " x " + b0.to_string());
  Shape ba{std::vector<Dim>(a.dims.begin(), a.dims.end() - 2), true};
  Shape bb{std::vector<Dim>(b.dims.begin(), b.dims.end() - 2), true};
  Shape y = broadcast(ctx, {&ba, &bb});
  if (!y.rank_known) return y;
  if (!a1) y.dims.push_back(a.dims[a.rank() - 2]);
  if (!b1) y.dims.push_back(b.dims.back());
  return y;
}

void infer_matmul(InferContext& ctx) { ctx.set(0, matmul_shape(ctx, ctx.shape(0), ctx.shape(1)), ctx.dtype(0)); }

// y = x W^T + b, W [N, K]: y is [numel(x) / K, N].
void infer_fully_connected(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &w = ctx.shape(1);
  Shape y = unknown_dims(2);
  if (w.rank_known && w.rank() == 2) {
    y.dims[1] = w.dims[0];
    if (x.rank_known && x.rank() >= 1 && w.dims[1].is_static()) {
      // rows: every dim but the last when the last is K, else numel / K
      if (x.dims.back() == w.dims[1]) {
        y.dims[0] = dim_product(x.dims, 0, x.rank() - 1);
      } else if (auto n = x.num_elements(); n && w.dims[1].value > 0) {
        y.dims[0] = Dim::fixed(*n / w.dims[1].value);
      }
    }
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

// Explicit ("ij,jk->ik") and implicit ("ij,jk": letters seen once, sorted)
// outputs; equations with an ellipsis keep an unknown shape.
void infer_einsum(InferContext& ctx) {
  std::string eq = ctx.op().attr_string("equation", "");
  std::erase(eq, ' ');
  if (eq.find("...") != std::string::npos) return;
  const auto arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (std::size_t p = 0;;) {
    const auto c = lhs.find(',', p);
    terms.push_back(lhs.substr(p, c == std::string::npos ? std::string::npos : c - p));
    if (c == std::string::npos) break;
    p = c + 1;
  }
  if (terms.size() != ctx.num_inputs()) return;
  std::map<char, Dim> sizes;
  std::map<char, int> count;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Shape& s = ctx.shape(i);
    if (!s.rank_known || s.rank() != terms[i].size()) return;
    for (std::size_t k = 0; k < terms[i].size(); ++k) {
      const char c = terms[i][k];
      ++count[c];
      auto [it, fresh] = sizes.emplace(c, s.dims[k]);
      if (!fresh) {
        auto d = broadcast_dim(it->second, s.dims[k]);
        it->second = d ? *d : Dim::unknown();
      }
    }
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = eq.substr(arrow + 2);
  } else {
    for (const auto& [c, n] : count)
      if (n == 1) out += c;
  }
  Shape y;
  for (char c : out) {
    auto it = sizes.find(c);
    y.dims.push_back(it == sizes.end() ? Dim::unknown() : it->second);
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_det(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known || x.rank() < 2) return;
  ctx.set(0, Shape{std::vector<Dim>(x.dims.begin(), x.dims.end() - 2), true}, ctx.dtype(0));
}

}  // namespace ec::ir::shape_inference
