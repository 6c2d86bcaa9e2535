// The boundary between the TorchScript frontend (in ec_frontends, always built)
// and its plugin (libec_torchscript.so, built with Debian's libtorch-dev). One C
// entry point, looked up with dlsym; both sides are built from the same tree,
// and the version guards against a stale plugin beside a newer binary.
#pragma once

#include <cstddef>

namespace ec::ir {
struct Graph;
}
namespace ec::frontends {
struct OpenOptions;
}

#define EC_TORCHSCRIPT_PLUGIN_SYMBOL "ec_torchscript_import_v2"

extern "C" {
/// Returns 0 and fills `*graph`; else 1 (the file is refused) or 2 (an op has no
/// mapping) with a one-line message in `error` (NUL-terminated, truncated to `error_size`).
using EcTorchScriptImportFn = int (*)(const char* path, const ec::frontends::OpenOptions* opts, ec::ir::Graph* graph,
                                      char* error, std::size_t error_size);
}
