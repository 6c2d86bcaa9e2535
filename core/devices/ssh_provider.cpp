// The "ssh" providers: copy the artefact with the system's scp, run the configured
// command with ssh, read its output (core/devices/output_parsers.h). Host keys are
// not checked (StrictHostKeyChecking=no against /dev/null): boards on a lab network
// are re-imaged often; pass ssh_options to tighten this.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/devices/output_parsers.h"
#include "core/devices/process.h"
#include "core/devices/provider.h"

namespace ec::devices {
namespace {

std::string destination(const ProviderConfig& c) { return c.user.empty() ? c.host : c.user + "@" + c.host; }
std::string where(const ProviderConfig& c) { return destination(c) + ":" + std::to_string(c.port); }

std::vector<std::string> base_args(const ProviderConfig& c, bool scp) {
  std::vector<std::string> a = {scp ? "scp" : "ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                                "-o", "ConnectTimeout=" + std::to_string(std::min(c.timeout_s, 30)),
                                scp ? "-P" : "-p", std::to_string(c.port)};
  if (!c.key.empty()) {
    a.push_back("-i");
    a.push_back(c.key);
  }
  for (const auto& o : c.ssh_options) {
    a.push_back("-o");
    a.push_back(o);
  }
  return a;
}

void check_config(const ProviderConfig& c, std::string_view component) {
  if (c.host.empty())
    throw EdgeCompilerError(ErrorKind::Usage, "ssh provider (" + std::string(component) +
                                                  "): the device's config has no host (set it in devices.json or the workbench's Devices panel)");
}

// Runs ssh or scp; a failure names the step, the host and ssh's own last line.
ProcessResult run_step(const std::vector<std::string>& argv, const ProviderConfig& c, const std::string& step) {
  auto r = run_process(argv, c.timeout_s);
  if (r.timed_out)
    throw EdgeCompilerError(ErrorKind::Io, "ssh provider: " + step + " on " + where(c) + " took longer than " +
                                               std::to_string(c.timeout_s) + " s (timeout_s)");
  if (r.exit_code != 0) {
    const std::string why = r.last_error_line().empty() ? "exit code " + std::to_string(r.exit_code) : r.last_error_line();
    throw EdgeCompilerError(ErrorKind::Io, "ssh provider: " + step + " on " + where(c) + " failed: " + why,
                            "stdout:\n" + r.out + "\nstderr:\n" + r.err);
  }
  return r;
}

std::string expand(std::string cmd, const std::map<std::string, std::string>& vars) {
  for (const auto& [k, v] : vars) {
    const std::string key = "{" + k + "}";
    for (auto at = cmd.find(key); at != std::string::npos; at = cmd.find(key, at + v.size())) cmd.replace(at, key.size(), v);
  }
  return cmd;
}

struct RemoteRun {
  ProcessResult result;
  std::string remote_artefact;
};

// mkdir, scp, ssh COMMAND: the steps every ssh component shares.
RemoteRun copy_and_run(const Job& job, const ProviderConfig& c, std::string_view component, const std::string& output = {}) {
  check_config(c, component);
  if (!std::filesystem::is_regular_file(job.artefact))
    throw EdgeCompilerError(ErrorKind::Io, job.artefact + ": no such file to copy to " + where(c));
  const std::string remote = c.remote_dir + "/" + std::filesystem::path(job.artefact).filename().string();
  auto mkdir = base_args(c, false);
  mkdir.push_back(destination(c));
  mkdir.push_back("mkdir -p " + shell_quote(c.remote_dir));
  run_step(mkdir, c, "creating " + c.remote_dir);
  auto scp = base_args(c, true);
  scp.push_back(job.artefact);
  scp.push_back(destination(c) + ":" + remote);
  run_step(scp, c, "copying " + job.artefact);
  const std::string command =
      expand(c.remote_command.empty() ? default_remote_command(component) : c.remote_command,
             {{"artefact", shell_quote(remote)}, {"remote_dir", shell_quote(c.remote_dir)},
              {"iterations", std::to_string(job.iterations)}, {"warmup", std::to_string(job.warmup)},
              {"threads", std::to_string(job.threads)}, {"output", shell_quote(output)},
              {"target", shell_quote(job.target)}});
  auto ssh = base_args(c, false);
  ssh.push_back(destination(c));
  ssh.push_back(command);
  return {run_step(ssh, c, "running `" + command + "`"), remote};
}

Provenance remote_provenance(const ProviderConfig& c, const ProcessResult& r) {
  return {"ssh", where(c), r.out + (r.err.empty() ? "" : "\n[stderr]\n" + r.err), {}};
}

}  // namespace

InvokeOutcome ssh_invoke(const Job& job, const ProviderConfig& c) {
  const auto run = copy_and_run(job, c, "invoker");
  InvokeOutcome o;
  try {
    o = parse_benchmark_output(run.result.out);
  } catch (const EdgeCompilerError& e) {
    throw EdgeCompilerError(ErrorKind::Input, "ssh provider: the output of the remote command on " + where(c) +
                                                  " has no statistics: " + e.what(), run.result.out);
  }
  auto not_reported = std::move(o.provenance.not_reported);
  o.provenance = remote_provenance(c, run.result);
  o.provenance.not_reported = std::move(not_reported);
  return o;
}

ProfileOutcome ssh_profile(const Job& job, const ProviderConfig& c) {
  const auto run = copy_and_run(job, c, "profiler");
  ProfileOutcome p;
  p.run = parse_benchmark_output(run.result.out);
  auto not_reported = std::move(p.run.provenance.not_reported);
  p.run.provenance = remote_provenance(c, run.result);
  p.run.provenance.not_reported = std::move(not_reported);
  // `edgecompile bench --profile --json` gives the time per op type.
  const auto brace = run.result.out.find('{');
  if (brace != std::string::npos) {
    try {
      const auto j = nlohmann::json::parse(run.result.out.substr(brace));
      if (j.contains("profile_ms_by_op_type"))
        for (const auto& [type, ms] : j["profile_ms_by_op_type"].items()) p.ops.push_back({type, type, ms.get<double>()});
    } catch (const nlohmann::json::exception&) {
    }
  }
  return p;
}

CompileOutcome ssh_compile(const Job& job, const ProviderConfig& c) {
  if (job.output.empty()) throw EdgeCompilerError(ErrorKind::Usage, "ssh compiler: no output path for the artefact");
  const std::string remote_out = c.remote_dir + "/" + std::filesystem::path(job.output).filename().string();
  const auto run = copy_and_run(job, c, "compiler", remote_out);
  // Copied next to the output and renamed over it: never a half-written artefact.
  const std::string part = job.output + ".part";
  auto scp = base_args(c, true);
  scp.push_back(destination(c) + ":" + remote_out);
  scp.push_back(part);
  try {
    run_step(scp, c, "copying back " + remote_out);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(part, ignored);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(part, job.output, ec);
  if (ec) throw EdgeCompilerError(ErrorKind::Io, job.output + ": cannot write the artefact: " + ec.message());
  CompileOutcome o;
  o.artefact = job.output;
  o.log = run.result.out;
  o.provenance = remote_provenance(c, run.result);
  return o;
}

}  // namespace ec::devices
