// The .tflite artefact. The TFLite writer (IR -> .tflite, issue 14) is being
// written on branch `tflite`; until it is merged this build writes nothing and
// says so, rather than faking an output file.
#include "core/backends/coral/coral_backend.h"
#include "core/errors.h"

namespace ec::backends::coral {

bool tflite_writer_available(std::string* why) {
  if (why) *why = "this build has no .tflite writer yet (issue 14, branch tflite); partition and estimate only";
  return false;
}

void write_edgetpu_tflite(const ir::Graph&, const Partition&, const std::string& path) {
  throw BackendError("coral", "cannot write '" + path + "': this build has no .tflite writer yet (issue 14)");
}

}  // namespace ec::backends::coral
