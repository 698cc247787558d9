// Launch sizes read from the members of structs, as real host code keeps
// them (a parameter block built with braces, then a loop of launches).
// Once a crash: the host template's own body (not an instantiation) has
// dim3s built from members of a dependent struct.
template <typename T1, typename T2>
struct Param {
  const T1 *a;
  T2 *b;
  int m, h, k;
};

template <typename T1, typename T2>
__global__ void apply(Param<T1, T2> p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.b[i] = (T2)p.a[i] * 2;
}

template <typename T1, typename T2>
void launch(const T1 *a, T2 *b, int m, int h, int k, int iters) {
  Param<T1, T2> param{a, b, m, h, k};
  for (int it = 0; it < iters; ++it) {
    dim3 grid(param.m);
    dim3 block(param.k / 4, param.h, 3);
    apply<T1, T2><<<grid, block>>>(param);
  }
}

// A struct with a member named x: its initializer is not a dim3's.
struct Shape {
  int n;
  int x;
};
__global__ void fill(float *y) { y[threadIdx.x] = 1.0f; }

struct LaunchCfg {
  dim3 grid;
  dim3 block;
  int smem = 0;
};

void run(const float *a, float *b) {
  launch<float, float>(a, b, 64, 2, 128, 4);
  Shape s{10, 20};
  dim3 g(s.x);
  fill<<<g, 32>>>(b);
  LaunchCfg cfg{dim3(6, 2), dim3(64)};
  fill<<<cfg.grid, cfg.block, cfg.smem>>>(b);
  Shape t{1, 2};
  t.x = 7; // assigned after its declaration: not evaluated
  fill<<<t.x, 32>>>(b);
}
