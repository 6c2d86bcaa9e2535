#include "core/runtime/kernels/onednn_util.h"

#include <omp.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace ec::runtime::kernels::onednn {

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
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

void add_thread_scratchpad(std::unordered_map<int, dnnl::memory>& args,
                           const dnnl::memory::desc& scratch) {
  thread_local std::vector<std::byte> buffer;
  if (const std::size_t bytes = scratch.get_size()) {
    if (buffer.size() < bytes) buffer.resize(bytes);
    args[DNNL_ARG_SCRATCHPAD] = dnnl::memory(scratch, cpu_engine(), buffer.data());
  }
}

bool EnvSwitch::on() {
  int x = v.load(std::memory_order_relaxed);
  if (x < 0) {
    const char* env = std::getenv(var);
    x = env && std::string(env) == off_value ? 0 : 1;
    v.store(x, std::memory_order_relaxed);
  }
  return x == 1;
}

bool activation_post_op(std::string_view act, dnnl::primitive_attr& attr) {
  struct Row {
    std::string_view name;
    dnnl::algorithm algo;
    float alpha, beta;
  };
  static const Row kRows[] = {
      {"RELU", dnnl::algorithm::eltwise_relu, 0.f, 0.f},
      {"RELU6", dnnl::algorithm::eltwise_clip, 0.f, 6.f},
      {"RELU_N1_TO_1", dnnl::algorithm::eltwise_clip, -1.f, 1.f},
      {"SIGMOID", dnnl::algorithm::eltwise_logistic, 0.f, 0.f},
      {"TANH", dnnl::algorithm::eltwise_tanh, 0.f, 0.f},
      {"HARD_SWISH", dnnl::algorithm::eltwise_hardswish, 0.f, 0.f},  // x * relu6(x + 3) / 6
      {"SILU", dnnl::algorithm::eltwise_swish, 1.f, 0.f},            // x * sigmoid(alpha x)
      {"GELU", dnnl::algorithm::eltwise_gelu_erf, 0.f, 0.f},
      {"GELU_TANH", dnnl::algorithm::eltwise_gelu_tanh, 0.f, 0.f},
  };
  if (act == "NONE") return true;
  for (const Row& r : kRows)
    if (r.name == act) {
      dnnl::post_ops po;
      po.append_eltwise(1.f, r.algo, r.alpha, r.beta);
      attr.set_post_ops(po);
      return true;
    }
  return false;
}

}  // namespace ec::runtime::kernels::onednn
