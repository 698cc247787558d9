// Helpers the kernels share, as a project's header would hold them.
#pragma once

template <typename T> __device__ inline T safe_ratio(T a, T b) { return a / b; }

struct Polar {
  float r, theta;
};

__device__ inline Polar to_polar(float x, float y) {
  return Polar{sqrtf(x * x + y * y), atan2f(y, x)};
}
