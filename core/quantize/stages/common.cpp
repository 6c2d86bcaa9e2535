// Helpers the quantiser's stages share (stages.h).
#include <set>

#include "core/errors.h"
#include "core/quantize/stages/stages.h"

namespace ec::quantize::detail {

// What may run in int8, and how an int8 op's output params are chosen, come from
// the CPU runtime's ONE int8 kernel table (runtime/quantized/int8_kernels.h): the
// quantiser keeps no table of its own. Whether a kernel takes a given op (its
// attributes, e.g. a fused activation) is asked of the kernel itself (choose_ops' probe).
const runtime::quantized::Int8KernelEntry* int8_op(ir::OpKind k) {
  const runtime::quantized::Int8KernelEntry* e = runtime::quantized::find_int8_kernel(k);
  return e && e->prepare ? e : nullptr;
}

std::string op_label(const ir::Operation& op, std::size_t i) {
  return op.name.empty() ? "#" + std::to_string(i) : op.name;
}

std::span<const float> floats(const runtime::Tensor& t) {
  if (t.dtype() != ir::DType::Float32) return {};
  return t.values<float>();
}

void check_progress(const ProgressFn& progress, const std::string& stage, int done, int total) {
  if (progress && !progress(stage, done, total)) throw EdgeCompilerError(ErrorKind::Usage, "cancelled");
}

ExposedRunner::ExposedRunner(const ir::Graph& g, const std::vector<std::string>& expose, int threads) {
  ir::Graph copy = g;
  std::set<std::string> have(copy.outputs.begin(), copy.outputs.end());
  const std::set<std::string> inputs(copy.inputs.begin(), copy.inputs.end());
  for (const auto& t : expose)
    if (!inputs.count(t) && copy.find_tensor(t) && !copy.find_tensor(t)->is_constant() && have.insert(t).second)
      copy.outputs.push_back(t);
  // NCHW as written: every exposed activation of a channels-last session would need
  // its own Transpose back (measured: quantize 10% slower).
  runtime::SessionOptions options;
  options.threads = threads;
  options.channels_last = false;
  session_ = std::make_unique<runtime::InferenceSession>(options);
  session_->load(ir::freeze(std::move(copy)));
}

std::map<std::string, runtime::Tensor> ExposedRunner::run(const Sample& s) const {
  auto out = session_->run(s);
  for (const auto& [k, v] : s) out.emplace(k, v);  // inputs read like any tensor
  return out;
}

const ExposedRunner& float_runner(QuantContext& c, int l) {
  auto& r = c.lanes[static_cast<std::size_t>(l)].float_runner;
  if (!r) r = std::make_unique<ExposedRunner>(c.fg(), c.act, c.lane_threads);
  return *r;
}

const ExposedRunner& q_runner(QuantContext& c, int l) {
  auto& r = c.lanes[static_cast<std::size_t>(l)].q_runner;
  if (!r) r = std::make_unique<ExposedRunner>(c.exec, c.q_names, c.lane_threads);
  return *r;
}

std::function<bool(int)> stage_progress(const QuantContext& c, const std::string& name) {
  return [&progress = c.progress, name, total = static_cast<int>(c.samples.size())](int done) {
    return !progress || progress(name, done, total);
  };
}

}  // namespace ec::quantize::detail
