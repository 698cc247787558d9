// A kernel lost through the helper of broken.h that clang rejects.
#include "broken.h"

__global__ void scale(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scaled(in[i]);
}
