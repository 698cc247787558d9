// wgmma_bf16.cu: mixed-precision GEMM on Hopper warp-group tensor cores, C =
// alpha * A * B + beta * C with A (M x K) and B (K x N) in bf16 and C (M x N)
// in fp32, all row-major; wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// with both operands read from shared memory through matrix descriptors.
// compile-arch: sm_90a
//
// A block is one warp group (128 threads) and computes a BM x BN = 64 x 128
// tile of C as two 64 x 64 halves, each 32 fp32 accumulators per thread. Per
// BK = 32 slice of K the block stores the A slice (64 x 32) and the B slice (32
// x 128) into shared memory in the no-swizzle "core matrix" layout wgmma reads:
// 8 rows x 16 bytes (8 x bf16, k-contiguous) stored as 128 contiguous bytes.
// Both operands are K-major: A is K-major as it comes (row-major), B is
// transposed on the way (Bs holds it n-row by n-row), one bf16 at a time.
// Element (row r, k) of a slice is at byte
//   (r / 8) * SBO + (k / 8) * LBO + (r % 8) * 16 + (k % 8) * 2,
// LBO = 128 (the next core matrix along K), SBO = (BK / 8) * 128 + 16 = 528
// (the next 8 rows; the extra 16 bytes put successive 8-row groups 4 banks
// apart, so a warp's transposing 2-byte stores of B, 8 k x 4 n-groups, hit 16
// different banks). A k16 step's 64 x 16 operand starts at (k / 8) * 128 and is
// described by a 64-bit descriptor (start address >> 4 in bits 0-13, LBO >> 4
// in bits 16-29, SBO >> 4 in bits 32-45, swizzle mode 0 in bits 62-63). After
// its shared stores each thread fences the generic proxy against the async
// proxy that wgmma reads through (fence.proxy.async), the block
// synchronizes, and then: wgmma.fence, 2 k16 steps x 2 halves = 4 wgmma,
// wgmma.commit_group, wgmma.wait_group 0.
// The accumulator layout of m64nNk16 (warp w of the group owns rows 16w ..
// 16w + 15; register 4j + 2h + e is row 16w + group + 8h, column 8j + 2t + e)
// gives the float2 epilogue.
//
// The launcher needs M to be a multiple of 64, N of 128 and K of 32 (no edge
// guards).
//
// Hand-derived counts, T = K / BK = K / 32 k-slices (m64n64k16 = 2*64*64*16 =
// 131072 tensor FLOPs per warp group = 1024 per thread):
//   Per slice, per thread (128 threads): A slice 64 x 32 bf16 = 256 16-byte
//     vectors -> 2 per thread (global uint4 load, shared uint4 store); B slice 32
//     x 128 = 512 vectors -> 4 per thread (global uint4 load, then 8 bf16 shared
//     stores each): 6 global loads = 96 B; shared stores 2 x 16 + 32 x 2 = 96 B
//     (34 store instructions). 4 wgmma = 4096 tensor bf16 FLOPs. Each wgmma reads
//     its A (64 x 16 x 2 = 2048 B) and B (16 x 64 x 2 = 2048 B) operands from
//     shared memory once per warp group: 4096 B / 128 = 32 B per thread, 128 B
//     per slice.
//   Epilogue: 2 halves x 8 column tiles x 2 row halves = 32 float2 C accesses:
//     32 loads (256 B), 32 stores (256 B), 6 fp32 FLOPs each -> 192 fp32 FLOPs.
//   Per thread: tensor_bf16 4096 T, fp32 192; wgmma 4 T; global loads 6 T + 32 =
//     96 T + 256 B; stores 32 = 256 B; shared stores 96 T B; shared loads (the
//     wgmma operand reads) 128 T B.
//   Per block: tensor_bf16 524288 T = 2 * 64 * 128 * K, fp32 24576; global load
//     12288 T + 32768 B (A 64 x K x 2 + B K x 128 x 2 + C 64 x 128 x 4); store
//     32768 B; shared store 12288 T B; shared load 16384 T B.
//   Per grid ((N / 128) x (M / 64) blocks): tensor_bf16 2 M N K, fp32 3 M N;
//     global load 2 M K (N / 128) + 2 K N (M / 64) + 4 M N = 3 M N K / 64 + 4 M N
//     B; store 4 M N B; shared store 3 M N K / 64 B; shared load M N K / 16 B.
//   At M = N = K = 4096 (T = 128): per thread tensor 524288, fp32 192, loads 800
//     = 12544 B, stores 32 = 256 B, shared stores 12288 B (4352 instructions),
//     shared loads 16384 B; grid tensor 137438953472, fp32 50331648, global load
//     3288334336 B, store 67108864 B, shared store 3221225472 B, shared load
//     4294967296 B.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace wgmma_bf16 {

// The no-swizzle K-major shared-memory matrix descriptor of a 64 x 16 operand.
__device__ __forceinline__ uint64_t descriptor(const void *start, uint32_t lbo, uint32_t sbo) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(start));
  uint64_t d = 0;
  d |= static_cast<uint64_t>((addr & 0x3FFFF) >> 4);
  d |= static_cast<uint64_t>((lbo & 0x3FFFF) >> 4) << 16;
  d |= static_cast<uint64_t>((sbo & 0x3FFFF) >> 4) << 32;
  return d; // base offset 0, swizzle mode 0 (none)
}

__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

// d += A * B for one m64n64k16 (A and B from shared memory, neither transposed).
__device__ __forceinline__ void mma_m64n64k16(float (&d)[32], uint64_t descA, uint64_t descB) {
  asm volatile("{\n"
               ".reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, 1, 1, 0, 0;\n"
               "}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(descA), "l"(descB), "n"(1)
               : "memory");
}

} // namespace wgmma_bf16

template <int BM, int BN, int BK>
__global__ void __launch_bounds__(128)
    gemm_wgmma_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                    const __nv_bfloat16 *B, float beta, float *C) {
  using namespace wgmma_bf16;
  constexpr int kThreads = 128;
  constexpr int kHalves = BN / 64;
  constexpr int kLBO = 128;           // bytes to the next core matrix along K
  constexpr int kSBO = (BK / 8) * 128 + 16; // bytes to the next 8 rows
  constexpr int kGroup = kSBO / 2;           // the same in elements
  static_assert(BM == 64, "one m64 warp-group MMA covers the block's rows");
  static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
                "the slices divide into 16-byte loads per thread");
  static_assert(BK / 8 == 4 && BN / 8 % 4 == 0, "a warp stores 8 rows x 4 chunks of 8");
  // Core-matrix layout, as bf16 elements: (r / 8) * kGroup + (k / 8) * 64 +
  // (r % 8) * 8 + k % 8.
  __shared__ __align__(128) __nv_bfloat16 As[(BM / 8) * kGroup];
  __shared__ __align__(128) __nv_bfloat16 Bs[(BN / 8) * kGroup];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int group = lane / 4, t = lane % 4;
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  float acc[kHalves][32] = {};

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int p = 0; p < BM * BK / 8 / kThreads; ++p) {
      // A warp covers 8 rows x 4 k-chunks (8 rows x 64 contiguous bytes of A);
      // its 32 16-byte stores fill 4 consecutive core matrices.
      int v = p * kThreads + tid;
      int kc = (v / 8) % (BK / 8), r = (v / (8 * (BK / 8))) * 8 + v % 8;
      *reinterpret_cast<uint4 *>(&As[(r / 8) * kGroup + kc * 64 + (r % 8) * 8]) =
          *reinterpret_cast<const uint4 *>(&A[(rowBase + r) * K + k0 + kc * 8]);
    }
#pragma unroll
    for (int p = 0; p < BK * BN / 8 / kThreads; ++p) {
      // A warp covers 8 k-rows x 4 chunks of 8 n (8 rows x 64 contiguous
      // bytes of B); lane = k % 8 + 8 * (chunk % 4).
      int v = p * kThreads + tid;
      int idx = v / 32, lane8 = v % 32;
      int k = (idx % (BK / 8)) * 8 + lane8 % 8;
      int nc = (idx / (BK / 8)) * 4 + lane8 / 8;
      uint4 x = *reinterpret_cast<const uint4 *>(&B[(k0 + k) * N + colBase + nc * 8]);
      const __nv_bfloat16 *e = reinterpret_cast<const __nv_bfloat16 *>(&x);
#pragma unroll
      for (int i = 0; i < 8; ++i)
        Bs[nc * kGroup + (k / 8) * 64 + i * 8 + k % 8] = e[i];
    }
    // The generic-proxy stores above must be visible to wgmma's async-proxy reads.
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();

    fence();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint64_t descA = descriptor(&As[(kk / 8) * 64], kLBO, kSBO);
#pragma unroll
      for (int h = 0; h < kHalves; ++h) {
        uint64_t descB = descriptor(&Bs[h * 8 * kGroup + (kk / 8) * 64], kLBO, kSBO);
        mma_m64n64k16(acc[h], descA, descB);
      }
    }
    commit();
    wait_all();
    __syncthreads(); // every warp's wgmma is done reading before the slice is refilled
  }

#pragma unroll
  for (int h = 0; h < kHalves; ++h)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        int row = rowBase + warp * 16 + group + 8 * e;
        int col = colBase + h * 64 + j * 8 + 2 * t;
        float2 *p = reinterpret_cast<float2 *>(&C[row * N + col]);
        float2 c = *p;
        c.x = alpha * acc[h][4 * j + 2 * e] + beta * c.x;
        c.y = alpha * acc[h][4 * j + 2 * e + 1] + beta * c.y;
        *p = c;
      }
}

// Returns false (launching nothing) unless M is a multiple of 64, N of 128 and
// K of 32.
bool launch_gemm_wgmma_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float beta, float *C) {
  constexpr int BM = 64, BN = 128, BK = 32;
  if (M % BM != 0 || N % BN != 0 || K % BK != 0)
    return false;
  dim3 grid(N / BN, M / BM);
  gemm_wgmma_bf16<BM, BN, BK><<<grid, 128>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
