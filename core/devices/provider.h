// Components and their providers (the design notes, "Devices and providers").
//
// A component (compiler, profiler, invoker) is a job with one run() signature,
// `Run`. Its providers are registered in a table under a plain string type
// ("local", "ssh", or any user string); add() refuses, at compile time, a provider
// whose signature is not exactly the component's Run (provider_signature_check.cpp
// is the compile-fail test).
#pragma once

#include <concepts>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/devices/provider_config.h"
#include "core/errors.h"
#include "core/session/session.h"

namespace ec::devices {

/// What a component is asked to do.
struct Job {
  std::string artefact;          // local path of the model or compiled artefact
  std::string target = "cpu";    // a backend_table() name: the runtime the artefact runs on, or the backend that compiles it
  std::string output;            // compiler: where the artefact goes
  int iterations = 50, warmup = 5, threads = 0;
};

/// Where figures came from, said with every result ("measured on HOST over ssh", ...).
struct Provenance {
  std::string provider;     // the provider type that ran
  std::string where;        // "this machine", "user@host:port"
  std::string tool_output;  // what the remote command printed (ssh), for --verbose
  std::vector<std::string> not_reported;  // statistics the tool did not give (left 0)
};

struct CompileOutcome {
  std::string artefact;
  std::string log;
  Provenance provenance;
};
struct InvokeOutcome {
  runtime::Stats stats;
  double init_ms = -1;          // -1: not reported
  double peak_memory_mib = -1;  // -1: not reported
  Provenance provenance;
};
struct ProfileOutcome {
  InvokeOutcome run;
  std::vector<runtime::RunProfile::Entry> ops;  // mean time per op
};

/// The components: a name and the one signature every provider of it has.
struct Compiler {
  static constexpr std::string_view name = "compiler";
  using Run = CompileOutcome(const Job&, const ProviderConfig&);
};
struct Profiler {
  static constexpr std::string_view name = "profiler";
  using Run = ProfileOutcome(const Job&, const ProviderConfig&);
};
struct Invoker {
  static constexpr std::string_view name = "invoker";
  using Run = InvokeOutcome(const Job&, const ProviderConfig&);
};

template <class C>
concept Component = requires {
  { C::name } -> std::convertible_to<std::string_view>;
  typename C::Run;
} && std::is_function_v<typename C::Run>;

namespace detail {
template <class T> struct call_signature;  // the R(Args...) of a callable
template <class R, class... A> struct call_signature<R (*)(A...)> { using type = R(A...); };
template <class R, class... A> struct call_signature<R(A...)> { using type = R(A...); };
template <class C, class R, class... A> struct call_signature<R (C::*)(A...) const> { using type = R(A...); };
template <class C, class R, class... A> struct call_signature<R (C::*)(A...)> { using type = R(A...); };
template <class F, class = void> struct signature_of { using type = void; };
template <class F> struct signature_of<F, std::enable_if_t<std::is_function_v<std::remove_pointer_t<F>>>> {
  using type = typename call_signature<std::remove_pointer_t<F>>::type;
};
template <class F> struct signature_of<F, std::void_t<decltype(&F::operator())>> {
  using type = typename call_signature<decltype(&F::operator())>::type;
};
}  // namespace detail

/// The exact signature of a function, function pointer or (non-generic) lambda; void when it has none.
template <class F>
using signature_of_t = typename detail::signature_of<std::decay_t<F>>::type;

/// True when F's signature is exactly C::Run (same result, same parameter types).
template <class C, class F>
inline constexpr bool provider_matches = std::is_same_v<signature_of_t<F>, typename C::Run>;

/// The providers of one component, by type.
template <Component C>
class ProviderTable {
 public:
  template <class F>
  void add(std::string type, F provider) {
    static_assert(provider_matches<C, F>, "provider signature does not match the component's run()");
    providers_[std::move(type)] = std::function<typename C::Run>(std::move(provider));
  }
  bool has(const std::string& type) const { return providers_.count(type) != 0; }
  std::vector<std::string> types() const {
    std::vector<std::string> v;
    for (const auto& [t, f] : providers_) v.push_back(t);
    return v;
  }
  /// Runs the provider the config names. Throws EdgeCompilerError (Usage) listing the types for an unknown one.
  auto run(const Job& job, const ProviderConfig& config) const {
    auto it = providers_.find(config.type);
    if (it == providers_.end()) {
      std::string known;
      for (const auto& t : types()) known += (known.empty() ? "" : ", ") + t;
      throw EdgeCompilerError(ErrorKind::Usage, "no '" + config.type + "' provider for the " + std::string(C::name) +
                                                    " (known: " + known + ")");
    }
    return it->second(job, config);
  }

 private:
  std::map<std::string, std::function<typename C::Run>> providers_;
};

/// One table per component.
class ProviderRegistry {
 public:
  template <Component C>
  ProviderTable<C>& table() {
    if constexpr (std::is_same_v<C, Compiler>) return compilers_;
    else if constexpr (std::is_same_v<C, Profiler>) return profilers_;
    else return invokers_;
  }
  template <Component C>
  const ProviderTable<C>& table() const {
    return const_cast<ProviderRegistry*>(this)->table<C>();
  }

 private:
  ProviderTable<Compiler> compilers_;
  ProviderTable<Profiler> profilers_;
  ProviderTable<Invoker> invokers_;
};

/// A registry holding the built-in providers: "local" and "ssh" for every component (provider_registry.cpp).
ProviderRegistry builtin_providers();

/// Runs component C for a device: resolves its config for the component, then its provider.
template <Component C>
auto run_component(const ProviderRegistry& registry, const DeviceConfig& device, const Job& job) {
  return registry.table<C>().run(job, resolve_provider_config(device, C::name));
}

// The built-in providers (local_provider.cpp, ssh_provider.cpp).
CompileOutcome local_compile(const Job& job, const ProviderConfig& config);
ProfileOutcome local_profile(const Job& job, const ProviderConfig& config);
InvokeOutcome local_invoke(const Job& job, const ProviderConfig& config);
CompileOutcome ssh_compile(const Job& job, const ProviderConfig& config);
ProfileOutcome ssh_profile(const Job& job, const ProviderConfig& config);
InvokeOutcome ssh_invoke(const Job& job, const ProviderConfig& config);

/// The remote command a component runs over ssh when the config gives none.
std::string default_remote_command(std::string_view component);

}  // namespace ec::devices
