// A kernel calling through a __device__ function pointer chosen at run time:
// the callee is not known statically, so its FLOPs and loads cannot be
// counted; the count must be unknown, never a guess.
typedef float (*unary_fn)(float);

__device__ float twice(float v) { return v + v; }
__device__ float cube(float v) { return v * v * v; }

__device__ unary_fn table[2] = {twice, cube};

__global__ void apply_fp(const float *x, float *y, int n, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unary_fn f = table[which];
    y[i] = f(x[i]);
  }
}

// The pointer comes in as a kernel argument (set up on the host with
// cudaMemcpyFromSymbol): also unknown.
__global__ void apply_arg(const float *x, float *y, int n, unary_fn f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = f(x[i]);
}

// A function pointer the compiler resolves (a local initialized with a known
// function): the call becomes direct and is counted exactly (cube: 2 fmuls).
__global__ void apply_known(const float *x, float *y, int n) {
  unary_fn f = cube;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = f(x[i]);
}

void run(const float *x, float *y, int n, int which, unary_fn f) {
  apply_fp<<<(n + 255) / 256, 256>>>(x, y, n, which);
  apply_arg<<<(n + 255) / 256, 256>>>(x, y, n, f);
  apply_known<<<(n + 255) / 256, 256>>>(x, y, n);
}
