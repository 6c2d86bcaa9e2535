// The IR-text frontend: reads the IR's own text form (docs/IR_TEXT_FORMAT.md),
// so `edgecompile inspect/optimize/run` take .eir files, e.g. the pass tests'
// inputs and the output of `optimize --output`.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

class EirFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "eir"; }
  std::string_view summary() const override { return "edgecompiler IR text (.eir)"; }
  /// 1 for a `.eir` file whose text (after blank lines and // comments) starts
  /// with `graph "`; 0.9 for that text under another extension; 0.3 for `.eir`
  /// otherwise (so its parse error is what the user sees); else 0.
  float match(std::span<const std::byte> head, const std::string& path) const override;
  /// ir::parse, then ir::validate_or_throw; errors become FrontendError "path: line L: ...".
  ir::Graph open(const std::string& path, const OpenOptions& opts) const override;
};

std::unique_ptr<Frontend> make_eir_frontend();

}  // namespace ec::frontends
