// heat2d_flat.cu: one explicit step of the 2-D heat equation on a w x h
// row-major grid, u_new = u + alpha * (5-point Laplacian of u). Cells on
// the border read their own value in place of the missing neighbour
// (clamped, a zero-flux boundary). The launch is 1-D over the w*h cells, so
// each thread takes its cell apart with % and /, and the clamps are `?:`
// selects: the indexing of much CUDA code written outside tutorials.

__global__ void heat2d_flat(const float *u, float *u_new, int w, int h,
                            float alpha) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= w * h)
    return;
  int x = idx % w;
  int y = idx / w;
  int xl = x > 0 ? x - 1 : x;
  int xr = x < w - 1 ? x + 1 : x;
  int yu = y > 0 ? y - 1 : y;
  int yd = y < h - 1 ? y + 1 : y;
  float c = u[idx];
  float lap = u[y * w + xl] + u[y * w + xr] + u[yu * w + x] + u[yd * w + x] -
              4.0f * c;
  u_new[idx] = c + alpha * lap;
}

void launch_heat2d_flat(const float *u, float *u_new, int w, int h,
                        float alpha) {
  int cells = w * h;
  heat2d_flat<<<(cells + 255) / 256, 256>>>(u, u_new, w, h, alpha);
}
