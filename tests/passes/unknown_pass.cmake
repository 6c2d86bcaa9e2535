# `edgecompile optimize --passes Nope MODEL` must exit 2 with one line naming the valid passes.
execute_process(COMMAND ${EXE} optimize --passes Cleanup,Nope ${MODEL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "exit code ${rc}, expected 2: ${err}")
endif()
string(STRIP "${err}" err)
if(err MATCHES "\n" OR NOT err MATCHES "unknown pass 'Nope'; valid passes: Cleanup, ConstantFolding")
  message(FATAL_ERROR "unexpected message: ${err}")
endif()
