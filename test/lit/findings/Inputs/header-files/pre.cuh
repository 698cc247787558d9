// Pre-included (clang -include, nvcc --pre-include): every file of the
// project gets this kernel without an #include of its own.
__global__ void pre_gather(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = in[t * 32];
}
