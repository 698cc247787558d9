// A Blackwell (sm_100a) bf16 GEMM core as hand-written UMMA kernels issue
// it: the block stages a K-slab of A and B in shared memory, one thread
// issues tcgen05.mma on them through shared-memory descriptors (the shape
// in a constexpr instruction descriptor), the accumulator lives in tensor
// memory, and the epilogue reads it back with tcgen05.ld.
#include <cuda_bf16.h>

#include <cstdint>

namespace umma {

// kind::f16 instruction descriptor: D f32 (bit 4), A and B bf16 (bits 7,
// 10), N >> 3 at bit 17, M >> 4 at bit 24; A and B K-major.
constexpr uint32_t idesc_bf16(int m, int n) {
  return (1u << 4) | (1u << 7) | (1u << 10) | (uint32_t(n >> 3) << 17) |
         (uint32_t(m >> 4) << 24);
}

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Shared-memory matrix descriptor: start address, leading and stride byte
// offsets (each >> 4), version 1 at bit 46, no swizzle.
__device__ __forceinline__ uint64_t desc(const void *p, uint32_t lbo,
                                         uint32_t sbo) {
  uint64_t a = smem_u32(p);
  return ((a & 0x3FFFF) >> 4) | (uint64_t((lbo >> 4) & 0x3FFF) << 16) |
         (uint64_t((sbo >> 4) & 0x3FFF) << 32) | (1ull << 46);
}

__device__ __forceinline__ void mma_bf16(uint32_t d_tmem, uint64_t a,
                                         uint64_t b, uint32_t idesc,
                                         uint32_t accumulate) {
  asm volatile("{\n"
               ".reg .pred p;\n"
               "setp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n"
               "}\n" ::"r"(d_tmem),
               "l"(a), "l"(b), "r"(idesc), "r"(accumulate)
               : "memory");
}

__device__ __forceinline__ void commit(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(smem_u32(bar))
               : "memory");
}

__device__ __forceinline__ void wait(uint64_t *bar, unsigned phase) {
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n"
               "}\n" ::"r"(smem_u32(bar)),
               "r"(phase)
               : "memory");
}

} // namespace umma

// C (m x n, f32) = A (m x k, bf16, row-major) times B^T (B n x k,
// row-major): each block owns a BM x BN tile of C, 128 threads.
template <int BM, int BN, int BK>
__global__ void __launch_bounds__(128)
    umma_gemm(const __nv_bfloat16 *__restrict__ a,
              const __nv_bfloat16 *__restrict__ b, float *__restrict__ c,
              int n, int k) {
  __shared__ alignas(1024) __nv_bfloat16 as[BM * BK];
  __shared__ alignas(1024) __nv_bfloat16 bs[BN * BK];
  __shared__ alignas(8) uint64_t bar;
  __shared__ uint32_t tmem_base;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], %1;" ::"r"(umma::smem_u32(&tmem_base)),
                 "n"(BN));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
        umma::smem_u32(&bar)));
  __syncthreads();
  const uint32_t tmem = tmem_base;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  for (int k0 = 0, phase = 0; k0 < k; k0 += BK, phase ^= 1) {
    // 16 bytes (8 elements) per copy: BM * BK / 8 copies for A.
    for (int i = threadIdx.x; i < BM * BK / 8; i += 128) {
      int r = i / (BK / 8), c8 = i % (BK / 8);
      *reinterpret_cast<uint4 *>(&as[r * BK + c8 * 8]) =
          *reinterpret_cast<const uint4 *>(&a[(m0 + r) * k + k0 + c8 * 8]);
    }
    for (int i = threadIdx.x; i < BN * BK / 8; i += 128) {
      int r = i / (BK / 8), c8 = i % (BK / 8);
      *reinterpret_cast<uint4 *>(&bs[r * BK + c8 * 8]) =
          *reinterpret_cast<const uint4 *>(&b[(n0 + r) * k + k0 + c8 * 8]);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      for (int kk = 0; kk < BK; kk += 16)
        umma::mma_bf16(tmem, umma::desc(&as[kk], 128, 8 * BK * 2),
                       umma::desc(&bs[kk], 128, 8 * BK * 2),
                       umma::idesc_bf16(BM, BN), (k0 | kk) != 0);
      umma::commit(&bar);
    }
    umma::wait(&bar, phase);
  }
  // Warp w reads rows 32 w .. 32 w + 31 of the accumulator, 8 columns at a
  // time.
  for (int j = 0; j < BN; j += 8) {
    uint32_t v[8];
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, "
                 "%5, %6, %7}, [%8];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]),
                   "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
                 : "r"(tmem + (uint32_t(warp * 32) << 16) + j));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    float4 *out = reinterpret_cast<float4 *>(
        &c[(m0 + warp * 32 + lane) * n + n0 + j]);
    out[0] = make_float4(__uint_as_float(v[0]), __uint_as_float(v[1]),
                         __uint_as_float(v[2]), __uint_as_float(v[3]));
    out[1] = make_float4(__uint_as_float(v[4]), __uint_as_float(v[5]),
                         __uint_as_float(v[6]), __uint_as_float(v[7]));
  }
  __syncthreads();
  if (warp == 0)
    asm volatile(
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem),
        "n"(BN));
}

void gemm(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int m,
          int n, int k) {
  constexpr int BM = 128, BN = 128, BK = 64;
  umma_gemm<BM, BN, BK><<<dim3(n / BN, m / BM), 128>>>(a, b, c, n, k);
}

int main() {
  const int size = 2048;
  __nv_bfloat16 *a, *b;
  float *c;
  cudaMalloc(&a, sizeof(__nv_bfloat16) * size * size);
  cudaMalloc(&b, sizeof(__nv_bfloat16) * size * size);
  cudaMalloc(&c, sizeof(float) * size * size);
  gemm(a, b, c, size, size, size);
  cudaDeviceSynchronize();
  return 0;
}
