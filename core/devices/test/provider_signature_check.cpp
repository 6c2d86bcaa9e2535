// The compile-time check of provider signatures (core/devices/provider.h).
// Built as is, every provider matches its component and this runs (devices_provider_signature_ok).
// Built with EC_BAD_PROVIDER (devices_provider_signature_mismatch), one provider of the
// invoker returns runtime::Stats instead of InvokeOutcome: the build must fail with
// ProviderTable::add's static_assert message.
#include "core/devices/provider.h"

using namespace ec::devices;

InvokeOutcome good_invoker(const Job&, const ProviderConfig&) { return {}; }

#ifdef EC_BAD_PROVIDER
ec::runtime::Stats bad_invoker(const Job&, const ProviderConfig&) { return {}; }
#endif

int main() {
  ProviderTable<Invoker> invokers;
  invokers.add("good", &good_invoker);
  invokers.add("lambda", [](const Job&, const ProviderConfig&) { return InvokeOutcome{}; });
  ProviderTable<Compiler> compilers;
  compilers.add("lambda", [](const Job& j, const ProviderConfig&) -> CompileOutcome { return {j.output, {}, {}}; });
  static_assert(!provider_matches<Invoker, decltype(&local_compile)>, "a compiler is not an invoker");
  static_assert(!provider_matches<Invoker, InvokeOutcome (*)(Job, ProviderConfig)>, "parameters must match exactly");
#ifdef EC_BAD_PROVIDER
  invokers.add("bad", &bad_invoker);
#endif
  return invokers.types().size() == 2 && compilers.has("lambda") ? 0 : 1;
}
