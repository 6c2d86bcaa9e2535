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

}  // namespace ec::frontends
