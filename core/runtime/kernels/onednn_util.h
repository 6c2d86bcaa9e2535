// What the oneDNN kernels (conv_onednn.cpp, matmul_onednn.cpp) share: the engine, the
// one-OpenMP-thread rule, our scratchpads and the fused activations as post-ops.
// Internal to the runtime's kernels (includes oneDNN's header).
#pragma once

#include <string_view>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

namespace ec::runtime::kernels::onednn {

/// The CPU engine (made once).
dnnl::engine& cpu_engine();
/// oneDNN runs on the calling thread alone (an OpenMP ICV per thread; set once per thread):
/// it never starts an OpenMP team, whose spinning threads would fight our pool for the cores.
void one_omp_thread();
/// Executes `p` with `args` on this thread's stream, a scratchpad of `scratch` bytes being
/// this thread's own (primitives made with scratchpad_mode::user), and waits for it.
void execute(const dnnl::primitive& p, std::unordered_map<int, dnnl::memory>& args,
             const dnnl::memory::desc& scratch);
/// The op's fused activation as a post-op (NONE: none); false for one oneDNN has no post-op for.
bool activation_post_op(std::string_view act, dnnl::primitive_attr& attr);

}  // namespace ec::runtime::kernels::onednn
