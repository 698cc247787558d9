// Cooperative groups beyond cg::reduce: dynamic tiled_partition, coalesced_threads
// in a branch, tile votes, cg::inclusive_scan, grid-wide sync.
// n = 1000, every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// thread_block::sync, thread_rank and a 32-tile shfl_xor butterfly:
// 5 shuffles + 5 fadds per thread, every thread; rank-0 lanes store.
__global__ void cg_butterfly(const float *x, float *out, int n) {
  cg::thread_block blk = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(blk);
  int i = blk.group_index().x * blk.size() + blk.thread_rank();
  float v = (i < n) ? x[i] : 0.0f;
  blk.sync();
  for (int m = 16; m >= 1; m /= 2)
    v += tile.shfl_xor(v, m);
  if (tile.thread_rank() == 0)
    out[i / 32] = v;
}

// Tile votes (ballot/any/all) and a tile-wide inclusive scan (5 shuffle steps,
// 5 fadds per lane), each lane storing its prefix.
__global__ void cg_scan_votes(const float *x, float *y, unsigned *flags, int n) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float p = cg::inclusive_scan(tile, v);
  unsigned b = tile.ballot(v > 0.0f);
  bool any = tile.any(v > 1.0f);
  if (i < n)
    y[i] = p;
  if (tile.thread_rank() == 0)
    flags[i / 32] = b + (any ? 1u : 0u);
}

// coalesced_threads() inside a data branch: the active set (and so the
// shuffle count and which threads store) depends on the data.
__global__ void cg_coalesced(const float *x, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.0f) {
    cg::coalesced_group g = cg::coalesced_threads();
    if (g.thread_rank() == 0)
      atomicAdd(count, (int)g.size());
  }
}

// Grid-wide synchronization (cooperative launch): two phases, each a 1-FLOP
// elementwise pass; grid.sync() itself does no counted work.
__global__ void cg_grid_two_phase(float *a, float *b, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank();
  if (i < n)
    a[i] = a[i] * 2.0f;
  grid.sync();
  if (i < n)
    b[i] = a[(i + 1) % n] + 1.0f;
}

void run(const float *x, float *y, float *o, unsigned *f, int *c, float *a, float *b, int n) {
  cg_butterfly<<<(n + 255) / 256, 256>>>(x, o, n);
  cg_scan_votes<<<(n + 255) / 256, 256>>>(x, y, f, n);
  cg_coalesced<<<(n + 255) / 256, 256>>>(x, c, n);
  cg_grid_two_phase<<<(n + 255) / 256, 256>>>(a, b, n);
}
