// Input of nvccdb/cmake-project.test.
// cuda-roofline: launch pitched=1/32
#include "nvccdb/layout.cuh"

__global__ void pitched(const float *in, float *out) {
  __shared__ float s[32 * pitch()];
  int tx = threadIdx.x;
  s[tx] = in[tx];
  __syncthreads();
  out[tx] = s[tx * pitch()] * 3.0f;
}
