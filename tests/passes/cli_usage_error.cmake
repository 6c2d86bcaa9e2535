# A CLI request that must be refused as a usage error: `${EXE} ${ARGS}` exits 2 with
# exactly one stderr line matching PATTERN, and (with -DNOT_WRITTEN=path) writes
# neither that file nor its temporary.
if(NOT_WRITTEN)
  file(REMOVE ${NOT_WRITTEN} ${NOT_WRITTEN}.tmp)
endif()
string(REPLACE "|" ";" args "${ARGS}")  # arguments separated by |
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "exit code ${rc}, expected 2: ${err}")
endif()
string(STRIP "${err}" err)
if(err MATCHES "\n" OR NOT err MATCHES "${PATTERN}")
  message(FATAL_ERROR "unexpected message: ${err}")
endif()
if(NOT_WRITTEN)
  if(EXISTS ${NOT_WRITTEN} OR EXISTS ${NOT_WRITTEN}.tmp)
    message(FATAL_ERROR "${NOT_WRITTEN} was written")
  endif()
endif()
