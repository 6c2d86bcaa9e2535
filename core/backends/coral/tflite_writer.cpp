// The .tflite artefact, through the TFLite writer (core/backends/tflite, issue 14):
// the graph compile() partitioned, overrides applied, written atomically.
#include "core/backends/coral/coral_backend.h"
#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/passes/pass_manager.h"
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
  o.legalise_int8 = false;  // the overrides first; what is left is decomposed when written
  return o;
}

void write_edgetpu_tflite(const ir::Graph& graph, const Partition&, const std::string& path) {
  // Units no override replaced and TFLite has no builtin for (an int8 HardSigmoid left on
  // the CPU, say) become the ops the TFLite writer makes of them.
  ir::Graph g = graph;
  passes::PassManagerOptions po;
  po.record_diffs = false;
  passes::make_pipeline({"LegaliseTfliteInt8", "LegaliseTflite"}, po).run(g);
  const std::string bytes = tflite::save_tflite(g, edgetpu_write_options());
  util::write_file_atomically(path, bytes);
}

}  // namespace ec::backends::coral
