// Input of exit-codes.test: one strided load, one warning.
// cuda-roofline: launch gather4=1/32
__global__ void gather4(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = in[tx * 4] + 1.0f;
}
