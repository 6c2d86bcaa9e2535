// The .tflite artefact, through the TFLite writer (core/backends/tflite, issue 14):
// the graph compile() partitioned, overrides applied, written atomically.
#include "core/backends/coral/coral_backend.h"
#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/util/atomic_file.h"

namespace ec::backends::coral {

bool tflite_writer_available(std::string* why) {
  if (why) why->clear();
  return true;
}

tflite::TfliteWriteOptions edgetpu_write_options() {
  tflite::TfliteWriteOptions o;
  o.nhwc_io = true;  // the Edge TPU reads NHWC; no TRANSPOSE at the model's input
  o.int8_io = true;  // fully quantised: int8 in and out, no float QUANTIZE/DEQUANTIZE left on the CPU
  return o;
}

void write_edgetpu_tflite(const ir::Graph& graph, const Partition&, const std::string& path) {
  const std::string bytes = tflite::save_tflite(graph, edgetpu_write_options());
  util::write_file_atomically(path, bytes);
}

}  // namespace ec::backends::coral
