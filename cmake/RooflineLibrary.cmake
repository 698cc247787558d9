# roofline_add_library(NAME SOURCES... [DEPENDS LIB...])
#
# One layer of the analysis library (docs/design.md, "Layers"), as LLVM's
# component libraries are: a static library whose public include directory
# is its own folder alone, linked to the layers it includes. A header of a
# layer it does not depend on (directly or through those) is not on its
# include path, so an upward #include fails to build; tools/check-layers.py
# checks the same on the #include graph itself.
function(roofline_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  # Linked into the clang plugin and the clang-tidy module as well.
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPENDS})
endfunction()
