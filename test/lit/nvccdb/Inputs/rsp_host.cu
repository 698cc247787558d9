// Input of nvccdb/response-files.test: what only -Xcompiler values give.
// cuda-roofline: launch hstrided=1/32
#include <rsp_sys.cuh>
#if !defined(_OPENMP) || _OPENMP != 201511
#error "_OPENMP must be gcc 12's, from -Xcompiler -fopenmp"
#endif
#if PAD != 1
#error "PAD must come from -Xcompiler -DPAD=1"
#endif
__global__ void hstrided(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = in[tx * HSTRIDE] + 4.0f;
}
