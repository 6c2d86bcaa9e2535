#include "core/runtime/kernels/onednn_util.h"

#include <omp.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/runtime/gemm/gemm.h"

#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels::onednn {

dnnl::engine& cpu_engine() {
  static dnnl::engine engine = [] {
    // oneDNN's JIT follows the ISA the rest of the runtime uses (EC_ISA / EC_GEMM_ISA), so
    // one switch measures an AVX2-only machine on an AVX-512 one. Only effective before
    // oneDNN generates its first kernel, which nothing does before the engine exists; an
    // ONEDNN_MAX_CPU_ISA set by the user wins (oneDNN reads it first).
    if (!std::getenv("ONEDNN_MAX_CPU_ISA")) {
      const gemm::Isa isa = gemm::active_isa();
      try {
        if (isa == gemm::Isa::Avx2) dnnl::set_max_cpu_isa(dnnl::cpu_isa::avx2);
        else if (isa == gemm::Isa::Generic) dnnl::set_max_cpu_isa(dnnl::cpu_isa::sse41);
      } catch (const dnnl::error&) {
        // already fixed by an earlier use: keep what oneDNN has
      }
    }
    return dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return engine;
}

void one_omp_thread() {
  thread_local bool set = false;
  if (!set) {
    omp_set_num_threads(1);
    set = true;
  }
}

dnnl::stream& thread_stream() {
  thread_local dnnl::stream stream(cpu_engine());
  return stream;
}

CallArgs& CallArgs::set(int arg, const dnnl::memory& m) {
  for (std::size_t i = 0; i < n_; ++i)
    if (a_[i].first == arg) {
      a_[i].second = m;
      return *this;
    }
  if (n_ == kMax) throw dnnl::error(dnnl_invalid_arguments, "more primitive arguments than CallArgs holds");
  a_[n_++] = {arg, m};
  return *this;
}

dnnl::memory CallArgs::get(int arg) const {
  for (std::size_t i = 0; i < n_; ++i)
    if (a_[i].first == arg) return a_[i].second;
  return {};
}

void CallArgs::execute(const dnnl::primitive& p, dnnl::stream& s) const {
  std::array<dnnl_exec_arg_t, kMax> c{};
  for (std::size_t i = 0; i < n_; ++i) c[i] = {a_[i].first, a_[i].second.get()};
  dnnl::error::wrap_c_api(dnnl_primitive_execute(p.get(), s.get(), static_cast<int>(n_), c.data()),
                          "could not execute a primitive");
}

std::uint64_t next_owner_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

dnnl::memory thread_memory(std::uint64_t owner, int slot, const dnnl::memory::desc& md, const void* data) {
  thread_local std::unordered_map<std::uint64_t, dnnl::memory> made;
  constexpr std::size_t kMaxObjects = 4096;
  const std::uint64_t key = owner * 16 + static_cast<std::uint64_t>(slot);
  auto it = made.find(key);
  if (it == made.end()) {
    if (made.size() >= kMaxObjects) made.clear();  // CallArgs hold their own references
    it = made.emplace(key, dnnl::memory(md, cpu_engine(), const_cast<void*>(data))).first;
  } else {
    it->second.set_data_handle(const_cast<void*>(data));
  }
  return it->second;
}

void set_thread_scratchpad(CallArgs& args, std::uint64_t owner, const dnnl::memory::desc& scratch) {
  thread_local std::vector<std::byte> buffer;
  if (const std::size_t bytes = scratch.get_size())
    args.set(DNNL_ARG_SCRATCHPAD, thread_memory(owner, kScratchpadSlot, scratch, runtime::scratch(buffer, bytes)));
}

bool EnvSwitch::on(bool unset) {
  int x = v.load(std::memory_order_relaxed);
  if (x < 0) {
    const char* env = std::getenv(var);
    x = env ? (std::string(env) == off_value ? 0 : 1) : (unset ? 1 : 0);
    v.store(x, std::memory_order_relaxed);
  }
  return x == 1;
}

bool activation_post_op(ir::Activation act, dnnl::primitive_attr& attr) {
  struct Row {
    ir::Activation act;
    dnnl::algorithm algo;
    float alpha, beta;
  };
  static const Row kRows[] = {
      {ir::Activation::Relu, dnnl::algorithm::eltwise_relu, 0.f, 0.f},
      {ir::Activation::Relu6, dnnl::algorithm::eltwise_clip, 0.f, 6.f},
      {ir::Activation::ReluN1To1, dnnl::algorithm::eltwise_clip, -1.f, 1.f},
      {ir::Activation::Sigmoid, dnnl::algorithm::eltwise_logistic, 0.f, 0.f},
      {ir::Activation::Tanh, dnnl::algorithm::eltwise_tanh, 0.f, 0.f},
      {ir::Activation::HardSwish, dnnl::algorithm::eltwise_hardswish, 0.f, 0.f},  // x * relu6(x + 3) / 6
      {ir::Activation::SiLU, dnnl::algorithm::eltwise_swish, 1.f, 0.f},           // x * sigmoid(alpha x)
      {ir::Activation::Gelu, dnnl::algorithm::eltwise_gelu_erf, 0.f, 0.f},
      {ir::Activation::GeluTanh, dnnl::algorithm::eltwise_gelu_tanh, 0.f, 0.f},
  };
  if (act == ir::Activation::None) return true;
  for (const Row& r : kRows)
    if (r.act == act) {
      dnnl::post_ops po;
      po.append_eltwise(1.f, r.algo, r.alpha, r.beta);
      attr.set_post_ops(po);
      return true;
    }
  return false;
}

}  // namespace ec::runtime::kernels::onednn
