// cooperative_groups: thread_block sync and a 32-wide tile reduction
// (cg::reduce, then a hand-written tiled_partition<32> shfl_down loop).

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_reduce_sum(const float *x, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n)
    v = x[i] * x[i];
  block.sync();
  float s = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    atomicAdd(out, s);
}

__global__ void cg_tile_shfl(const float *x, float *partial, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  for (int off = tile.size() / 2; off > 0; off /= 2)
    v += tile.shfl_down(v, off);
  block.sync();
  if (tile.thread_rank() == 0)
    partial[i / 32] = v;
}

__global__ void cg_reduce16(const float *x, float *partial, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float s = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    partial[i / 16] = s;
}

// Max-reduction: cg::greater selects, so shuffles but no FLOPs.
__global__ void cg_max(const float *x, float *out, int n) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : -1e30f;
  float m = cg::reduce(tile, v, cg::greater<float>());
  if (tile.thread_rank() == 0)
    out[i / 32] = m;
}

void launch_cg(const float *x, float *out, float *partial, int n) {
  cg_reduce_sum<<<(n + 255) / 256, 256>>>(x, out, n);
  cg_tile_shfl<<<(n + 255) / 256, 256>>>(x, partial, n);
  cg_reduce16<<<(n + 255) / 256, 256>>>(x, partial, n);
  cg_max<<<(n + 255) / 256, 256>>>(x, partial, n);
}
