// Input of nvccdb/response-files.test: ROWS and the header's directory come
// only from response files (@top.rsp names -optf nested.rsp).
#include "rsp_rows.cuh"
#ifndef ROWS
#error "ROWS must come from a response file"
#endif
__global__ void rows(const float *in, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  out[ty * 32 + tx] = in[tx] + kBias;
}

void launch_rows(const float *in, float *out) {
  rows<<<1, dim3(32, ROWS)>>>(in, out);
}
