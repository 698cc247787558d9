// Input of batch.test, CMake-style nvcc database entry (-DPITCH=8).
// cuda-roofline: launch pitched=1/32
#ifndef PITCH
#error "PITCH must come from the compile database"
#endif
__global__ void pitched(const float *in, float *out) {
  __shared__ float s[32 * PITCH];
  int tx = threadIdx.x;
  s[tx] = in[tx];
  __syncthreads();
  out[tx] = s[tx * PITCH] * 3.0f;
}
