// Device helper in a header, with a branch on a loaded value.
__device__ inline void store_if_positive(const float *x, float *y, int i) {
  float v = x[i];
  if (v > 0.0f)
    y[i] = v * 3.0f;
}
