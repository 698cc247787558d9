// A warp-group GEMM as Hopper code guards it: the wgmma path exists only
// where the architecture-specific features do (sm_90a), as nvcc and clang
// define __CUDA_ARCH_FEAT_SM90_ALL there and not for plain sm_90.
#include <cuda_bf16.h>
#include <cstdint>

// A shared-memory matrix descriptor without swizzling: the start address,
// the leading-dimension and stride byte offsets, each in 16-byte units.
__device__ __forceinline__ uint64_t smem_desc(const void *tile) {
  uint64_t a = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  return ((a & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) |
         (uint64_t(256 >> 4) << 32);
}

#define D8(i)                                                                  \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]),                  \
      "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

// One warp group (128 threads) per 64x64 tile of C; A is MxK, B is NxK
// (both K-major), bf16; C is fp32.
__global__ void __launch_bounds__(128)
    wg_gemm(const __nv_bfloat16 *__restrict__ A,
            const __nv_bfloat16 *__restrict__ B, float *__restrict__ C, int M,
            int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ __align__(128) __nv_bfloat16 As[64 * 16];
  __shared__ __align__(128) __nv_bfloat16 Bs[64 * 16];
  float d[32] = {};
  int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = threadIdx.x; e < 64 * 16; e += 128) {
      As[e] = A[size_t(row0 + e / 16) * K + k0 + e % 16];
      Bs[e] = B[size_t(col0 + e / 16) * K + k0 + e % 16];
    }
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
                 "%13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, "
                 "%25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, "
                 "0;\n"
                 "}\n"
                 : D8(0), D8(8), D8(16), D8(24)
                 : "l"(smem_desc(As)), "l"(smem_desc(Bs)), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int i = 0; i < 32; ++i) {
    int r = row0 + warp * 16 + lane / 4 + 8 * ((i / 2) % 2);
    int c = col0 + (i / 4) * 8 + (lane % 4) * 2 + i % 2;
    C[size_t(r) * N + c] = d[i];
  }
#endif
}

void gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
          int N, int K) {
  wg_gemm<<<dim3(N / 64, M / 64), 128>>>(A, B, C, M, N, K);
}
