// The fix: consecutive lanes read consecutive elements.
// cuda-roofline: param n=1048576
__global__ void gather_stride(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
void launch_gather_stride(int n, const float *in, float *out) {
  gather_stride<<<(n + 255) / 256, 256>>>(n, in, out);
}
