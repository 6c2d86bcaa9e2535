# Writes ec_version.h from version.h.in with the git revision of the source tree now
# (run at every build by the ec_version target; the file changes only when the revision
# does, so only the few files that print it recompile).
# cmake -DSRC=... -DOUT=... -DPROJECT_VERSION=... -DEC_BUILD_TYPE_NAME=... -P version.cmake
execute_process(COMMAND git -C ${SRC} rev-parse --short HEAD
                OUTPUT_VARIABLE EC_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR EC_GIT_REVISION STREQUAL "")
  set(EC_GIT_REVISION unknown)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.h.in ${OUT}.tmp @ONLY)
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)
