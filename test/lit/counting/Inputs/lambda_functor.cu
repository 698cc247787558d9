// Kernels that call a functor object, a lambda defined in the kernel, and an
// extended __device__ lambda passed from the host: all are inlined, so their
// arithmetic is counted like inline code.
struct Poly2 {
  float a, b, c;
  __device__ float operator()(float x) const { return (a * x + b) * x + c; }
};

template <typename F>
__global__ void apply(const float *x, float *y, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = f(x[i]);
}

__global__ void lambda_inside(const float *x, float *y, int n, float s) {
  auto scale_add = [s] __device__(float v, float w) { return s * v + w; };
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale_add(x[i], y[i]) * s;
}

void run(const float *x, float *y, int n) {
  apply<<<(n + 255) / 256, 256>>>(x, y, n, Poly2{1.0f, 2.0f, 3.0f});
  lambda_inside<<<(n + 255) / 256, 256>>>(x, y, n, 0.5f);
  float k = 4.0f;
  apply<<<(n + 127) / 128, 128>>>(x, y, n, [=] __device__(float v) { return v * v * k; });
}
