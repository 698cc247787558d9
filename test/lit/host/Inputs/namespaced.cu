// Kernels in namespaces, launched with qualified names (and through a
// using-directive), a static kernel and one in an anonymous namespace.
namespace ops {
namespace detail {
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i];
}
} // namespace detail

__global__ void shift(float *x, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] + b + b;
}
} // namespace ops

static __global__ void clamp0(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fmaxf(x[i], 0.0f);
}

namespace {
__global__ void negate(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i] * x[i];
}
} // namespace

void run(float *x, int n) {
  ops::detail::scale<<<(n + 255) / 256, 256>>>(x, 3.0f, n);
  using namespace ops;
  shift<<<(n + 127) / 128, 128>>>(x, 1.0f, n);
  clamp0<<<(n + 63) / 64, 64>>>(x, n);
  negate<<<(n + 511) / 512, 512>>>(x, n);
}
