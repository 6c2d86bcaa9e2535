// The ONE table of built-in providers: {component, type, function}.
#include "core/devices/provider.h"

namespace ec::devices {

ProviderRegistry builtin_providers() {
  ProviderRegistry r;
  r.table<Compiler>().add("local", &local_compile);
  r.table<Compiler>().add("ssh", &ssh_compile);
  r.table<Profiler>().add("local", &local_profile);
  r.table<Profiler>().add("ssh", &ssh_profile);
  r.table<Invoker>().add("local", &local_invoke);
  r.table<Invoker>().add("ssh", &ssh_invoke);
  return r;
}

std::string default_remote_command(std::string_view component) {
  if (component == "compiler") return "edgecompile compile {artefact} --target {target} --output {output}";
  if (component == "profiler")
    return "edgecompile bench {artefact} --json --profile --iterations {iterations} --warmup {warmup} --threads {threads}";
  return "edgecompile bench {artefact} --json --iterations {iterations} --warmup {warmup} --threads {threads}";
}

}  // namespace ec::devices
