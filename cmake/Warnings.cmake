# One INTERFACE target carries the warning flags; every project target links it.
add_library(project_warnings INTERFACE)
target_compile_options(project_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wnull-dereference
  -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
if(INVOICE_LOADER_WERROR)
  target_compile_options(project_warnings INTERFACE -Werror)
endif()
