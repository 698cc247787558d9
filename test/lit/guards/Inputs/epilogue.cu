// GEMM epilogues with optional operands, one thread per output element.

// out = relu(in + bias + residual); bias and residual may be absent.
__global__ void bias_residual_relu(float *out, const float *in,
                                   const float *bias, const float *residual,
                                   int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y;
  if (col >= cols)
    return;
  float v = in[row * cols + col];
  if (bias)
    v += bias[col];
  if (residual != 0)
    v += residual[row * cols + col];
  out[row * cols + col] = v > 0.0f ? v : 0.0f;
}

// Attention scores scaled, with an optional additive mask: both branches
// do work.
__global__ void scale_mask(float *scores, const float *mask, float scale,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (!mask)
    scores[i] *= scale;
  else
    scores[i] = scores[i] * scale + mask[i];
}
