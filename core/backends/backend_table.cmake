# The backend table, written from the target folders (core/backends/backend_registry.h).
#
# A target folder is core/backends/<name>/ holding <name>_backend.h that declares
# `BackendEntry <name>_backend_entry();` (core/backends/backend.h). Nothing else
# names a target: the table (backend_table()) is written at configure time from the
# folders found, so adding a target is adding its folder. A folder with its own
# CMakeLists.txt is built behind EC_BUILD_<NAME> (default ON) as its own target;
# one without is part of ec_backends (the reference, cpu). The layering test derives
# the target names it forbids elsewhere from the same rule (ec_target_folders).

# ec_target_folders(OUT ROOT): the target folders directly under ROOT, sorted.
function(ec_target_folders out root)
  file(GLOB children LIST_DIRECTORIES true ${root}/*)
  list(SORT children)
  set(found "")
  foreach(dir IN LISTS children)
    get_filename_component(name ${dir} NAME)
    if(IS_DIRECTORY ${dir} AND EXISTS ${dir}/${name}_backend.h)
      file(STRINGS ${dir}/${name}_backend.h decl REGEX "BackendEntry[ \t]+${name}_backend_entry[ \t]*\\(")
      if(decl)
        list(APPEND found ${dir})
      endif()
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# ec_write_backend_table(OUT DIR...): writes the source defining backend_table() with
# one entry per target folder DIR (the reference moved last), rewritten only on change.
function(ec_write_backend_table out)
  set(includes "")
  set(entries "")
  foreach(dir IN LISTS ARGN)
    get_filename_component(name ${dir} NAME)
    if(NOT EXISTS ${dir}/${name}_backend.h)
      message(FATAL_ERROR "${dir} is no target folder: it needs ${name}_backend.h declaring ${name}_backend_entry()")
    endif()
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${dir})
    string(APPEND includes "#include \"${rel}/${name}_backend.h\"\n")
    string(APPEND entries "      ${name}_backend_entry(),  // ${rel}/\n")
  endforeach()
  file(CONFIGURE OUTPUT ${out} CONTENT "// Written by core/backends/backend_table.cmake from the target folders: do not edit.
#include <algorithm>

#include \"core/backends/backend_registry.h\"
${includes}
namespace ec::backends {

std::vector<BackendEntry> backend_table() {
  std::vector<BackendEntry> table{
${entries}  };
  // by folder name, the reference last (\"auto\" falls back to it)
  std::stable_partition(table.begin(), table.end(), [](const BackendEntry& e) { return !e.reference; });
  return table;
}

}  // namespace ec::backends
" @ONLY)
endfunction()

# ec_backend_table_variant(TARGET DIR...): an OBJECT library TARGET holding a backend
# table of this build's target folders plus the folders DIR (each a target folder
# outside core/backends, e.g. a test's stub target). An executable that takes
# $<TARGET_OBJECTS:TARGET> (and the extra folders' objects) sees those targets too:
# its backend_table() comes before the archive's, which the linker then leaves out.
function(ec_backend_table_variant target)
  set(out ${PROJECT_BINARY_DIR}/generated/core/backends/backend_table_${target}.cpp)
  ec_write_backend_table(${out} ${EC_TARGET_FOLDERS} ${ARGN})
  add_library(${target} OBJECT ${out})
  target_link_libraries(${target} PUBLIC ec_backends)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
