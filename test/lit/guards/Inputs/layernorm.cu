// Layer normalization as llm.c writes its first version: one thread per row
// of C channels. weight and bias are optional (a null pointer skips them),
// and mean and rstd are saved only for the backward pass: inference passes
// null for them.
#include <cuda_runtime.h>

__global__ void layernorm_forward_kernel(float *out, float *mean, float *rstd,
                                         const float *inp, const float *weight,
                                         const float *bias, int N, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N)
    return;
  const float *x = inp + idx * C;
  float m = 0.0f;
  for (int i = 0; i < C; i++)
    m += x[i];
  m = m / C;
  float v = 0.0f;
  for (int i = 0; i < C; i++) {
    float xshift = x[i] - m;
    v += xshift * xshift;
  }
  v = v / C;
  float s = 1.0f / sqrtf(v + 1e-5f);
  float *out_idx = out + idx * C;
  for (int i = 0; i < C; i++) {
    float n = s * (x[i] - m);
    if (weight != nullptr)
      n = n * weight[i];
    if (bias)
      n = n + bias[i];
    out_idx[i] = n;
  }
  if (mean != nullptr)
    mean[idx] = m;
  if (rstd != NULL)
    rstd[idx] = s;
}

// Training: every buffer is there.
void layernorm_forward(float *out, float *mean, float *rstd, const float *inp,
                       const float *weight, const float *bias, int B, int T,
                       int C) {
  const int block_size = 256;
  const int N = B * T;
  const int grid_size = (N + block_size - 1) / block_size;
  layernorm_forward_kernel<<<grid_size, block_size>>>(out, mean, rstd, inp,
                                                      weight, bias, N, C);
}

// Inference: no statistics saved, and this model has no bias.
void layernorm_inference(float *out, const float *inp, const float *weight,
                         int B, int T, int C) {
  const int block_size = 256;
  const int N = B * T;
  const int grid_size = (N + block_size - 1) / block_size;
  layernorm_forward_kernel<<<grid_size, block_size>>>(out, nullptr, nullptr,
                                                      inp, weight, nullptr, N,
                                                      C);
}
