// Hopper TMA tensor copies as applications write them: the host builds a
// CUtensorMap per matrix with cuTensorMapEncodeTiled (fetched through the
// runtime's driver entry point, so the program need not link libcuda), in a
// helper that returns the map, and passes it to the kernel as a
// __grid_constant__ parameter; one elected thread moves a box with
// cp.async.bulk.tensor and an mbarrier counts its bytes.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

constexpr int kBoxCols = 32; // floats: 128 B per box row
constexpr int kBoxRows = 64; // a box of 64 x 32 floats = 8192 B

namespace tma {

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void barrier_init(uint64_t *bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ __forceinline__ void expect_bytes(uint64_t *bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
          smem_addr(bar)),
      "r"(bytes)
      : "memory");
}

__device__ __forceinline__ void wait(uint64_t *bar, unsigned phase) {
  asm volatile("{\n"
               ".reg .pred p;\n"
               "WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra WAIT;\n"
               "}\n" ::"r"(smem_addr(bar)),
               "r"(phase)
               : "memory");
}

__device__ __forceinline__ void load_2d(void *smem, const CUtensorMap *map,
                                        int x, int y, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                   smem_addr(smem)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y),
               "r"(smem_addr(bar))
               : "memory");
}

__device__ __forceinline__ void store_2d(const CUtensorMap *map, int x, int y,
                                         const void *smem) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
               "[%0, {%1, %2}], [%3];" ::"l"(reinterpret_cast<uint64_t>(map)),
               "r"(x), "r"(y), "r"(smem_addr(smem))
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// Thread 0 brings the box at (x, y) into smem; every thread of the block
// then waits for its bytes.
__device__ __forceinline__ void load_box(void *smem, unsigned bytes,
                                         const CUtensorMap *map, int x, int y,
                                         uint64_t *bar) {
  if (threadIdx.x == 0) {
    barrier_init(bar);
    expect_bytes(bar, bytes);
    load_2d(smem, map, x, y, bar);
  }
  __syncthreads();
  wait(bar, 0);
}

} // namespace tma

// Each block scales one box: in through TMA, out through TMA.
__global__ void tile_scale(const __grid_constant__ CUtensorMap in_map,
                           const __grid_constant__ CUtensorMap out_map,
                           float alpha) {
  __shared__ alignas(128) float tile[kBoxRows * kBoxCols];
  __shared__ alignas(8) uint64_t bar;
  int x = blockIdx.x * kBoxCols, y = blockIdx.y * kBoxRows;
  if (threadIdx.x == 0) {
    tma::barrier_init(&bar);
    tma::expect_bytes(&bar, sizeof(tile));
    tma::load_2d(tile, &in_map, x, y, &bar);
  }
  __syncthreads();
  tma::wait(&bar, 0);
  for (int i = threadIdx.x; i < kBoxRows * kBoxCols; i += blockDim.x)
    tile[i] *= alpha;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    tma::store_2d(&out_map, x, y, tile);
}

// Column sums of a box whose height the launcher's caller chooses (main
// passes kBoxRows): the box is known from that call.
__global__ void tile_sum(const __grid_constant__ CUtensorMap map,
                         float *__restrict__ out) {
  __shared__ alignas(128) float tile[kBoxRows * kBoxCols];
  __shared__ alignas(8) uint64_t bar;
  tma::load_box(tile, sizeof(tile), &map, blockIdx.x * kBoxCols, 0, &bar);
  if (threadIdx.x < kBoxCols) {
    float s = 0.f;
    for (int r = 0; r < kBoxRows; ++r)
      s += tile[r * kBoxCols + threadIdx.x];
    out[blockIdx.x * kBoxCols + threadIdx.x] = s;
  }
}

// C = A B for row-major fp32 matrices: each block owns a 64 x 64 tile of C
// and walks K in steps of 32; thread 0 brings the A box (64 rows x 32 k)
// and the B box (32 k x 64 columns) in through TMA, and each of the 256
// threads accumulates a 4 x 4 piece of the tile.
constexpr int kTileM = 64, kTileN = 64, kTileK = 32;

__global__ void __launch_bounds__(256)
    tma_gemm(const __grid_constant__ CUtensorMap a_map,
             const __grid_constant__ CUtensorMap b_map, float *__restrict__ c,
             int n, int k) {
  __shared__ alignas(128) float as[kTileM * kTileK];
  __shared__ alignas(128) float bs[kTileK * kTileN];
  __shared__ alignas(8) uint64_t bar;
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kTileN;
  float acc[4][4] = {};
  if (threadIdx.x == 0)
    tma::barrier_init(&bar);
  __syncthreads();
  for (int k0 = 0, phase = 0; k0 < k; k0 += kTileK, phase ^= 1) {
    if (threadIdx.x == 0) {
      tma::expect_bytes(&bar, sizeof(as) + sizeof(bs));
      tma::load_2d(as, &a_map, k0, m0, &bar);
      tma::load_2d(bs, &b_map, n0, k0, &bar);
    }
    tma::wait(&bar, phase);
    for (int kk = 0; kk < kTileK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        a[i] = as[(ty * 4 + i) * kTileK + kk];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        b[j] = bs[kk * kTileN + tx * 4 + j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      c[(m0 + ty * 4 + i) * n + n0 + tx * 4 + j] = acc[i][j];
}

static PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault,
                          &found);
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

// A row-major rows x cols float matrix, read in boxes of kBoxRows x kBoxCols.
static CUtensorMap make_map(float *base, uint64_t rows, uint64_t cols) {
  CUtensorMap map;
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * sizeof(float)};
  cuuint32_t box[2] = {kBoxCols, kBoxRows};
  cuuint32_t elem_strides[2] = {1, 1};
  CUresult r = encode_fn()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base,
                           dims, strides, box, elem_strides,
                           CU_TENSOR_MAP_INTERLEAVE_NONE,
                           CU_TENSOR_MAP_SWIZZLE_NONE,
                           CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    std::fprintf(stderr, "cuTensorMapEncodeTiled: %d\n", int(r));
  return map;
}

// The GEMM's maps: the box is the helper's to choose.
static CUtensorMap make_gemm_map(const float *base, uint64_t rows,
                                 uint64_t cols, uint32_t box_rows,
                                 uint32_t box_cols) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * sizeof(float)};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  encode_fn()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
              const_cast<float *>(base), dims, strides, box, elem_strides,
              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
              CU_TENSOR_MAP_L2_PROMOTION_NONE,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

void sum_columns(float *in, float *out, int rows, int cols,
                 unsigned box_rows) {
  CUtensorMap map{};
  cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  cuuint64_t strides[1] = {cols * sizeof(float)};
  cuuint32_t box[2] = {kBoxCols, box_rows};
  cuuint32_t elem_strides[2] = {1, 1};
  encode_fn()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, in, dims, strides, box,
              elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
              CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  tile_sum<<<cols / kBoxCols, 256>>>(map, out);
}

// The first row of each box, whose height is read from the environment at
// run time: the box is not known, so the copy's bytes are unknown.
__global__ void tile_first(const __grid_constant__ CUtensorMap map,
                           float *__restrict__ out) {
  __shared__ alignas(128) float tile[kBoxRows * kBoxCols];
  __shared__ alignas(8) uint64_t bar;
  tma::load_box(tile, sizeof(tile), &map, blockIdx.x * kBoxCols, 0, &bar);
  if (threadIdx.x < kBoxCols)
    out[blockIdx.x * kBoxCols + threadIdx.x] = tile[threadIdx.x];
}

void first_rows(float *in, float *out, int rows, int cols) {
  const char *env = std::getenv("BOX_ROWS");
  unsigned box_rows = env ? unsigned(std::strtoul(env, nullptr, 10)) : 1;
  CUtensorMap map = make_gemm_map(in, rows, cols, box_rows, kBoxCols);
  tile_first<<<cols / kBoxCols, 256>>>(map, out);
}

void gemm(const float *a, const float *b, float *c, int m, int n, int k) {
  CUtensorMap a_map = make_gemm_map(a, m, k, kTileM, kTileK);
  CUtensorMap b_map = make_gemm_map(b, k, n, kTileK, kTileN);
  tma_gemm<<<dim3(n / kTileN, m / kTileM), 256>>>(a_map, b_map, c, n, k);
}

void scale(float *in, float *out, int rows, int cols, float alpha) {
  CUtensorMap in_map = make_map(in, rows, cols);
  CUtensorMap out_map = make_map(out, rows, cols);
  dim3 grid(cols / kBoxCols, rows / kBoxRows);
  tile_scale<<<grid, 256>>>(in_map, out_map, alpha);
}

int main() {
  const int rows = 4096, cols = 4096;
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * rows * cols);
  cudaMalloc(&out, sizeof(float) * rows * cols);
  scale(in, out, rows, cols, 2.0f);
  const int size = 1024;
  gemm(in, in, out, size, size, size);
  sum_columns(in, out, rows, cols, kBoxRows);
  first_rows(in, out, rows, cols);
  cudaDeviceSynchronize();
  return 0;
}
