// Recursion and device function pointers. n = 1000, every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000

// Linear recursion with a data-independent depth (k = 6 here): the compiler
// cannot inline it, so its FLOPs (6 fmuls) are unknown to the tool.
__device__ float pow_rec(float x, int k) {
  if (k == 0)
    return 1.0f;
  return x * pow_rec(x, k - 1);
}

__global__ void rec_pow(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = pow_rec(x[i], 6);
}

// Tail recursion: clang -O3 turns it into a loop (8 iterations here), so the
// work is countable: 8 loads (32 B) and 8 fadds per thread.
__device__ float tail_sum(const float *p, int k, float acc) {
  if (k == 0)
    return acc;
  return tail_sum(p, k - 1, acc + p[k - 1]);
}

__global__ void rec_tail(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = tail_sum(x + 8 * i, 8, 0.0f);
}

// Mutual recursion that writes memory, depth from a kernel parameter (5).
__device__ void walk_b(float *out, int d);
__device__ void walk_a(float *out, int d) {
  if (d <= 0)
    return;
  out[d] = 1.0f;
  walk_b(out, d - 1);
}
__device__ void walk_b(float *out, int d) {
  if (d <= 0)
    return;
  out[d] += 2.0f;
  walk_a(out, d - 1);
}

__global__ void rec_mutual(float *out, int n, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    walk_a(out + 16 * i, depth);
}

// Function pointers.
typedef float (*op_t)(float);
__device__ float dbl(float v) { return v + v; }
__device__ float sq(float v) { return v * v; }
__device__ float cub3(float v) { return v * v * v; }
__device__ op_t ops[3] = {dbl, sq, cub3};

// Chosen per thread from a table: the callee differs across threads.
__global__ void fp_table(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = ops[threadIdx.x % 3](x[i]);
}

// A function pointer as a template argument: resolved at compile time
// (cub3: 2 fmuls per thread, exact).
template <op_t F>
__global__ void fp_template(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = F(x[i]);
}

// Virtual call through a base pointer to an object built in the kernel: the
// compiler devirtualizes it (Twice: 1 fadd, exact).
struct Shape {
  __device__ virtual float f(float v) const { return v; }
};
struct Twice : Shape {
  __device__ float f(float v) const override { return v + v; }
};
__device__ float apply_virtual(const Shape &s, float v) { return s.f(v); }

__global__ void fp_virtual(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Twice t;
  if (i < n)
    y[i] = apply_virtual(t, x[i]);
}

void run(const float *x, float *y, int n) {
  rec_pow<<<(n + 255) / 256, 256>>>(x, y, n);
  rec_tail<<<(n + 255) / 256, 256>>>(x, y, n);
  rec_mutual<<<(n + 255) / 256, 256>>>(y, n, 5);
  fp_table<<<(n + 255) / 256, 256>>>(x, y, n);
  fp_template<cub3><<<(n + 255) / 256, 256>>>(x, y, n);
  fp_virtual<<<(n + 255) / 256, 256>>>(x, y, n);
}
