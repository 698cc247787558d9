// A launch inside a host loop over streams: each stream processes one chunk.
// The launch configuration does not depend on the loop variable, so it is
// evaluable (grid (chunk + 255) / 256, block 256); the kernel's 'n' argument
// is 'chunk' and its pointer argument is offset by s * chunk.
#include <cuda_runtime.h>

__global__ void relu_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = 3.0f * fmaxf(v, 0.0f);
  }
}

void run(float *x, int total) {
  const int nstreams = 4;
  cudaStream_t streams[nstreams];
  for (int s = 0; s < nstreams; ++s)
    cudaStreamCreate(&streams[s]);
  int chunk = total / nstreams;
  for (int s = 0; s < nstreams; ++s) {
    relu_scale<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(x + s * chunk, chunk);
  }
  for (int s = 0; s < nstreams; ++s)
    cudaStreamDestroy(streams[s]);
}

// Here the grid does depend on the loop variable: one launch per iteration
// (and --param s=VALUE picks one).
void run_growing(float *x, int total) {
  for (int s = 1; s <= 4; ++s)
    relu_scale<<<s, 256>>>(x, total);
}
