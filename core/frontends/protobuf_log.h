#pragma once
// libprotobuf prints its own complaints to stderr ("[libprotobuf ERROR ...] String field
// contains invalid UTF-8 data ...") before the parse returns false - a second line beside
// the reader's one-line error. Every reader that parses protobuf calls this first: the
// library's messages go to the debug log (`-v`) instead.

namespace ec::frontends {

/// Installs the handler once per process (thread-safe); cheap after the first call.
void route_protobuf_log_to_debug();

}  // namespace ec::frontends
