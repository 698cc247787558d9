// 8-level loop nests: constant trip counts, a parameter bound at every level,
// and a triangular (simplex) nest. n = 1000, m = 3, s = 4; every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000
// cuda-roofline: param m=3
// cuda-roofline: param s=4

// Trip counts 2,3,2,3 | 2,3,2,3: 36 loads at level 4 (indices 0..35, distinct),
// 36 * 36 = 1296 fmas (2592 FLOPs) at level 8.
__global__ void deep8_const(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 2; ++c)
        for (int d = 0; d < 3; ++d) {
          float v = x[i + n * (a * 18 + b * 6 + c * 3 + d)];
          for (int e = 0; e < 2; ++e)
            for (int f = 0; f < 3; ++f)
              for (int g = 0; g < 2; ++g)
                for (int h = 0; h < 3; ++h)
                  acc = acc * v + 1.0f;
        }
  y[i] = acc;
}

// Every level runs m times: m^8 = 6561 fadds.
__global__ void deep8_param(float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = y[i];
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b)
      for (int c = 0; c < m; ++c)
        for (int d = 0; d < m; ++d)
          for (int e = 0; e < m; ++e)
            for (int f = 0; f < m; ++f)
              for (int g = 0; g < m; ++g)
                for (int h = 0; h < m; ++h)
                  acc = acc + 1.5f;
  y[i] = acc;
}

// s > a >= b >= ... >= h >= 0: the non-increasing 8-tuples below s,
// C(s + 7, 8) = C(11, 8) = 165 fadds.
__global__ void deep8_simplex(float *y, int n, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = y[i];
  for (int a = 0; a < s; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c)
        for (int d = 0; d <= c; ++d)
          for (int e = 0; e <= d; ++e)
            for (int f = 0; f <= e; ++f)
              for (int g = 0; g <= f; ++g)
                for (int h = 0; h <= g; ++h)
                  acc = acc + 0.5f;
  y[i] = acc;
}

void run(const float *x, float *y, int n, int m, int s) {
  deep8_const<<<(n + 255) / 256, 256>>>(x, y, n);
  deep8_param<<<(n + 255) / 256, 256>>>(y, n, m);
  deep8_simplex<<<(n + 255) / 256, 256>>>(y, n, s);
}
