// Lane i reads in[32 * i]: each warp-wide load touches 32 sectors where 4
// would do. Sizes come from the annotation, as a pre-commit run has no flags.
// cuda-roofline: param n=1048576
__global__ void gather_stride(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 32)
    out[i] = in[i * 32];
}
void launch_gather_stride(int n, const float *in, float *out) {
  gather_stride<<<(n / 32 + 255) / 256, 256>>>(n, in, out);
}
