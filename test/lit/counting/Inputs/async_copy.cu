// The shared-memory idioms of tensor-core kernels, as inline PTX: cp.async
// into shared memory with commit/wait groups, ld.shared at a shared-window
// address, and ldmatrix. Helpers wrap the asm as such code usually does.
#include <cuda_fp16.h>
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <int Bytes>
__device__ __forceinline__ void cp_async(void *smem, const void *gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(smem_u32(smem)),
               "l"(gmem), "n"(Bytes));
}

__device__ __forceinline__ void cp_async_wait_all() {
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

constexpr int kThreads = 128;

// Each thread stages one float4 through shared memory and sums its
// neighbour's.
__global__ void stage_and_sum(const float4 *__restrict__ in,
                              float *__restrict__ out) {
  __shared__ __align__(16) float4 tile[kThreads];
  int i = blockIdx.x * kThreads + threadIdx.x;
  cp_async<16>(&tile[threadIdx.x], in + i);
  cp_async_wait_all();
  __syncthreads();
  float4 v = tile[threadIdx.x ^ 1];
  out[i] = v.x + v.y + v.z + v.w;
}

// One warp per block loads four 8x8 half matrices into shared memory and
// reads them back as mma fragments with ldmatrix (.x4, then .x2 of the
// first two), reading the shared array through ld.shared as well.
__global__ void fragments(const uint4 *__restrict__ in, uint4 *__restrict__ out4,
                          uint2 *__restrict__ out2, float *__restrict__ first) {
  __shared__ __align__(16) __half tile[32 * 8];
  int lane = threadIdx.x, g = blockIdx.x * 32 + lane;
  reinterpret_cast<uint4 *>(tile)[lane] = in[g];
  __syncthreads();
  uint4 r;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "r"(smem_u32(&tile[lane * 8])));
  uint2 t;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(t.x), "=r"(t.y)
               : "r"(smem_u32(&tile[(lane % 16) * 8])));
  float f;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(f) : "r"(smem_u32(&tile[lane * 2])));
  out4[g] = r;
  out2[g] = t;
  first[g] = f;
}

// Zero fill, as edge tiles are staged: a row past the end is not read
// (source size 0) and its shared slot is filled with zeros.
__device__ __forceinline__ void cp_async_zfill(void *smem, const void *gmem,
                                               bool inside) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                   smem_u32(smem)),
               "l"(gmem), "r"(inside ? 16 : 0));
}

__global__ void stage_rows(const float4 *__restrict__ in,
                           float *__restrict__ out, int rows) {
  __shared__ __align__(16) float4 tile[kThreads];
  int r = blockIdx.x * kThreads + threadIdx.x;
  bool inside = r < rows;
  cp_async_zfill(&tile[threadIdx.x], in + (inside ? r : 0), inside);
  cp_async_wait_all();
  __syncthreads();
  float4 v = tile[threadIdx.x];
  out[r] = v.x + v.y + v.z + v.w;
}

void launch(const float4 *in, float *out, int n4, const uint4 *frag_in,
            uint4 *out4, uint2 *out2, float *first, int warps, int rows) {
  stage_and_sum<<<n4 / kThreads, kThreads>>>(in, out);
  fragments<<<warps, 32>>>(frag_in, out4, out2, first);
  stage_rows<<<(rows + kThreads - 1) / kThreads, kThreads>>>(in, out, rows);
}
