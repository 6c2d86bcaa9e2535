// The "local" providers: run the component on this machine (the CPU runtime, or a
// target runtime behind InferenceSession; the backends for the compiler).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "core/backends/backend_registry.h"
#include "core/devices/provider.h"
#include "core/frontends/frontend.h"

namespace ec::devices {
namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

Provenance here(const char* what) { return {"local", std::string("this machine (") + what + ")", {}, {}}; }

}  // namespace

InvokeOutcome local_invoke(const Job& job, const ProviderConfig&) {
  runtime::InferenceSession session({job.threads});
  const auto t0 = std::chrono::steady_clock::now();
  backends::load_on_target(session, job.artefact, job.target);
  InvokeOutcome o;
  o.init_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  o.stats = session.benchmark(session.random_inputs(0), job.iterations, job.warmup);
  o.peak_memory_mib = peak_rss_mib();
  o.provenance = here(job.target == "cpu" ? "CPU runtime" : job.target.c_str());
  session.close();
  return o;
}

ProfileOutcome local_profile(const Job& job, const ProviderConfig& config) {
  ProfileOutcome p;
  p.run = local_invoke(job, config);
  runtime::InferenceSession session({job.threads});
  backends::load_on_target(session, job.artefact, job.target);
  const auto inputs = session.random_inputs(0);
  const int runs = std::max(1, std::min(job.iterations, 10));
  std::map<std::size_t, runtime::RunProfile::Entry> mean;
  for (int i = 0; i < runs; ++i) {
    runtime::RunProfile prof;
    session.run(inputs, &prof);
    for (std::size_t k = 0; k < prof.ops.size(); ++k) {
      auto& e = mean[k];
      e.name = prof.ops[k].name;
      e.op_type = prof.ops[k].op_type;
      e.ms += prof.ops[k].ms / runs;
    }
  }
  for (auto& [k, e] : mean) p.ops.push_back(e);
  return p;
}

CompileOutcome local_compile(const Job& job, const ProviderConfig&) {
  backends::AutoContext context;  // "auto" here: the artefact asked for decides, else cpu
  context.output_path = job.output;
  auto resolved = backends::resolve_backend(job.target, context);
  const ir::Graph g = frontends::open_model(job.artefact, {});
  backends::CompileConfig config;
  config.output_path = job.output;
  const auto r = resolved.backend->compile(g, config);
  CompileOutcome o;
  o.artefact = r.output_path;
  o.log = std::to_string(r.ops_on_target) + " ops on " + r.backend + ", " + std::to_string(r.ops_fallback) + " on the CPU";
  o.provenance = here(r.backend.c_str());
  return o;
}

}  // namespace ec::devices
