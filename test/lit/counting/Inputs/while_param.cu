// `while` loops bounded by parameters: Newton iterations for sqrt(a), and a
// block-local strided gather whose step is a parameter.

__global__ void newton_sqrt(int n, int iters, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i];
  float r = a;
  int k = 0;
  while (k < iters) {
    r = 0.5f * (r + a / r);
    ++k;
  }
  y[i] = r;
}

__global__ void gather_step(const float *x, float *y, int len, int step) {
  int j = threadIdx.x;
  float s = 0.0f;
  while (j < len) {
    s += x[j];
    j += step;
  }
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Geometric `while` (s = 1, 3, 9, ... < len): logarithmic trip count, no closed form.
__global__ void geometric_probe(const float *x, float *y, int len) {
  int s = 1;
  float acc = 0.0f;
  while (s < len) {
    acc += x[s];
    s *= 3;
  }
  y[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// `do { } while`: the body runs once even when sweeps <= 1.
__global__ void relax_do_while(float *u, int n, int sweeps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = u[i];
  int k = 0;
  do {
    v = v * 0.9f + 0.1f;
  } while (++k < sweeps);
  u[i] = v;
}

void launch_while(int n, int iters, const float *x, float *y, int len, int step, float *u,
                  int sweeps) {
  newton_sqrt<<<(n + 255) / 256, 256>>>(n, iters, x, y);
  gather_step<<<2, 64>>>(x, y, len, step);
  geometric_probe<<<1, 32>>>(x, y, len);
  relax_do_while<<<(n + 255) / 256, 256>>>(u, n, sweeps);
}
