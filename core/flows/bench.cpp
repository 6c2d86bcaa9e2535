#include "core/flows/bench.h"

#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/flows/record.h"
#include "core/frontends/frontend.h"
#include "core/session/benchmark.h"

namespace ec::flows {
namespace {

constexpr auto kReplace = nlohmann::json::error_handler_t::replace;

bool is_host(const std::string& id) { return id.empty() || id == "host-cpu"; }

void bench_here(const BenchOptions& o, BenchOutcome& out) {
  runtime::SessionOptions options;
  options.threads = o.threads;
  options.int8_channels_last = !o.int8_nchw;
  runtime::InferenceSession session(options);
  runtime::BenchmarkOptions bo;
  bo.iterations = o.iterations;
  bo.warmup = o.warmup;
  bo.profile = o.profile;
  bo.progress = o.progress;
  out.stats = runtime::benchmark_model(session, o.model, bo, o.inputs);
  out.packed_weight_bytes = session.packed_weight_bytes();
  out.fused_activations = session.fused_activations();
  out.fused_pattern_ops = session.fused_pattern_ops();
  out.channels_last_ops = session.channels_last_ops();

  const runtime::Stats& s = out.stats;
  nlohmann::json j = runtime::to_json(s);
  j["model"] = o.model;
  j["inputs"] = o.inputs.empty() ? "random" : "npy";
  j["packed_weights_bytes"] = out.packed_weight_bytes;
  j["fused_activations"] = out.fused_activations;
  j["fused_pattern_ops_removed"] = out.fused_pattern_ops;
  j["channels_last_ops"] = out.channels_last_ops;
  nlohmann::json top = nlohmann::json::array();
  for (const auto& op : runtime::top_ops(s, static_cast<std::size_t>(o.top)))
    top.push_back({{"name", op.name}, {"op_type", op.op_type}, {"ms", op.ms}});
  j["top_ops"] = top;
  nlohmann::json by_type = nlohmann::json::object();
  for (const auto& t : runtime::time_by_op_type(s)) by_type[t.op_type] = t.ms;
  j["ms_by_op_type"] = by_type;
  out.json = std::move(j);
}

void estimate_on(const BenchOptions& o, const devices::HardwareDevice& d, BenchOutcome& out) {
  auto backend = backends::resolve_backend(d.meta("Backend")).backend;
  const ir::Graph graph = frontends::open_model(o.model);
  const auto& e = out.estimate = backend->estimate_for_device(graph, d.id);
  out.json = {{"model", o.model},
              {"device", d.id},
              {"kind", "estimate (not measured)"},
              {"measured", false},
              {"estimate",
               {{"latency_ms", e.latency_ms},
                {"target_ms", e.target_ms},
                {"cpu_ms", e.cpu_ms},
                {"transfer_ms", e.transfer_ms},
                {"target_macs", e.target_macs},
                {"cpu_macs", e.cpu_macs},
                {"on_chip_parameter_bytes", e.on_chip_parameter_bytes},
                {"off_chip_parameter_bytes", e.off_chip_parameter_bytes},
                {"model", e.model}}}};
}

void measure_on(const BenchOptions& o, const BenchDevice& where, BenchOutcome& out) {
  const auto& d = where.device;
  devices::Job job;
  job.artefact = o.model;
  job.iterations = o.iterations;
  job.warmup = o.warmup;
  job.threads = o.threads;
  // a device a backend discovered runs on that backend's target runtime, any other on the CPU
  job.target = d.backend().empty() ? "cpu" : d.backend();
  out.measured = devices::run_component<devices::Invoker>(devices::builtin_providers(), where.config, job);
  out.stats = out.measured.stats;
  const auto& m = out.measured;
  const auto& s = m.stats;
  auto missing = [&](const char* key) {
    for (const auto& k : m.provenance.not_reported)
      if (k == key) return true;
    return false;
  };
  auto v = [&](const char* key, double x) { return missing(key) ? nlohmann::json(nullptr) : nlohmann::json(x); };
  out.json = {{"model", o.model},
              {"device", d.id},
              {"measured", true},
              {"measured_on", m.provenance.where},
              {"provider", m.provenance.provider},
              {"iterations", s.iterations},
              {"init_ms", m.init_ms >= 0 ? nlohmann::json(m.init_ms) : nlohmann::json(nullptr)},
              {"first_inference_ms", v("first_inference_ms", s.first_ms)},
              {"mean_ms", s.mean_ms},
              {"p50_ms", v("p50_ms", s.p50_ms)},
              {"p95_ms", v("p95_ms", s.p95_ms)},
              {"p99_ms", v("p99_ms", s.p99_ms)},
              {"min_ms", v("min_ms", s.min_ms)},
              {"max_ms", v("max_ms", s.max_ms)},
              {"stdev_ms", v("stdev_ms", s.stdev_ms)},
              {"throughput_per_s", s.throughput},
              {"peak_memory_mib", m.peak_memory_mib >= 0 ? nlohmann::json(m.peak_memory_mib) : nlohmann::json(nullptr)},
              {"not_reported", m.provenance.not_reported}};
}

}  // namespace

BenchDevice resolve_bench_device(const std::string& id) {
  BenchDevice where;
  if (is_host(id)) return where;
  const auto config = devices::load_devices_config(devices::devices_config_path());
  const auto found = devices::discover_devices({.include_virtual = true, .config = &config});
  const auto* d = found.find(id);
  if (!d) throw EdgeCompilerError(ErrorKind::Usage, "unknown device '" + id + "' (known: " + found.ids() + ")");
  where.device = *d;
  if (d->is_virtual()) {
    where.kind = BenchDevice::Kind::Virtual;
    return where;
  }
  const auto a = d->is_available();
  if (!a.available) throw BackendError("device '" + d->id + "'", "not available: " + a.reason);
  where.kind = BenchDevice::Kind::Measured;
  if (const auto* c = config.find(d->id)) where.config = *c;
  where.config.id = d->id;
  return where;
}

BenchOutcome bench(const BenchOptions& o, const BenchDevice& where) {
  BenchOutcome out;
  out.kind = where.kind;
  out.model = o.model;
  out.device_id = where.kind == BenchDevice::Kind::HostCpu ? "host-cpu" : where.device.id;
  out.device_name = where.device.name;
  switch (where.kind) {
    case BenchDevice::Kind::HostCpu: bench_here(o, out); break;
    case BenchDevice::Kind::Virtual: estimate_on(o, where.device, out); break;
    case BenchDevice::Kind::Measured: measure_on(o, where, out); break;
  }
  return out;
}

BenchOutcome bench(const BenchOptions& o) { return bench(o, resolve_bench_device(o.device)); }

history::RunRecord bench_record(const BenchOptions& o, const BenchOutcome& out) {
  auto rec = new_run_record("bench", o.model);
  rec.target = "cpu";
  rec.device = is_host(o.device) ? "host-cpu" : o.device;
  nlohmann::json options{{"iterations", o.iterations}, {"warmup", o.warmup}, {"threads", out.stats.threads},
                         {"inputs", o.input_specs}, {"int8_nchw", o.int8_nchw}};
  if (!o.from.empty()) options["from"] = o.from;
  rec.options_json = options.dump(-1, ' ', false, kReplace);
  rec.report_json = out.json.dump(-1, ' ', false, kReplace);
  rec.stats = out.stats;
  return rec;
}

}  // namespace ec::flows
