// Warp shuffles and votes. n = 1000, every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000
#define FULL 0xffffffffu

// Tree reduction down the warp: 5 shuffles, 5 fadds per thread.
__global__ void shfl_down_sum(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if ((threadIdx.x & 31) == 0)
    out[i >> 5] = v;
}

// Butterfly all-reduce: every lane ends with the sum and stores it.
__global__ void shfl_xor_allreduce(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
#pragma unroll
  for (int m = 1; m < 32; m <<= 1)
    v += __shfl_xor_sync(FULL, v, m);
  if (i < n)
    y[i] = v;
}

// Inclusive warp scan: every lane adds (0 where off > lane): 5 shuffles, 5 fadds.
__global__ void shfl_up_scan(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  float v = (i < n) ? x[i] : 0.0f;
  for (int off = 1; off < 32; off <<= 1) {
    float t = __shfl_up_sync(FULL, v, off);
    v += (lane >= off) ? t : 0.0f;
  }
  if (i < n)
    y[i] = v;
}

// Broadcast lane 0's value, then scale: 1 shuffle, 1 fmul.
__global__ void shfl_bcast(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float s = __shfl_sync(FULL, v, 0);
  if (i < n)
    y[i] = v * s;
}

// Votes: ballot + popc, any, all: integer work only (0 FLOPs, no shuffles).
__global__ void votes(const float *x, int *cnt, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  unsigned b = __ballot_sync(FULL, v > 0.0f);
  int any = __any_sync(FULL, v > 1.0f);
  int all = __all_sync(FULL, v < 2.0f);
  if ((threadIdx.x & 31) == 0) {
    cnt[i >> 5] = __popc(b);
    flags[i >> 5] = any + 2 * all;
  }
}

// sm_80 integer warp reduction and match: no FLOPs.
__global__ void redux_match(const int *k, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (i < n) ? k[i] : 0;
  int s = __reduce_add_sync(FULL, v);
  unsigned peers = __match_any_sync(FULL, v);
  if ((threadIdx.x & 31) == 0)
    out[i >> 5] = s + __popc(peers);
}

// Offsets from the warpSize builtin (not a literal 32): still 5 steps.
__global__ void shfl_warpsize(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  for (int off = warpSize / 2; off > 0; off /= 2)
    v += __shfl_down_sync(FULL, v, off);
  if (threadIdx.x % warpSize == 0)
    out[i / warpSize] = v;
}

// double shuffles: each __shfl_down_sync on a double is two 32-bit shuffles.
__global__ void shfl_double(const double *x, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = (i < n) ? x[i] : 0.0;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if ((threadIdx.x & 31) == 0)
    out[i >> 5] = v;
}

void run(const float *x, float *y, float *o, int *c, int *f, const int *k, const double *xd,
         double *od, int n) {
  shfl_down_sum<<<(n + 255) / 256, 256>>>(x, o, n);
  shfl_xor_allreduce<<<(n + 255) / 256, 256>>>(x, y, n);
  shfl_up_scan<<<(n + 255) / 256, 256>>>(x, y, n);
  shfl_bcast<<<(n + 255) / 256, 256>>>(x, y, n);
  votes<<<(n + 255) / 256, 256>>>(x, c, f, n);
  redux_match<<<(n + 255) / 256, 256>>>(k, c, n);
  shfl_warpsize<<<(n + 255) / 256, 256>>>(x, o, n);
  shfl_double<<<(n + 255) / 256, 256>>>(xd, od, n);
}
