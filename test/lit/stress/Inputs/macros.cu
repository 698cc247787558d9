// Heavy macro expansion: a statement repeated 1024 times through nested
// macros, X-macro kernel families with token pasting, and an unrolled 4x4
// matrix-vector product. n = 1000, every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000

#define REP2(S) S S
#define REP4(S) REP2(S) REP2(S)
#define REP8(S) REP4(S) REP4(S)
#define REP16(S) REP8(S) REP8(S)
#define REP32(S) REP16(S) REP16(S)
#define REP64(S) REP32(S) REP32(S)
#define REP128(S) REP64(S) REP64(S)
#define REP256(S) REP128(S) REP128(S)
#define REP512(S) REP256(S) REP256(S)
#define REP1024(S) REP512(S) REP512(S)

#define GLOBAL_INDEX (blockIdx.x * blockDim.x + threadIdx.x)
#define GUARD(i, n) if ((i) >= (n)) return
#define STEP acc = acc * s + 1.0f;

// 1024 expanded fmas = 2048 FLOPs per thread.
__global__ void macro_rep(const float *x, float *y, float s, int n) {
  int i = GLOBAL_INDEX;
  GUARD(i, n);
  float acc = x[i];
  REP1024(STEP)
  y[i] = acc;
}

// X-macro family: k_add, k_sub, k_mul (1 FLOP), k_div (1 FLOP + 1 division),
// k_fma (fmaf: 2 FLOPs).
#define BINARY_OPS(X)                                                                    \
  X(add, a[i] + b[i])                                                                    \
  X(sub, a[i] - b[i])                                                                    \
  X(mul, a[i] * b[i])                                                                    \
  X(div, a[i] / b[i])                                                                    \
  X(fma, fmaf(a[i], b[i], 1.0f))
#define DEFINE_BINARY(name, expr)                                                        \
  __global__ void k_##name(const float *a, const float *b, float *c, int n) {            \
    int i = GLOBAL_INDEX;                                                                \
    GUARD(i, n);                                                                         \
    c[i] = (expr);                                                                       \
  }
BINARY_OPS(DEFINE_BINARY)

// 4x4 matrix times a vector per thread, one row per macro: each row is
// 1 fmul + 3 fmas = 7 FLOPs, 28 in all; 4 vector + 16 matrix loads (80 B),
// 4 stores (16 B).
#define M(r, c) m[(r) * 4 + (c)]
#define ROW(r) y[4 * i + (r)] = M(r, 0) * v0 + M(r, 1) * v1 + M(r, 2) * v2 + M(r, 3) * v3;
__global__ void macro_matvec(const float *m, const float *v, float *y, int n) {
  int i = GLOBAL_INDEX;
  GUARD(i, n);
  float v0 = v[4 * i], v1 = v[4 * i + 1], v2 = v[4 * i + 2], v3 = v[4 * i + 3];
  ROW(0) ROW(1) ROW(2) ROW(3)
}

// A data-dependent loop written inside a macro: unknown FLOPs, reported at the
// expansion (line 67), never at line 0.
#define DATA_LOOP(cnt)                                                                   \
  for (int k = 0; k < (cnt); ++k)                                                        \
    acc += 1.0f;
__global__ void macro_unknown(const int *cnt, float *y, int n) {
  int i = GLOBAL_INDEX;
  GUARD(i, n);
  float acc = 0.0f;
  DATA_LOOP(cnt[i])
  y[i] = acc;
}

#define LAUNCH(k, ...) k<<<(n + 255) / 256, 256>>>(__VA_ARGS__)
#define LAUNCH_BINARY(name, expr) LAUNCH(k_##name, a, b, c, n);
void run(const float *a, const float *b, float *c, float s, int n) {
  LAUNCH(macro_rep, a, c, s, n);
  BINARY_OPS(LAUNCH_BINARY)
  LAUNCH(macro_matvec, a, b, c, n);
  LAUNCH(macro_unknown, (const int *)a, c, n);
}
