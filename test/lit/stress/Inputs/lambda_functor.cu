// Lambdas and functors passed to kernel templates (device lambdas, a
// functor with state, a generic lambda, a lambda capturing by value, a
// nested template chain). n = 1000, every launch <<<4, 256>>>.
// cuda-roofline: param n=1000

template <typename F>
__global__ void map_kernel(const float *x, float *y, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = f(x[i]);
}

template <typename F, typename G>
__global__ void map2_kernel(const float *x, float *y, int n, F f, G g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = g(f(x[i]), x[i]);
}

// A functor with state: a*v + b = 1 fma = 2 FLOPs.
struct Affine {
  float a, b;
  __device__ float operator()(float v) const { return a * v + b; }
};

// A functor template applied ITERS times: ITERS fmuls.
template <int ITERS>
struct Repeat {
  __device__ float operator()(float v) const {
    float r = v;
    for (int k = 0; k < ITERS; ++k)
      r *= 1.01f;
    return r;
  }
};

// A device function template taking a callable, called from the kernel.
template <typename Op>
__device__ float fold4(const float *p, Op op) {
  return op(op(p[0], p[1]), op(p[2], p[3]));
}

template <typename Op>
__global__ void fold_kernel(const float *x, float *y, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fold4(x + 4 * i, op);
}

void run(const float *x, float *y, int n, float s) {
  // lambda: v*v + 1 (1 fma = 2 FLOPs)
  map_kernel<<<(n + 255) / 256, 256>>>(x, y, n, [] __device__(float v) { return v * v + 1.0f; });
  // functor with state: 2 FLOPs
  map_kernel<<<(n + 255) / 256, 256>>>(x, y, n, Affine{2.0f, 3.0f});
  // functor template: 8 fmuls
  map_kernel<<<(n + 255) / 256, 256>>>(x, y, n, Repeat<8>{});
  // capture by value: v / s (1 division = 1 FLOP) then + (1 FLOP)
  map2_kernel<<<(n + 255) / 256, 256>>>(x, y, n, [s] __device__(float v) { return v / s; },
                                        [] __device__(float a, float b) { return a + b; });
  // generic lambda as a fold operator: 3 fmaxf (0 FLOPs) / 3 fadds (3 FLOPs)
  fold_kernel<<<(n + 255) / 256, 256>>>(x, y, n, [] __device__(auto a, auto b) { return fmaxf(a, b); });
  fold_kernel<<<(n + 255) / 256, 256>>>(x, y, n, [] __device__(auto a, auto b) { return a + b; });
}
