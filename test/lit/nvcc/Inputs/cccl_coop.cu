// Written for nvcc: cooperative groups and libcu++ (cuda::std). In CUDA 13
// their CCCL headers live in include/cccl/, which nvcc searches and clang's
// driver does not: cooperative_groups.h itself includes
// <cuda/std/type_traits>.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/limits>
#include <cstdio>

namespace cg = cooperative_groups;

// The maximum of each warp's 32 values.
__global__ void warp_max(const float *x, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : cuda::std::numeric_limits<float>::lowest();
  v = cg::reduce(warp, v, cg::greater<float>());
  if (warp.thread_rank() == 0)
    out[i / 32] = v;
}

// Saturating add into the int range.
__global__ void add_sat(const int *a, const int *b, int *c, int n) {
  int i = cg::this_grid().thread_rank();
  if (i < n) {
    long long s = (long long)a[i] + b[i];
    c[i] = (int)cuda::std::min<long long>(
        cuda::std::max<long long>(s, cuda::std::numeric_limits<int>::min()),
        cuda::std::numeric_limits<int>::max());
  }
}

int main() {
  const int n = 1 << 20;
  float *x, *out;
  int *a, *b, *c;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, n / 32 * sizeof(float));
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  warp_max<<<n / 256, 256>>>(x, out, n);
  add_sat<<<n / 256, 256>>>(a, b, c, n);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
