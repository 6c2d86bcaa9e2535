#include "core/backends/foo/foo_backend.h"
// its own folder may name it
std::string name() { return "foo"; }
