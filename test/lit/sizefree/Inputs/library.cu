// Kernels of a library: no launch in this file, no sizes anywhere.
__global__ void gather_rows(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * n];
}

__global__ void __launch_bounds__(128) scatter_rows(const float *in, float *out,
                                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * n] = in[i];
}

__global__ void transpose2d(const float *in, float *out, int ld) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * ld + y] = in[y * ld + x];
}

__global__ void smem_stride(float *out, int s) {
  extern __shared__ float buf[];
  buf[threadIdx.x * s] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
}
