// The Core ML frontend: reads ML Programs (.mlpackage folders, and .mlmodel
// files with their weights/ beside them) back into the IR, so a package the
// Metal backend wrote, or one from coremltools, can be inspected and run on the
// CPU runtime. fp16 values are widened to f32 (the CPU runtime computes in f32);
// casts between float types become Identity. See README.md.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

class CoremlFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "coreml"; }
  std::string_view summary() const override { return "Core ML ML Programs (.mlpackage, .mlmodel)"; }
  /// 1 for a .mlpackage (folder with Manifest.json); 0.9 for a .mlmodel whose
  /// first byte is Model.specificationVersion's tag (0x08); else 0.
  float match(std::span<const std::byte> head, const std::string& path) const override;
  ir::Graph open(const std::string& path, const OpenOptions& opts) const override;
};

std::unique_ptr<Frontend> make_coreml_frontend();

}  // namespace ec::frontends
