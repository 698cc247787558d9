// cub block primitives: BlockReduce (warp-reductions algorithm), BlockScan
// (raking), BlockLoad. One block of 256 threads per 256 elements, n = 1024,
// <<<4, 256>>>: every thread is in range.
// cuda-roofline: param n=1024
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_load.cuh>

__global__ void cub_block_sum(const float *x, float *out, int n) {
  using BR = cub::BlockReduce<float, 256>;
  __shared__ typename BR::TempStorage tmp;
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float s = BR(tmp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

__global__ void cub_block_scan(const int *x, int *y, int n) {
  using BS = cub::BlockScan<int, 256>;
  __shared__ typename BS::TempStorage tmp;
  int i = blockIdx.x * 256 + threadIdx.x;
  int v = (i < n) ? x[i] : 0;
  int r;
  BS(tmp).ExclusiveSum(v, r);
  if (i < n)
    y[i] = r;
}

// 4 items per thread, direct blocked load, thread-local sum (3 fadds) then
// a block reduction of the partial sums.
__global__ void cub_load_reduce(const float *x, float *out) {
  using BL = cub::BlockLoad<float, 256, 4, cub::BLOCK_LOAD_DIRECT>;
  using BR = cub::BlockReduce<float, 256>;
  __shared__ typename BR::TempStorage tmp;
  float items[4];
  BL().Load(x + blockIdx.x * 1024, items);
  float t = items[0] + items[1] + items[2] + items[3];
  float s = BR(tmp).Sum(t);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

void run(const float *x, float *o, const int *xi, int *yi, int n) {
  cub_block_sum<<<(n + 255) / 256, 256>>>(x, o, n);
  cub_block_scan<<<(n + 255) / 256, 256>>>(xi, yi, n);
  cub_load_reduce<<<n / 1024, 256>>>(x, o);
}
