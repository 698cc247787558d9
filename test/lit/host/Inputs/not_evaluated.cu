// Launchers whose sizes depend on what host evaluation does not follow:
// each launch says what was not evaluated, and why.
#include "launch_utils.cuh"

__global__ void zero_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 0.0f;
}

// Sized by the device: the attribute is written through a pointer.
void zero_per_sm(float *x, int n) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  zero_kernel<<<sms * 4, 256>>>(x, n);
}

// The same, inside a helper.
inline int num_sms() {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return sms;
}
void zero_helper(float *x, int n) {
  const int grid_size = 2 * num_sms();
  zero_kernel<<<grid_size, 256>>>(x, n);
}

// A helper defined in another translation unit.
int tuned_block_size(int n);
void zero_extern(float *x, int n) {
  const int block = tuned_block_size(n);
  zero_kernel<<<util::ceil_div(n, block), block>>>(x, n);
}

// A helper with a switch, which is run.
inline int threads_for(int dtype) {
  switch (dtype) {
  case 0:
    return 256;
  default:
    return 128;
  }
}
void zero_typed(float *x, int n, int dtype) {
  const int threads = threads_for(dtype);
  zero_kernel<<<util::ceil_div(n, threads), threads>>>(x, n);
}

// A block-size list that other code may change: not a constant.
int g_block_sizes[] = {128, 256};
void zero_sweep(float *x, int n) {
  for (int bs : g_block_sizes)
    zero_kernel<<<util::ceil_div(n, bs), bs>>>(x, n);
}

// One launch per chunk of a loop with n / 1024 iterations: too many to
// enumerate.
void zero_chunks(float *x, int n) {
  for (int c = 0; c < n / 1024; ++c)
    zero_kernel<<<c + 1, 1024>>>(x + c * 1024, 1024);
}
