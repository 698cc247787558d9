// Input of nvccdb/response-files.test: its command names a response file
// that does not exist (until the test creates it).
// cuda-roofline: launch copy=1/32
__global__ void copy(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
