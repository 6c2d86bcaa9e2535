#include "core/backends/foo/foo_backend.h"
auto b = make_foo_backend(); /* foo */ int y = FOO_LIMIT;
const char* ok = "food and foobar are other words";
