// Two kernels with the same unqualified name in different namespaces.
// a::k does 1 fp32 multiply per element, b::k does 3 (x*2*3*4 chain).
namespace a {
__global__ void k(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2.0f;
}
} // namespace a
namespace b {
__global__ void k(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    v = v * 2.0f;
    v = v * v;
    v = v * v;
    x[i] = v;
  }
}
} // namespace b

void run(float *x, int n) {
  a::k<<<(n + 255) / 256, 256>>>(x, n);
  b::k<<<(n + 127) / 128, 128>>>(x, n);
}
