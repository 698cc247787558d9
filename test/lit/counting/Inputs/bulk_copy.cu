// Hopper bulk copies as libraries wrap them: one elected thread moves a
// whole tile between global and shared memory with cp.async.bulk, an
// mbarrier tracks the bytes in flight, and a bulk group drains the store.
#include <cstdint>

namespace tma {

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void barrier_init(uint64_t *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(count));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ __forceinline__ void expect_bytes(uint64_t *bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
          smem_addr(bar)),
      "r"(bytes)
      : "memory");
}

__device__ __forceinline__ bool try_wait(uint64_t *bar, unsigned phase) {
  uint32_t done;
  asm volatile("{\n"
               ".reg .pred p;\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               "selp.u32 %0, 1, 0, p;\n"
               "}\n"
               : "=r"(done)
               : "r"(smem_addr(bar)), "r"(phase)
               : "memory");
  return done != 0;
}

template <unsigned Bytes>
__device__ __forceinline__ void load_tile(void *smem, const void *gmem,
                                          uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smem_addr(smem)),
               "l"(gmem), "n"(Bytes), "r"(smem_addr(bar))
               : "memory");
}

__device__ __forceinline__ void store_tile(void *gmem, const void *smem,
                                           unsigned bytes) {
  asm volatile(
      "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gmem),
      "r"(smem_addr(smem)), "r"(bytes)
      : "memory");
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

} // namespace tma

constexpr unsigned kTileFloats = 4096; // 16 KiB

// Each block copies one 16 KiB tile in and out again, scaled by the block's
// threads in between.
__global__ void bulk_scale(const float *__restrict__ in, float *__restrict__ out,
                           float alpha) {
  __shared__ __align__(128) float tile[kTileFloats];
  __shared__ __align__(8) uint64_t bar;
  size_t base = size_t(blockIdx.x) * kTileFloats;
  if (threadIdx.x == 0) {
    tma::barrier_init(&bar, 1);
    tma::expect_bytes(&bar, sizeof(tile));
    tma::load_tile<sizeof(tile)>(tile, in + base, &bar);
  }
  __syncthreads();
  while (!tma::try_wait(&bar, 0)) {
  }
  for (unsigned i = threadIdx.x; i < kTileFloats; i += blockDim.x)
    tile[i] *= alpha;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    tma::store_tile(out + base, tile, sizeof(tile));
}

// The same store with the size a kernel argument: not a constant.
__global__ void bulk_store_any(float *__restrict__ out, unsigned bytes) {
  __shared__ __align__(128) float tile[kTileFloats];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0)
    tma::store_tile(out + size_t(blockIdx.x) * kTileFloats, tile, bytes);
}

void run(const float *in, float *out, float *any, float alpha, int tiles,
         unsigned bytes) {
  bulk_scale<<<tiles, 128>>>(in, out, alpha);
  bulk_store_any<<<tiles, 128>>>(any, bytes);
}
