// Cache-hint load/store intrinsics. clang's __clang_cuda_intrinsics.h writes
// them as inline PTX: __ldcs/__ldcg as asm without volatile or a "memory"
// clobber, __ldcv with a "memory" clobber, __stwt with one; __ldg is an LLVM
// intrinsic. Every kernel: 1 load (4 B), 1 fmul, 1 store (4 B) per thread;
// n = 1000, <<<4, 256>>>.
// cuda-roofline: param n=1000

__global__ void ld_cs(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __ldcs(x + i) * 2.0f;
}

__global__ void ld_cg(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __ldcg(x + i) * 2.0f;
}

__global__ void ld_cv(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __ldcv(x + i) * 2.0f;
}

__global__ void st_wt(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stwt(y + i, x[i] * 2.0f);
}

__global__ void ld_ldg(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __ldg(x + i) * 2.0f;
}

void run(const float *x, float *y, int n) {
  ld_cs<<<(n + 255) / 256, 256>>>(x, y, n);
  ld_cg<<<(n + 255) / 256, 256>>>(x, y, n);
  ld_cv<<<(n + 255) / 256, 256>>>(x, y, n);
  st_wt<<<(n + 255) / 256, 256>>>(x, y, n);
  ld_ldg<<<(n + 255) / 256, 256>>>(x, y, n);
}
