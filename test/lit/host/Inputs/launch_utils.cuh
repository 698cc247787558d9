// Launch helpers shared by the .cu files of this directory, kept in a
// common header the way projects keep them (llm.c's common.h, a CMake
// project's cuda_utils.cuh).
#pragma once

#include <algorithm>
#include <cuda_runtime.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

namespace util {

template <typename T>
__host__ __device__ constexpr T ceil_div(T dividend, T divisor) {
  return (dividend + divisor - 1) / divisor;
}

inline int div_up(int n, int d) { return n / d + (n % d != 0); }

static inline unsigned round_up(unsigned n, unsigned multiple) {
  return ((n + multiple - 1) / multiple) * multiple;
}

// Threads per block for n elements: small problems get small blocks so
// that more SMs have work.
inline int pick_block_size(int n) {
  int block = 256;
  if (n < 4096)
    block = 128;
  if (n < 1024)
    return 64;
  return block;
}

// Blocks for a grid-stride kernel over n elements, capped.
inline int grid_for(int n, int block, int max_blocks = 1024) {
  const int blocks = ceil_div(n, block);
  return std::min(blocks, max_blocks);
}

// The smallest power of two >= v (a reduction's block size).
inline int next_pow2(int v) {
  int p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

// A 2D grid covering a rows x cols matrix with the given block.
inline dim3 grid_2d(int rows, int cols, dim3 block) {
  dim3 grid;
  grid.x = ceil_div<int>(cols, block.x);
  grid.y = ceil_div<int>(rows, block.y);
  return grid;
}

} // namespace util
