// Input of batch.test: a syntax error; the other files are still analyzed.
__global__ void broken(float *out) {
  out[threadIdx.x] = 1.0f
}
