// The TorchScript frontend: archives saved with torch.jit.save (a zip holding
// code/, data.pkl, constants.pkl and data/). The import itself lives in a
// plugin (libec_torchscript.so, built when Debian's libtorch-dev is present)
// that is loaded only when a TorchScript file is opened: libtorch takes most of
// a second to load, which no other command should pay.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

std::unique_ptr<Frontend> make_torchscript_frontend();

/// The checks made before libtorch sees a file: a torch.save pickle or state dict,
/// a zip without code/ or constants.pkl. Throws FrontendError naming what it is.
void check_torchscript_archive(const std::string& path);

}  // namespace ec::frontends
