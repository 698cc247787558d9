// Input of batch.test, clang-style database entry (-DSTRIDE=4).
// cuda-roofline: launch gather=1/32
#ifndef STRIDE
#error "STRIDE must come from the compile database"
#endif
__global__ void gather(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = 2.0f * in[tx * STRIDE];
}
