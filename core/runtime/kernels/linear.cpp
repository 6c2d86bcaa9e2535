// Gemm, MatMul (numpy batch broadcasting), FullyConnected, Det. f32 runs on
// the packed GEMM of core/runtime/gemm (bias and clamp-type activations fused
// into its epilogue), f64 on Eigen; other numeric types use plain loops.
#include <array>
#include <Eigen/Core>
#include <Eigen/LU>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/matmul_onednn.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using RowMatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// c[M, N] = a[M, K] * b[K, N] (row-major, plain loops)
template <typename T>
void matmul_loops(const T* a, const T* b, T* c, std::int64_t M, std::int64_t K, std::int64_t N) {
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      T acc = 0;
      for (std::int64_t k = 0; k < K; ++k) acc = static_cast<T>(acc + a[i * K + k] * b[k * N + j]);
      c[i * N + j] = acc;
    }
}

template <typename T>
void matmul_2d(const T* a, const T* b, T* c, std::int64_t M, std::int64_t K, std::int64_t N) {
  if constexpr (std::is_same_v<T, float>) {
    gemm::sgemm(M, N, K, 1.f, a, K, false, b, N, false, false, c, N);
  } else if constexpr (std::is_same_v<T, double>) {
    Eigen::Map<RowMatD>(c, M, N).noalias() = Eigen::Map<const RowMatD>(a, M, K) * Eigen::Map<const RowMatD>(b, K, N);
  } else {
    matmul_loops(a, b, c, M, K, N);
  }
}

// Runs n independent products: with at least as many as threads, the products are what is
// split over the pool (each computed whole, so the result is the same on any thread
// count); otherwise each product splits itself.
template <typename F>
void for_each_product(std::int64_t n, F&& one) {
  if (n >= current_threads()) parallel_for(n, one);
  else for (std::int64_t t = 0; t < n; ++t) one(t);
}

}  // namespace

// Y = alpha * op(A) * op(B) + beta * C, op = optional transpose, C broadcast to [M, N]
Outputs kernel_Gemm(const ir::Operation& op, Inputs x) {
  const Tensor &A = x[0], &B = x[1], &C = in(x, 2);
  if (A.rank() != 2 || B.rank() != 2) fail("Gemm takes 2-D A and B, got " + A.type_string() + " and " + B.type_string());
  const bool ta = attr_int(op, "transA", 0) != 0, tb = attr_int(op, "transB", 0) != 0;
  const double alpha = attr_float(op, "alpha", 1.0), beta = attr_float(op, "beta", 1.0);
  const std::int64_t M = ta ? A.dim(1) : A.dim(0), K = ta ? A.dim(0) : A.dim(1);
  const std::int64_t KB = tb ? B.dim(1) : B.dim(0), N = tb ? B.dim(0) : B.dim(1);
  if (K != KB) fail("inner dimensions differ: " + A.type_string() + " and " + B.type_string());
  float lo = 0, hi = 0;
  const bool clamp = A.dtype() == DType::Float32 && fused_clamp(op, lo, hi);
  bool activated = false;  // the activation done by oneDNN's post-op
  Outputs result{dispatch_numeric(A.dtype(), [&]<typename T>() {
    Tensor Y = Tensor::uninitialized(A.dtype(), {M, N});  // every element is written below
    T* y = Y.mutable_data<T>();
    const Shape out{M, N};
    if (C.defined() && broadcast_shapes(C.shape(), out) != out)
      fail("C " + C.type_string() + " does not broadcast to " + shape_string(out));
    if constexpr (std::is_same_v<T, float>) {
      // A row of N biases (beta 1) goes into the epilogue; any other C is
      // written first as beta * C and accumulated onto.
      gemm::Epilogue ep;
      ep.lo = lo;
      ep.hi = hi;
      if (!clamp) ep.strip_fn = fused_strip_fn(op);
      bool accumulate = false;
      if (C.defined()) {
        if (beta == 1.0 && C.numel() == N && (C.rank() == 1 || (C.rank() == 2 && C.dim(0) == 1))) {
          ep.bias_kind = gemm::Epilogue::Bias::PerColumn;
          ep.bias = C.data<float>();
        } else {
          const float* c = C.data<float>();
          for_each_broadcast2(out, out, C.shape(), [&](std::int64_t i, std::int64_t, std::int64_t ic) {
            y[i] = static_cast<float>(beta * c[ic]);
          });
          accumulate = true;
        }
      }
      // A constant B (weights) without alpha or a full C: oneDNN's matmul.
      if (!ta && alpha == 1.0 && !accumulate &&
          matmul_onednn(M, N, K, A.data<float>(), B.data<float>(), tb, ep.bias, y, N,
                        ir::fused_activation(op))) {
        activated = true;
        return Y;
      }
      gemm::sgemm(M, N, K, static_cast<float>(alpha), A.data<float>(), A.dim(1), ta, B.data<float>(), B.dim(1), tb,
                  accumulate, y, N, ep);
    } else {
      const T *a = A.data<T>(), *b = B.data<T>();
      for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j) {
          double acc = 0;
          for (std::int64_t k = 0; k < K; ++k)
            acc += double(ta ? a[k * M + i] : a[i * K + k]) * double(tb ? b[j * K + k] : b[k * N + j]);
          y[i * N + j] = static_cast<T>(alpha * acc);
        }
      if (C.defined()) {
        const T* c = C.data<T>();
        for_each_broadcast2(out, out, C.shape(), [&](std::int64_t i, std::int64_t, std::int64_t ic) {
          y[i] = static_cast<T>(y[i] + beta * c[ic]);
        });
      }
    }
    return Y;
  })};
  if (!activated && !clamp && !(A.dtype() == DType::Float32 && fused_strip_fn(op)))
    apply_fused_activation(op, result[0]);
  return result;
}

// numpy matmul: 1-D operands are promoted (and the added dim removed), leading
// (batch) dims broadcast.
Outputs kernel_MatMul(const ir::Operation& op, Inputs x) {
  const Tensor &A0 = x[0], &B0 = x[1];
  if (A0.dtype() != B0.dtype()) fail("operand types differ");
  if (A0.rank() == 0 || B0.rank() == 0) fail("MatMul does not take scalars");
  Shape sa = A0.shape(), sb = B0.shape();
  const bool a1 = sa.size() == 1, b1 = sb.size() == 1;
  if (a1) sa.insert(sa.begin(), 1);
  if (b1) sb.push_back(1);
  const std::int64_t M = sa[sa.size() - 2], K = sa.back(), N = sb.back();
  if (sb[sb.size() - 2] != K) fail("inner dimensions differ: " + A0.type_string() + " and " + B0.type_string());
  const Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  const Shape batch = broadcast_shapes(ba, bb);
  Shape out = batch;
  if (!a1) out.push_back(M);
  if (!b1) out.push_back(N);
  Outputs result{dispatch_numeric(A0.dtype(), [&]<typename T>() {
    Tensor Y = Tensor::uninitialized(A0.dtype(), out);  // matmul_2d writes every element
    const T *a = A0.data<T>(), *b = B0.data<T>();
    T* y = Y.mutable_data<T>();
    if (bb.empty() && !batch.empty() && ba == batch) {
      // [..., M, K] x [K, N]: one GEMM over all rows of the contiguous batch (oneDNN's
      // matmul when B is a constant).
      bool done = false;
      if constexpr (std::is_same_v<T, float>)
        done = matmul_onednn(shape_numel(batch) * M, N, K, a, b, false, nullptr, y, N, ir::Activation::None);
      if (!done) matmul_2d(a, b, y, shape_numel(batch) * M, K, N);
    } else {
      // One product per batch entry (attention's heads).
      std::vector<std::array<std::int64_t, 3>> items;
      for_each_broadcast2(batch, ba, bb, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        items.push_back({i, ia, ib});
      });
      auto one = [&](std::int64_t t) {
        const auto& [i, ia, ib] = items[static_cast<std::size_t>(t)];
        matmul_2d(a + ia * M * K, b + ib * K * N, y + i * M * N, M, K, N);
      };
      for_each_product(static_cast<std::int64_t>(items.size()), one);
    }
    return Y;
  })};
  apply_fused_activation(op, result[0]);
  return result;
}

// y = x * W^T + b, W [out, in] (TFLite layout)
Outputs kernel_FullyConnected(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &W = x[1], &B = in(x, 2);
  if (W.rank() != 2) fail("weights must be 2-D");
  const std::int64_t K = W.dim(1), N = W.dim(0);
  if (X.numel() % K) fail("input size is not a multiple of " + std::to_string(K));
  const std::int64_t M = X.numel() / K;
  if (X.dtype() != DType::Float32) throw UnsupportedOpError("FullyConnected on non-f32", "the CPU runtime", "");
  if (B.defined() && B.numel() != N) fail("bias has " + std::to_string(B.numel()) + " values, expected " + std::to_string(N));
  Tensor Y = Tensor::uninitialized(DType::Float32, {M, N});  // sgemm writes every element
  if (matmul_onednn(M, N, K, X.data<float>(), W.data<float>(), true,
                    B.defined() ? B.data<float>() : nullptr, Y.mutable_data<float>(), N,
                    ir::fused_activation(op)))
    return {Y};  // the activation was oneDNN's post-op
  gemm::Epilogue ep;
  const bool clamp = fused_clamp(op, ep.lo, ep.hi);
  if (B.defined()) {
    ep.bias_kind = gemm::Epilogue::Bias::PerColumn;
    ep.bias = B.data<float>();
  }
  if (!clamp) ep.strip_fn = fused_strip_fn(op);
  gemm::sgemm(M, N, K, 1.f, X.data<float>(), K, false, W.data<float>(), K, true, false, Y.mutable_data<float>(), N, ep);
  if (!clamp && !ep.strip_fn) apply_fused_activation(op, Y);
  return {Y};
}

// Determinant of each trailing [n, n] matrix (LU decomposition).
Outputs kernel_Det(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  if (X.rank() < 2 || X.dim(X.rank() - 1) != X.dim(X.rank() - 2)) fail("Det takes square matrices");
  const std::int64_t n = X.dim(X.rank() - 1);
  Shape out(X.shape().begin(), X.shape().end() - 2);
  return {dispatch_float(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), out);
    for (std::int64_t b = 0; b < Y.numel(); ++b) {
      RowMatD m(n, n);
      for (std::int64_t i = 0; i < n * n; ++i) m.data()[i] = X.data<T>()[b * n * n + i];
      Y.mutable_data<T>()[b] = static_cast<T>(m.determinant());
    }
    return Y;
  })};
}

}  // namespace ec::runtime::kernels

namespace ec::runtime::kernels {
namespace {

// Two f32 operands whose letters each appear once per term with one size everywhere
// (no diagonal, no broadcast) and which sum out no letter of one operand alone, as
// batched GEMMs: each letter is a batch letter (both operands and the output), an M letter
// (A and the output), an N letter (B and the output) or a K letter (both, summed).
//   y[b, m, n] = sum_k a[b, m, k] * b[b, k, n]
// An operand not already [batch, M, K] / [batch, K, M] (A) or [batch, K, N] / [batch, N, K]
// (B) is permuted into that order first, and the result into the output's. Returns an
// undefined tensor when the equation is not of that form: the direct summation runs.
Tensor einsum_products(const std::vector<std::string>& terms, const std::string& out,
                       const std::map<char, std::int64_t>& size, Inputs x) {
  if (terms.size() != 2 || x[0].dtype() != DType::Float32 || x[1].dtype() != DType::Float32) return Tensor();
  const std::string &ta = terms[0], &tb = terms[1];
  for (std::size_t t = 0; t < 2; ++t)
    for (std::size_t d = 0; d < terms[t].size(); ++d) {
      const char c = terms[t][d];
      if (terms[t].find(c) != d || x[t].dim(d) != size.at(c) || size.at(c) == 0) return Tensor();
    }
  std::string batch, m, n, k;
  for (char c : out) {
    if (out.find(c) != out.rfind(c)) return Tensor();
    const bool in_a = ta.find(c) != std::string::npos, in_b = tb.find(c) != std::string::npos;
    if (!in_a && !in_b) return Tensor();
    (in_a && in_b ? batch : in_a ? m : n) += c;
  }
  for (char c : ta)
    if (out.find(c) == std::string::npos) {
      if (tb.find(c) == std::string::npos) return Tensor();  // summed over A alone
      k += c;
    }
  for (char c : tb)
    if (out.find(c) == std::string::npos && ta.find(c) == std::string::npos) return Tensor();
  // M and N letters in their operand's order, so a GEMM reads them in place where it can.
  auto in_order = [](const std::string& letters, const std::string& term) {
    std::string r;
    for (char c : term) if (letters.find(c) != std::string::npos) r += c;
    return r;
  };
  m = in_order(m, ta);
  n = in_order(n, tb);
  auto count = [&](const std::string& letters) {
    std::int64_t v = 1;
    for (char c : letters) v *= size.at(c);
    return v;
  };
  const std::int64_t B = count(batch), M = count(m), N = count(n), K = count(k);
  // Operand t as the letters `want`: itself when it is already, else a permuted copy.
  auto as_order = [&](std::size_t t, const std::string& want) {
    if (terms[t] == want) return x[t];
    std::vector<std::int64_t> perm;
    for (char c : want) perm.push_back(static_cast<std::int64_t>(terms[t].find(c)));
    return permute(x[t], perm);
  };
  const bool a_trans = ta == batch + k + m;
  const Tensor A = as_order(0, a_trans ? ta : batch + m + k);
  // K in A's order (B is the one permuted when the orders differ).
  const std::string bkn = batch + k + n, bnk = batch + n + k;
  const bool b_trans = tb == bnk && tb != bkn;
  const Tensor Bt = as_order(1, b_trans ? bnk : bkn);
  const std::string prod = batch + m + n;
  Tensor Y = Tensor::uninitialized(DType::Float32, [&] {
    Shape s;
    for (char c : prod) s.push_back(size.at(c));
    return s;
  }());
  const float *a = A.data<float>(), *b = Bt.data<float>();
  float* y = Y.mutable_data<float>();
  for_each_product(B, [&](std::int64_t i) {
    gemm::sgemm(M, N, K, 1.f, a + i * M * K, a_trans ? M : K, a_trans, b + i * K * N, b_trans ? K : N, b_trans,
                false, y + i * M * N, N);
  });
  if (prod == out) return Y;
  std::vector<std::int64_t> perm;
  for (char c : out) perm.push_back(static_cast<std::int64_t>(prod.find(c)));
  return permute(Y, perm);
}

}  // namespace

// Einsum: two f32 operands of the GEMM form as batched products (einsum_products), any
// other by direct summation: every index letter gets a size; the output is the sum over
// all contracted letters of the product of the operands.
//   "ij,jk->ik": y[i,k] = sum_j a[i,j] * b[j,k]
// "..." stands for broadcast leading dims; without "->", the output is the
// letters used once, in alphabetical order, after the "..." dims.
Outputs kernel_Einsum(const ir::Operation& op, Inputs x) {
  std::string eq;
  for (char c : attr_str(op, "equation", "")) if (c != ' ') eq += c;
  const auto arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (std::size_t at = 0;;) {
    const auto comma = lhs.find(',', at);
    terms.push_back(lhs.substr(at, comma - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (terms.size() != x.size()) fail("equation '" + eq + "' names " + std::to_string(terms.size()) + " operands");
  // Ellipsis dims get letters 'A'.. from the right, so they broadcast right-aligned.
  std::size_t ell_rank = 0;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const auto e = terms[t].find("...");
    if (e == std::string::npos) continue;
    const std::size_t named = terms[t].size() - 3;
    if (x[t].rank() < named) fail("operand " + std::to_string(t) + " has too few dims for '" + terms[t] + "'");
    ell_rank = std::max(ell_rank, x[t].rank() - named);
  }
  std::string ell;
  for (std::size_t i = 0; i < ell_rank; ++i) ell += static_cast<char>('A' + i);
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const auto e = terms[t].find("...");
    if (e == std::string::npos) continue;
    const std::size_t k = x[t].rank() - (terms[t].size() - 3);
    terms[t] = terms[t].substr(0, e) + ell.substr(ell_rank - k) + terms[t].substr(e + 3);
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = eq.substr(arrow + 2);
    if (auto e = out.find("..."); e != std::string::npos) out = out.substr(0, e) + ell + out.substr(e + 3);
  } else {
    std::map<char, int> uses;
    for (const auto& t : terms) for (char c : t) ++uses[c];
    out = ell;
    for (const auto& [c, n] : uses) if (n == 1 && !(c >= 'A' && c < 'A' + static_cast<int>(ell_rank))) out += c;
  }
  std::map<char, std::int64_t> size;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    if (terms[t].size() != x[t].rank()) fail("operand " + std::to_string(t) + " " + x[t].type_string() + " does not match '" + terms[t] + "'");
    for (std::size_t d = 0; d < terms[t].size(); ++d) {
      auto [it, added] = size.emplace(terms[t][d], x[t].dim(d));
      if (!added && it->second != x[t].dim(d)) {
        if (it->second == 1) it->second = x[t].dim(d);
        else if (x[t].dim(d) != 1) fail("index '" + std::string(1, terms[t][d]) + "' has inconsistent sizes");
      }
    }
  }
  if (Tensor y = einsum_products(terms, out, size, x); y.defined()) return {y};
  std::string letters = out;
  for (const auto& [c, n] : size) if (out.find(c) == std::string::npos) letters += c;
  Shape out_shape, all_shape;
  for (char c : out) out_shape.push_back(size.at(c));
  for (char c : letters) all_shape.push_back(size.at(c));
  // Per operand: stride of each letter in `letters` (0 when absent or broadcast).
  std::vector<Shape> st(terms.size(), Shape(letters.size(), 0));
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const Shape s = strides_of(x[t].shape());
    for (std::size_t d = 0; d < terms[t].size(); ++d)
      if (x[t].dim(d) != 1) st[t][letters.find(terms[t][d])] += s[d];
  }
  return {dispatch_numeric(x[0].dtype(), [&]<typename T>() {
    Tensor Y(x[0].dtype(), out_shape);
    const std::int64_t out_n = shape_numel(out_shape);
    const std::int64_t inner = shape_numel(all_shape) / std::max<std::int64_t>(out_n, 1);
    std::vector<std::int64_t> idx(letters.size(), 0);
    if (out_n == 0 || shape_numel(all_shape) == 0) return Y;
    for (std::int64_t o = 0; o < out_n; ++o) {
      double acc = 0;
      for (std::int64_t r = 0; r < inner; ++r) {
        double prod = 1;
        for (std::size_t t = 0; t < terms.size(); ++t) prod *= double(x[t].data<T>()[offset_of(idx, st[t])]);
        acc += prod;
        next_index(idx, all_shape);
      }
      Y.mutable_data<T>()[o] = static_cast<T>(acc);
    }
    return Y;
  })};
}

}  // namespace ec::runtime::kernels
