// A target folder: foo_backend.h declares foo_backend_entry().
#pragma once
namespace ec::backends {
BackendEntry foo_backend_entry();
}
