// Input of nvccdb/cmake-project.test.
// cuda-roofline: launch gather=1/32
#include "nvccdb/layout.cuh"

#ifndef _OPENMP
#error "_OPENMP must come from -Xcompiler=-fopenmp"
#endif

__global__ void gather(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = 2.0f * in[tx * STRIDE];
}
