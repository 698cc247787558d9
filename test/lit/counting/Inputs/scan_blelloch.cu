// Work-efficient (Blelloch) exclusive scan of 256 elements per block with 128 threads:
// an up-sweep where d halves while off doubles, then a down-sweep where d doubles while
// off halves (two coupled loop variables; guards t < d on the loop variable).

__global__ void scan_blelloch(const float *in, float *out) {
  __shared__ float tmp[256];
  int t = threadIdx.x;
  int base = blockIdx.x * 256;
  tmp[2 * t] = in[base + 2 * t];
  tmp[2 * t + 1] = in[base + 2 * t + 1];
  int off = 1;
  for (int d = 128; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1;
      int bi = off * (2 * t + 2) - 1;
      tmp[bi] += tmp[ai];
    }
    off *= 2;
  }
  if (t == 0)
    tmp[255] = 0.0f;
  for (int d = 1; d < 256; d *= 2) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1;
      int bi = off * (2 * t + 2) - 1;
      float v = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] += v;
    }
  }
  __syncthreads();
  out[base + 2 * t] = tmp[2 * t];
  out[base + 2 * t + 1] = tmp[2 * t + 1];
}

void launch_blelloch(const float *in, float *out, int n) {
  scan_blelloch<<<n / 256, 128>>>(in, out);
}
