# `edgecompile optimize MODEL --output x.onnx` must exit 2 with one line saying the output
# is the IR text form, and write nothing (no x.onnx, no temporary file).
set(out ${WORK_DIR}/optimized.onnx)
file(REMOVE ${out} ${out}.tmp)
execute_process(COMMAND ${EXE} optimize ${MODEL} --output ${out}
                RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "exit code ${rc}, expected 2: ${err}")
endif()
string(STRIP "${err}" err)
if(err MATCHES "\n" OR NOT err MATCHES "optimized\\.onnx: the output is the IR text form; name the file \\*\\.eir")
  message(FATAL_ERROR "unexpected message: ${err}")
endif()
if(EXISTS ${out} OR EXISTS ${out}.tmp)
  message(FATAL_ERROR "${out} was written")
endif()
