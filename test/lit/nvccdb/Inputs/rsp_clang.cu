// Input of nvccdb/response-files.test: a clang command whose STRIDE is in
// its @clang.rsp.
// cuda-roofline: launch gather=1/32
#ifndef STRIDE
#error "STRIDE must come from the response file"
#endif
__global__ void gather(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = 2.0f * in[tx * STRIDE];
}
