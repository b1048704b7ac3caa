# sql_apply_order(SRC_DIR OUT_VAR): the files of sql/ in the order migrate
# applies them, as listed in sql/ORDER, checked against the tree: every
# sql/**/*.sql is listed exactly once and every line names such a file, or
# this fails (FATAL_ERROR) saying which line to add or remove where.
#
# Why a list and not the sorted glob: a `language sql` body is checked when
# it is created (check_function_bodies), so a file must come after every
# file whose functions it calls, and an alphabetical accident is no order.
# Why a list and not numeric prefixes: a file is named after its function
# (docs/STYLE), and new files are added by several people at once; one line
# each at the end of a list merges more easily than renumbered names.
# Included by loader/CMakeLists.txt (configure fails) and by
# cmake/EmbedSql.cmake (the build fails on a file added since).
if(POLICY CMP0057)
  cmake_policy(SET CMP0057 NEW) # if(IN_LIST) in script mode (EmbedSql.cmake)
endif()
function(sql_apply_order src_dir out_var)
  set(order_file "${src_dir}/sql/ORDER")
  if(NOT EXISTS "${order_file}")
    message(FATAL_ERROR "sql/ORDER is missing: it lists the files of sql/ in the order migrate applies them")
  endif()
  file(STRINGS "${order_file}" lines)
  set(listed "")
  set(problems "")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" entry)
    if(entry STREQUAL "" OR entry MATCHES "^#")
      continue()
    endif()
    if(NOT EXISTS "${src_dir}/sql/${entry}" OR NOT entry MATCHES "\\.sql$")
      string(APPEND problems "\n  sql/ORDER lists ${entry}, but there is no file sql/${entry}: remove that line from sql/ORDER (or fix its spelling)")
    elseif(entry IN_LIST listed)
      string(APPEND problems "\n  sql/ORDER lists ${entry} twice: remove the later line")
    else()
      list(APPEND listed "${entry}")
    endif()
  endforeach()
  file(GLOB_RECURSE present RELATIVE "${src_dir}/sql" "${src_dir}/sql/*.sql")
  list(SORT present)
  foreach(f IN LISTS present)
    if(NOT f IN_LIST listed)
      string(APPEND problems "\n  sql/${f} is not listed in sql/ORDER: add the line\n      ${f}\n    at the end of sql/ORDER (files are applied top to bottom; a file goes after every file whose functions its language sql bodies call, and the end is after all of them)")
    endif()
  endforeach()
  if(NOT problems STREQUAL "")
    message(FATAL_ERROR "sql/ORDER does not match the files of sql/:${problems}")
  endif()
  set(${out_var} "${listed}" PARENT_SCOPE)
endfunction()

# Script mode, for tests/tools/sql_order_test.sh:
#   cmake -DSRC_DIR=DIR -P cmake/SqlOrder.cmake   checks DIR/sql against DIR/sql/ORDER.
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  sql_apply_order("${SRC_DIR}" checked)
  message(STATUS "sql/ORDER lists every file of sql/ once")
endif()
