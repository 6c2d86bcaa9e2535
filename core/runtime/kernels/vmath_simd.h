// The vector algorithms of vmath.h, written once over a register traits type
// V (V::R register, V::M lane mask, V::W lanes and static operations). Include
// ONLY inside an anonymous namespace of an ISA translation unit, after its
// `#pragma GCC target` (vmath_avx2.cpp, vmath_avx512.cpp), so every function
// here is compiled for that ISA and has internal linkage.
//
// exp:  n = round(x log2 e), r = x - n ln 2 (two-part ln 2), e^r by the Cephes
//       degree-6 polynomial, times 2^n built in the exponent bits.
// sigmoid, tanh: 1 / (1 + e^-x); |x| < 0.625: x + x^3 P(x^2) (Cephes tanhf), else
//       1 - 2 / (e^(2|x|) + 1); e^a on a clamped a with n rounded by a magic-number add
//       and 2^n shifted out of its bits, 1 / d by the reciprocal estimate and one Newton
//       step (no division, no blends in sigmoid).
// erf:  |x| < 1: x P(x^2) (Cephes erff); else 1 - t Q(t) e^(-x^2), t = 1/(1 + p|x|)
//       (Abramowitz-Stegun 7.1.26, |error| <= 1.5e-7); GELU uses t Q(t) e^(-x^2)
//       directly for 1 + erf(z), z <= -1, so its negative tail has no cancellation.

template <class V>
struct VMath {
  using R = typename V::R;

  // e^xc = p 2^n: n = round(xc log2 e), p = e^r by the degree-6 polynomial.
  static R exp_reduced(R xc, R* n_out) {
    const R n = V::round(V::mul(xc, V::set1(1.44269504088896341f)));
    R r = V::fnmadd(n, V::set1(0.693359375f), xc);
    r = V::fnmadd(n, V::set1(-2.12194440e-4f), r);
    R p = V::set1(1.9875691500e-4f);
    p = V::fmadd(p, r, V::set1(1.3981999507e-3f));
    p = V::fmadd(p, r, V::set1(8.3334519073e-3f));
    p = V::fmadd(p, r, V::set1(4.1665795894e-2f));
    p = V::fmadd(p, r, V::set1(1.6666665459e-1f));
    p = V::fmadd(p, r, V::set1(5.0000001201e-1f));
    *n_out = n;
    return V::fmadd(p, V::mul(r, r), V::add(r, V::set1(1.f)));
  }

  static R exp(R x) {
    const R big = V::gt(x, V::set1(88.72283935546875f));
    const R xc = V::max(V::min(x, V::set1(88.72283935546875f)), V::set1(-103.972077f));
    R n;
    const R p = exp_reduced(xc, &n);
    // 2^n as 2^n1 2^n2 (n in [-150, 128]), so the top and the subnormal range stay exact.
    const R n1 = V::floor(V::mul(n, V::set1(0.5f)));
    R y = V::mul(V::mul(p, V::pow2n(n1)), V::pow2n(V::sub(n, n1)));
    y = V::blend(y, V::set1(__builtin_inff()), big);
    y = V::blend(y, V::set1(0.f), V::lt(x, V::set1(-103.972077f)));
    return V::blend(y, x, V::isnan(x));
  }

  // 1 / d for d >= 1: the reciprocal estimate and one Newton step, t (2 - d t) (no division).
  static R recip(R d) {
    const R t = V::rcp(d);
    return V::fmadd(t, V::fnmadd(d, t, V::set1(1.f)), t);
  }

  // e^a for |a| <= 87.33 (2^n stays normal): n rounded by adding 1.5 2^23 + 127, whose low
  // bits then hold n + 127 and, shifted into the exponent field, make 2^n (no conversions).
  static R exp_bounded(R a) {
    const R magic = V::set1(12583039.f);  // 1.5 2^23 + 127
    const R v = V::fmadd(a, V::set1(1.44269504088896341f), magic);
    const R n = V::sub(v, magic);
    R r = V::fnmadd(n, V::set1(0.693359375f), a);
    r = V::fnmadd(n, V::set1(-2.12194440e-4f), r);
    R p = V::set1(1.9875691500e-4f);
    p = V::fmadd(p, r, V::set1(1.3981999507e-3f));
    p = V::fmadd(p, r, V::set1(8.3334519073e-3f));
    p = V::fmadd(p, r, V::set1(4.1665795894e-2f));
    p = V::fmadd(p, r, V::set1(1.6666665459e-1f));
    p = V::fmadd(p, r, V::set1(5.0000001201e-1f));
    return V::mul(V::fmadd(p, V::mul(r, r), V::add(r, V::set1(1.f))), V::shl23(v));
  }

  // 1 / (1 + e^-x): e^-x by exp_bounded on -x clamped to [-87.33, 87.33] (the constant is
  // the first operand of min and max, so a NaN x stays NaN), 1 / d by recip; 0 below
  // x = -87.33 (where the true value is under the smallest normal float). No blends:
  // x sigmoid(x) costs 24 vector operations.
  static R sigmoid(R x) {
    const R a = V::min(V::set1(87.33f), V::max(V::set1(-87.33f), V::neg(x)));
    const R r = recip(V::add(exp_bounded(a), V::set1(1.f)));
    return V::zero_below(r, x, V::set1(-87.33f));
  }

  static R tanh(R x) {
    const R ax = V::abs(x);
    const R z = V::mul(x, x);
    R p = V::set1(-5.70498872745e-3f);
    p = V::fmadd(p, z, V::set1(2.06390887954e-2f));
    p = V::fmadd(p, z, V::set1(-5.37397155531e-2f));
    p = V::fmadd(p, z, V::set1(1.33314422036e-1f));
    p = V::fmadd(p, z, V::set1(-3.33332819422e-1f));
    const R small = V::fmadd(V::mul(p, z), x, x);
    // 1 - 2 / (e^2|x| + 1), 2|x| clamped to 87 (tanh is 1 in float from |x| = 9 on).
    const R e = exp_bounded(V::min(V::add(ax, ax), V::set1(87.f)));
    const R large =
        V::copysign(V::fnmadd(V::set1(2.f), recip(V::add(e, V::set1(1.f))), V::set1(1.f)), x);
    return V::blend(V::blend(large, small, V::lt(ax, V::set1(0.625f))), x, V::isnan(x));
  }

  // erf(x) = x P(x^2) for |x| < 1: P of z = x^2.
  static R erf_small_p(R z) {
    R p = V::set1(7.853861353153693e-5f);
    p = V::fmadd(p, z, V::set1(-8.010193625184903e-4f));
    p = V::fmadd(p, z, V::set1(5.188327685732524e-3f));
    p = V::fmadd(p, z, V::set1(-2.685381193529856e-2f));
    p = V::fmadd(p, z, V::set1(1.128358514861418e-1f));
    p = V::fmadd(p, z, V::set1(-3.761262582423300e-1f));
    return V::fmadd(p, z, V::set1(1.128379165726710f));
  }
  // erfc(a) = t Q(t) e^(-a^2) for a >= 1, t = 1 / (1 + p a): t Q(t).
  static R erfc_tq(R t) {
    R q = V::set1(1.061405429f);
    q = V::fmadd(q, t, V::set1(-1.453152027f));
    q = V::fmadd(q, t, V::set1(1.421413741f));
    q = V::fmadd(q, t, V::set1(-0.284496736f));
    q = V::fmadd(q, t, V::set1(0.254829592f));
    return V::mul(q, t);
  }

  // erf(x), and in *tail_q the value q = erfc(|x|) for |x| >= 1 (undefined below).
  static R erf_q(R x, R* tail_q) {
    const R ax = V::abs(x);
    const R small = V::mul(erf_small_p(V::mul(x, x)), x);
    const R axc = V::min(ax, V::set1(10.f));
    const R t = V::div(V::set1(1.f), V::fmadd(V::set1(0.3275911f), axc, V::set1(1.f)));
    const R q = V::mul(erfc_tq(t), exp(V::neg(V::mul(axc, axc))));
    *tail_q = q;
    const R large = V::copysign(V::sub(V::set1(1.f), q), x);
    return V::blend(V::blend(large, small, V::lt(ax, V::set1(1.f))), x, V::isnan(x));
  }

  static R erf(R x) {
    R q;
    return erf_q(x, &q);
  }

  // e^a for a <= 0 (GELU's tail): exp() without its overflow, NaN and subnormal handling,
  // which these arguments never need (below -87.3: 0).
  static R exp_neg(R a) {
    R n;
    const R p = exp_reduced(V::max(a, V::set1(-87.3f)), &n);
    return V::blend(V::mul(p, V::pow2n(n)), V::set1(0.f),
                    V::lt(a, V::set1(-87.3f)));  // n >= -126: normal
  }

  // GELU with erf_q's two forms, cheaper where it can be: 1 / (1 + p|z|) by a reciprocal
  // estimate and one Newton step (no division) and e^(-z^2) by exp_neg.
  static R gelu(R x) {
    const R z = V::mul(x, V::set1(0.70710678118654752f));
    const R az = V::abs(z);
    const R small = V::fmadd(erf_small_p(V::mul(z, z)), z, V::set1(1.f));  // |z| < 1: 1 + erf(z)
    // |z| >= 1: q = erfc(|z|) = t Q(t) e^(-z^2), t = 1 / (1 + 0.3275911 |z|)
    const R azc = V::min(az, V::set1(10.f));
    const R d = V::fmadd(V::set1(0.3275911f), azc, V::set1(1.f));
    const R t = recip(d);
    const R q = V::mul(erfc_tq(t), exp_neg(V::neg(V::mul(azc, azc))));
    // 1 + erf(z): 2 - q above, q itself below (no cancellation in the negative tail).
    const R large = V::blend(V::sub(V::set1(2.f), q), q, V::lt(z, V::set1(0.f)));
    const R one_plus = V::blend(large, small, V::lt(az, V::set1(1.f)));
    return V::blend(V::mul(V::mul(V::set1(0.5f), x), one_plus), x, V::isnan(x));
  }

  static R gelu_tanh(R x) {
    // x/2 (1 + tanh u) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3)
    const R x3 = V::mul(V::mul(x, x), x);
    const R u2 = V::mul(V::set1(2.f * 0.7978845608028654f), V::fmadd(V::set1(0.044715f), x3, x));
    return V::mul(x, sigmoid(u2));
  }

  static R eval(vmath::Fn f, R x, R alpha, R beta) {
    switch (f) {
      case vmath::Fn::Exp: return exp(x);
      case vmath::Fn::Sigmoid: return sigmoid(x);
      case vmath::Fn::Tanh: return tanh(x);
      case vmath::Fn::Erf: return erf(x);
      case vmath::Fn::Gelu: return gelu(x);
      case vmath::Fn::GeluTanh: return gelu_tanh(x);
      case vmath::Fn::Silu: return V::mul(x, sigmoid(x));
      case vmath::Fn::HardSigmoid:
        return V::blend(V::min(V::max(V::fmadd(alpha, x, beta), V::set1(0.f)), V::set1(1.f)), x, V::isnan(x));
      case vmath::Fn::HardSwish:
        return V::mul(x, V::min(V::max(V::fmadd(x, V::set1(1.f / 6.f), V::set1(0.5f)), V::set1(0.f)), V::set1(1.f)));
      case vmath::Fn::Elu: {
        const R neg = V::mul(alpha, V::sub(exp(x), V::set1(1.f)));
        return V::blend(neg, x, V::gt(x, V::set1(0.f)));
      }
      case vmath::Fn::Relu: return V::max(x, V::set1(0.f));
      case vmath::Fn::LeakyRelu: return V::blend(V::mul(alpha, x), x, V::gt(x, V::set1(0.f)));
      case vmath::Fn::Clip: return V::blend(V::min(V::max(x, alpha), beta), x, V::isnan(x));
      case vmath::Fn::Affine: return V::fmadd(alpha, x, beta);
    }
    return x;
  }

  // The switch is hoisted: one loop per function.
  template <vmath::Fn F>
  static void loop(const float* x, float* y, std::int64_t n, float alpha, float beta) {
    const R a = V::set1(alpha), b = V::set1(beta);
    std::int64_t i = 0;
    for (; i + V::W <= n; i += V::W) V::store(y + i, eval(F, V::load(x + i), a, b));
    if (i < n) {
      alignas(64) float buf[V::W] = {};
      for (std::int64_t k = i; k < n; ++k) buf[k - i] = x[k];
      V::store(buf, eval(F, V::load(buf), a, b));
      for (std::int64_t k = i; k < n; ++k) y[k] = buf[k - i];
    }
  }

  static void apply(vmath::Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta) {
    switch (f) {
#define EC_VMATH_CASE(F) \
  case vmath::Fn::F: return loop<vmath::Fn::F>(x, y, n, alpha, beta);
      EC_VMATH_CASE(Exp)
      EC_VMATH_CASE(Sigmoid)
      EC_VMATH_CASE(Tanh)
      EC_VMATH_CASE(Erf)
      EC_VMATH_CASE(Gelu)
      EC_VMATH_CASE(GeluTanh)
      EC_VMATH_CASE(Silu)
      EC_VMATH_CASE(HardSigmoid)
      EC_VMATH_CASE(HardSwish)
      EC_VMATH_CASE(Elu)
      EC_VMATH_CASE(Relu)
      EC_VMATH_CASE(LeakyRelu)
      EC_VMATH_CASE(Clip)
      EC_VMATH_CASE(Affine)
#undef EC_VMATH_CASE
    }
  }

  // max over x[0, n) (a NaN is passed over, as std::max(mx, x) does), n >= 1.
  static float row_max(const float* x, std::int64_t n) {
    R acc = V::set1(-__builtin_inff());
    std::int64_t i = 0;
    for (; i + V::W <= n; i += V::W) acc = V::max(V::load(x + i), acc);  // NaN x: acc kept
    alignas(64) float lanes[V::W];
    V::store(lanes, acc);
    float mx = -__builtin_inff();
    for (int k = 0; k < V::W; ++k) mx = std::max(mx, lanes[k]);
    for (; i < n; ++i) mx = std::max(mx, x[i]);
    return mx;
  }

  // y[0, n) *= s
  static void scale(float* y, std::int64_t n, float s) {
    const R v = V::set1(s);
    std::int64_t i = 0;
    for (; i + V::W <= n; i += V::W) V::store(y + i, V::mul(V::load(y + i), v));
    for (; i < n; ++i) y[i] *= s;
  }

  // y = e^(x - mx); returns the sum (lane sums added in a fixed order).
  static float exp_sum(const float* x, float* y, std::int64_t n, float mx) {
    const R m = V::set1(mx);
    R acc = V::set1(0.f);
    std::int64_t i = 0;
    for (; i + V::W <= n; i += V::W) {
      const R e = exp(V::sub(V::load(x + i), m));
      V::store(y + i, e);
      acc = V::add(acc, e);
    }
    alignas(64) float lanes[V::W];
    V::store(lanes, acc);
    float s = 0.f;
    for (int k = 0; k < V::W; ++k) s += lanes[k];
    if (i < n) {
      alignas(64) float buf[V::W];
      for (int k = 0; k < V::W; ++k) buf[k] = i + k < n ? x[i + k] : -__builtin_inff();
      V::store(buf, exp(V::sub(V::load(buf), m)));
      for (std::int64_t k = i; k < n; ++k) {
        y[k] = buf[k - i];
        s += buf[k - i];
      }
    }
    return s;
  }

  template <vmath::BinOp O>
  static R op2(R a, R b) {
    if constexpr (O == vmath::BinOp::Add) return V::add(a, b);
    else if constexpr (O == vmath::BinOp::Sub) return V::sub(a, b);
    else if constexpr (O == vmath::BinOp::Mul) return V::mul(a, b);
    else return V::div(a, b);
  }

  template <vmath::BinOp O>
  static void binary_loop(const float* a, std::int64_t sa, const float* b, std::int64_t sb, float* y, std::int64_t n) {
    std::int64_t i = 0;
    if (sa && sb) {
      for (; i + V::W <= n; i += V::W) V::store(y + i, op2<O>(V::load(a + i), V::load(b + i)));
    } else if (sa) {
      const R bv = V::set1(*b);
      for (; i + V::W <= n; i += V::W) V::store(y + i, op2<O>(V::load(a + i), bv));
    } else if (sb) {
      const R av = V::set1(*a);
      for (; i + V::W <= n; i += V::W) V::store(y + i, op2<O>(av, V::load(b + i)));
    }
    for (; i < n; ++i) {
      const float u = a[i * sa], v = b[i * sb];
      y[i] = O == vmath::BinOp::Add ? u + v : O == vmath::BinOp::Sub ? u - v : O == vmath::BinOp::Mul ? u * v : u / v;
    }
  }

  template <vmath::BinOp O>
  static void binary_rows(const float* a, std::int64_t sa, const float* b, std::int64_t sb,
                          float* y, std::int64_t n, std::int64_t rows, std::int64_t ra,
                          std::int64_t rb) {
    for (std::int64_t r = 0; r < rows; ++r, a += ra, b += rb, y += n)
      binary_loop<O>(a, sa, b, sb, y, n);
  }

  static void binary(vmath::BinOp op, const float* a, std::int64_t sa, const float* b,
                     std::int64_t sb, float* y, std::int64_t n, std::int64_t rows, std::int64_t ra,
                     std::int64_t rb) {
    switch (op) {
      case vmath::BinOp::Add:
        return binary_rows<vmath::BinOp::Add>(a, sa, b, sb, y, n, rows, ra, rb);
      case vmath::BinOp::Sub:
        return binary_rows<vmath::BinOp::Sub>(a, sa, b, sb, y, n, rows, ra, rb);
      case vmath::BinOp::Mul:
        return binary_rows<vmath::BinOp::Mul>(a, sa, b, sb, y, n, rows, ra, rb);
      case vmath::BinOp::Div:
        return binary_rows<vmath::BinOp::Div>(a, sa, b, sb, y, n, rows, ra, rb);
    }
  }
};
