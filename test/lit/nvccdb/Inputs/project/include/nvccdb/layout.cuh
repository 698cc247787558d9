// Input of nvccdb/cmake-project.test: found only through the include
// directory of the target, which the Makefile generator hides in a response
// file.
#ifndef NVCCDB_LAYOUT_CUH
#define NVCCDB_LAYOUT_CUH

#ifndef TILE
#error "TILE must come from target_compile_definitions"
#endif

// Elements between the lanes of gather's load.
#define STRIDE 4

// Words between the lanes of pitched's shared load: a constexpr host
// function, called from device code.
constexpr int pitch() { return TILE; }

#endif
