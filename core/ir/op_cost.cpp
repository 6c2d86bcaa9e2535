// One estimator per op type, by family. MACs follow the usual convention
// (torchvision's figures): a Conv output element costs Cin/group * kernel taps
// MACs; bias adds and activations are not MACs. Everything else is counted as
// FLOPs per element with the constants written beside each case; they are
// approximations of the arithmetic, not of any kernel's instruction count.
#include "core/ir/op_cost.h"

#include <optional>
#include <vector>

namespace ec::ir {
namespace {

using K = ir::OpKind;
using Sizes = std::vector<std::int64_t>;

// Checked int64 arithmetic: nullopt once anything overflowed.
using Count = std::optional<std::int64_t>;
Count mul(Count a, Count b) {
  std::int64_t r;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}
Count add(Count a, Count b) {
  std::int64_t r;
  if (!a || !b || __builtin_add_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}
Count product(const Sizes& v, std::size_t from = 0, std::size_t to = SIZE_MAX) {
  Count p = 1;
  for (std::size_t k = from; k < to && k < v.size(); ++k) p = mul(p, v[k]);
  return p;
}

// Sizes with named dynamic dims as 1 (batch 1); nullopt when the rank or an
// anonymous dim is unknown.
std::optional<Sizes> batch1_sizes(const ir::Graph& g, const std::string& name) {
  if (name.empty()) return std::nullopt;
  const ir::Tensor* t = g.find_tensor(name);
  if (!t || !t->shape.rank_known) return std::nullopt;
  Sizes v;
  for (const ir::Dim& d : t->shape.dims) {
    if (d.is_static()) {
      v.push_back(d.value);
    } else if (d.symbol.empty() || d.symbol.rfind("unk__", 0) == 0) {
      return std::nullopt;
    } else {
      // a named dim is 1, a product of names and a number ("4*batch", shape
      // inference writes those) is the number
      std::int64_t coef = 1;
      for (std::size_t p = 0; p < d.symbol.size();) {
        const auto star = d.symbol.find('*', p);
        const std::string tok = d.symbol.substr(p, star == std::string::npos ? std::string::npos : star - p);
        if (!tok.empty() && tok.find_first_not_of("0123456789") == std::string::npos && tok.size() < 18)
          if (__builtin_mul_overflow(coef, std::stoll(tok), &coef)) return std::nullopt;
        if (star == std::string::npos) break;
        p = star + 1;
      }
      v.push_back(coef);
    }
  }
  return v;
}

class Estimator {
 public:
  Estimator(const ir::Graph& g, const ir::Operation& op) : g_(g), op_(op) {}

  std::optional<Sizes> in(std::size_t i) const {
    return i < op_.inputs.size() ? batch1_sizes(g_, op_.inputs[i]) : std::nullopt;
  }
  std::optional<Sizes> out(std::size_t i = 0) const {
    return i < op_.outputs.size() ? batch1_sizes(g_, op_.outputs[i]) : std::nullopt;
  }

  OpCost run() {
    switch (op_.kind) {
      case K::Unknown:
        return none("op type unknown to the IR");
      // ---- dot products: MACs
      case K::Conv:
      case K::ConvInteger:
        return conv(0, 1);
      case K::QLinearConv:
        return conv(0, 3);
      case K::ConvTranspose: {
        // every input element scatters into (Cout/group) * kernel taps: W is [Cin, Cout/g, k...]
        auto x = in(0), w = in(1);
        if (!x || !w || w->size() < 2) return unknown();
        return macs(mul(product(*x), product(*w, 1)));
      }
      case K::Gemm: {
        auto a = in(0), b = in(1);
        if (!a || !b || a->size() != 2 || b->size() != 2) return unknown();
        const bool ta = op_.attr_int("transA", 0) != 0, tb = op_.attr_int("transB", 0) != 0;
        return macs(mul(mul((*a)[ta ? 1 : 0], (*a)[ta ? 0 : 1]), (*b)[tb ? 0 : 1]));  // M * K * N
      }
      case K::MatMul:
      case K::MatMulInteger:
      case K::QLinearMatMul: {
        // each output element is a dot product over A's last dim
        auto a = in(0), y = out();
        if (!a || !y || a->empty()) return unknown();
        return macs(mul(product(*y), a->back()));
      }
      case K::FullyConnected: {
        // y = x W^T + b with W [N, K]: every output element sums over K
        auto w = in(1), y = out();
        if (!w || !y || w->size() != 2) return unknown();
        return macs(mul(product(*y), (*w)[1]));
      }
      case K::Einsum:
        return einsum();
      case K::LSTM:
      case K::GRU:
      case K::RNN:
        return recurrent();
      case K::Det: {
        // LU: about 2/3 n^3 flops per matrix
        auto x = in(0);
        if (!x || x->size() < 2) return unknown();
        const std::int64_t n = x->back();
        return flops(mul(product(*x, 0, x->size() - 2), mul(mul(n, n), n / 3 * 2 + (n % 3 ? 1 : 0))));
      }
      // ---- pooling: one compare/add per window tap
      case K::MaxPool:
      case K::AveragePool:
      case K::LpPool: {
        auto y = out();
        if (!y) return unknown();
        Count taps = 1;
        for (auto k : op_.attr_ints("kernel_shape")) taps = mul(taps, k);
        return flops(mul(product(*y), taps));
      }
      case K::GlobalAveragePool:
      case K::GlobalMaxPool:
      case K::GlobalLpPool:
        return per_input_element(1);
      case K::MaxUnpool:
        return zero();
      case K::MaxRoiPool:
      case K::RoiAlign:
        return none("no estimator for region pooling (cost depends on the boxes' sizes)");
      // ---- normalisation
      case K::BatchNormalization:
        return per_output_element(2);  // inference: y = x * a + b
      case K::InstanceNormalization:
      case K::LayerNormalization:
      case K::GroupNormalization:
      case K::MeanVarianceNormalization:
        return per_output_element(8);  // mean 1, variance 3, normalise 2, scale and shift 2
      case K::LpNormalization:
        return per_output_element(3);  // square, sum, divide
      case K::LRN:
        return per_output_element(op_.attr_int("size", 1) + 3);  // window sum of squares, pow, divide
      // ---- activations and element-wise math: one per output element
      case K::Softmax:
      case K::LogSoftmax:
        return per_output_element(5);  // max, subtract, exp, sum, divide (log)
      case K::Max:
      case K::Min:
      case K::Mean:
      case K::Sum:
        return per_output_element(std::max<std::int64_t>(1, static_cast<std::int64_t>(op_.inputs.size()) - 1));
      // ---- reductions: one per input element
      case K::ReduceSum:
      case K::ReduceMean:
      case K::ReduceMax:
      case K::ReduceMin:
      case K::ReduceProd:
      case K::ReduceL1:
      case K::ReduceL2:
      case K::ReduceLogSum:
      case K::ReduceLogSumExp:
      case K::ReduceSumSquare:
      case K::ArgMax:
      case K::ArgMin:
      case K::CumSum:
      case K::TopK:
        return per_input_element(1);
      // ---- data movement: no arithmetic
      case K::Resize: {
        const std::string mode = op_.attr_string("mode", "nearest");
        if (mode == "nearest") return zero();
        return per_output_element(mode == "cubic" ? 16 : 4);  // interpolation weights per output element
      }
      case K::GridSample:
        return per_output_element(4);
      case K::QuantizeLinear:
      case K::DequantizeLinear:
        return per_output_element(2);  // scale and shift
      case K::DynamicQuantizeLinear:
        return per_input_element(4);  // min, max, scale, round
      case K::NonMaxSuppression:
      case K::DFT:
      case K::STFT:
      case K::MelWeightMatrix:
      case K::Unique:
        return none("no estimator for " + op_.op_type + " (cost depends on the data)");
      default:
        break;
    }
    switch (ir::op_info(op_.kind).category) {
      case ir::OpCategory::Activation:
      case ir::OpCategory::Elementwise:
      case ir::OpCategory::Logic:
        return per_output_element(1);
      case ir::OpCategory::DataMovement:
      case ir::OpCategory::Generator:
        return zero();
      case ir::OpCategory::Misc:
        if (op_.kind == K::Dropout) return zero();  // inference: identity
        if (op_.kind == K::HannWindow || op_.kind == K::HammingWindow || op_.kind == K::BlackmanWindow)
          return per_output_element(4);  // cos and scale
        break;
      default:
        break;
    }
    return none("no estimator for " + op_.op_type);
  }

 private:
  OpCost conv(std::size_t x_index, std::size_t w_index) {
    // every output element sums over (Cin/group) * kernel taps: W is [Cout, Cin/g, k...] (OHWI in NHWC)
    (void)x_index;
    auto w = in(w_index), y = out();
    if (!w || !y || w->size() < 2) return unknown();
    return macs(mul(product(*y), product(*w, 1)));
  }

  // X [seq, batch, I] (layout 0), W [dirs, G*H, I], R [dirs, G*H, H]: per step,
  // direction and batch row, G gates of I*H + H*H MACs.
  OpCost recurrent() {
    auto x = in(0), w = in(1), r = in(2);
    if (!x || !w || !r || x->size() != 3 || w->size() != 3 || r->size() != 3) return unknown();
    const bool batch_first = op_.attr_int("layout", 0) != 0;
    const std::int64_t seq = (*x)[batch_first ? 1 : 0], batch = (*x)[batch_first ? 0 : 1];
    const std::int64_t dirs = (*w)[0], gh = (*w)[1], input = (*w)[2], hidden = (*r)[2];
    Count steps = mul(mul(seq, batch), dirs);
    Count m = mul(steps, mul(gh, add(input, hidden)));
    // gate math per hidden unit and step: LSTM 4 gates x (2 bias adds + 1 add of the two
    // products + activation) + cell update 3 + tanh(c) and product 2 = 21; GRU 3 x 4 + update 5 = 17;
    // RNN 4
    const std::int64_t per_unit = op_.kind == K::LSTM ? 21 : op_.kind == K::GRU ? 17 : 4;
    OpCost c = macs(m);
    if (c.status != OpCost::Status::Estimated) return c;
    return add_flops(c, mul(steps, mul(hidden, per_unit)));
  }

  // Naive summation: the product of every index letter's size.
  OpCost einsum() {
    std::string eq = op_.attr_string("equation", "");
    if (eq.find("...") != std::string::npos) return none("no estimator for Einsum with '...'");
    const std::string lhs = eq.substr(0, eq.find("->"));
    std::vector<std::int64_t> size(128, -1);
    std::size_t term = 0, pos = 0;
    std::optional<Sizes> s = in(0);
    for (char c : lhs) {
      if (c == ' ') continue;
      if (c == ',') {
        s = in(++term);
        pos = 0;
        continue;
      }
      if (!s || pos >= s->size()) return unknown();
      const auto u = static_cast<unsigned char>(c) & 127u;
      size[u] = std::max(size[u], (*s)[pos++]);
    }
    Count p = 1;
    for (auto v : size)
      if (v >= 0) p = mul(p, v);
    return macs(p);
  }

  OpCost per_output_element(std::int64_t n) {
    auto y = out();
    if (!y) return unknown();
    return flops(mul(product(*y), n));
  }
  OpCost per_input_element(std::int64_t n) {
    auto x = in(0);
    if (!x) return unknown();
    return flops(mul(product(*x), n));
  }

  static OpCost zero() { return {}; }
  static OpCost macs(Count m) {
    if (!m) return overflow();
    OpCost c;
    c.macs = *m;
    return c;
  }
  static OpCost flops(Count f) {
    if (!f) return overflow();
    OpCost c;
    c.flops = *f;
    return c;
  }
  static OpCost add_flops(OpCost c, Count f) {
    if (!f) return overflow();
    c.flops = *f;
    return c;
  }
  static OpCost overflow() {
    return {OpCost::Status::Overflow, 0, 0, "count exceeds the 64-bit range (are the dims real?)"};
  }
  static OpCost unknown() { return {OpCost::Status::ShapesUnknown, 0, 0, "shapes unknown"}; }
  static OpCost none(std::string why) { return {OpCost::Status::NoEstimator, 0, 0, std::move(why)}; }

  const ir::Graph& g_;
  const ir::Operation& op_;
};

}  // namespace

OpCost estimate_cost(const ir::Graph& g, const ir::Operation& op) { return Estimator(g, op).run(); }

const char* status_label(OpCost::Status s) {
  switch (s) {
    case OpCost::Status::Estimated: return "estimated";
    case OpCost::Status::ShapesUnknown: return "shapes unknown";
    case OpCost::Status::NoEstimator: return "no estimator";
    case OpCost::Status::Overflow: return "overflow";
  }
  return "";
}

}  // namespace ec::ir
