// Kernels the analysis can count only in part, written the way such code
// usually is: PTX the analysis has no row for, behind a helper, and a loop
// whose bounds are read from memory.
#include <cstdint>

// vabsdiff4 (per-byte absolute difference, summed) has no address operand,
// and the statement has no "memory" clobber: it can only change registers.
__device__ __forceinline__ unsigned byte_sad(unsigned a, unsigned b) {
  unsigned r;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(0u));
  return r;
}

__global__ void sad_scale(const unsigned *__restrict__ a,
                          const unsigned *__restrict__ b,
                          float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = float(byte_sad(a[i], b[i])) * 0.25f + 1.0f;
}

// The same instruction under a "memory" clobber: the statement says it may
// touch memory, so loads and stores are unknown as well.
__global__ void sad_scale_clobber(const unsigned *__restrict__ a,
                                  const unsigned *__restrict__ b,
                                  float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned r;
    asm volatile("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
                 : "=r"(r)
                 : "r"(a[i]), "r"(b[i]), "r"(0u)
                 : "memory");
    out[i] = float(r) * 0.25f + 1.0f;
  }
}

// CSR-style row sums: how many values a row has is data.
__global__ void ragged_row_sums(const int *__restrict__ row_start,
                                const float *__restrict__ vals,
                                float *__restrict__ sums, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int j = row_start[r]; j < row_start[r + 1]; ++j)
    s += vals[j];
  sums[r] = s;
}

static unsigned blocks_for(int n, int threads) {
  return (unsigned(n) + threads - 1) / threads;
}

void launch_all(const unsigned *a, const unsigned *b, float *out,
                const int *row_start, const float *vals, float *sums, int n,
                int rows) {
  sad_scale<<<blocks_for(n, 256), 256>>>(a, b, out, n);
  sad_scale_clobber<<<blocks_for(n, 256), 256>>>(a, b, out, n);
  ragged_row_sums<<<blocks_for(rows, 128), 128>>>(row_start, vals, sums, rows);
}
