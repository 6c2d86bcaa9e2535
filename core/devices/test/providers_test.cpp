// Providers: ProviderConfig resolution per component, devices.json, the provider
// tables, the output parsers on recorded benchmark_model runs, the local invoker.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/devices/test/test_data.h"
#include "core/devices/output_parsers.h"
#include "core/devices/process.h"
#include "core/devices/provider.h"

using namespace ec::devices;
namespace fs = std::filesystem;

namespace {
std::string read(const std::string& name) { return read_test_data(name); }
DeviceConfig board() {
  DeviceConfig d;
  d.id = "board";
  d.provider.type = "ssh";
  d.provider.host = "board.lan";
  d.provider.user = "pi";
  d.provider.remote_command = "benchmark_model --graph={artefact}";
  ProviderOverride prof;
  prof.remote_command = "benchmark_model --graph={artefact} --enable_op_profiling=true";
  prof.port = 2222;
  d.components["profiler"] = prof;
  ProviderOverride comp;
  comp.type = "local";
  d.components["compiler"] = comp;
  return d;
}
}  // namespace

TEST(ProviderConfig, ResolutionOrderDefaultsThenDeviceThenComponent) {
  const DeviceConfig d = board();
  // invoker: no override -> the device's fields over the defaults
  const auto inv = resolve_provider_config(d, "invoker");
  EXPECT_EQ(inv.type, "ssh");
  EXPECT_EQ(inv.host, "board.lan");
  EXPECT_EQ(inv.port, 22);                        // built-in default
  EXPECT_EQ(inv.remote_dir, "/tmp/edgecompile");  // built-in default
  EXPECT_EQ(inv.remote_command, "benchmark_model --graph={artefact}");
  // profiler: only the fields it sets change
  const auto prof = resolve_provider_config(d, "profiler");
  EXPECT_EQ(prof.type, "ssh");
  EXPECT_EQ(prof.host, "board.lan");
  EXPECT_EQ(prof.user, "pi");
  EXPECT_EQ(prof.port, 2222);
  EXPECT_EQ(prof.remote_command, "benchmark_model --graph={artefact} --enable_op_profiling=true");
  // compiler: another provider type entirely
  EXPECT_EQ(resolve_provider_config(d, "compiler").type, "local");
}

TEST(ProviderConfig, FileRoundTripsAndEnvVarPicksThePath) {
  DevicesConfig c;
  c.devices.push_back(board());
  const fs::path dir = fs::temp_directory_path() / ("ec_devcfg_" + std::to_string(::getpid()));
  const std::string path = (dir / "sub" / "devices.json").string();
  save_devices_config(c, path);
  EXPECT_EQ(load_devices_config(path), c);
  ::setenv("EC_DEVICES_CONFIG", path.c_str(), 1);
  EXPECT_EQ(devices_config_path(), path);
  ::unsetenv("EC_DEVICES_CONFIG");
  ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  EXPECT_EQ(devices_config_path(), (dir / "edgecompiler" / "devices.json").string());
  EXPECT_TRUE(load_devices_config((dir / "missing.json").string()).devices.empty());
  fs::remove_all(dir);
}

TEST(ProviderConfig, BadFilesGiveOneLineNamingFileAndField) {
  auto error_of = [](const std::string& text) {
    try {
      devices_config_from_json(text, "/x/devices.json");
    } catch (const ec::EdgeCompilerError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"({"devices": [{"id": "a", "provider": {"port": "22"}}]})"),
            "/x/devices.json: devices[0].provider.port: expected a whole number, got \"22\" (fix or delete the file)");
  EXPECT_EQ(error_of(R"({"devices": [{"id": "a", "components": {"runner": {}}}]})"),
            "/x/devices.json: devices[0].components: unknown component 'runner' (known: compiler, profiler, invoker) (fix or delete the file)");
  EXPECT_EQ(error_of(R"({"version": 2})"),
            "/x/devices.json: version: this edgecompile reads version 1, the file is version 2 (fix or delete the file)");
  EXPECT_EQ(error_of(R"({"devices": [{"id": "a"}, {"id": "a"}]})"),
            "/x/devices.json: devices[1]: device 'a' is listed twice (fix or delete the file)");
  EXPECT_EQ(error_of("{").rfind("/x/devices.json: not JSON: ", 0), 0u);
}

TEST(Providers, BuiltinTablesAndAUserStringProvider) {
  ProviderRegistry r = builtin_providers();
  EXPECT_EQ(r.table<Invoker>().types(), (std::vector<std::string>{"local", "ssh"}));
  EXPECT_EQ(r.table<Profiler>().types(), (std::vector<std::string>{"local", "ssh"}));
  EXPECT_EQ(r.table<Compiler>().types(), (std::vector<std::string>{"local", "ssh"}));
  r.table<Invoker>().add("lab-queue", [](const Job& j, const ProviderConfig& c) {
    InvokeOutcome o;
    o.stats.iterations = j.iterations;
    o.provenance.where = c.host;
    return o;
  });
  DeviceConfig d;
  d.id = "queued";
  d.provider.type = "lab-queue";
  d.provider.host = "queue.lab";
  Job job;
  job.iterations = 7;
  const auto o = run_component<Invoker>(r, d, job);
  EXPECT_EQ(o.stats.iterations, 7);
  EXPECT_EQ(o.provenance.where, "queue.lab");
  d.provider.type = "carrier-pigeon";
  try {
    run_component<Invoker>(r, d, job);
    FAIL();
  } catch (const ec::EdgeCompilerError& e) {
    EXPECT_EQ(std::string(e.what()), "no 'carrier-pigeon' provider for the invoker (known: lab-queue, local, ssh)");
    EXPECT_EQ(e.kind(), ec::ErrorKind::Usage);
  }
}

TEST(OutputParsers, RecordedBenchmarkModelOlderFormat) {
  const auto o = parse_benchmark_output(read("benchmark_model_mobilenet_v1.txt"));
  EXPECT_EQ(o.stats.iterations, 50);
  EXPECT_DOUBLE_EQ(o.stats.mean_ms, 2950.34);
  EXPECT_DOUBLE_EQ(o.stats.min_ms, 2727.568);
  EXPECT_DOUBLE_EQ(o.stats.max_ms, 3189.954);
  EXPECT_DOUBLE_EQ(o.stats.stdev_ms, 109.798);
  EXPECT_DOUBLE_EQ(o.stats.first_ms, 3512.391);
  EXPECT_DOUBLE_EQ(o.stats.warmup_mean_ms, 3512.39);
  EXPECT_DOUBLE_EQ(o.init_ms, 17.187);
  EXPECT_DOUBLE_EQ(o.peak_memory_mib, 46.0859);
  EXPECT_NEAR(o.stats.throughput, 1000.0 / 2950.34, 1e-9);
  EXPECT_EQ(o.provenance.not_reported, (std::vector<std::string>{"p50_ms", "p95_ms", "p99_ms"}));
}

TEST(OutputParsers, RecordedBenchmarkModelWithPercentiles) {
  const auto o = parse_benchmark_output(read("benchmark_model_xnnpack_percentiles.txt"));
  EXPECT_EQ(o.stats.iterations, 1000);  // the steady-state line, not the warm-up's count=9
  EXPECT_DOUBLE_EQ(o.stats.mean_ms, 63.7432);
  EXPECT_DOUBLE_EQ(o.stats.p50_ms, 51.891);
  EXPECT_DOUBLE_EQ(o.stats.p95_ms, 68.628);
  EXPECT_DOUBLE_EQ(o.stats.min_ms, 49.088);
  EXPECT_DOUBLE_EQ(o.stats.max_ms, 686.105);
  EXPECT_DOUBLE_EQ(o.stats.first_ms, 87.112);
  EXPECT_EQ(o.provenance.not_reported, std::vector<std::string>{"p99_ms"});
}

TEST(OutputParsers, EdgecompileBenchJsonAndGarbage) {
  const auto o = parse_benchmark_output(
      "ssh banner line\n{\"model\": \"m.tflite\", \"iterations\": 20, \"warmup\": 2, \"init_ms\": 3.5, "
      "\"first_inference_ms\": 4.0, \"mean_ms\": 2.0, \"p50_ms\": 1.9, \"p95_ms\": 2.5, \"p99_ms\": 2.9, \"min_ms\": 1.8, "
      "\"max_ms\": 3.0, \"stdev_ms\": 0.2, \"throughput_per_s\": 500.0, \"peak_memory_mib\": 12.5}\n");
  EXPECT_EQ(o.stats.iterations, 20);
  EXPECT_DOUBLE_EQ(o.stats.p99_ms, 2.9);
  EXPECT_DOUBLE_EQ(o.init_ms, 3.5);
  EXPECT_DOUBLE_EQ(o.peak_memory_mib, 12.5);
  EXPECT_TRUE(o.provenance.not_reported.empty());
  EXPECT_THROW(parse_benchmark_output("Segmentation fault\n"), ec::EdgeCompilerError);
  EXPECT_THROW(parse_benchmark_output("{\"error\": 1}"), ec::EdgeCompilerError);
}

TEST(Process, CapturesOutputExitCodeAndTimesOut) {
  auto r = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.last_error_line(), "err");
  EXPECT_FALSE(r.timed_out);
  r = run_process({"sleep", "5"}, 1);
  EXPECT_TRUE(r.timed_out);
  r = run_process({"/nonexistent/program"}, 1);
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

TEST(Providers, LocalInvokerMeasuresTheSampleOnTheCpuRuntime) {
  Job job;
  job.artefact = EC_SAMPLE_MODEL;
  job.iterations = 5;
  job.warmup = 1;
  job.threads = 1;
  const auto o = builtin_providers().table<Invoker>().run(job, ProviderConfig{});
  EXPECT_EQ(o.stats.iterations, 5);
  EXPECT_GT(o.stats.mean_ms, 0);
  EXPECT_GE(o.stats.p99_ms, o.stats.p95_ms);
  EXPECT_GE(o.stats.p95_ms, o.stats.p50_ms);
  EXPECT_GE(o.stats.p50_ms, o.stats.min_ms);
  EXPECT_GT(o.init_ms, 0);
  EXPECT_EQ(o.provenance.provider, "local");
}
