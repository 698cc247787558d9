// Input of nvccdb/config-extra-args.test: STRIDE and the directory of
// rsp_rows.cuh come only from the config's extra-args.
// cuda-roofline: launch gather=1/32
#include "rsp_rows.cuh"
#ifndef STRIDE
#error "STRIDE must come from extra-args"
#endif
__global__ void gather(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = kBias * in[tx * STRIDE];
}
